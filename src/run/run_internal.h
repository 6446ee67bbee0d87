/*
** run_internal.h — internal: the loaded MPI plan (run_mpi.h) and what mpi_plan.c,
** mpi_exec.c, the PMPI interposer and the tests share.
**
** A plan is one rank's program (program.h) annotated for MPI execution:
**   - every op knows the global chunk id of the data it moves (`chunk`), which is all
**     the executor needs to turn chunk ranges into element ranges for any count: shard k
**     of `total` elements is [k*total/nshards, (k+1)*total/nshards) rounded down, unit j
**     of a shard of S elements is [j*S/units, (j+1)*S/units) (tci_run_chunk_start).
**     Alltoall's shards are the C*C rank pairs (program.h) and total = C*C*count, so
**     every shard has exactly `count` elements: input chunk t*units + j of rank r is
**     global chunk (r*C + t)*units + j, output chunk s*units + j is (s*C + r)*units + j;
**     its scratch mirrors all C*C shards in the program (scratch chunk c is chunk c), but
**     only the shards the rank relays get elements: slot i of `count` elements holds
**     shard a2a_relayed[i] (ascending), so a rank's scratch is (its relayed shards) *
**     count elements, not C*C*count;
**   - the redundant scratch area (copy-receives of data the rank already holds) has no
**     chunk ids of its own: it is laid out in slots of `maxc` elements, the most a chunk
**     can have, and a receive landing at slot o occupies its slots contiguously from
**     o*maxc. The chunk it carries is read off the COPY ops that move its new pieces into
**     the output (a COPY from slot s to output chunk c says the receive starting at slot o
**     carries chunk c - (s - o) first); a receive no COPY reads is dropped whole, its
**     length unknown to the receiver, so it is posted with room for cnt*maxc elements
**     (chunk == -1);
**   - ops are grouped by step: step_first[t] .. step_first[t+1]-1 are the ops of step
**     t = 0..steps+1 (0 and steps+1 hold only COPYs);
**   - a step's transfers are grouped by peer (mpi_groups.c): all the SENDs of step t to
**     peer p, in program order, are ONE MPI message (the concatenation of their data), and
**     all the RECV / RECV_REDUCEs of step t from p, in program order, receive it — so a
**     rank has one message in flight per (step, peer), as the α-β model counts them. The
**     receiver must know every piece's length: at load the ranks exchange, per peer, the
**     (step, cnt, chunk) of each send, which also gives a dropped redundant receive its
**     chunk (tci_run_plan_match).
** The element layout for one count (run_layout) is computed on first use and kept until
** the count changes, with the staging each step needs and the request count.
**
** Agreement (tci_run_agree): every collective entry point decides locally, then calls
** tci_run_agree once — an MPI_Allreduce MINLOC over (ok ? 1 : 0, rank) and, only on failure,
** an MPI_Bcast of the first failing rank's record — so that every rank returns the same
** code and the message "rank R: reason" and none is left in a collective.
*/
#ifndef TOPOCOLL_RUN_INTERNAL_H
#define TOPOCOLL_RUN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/program.h"
#include "topocoll/run_mpi.h"

/* A place in one of the program's buffers. In the redundant scratch area, anchor_slot
   and anchor_chunk are the first slot and the first chunk of the receive that landed
   there (the data of chunk c sits at (anchor_slot - redundant_off)*maxc +
   start(c) - start(anchor_chunk)); elsewhere they are unused. */
typedef struct run_loc {
  tc_buffer buf;
  int64_t off; /* in chunks, as in the program */
  int64_t anchor_slot, anchor_chunk;
} run_loc;

typedef struct run_op {
  tc_op_kind kind;
  int32_t peer;
  int32_t step;
  int64_t cnt;   /* chunks */
  int64_t chunk; /* global chunk id of the first chunk moved; -1: a dropped redundant receive */
  run_loc src, dst;
} run_op;

/* The message of one step to (send) or from one peer: ops group_ops[first .. first+nops),
   in program order. */
typedef struct run_group {
  int32_t peer;
  int send;
  int64_t first, nops;
} run_group;

/* Element offsets of op i for one count: within the src / dst buffers, its offset in the
   step's staging (-1 when its data does not pass through staging), its length. */
typedef struct run_span {
  int64_t src, dst, stage, len;
} run_span;

/* Group g's message for one count: `len` elements, cut into `pieces` MPI messages of at
   most msg_max elements. direct: the data is contiguous in buffer `buf` from element
   `off` and goes (lands) there; otherwise it is packed (lands) in staging from `stage`. */
typedef struct run_gspan {
  int64_t len, pieces;
  int direct;
  tc_buffer buf;
  int64_t off, stage;
} run_gspan;

typedef struct run_layout {
  int valid;
  long long count;
  int64_t total;         /* elements of the whole collective: count, or N*count */
  int64_t maxc;          /* the most elements one chunk has */
  int64_t scratch_elems; /* mirror + redundant slots */
  int64_t staging_elems; /* the most any step's staged messages need together */
  int64_t max_requests;  /* the most MPI requests any step posts */
  run_span *span;        /* nops entries */
  run_gspan *gspan;      /* ngroups entries */
} run_layout;

/* A buffer the plan owns, grown on demand. `shared`: allocated with SMPI_SHARED_MALLOC
   (only under SMPI with compute off). */
typedef struct run_buf {
  void *ptr;
  size_t bytes;
  int shared;
} run_buf;

struct tc_mpi_plan {
  MPI_Comm comm; /* a duplicate of the caller's communicator, errors returned */
  int rank, ranks;
  int tag_ub;
  tc_collective coll;
  int32_t root, dest; /* tc_program's: the root's (p2p: source's) rank, p2p's destination; else -1 */
  char algorithm[32];
  int32_t nshards, steps;
  int64_t units, nchunks;
  int64_t input_chunks, output_chunks, scratch_chunks, redundant_off;
  int64_t nops;
  run_op *ops;
  int64_t *step_first; /* steps + 3 entries */
  int64_t ngroups;
  run_group *groups;   /* by step, then receives before sends, then peer */
  int64_t *group_ops;  /* the ops of the groups, nops entries at most */
  int64_t *group_first; /* steps + 3 entries: groups of step t are group_first[t] .. [t+1]-1 */
  int compute;
  int64_t msg_max;     /* the most elements per MPI message (INT_MAX; tests lower it) */
  run_layout layout;
  run_buf scratch, staging;
  run_buf a2a_input; /* alltoall in place: the input copied away before any receive lands */
  int64_t *a2a_relayed;  /* alltoall: the shards this rank's scratch ops touch, ascending */
  int64_t a2a_nrelayed;
  MPI_Request *req;
  int64_t req_room;
  /* The (count, element size) of the last call every rank agreed on: a call with the same
     ones prepares nothing that could fail on one rank only, so it skips the agreement. */
  long long agreed_count;
  int agreed_elt;
  int agreed_inplace; /* alltoall: whether a2a_input was prepared (an in-place call needs it) */
};

/* Agree on the outcome of a collective step: `code` and err->msg are this rank's. Returns
   the first failing rank's code (TC_OK when none failed) and, on failure, leaves
   "rank R: its message" in err on every rank. *detail (may be NULL) is likewise the
   first failing rank's detail value (0 when all succeeded). */
int tci_run_agree(MPI_Comm comm, int code, int *detail, tc_error *err);

/* Why a load failed, when the caller must tell (*cause, the same on every rank): the
   schedule's node count differs from the communicator's size, or the rank map does not
   apply to it. 0: any other reason (or none). */
enum { TCI_LOAD_WRONG_SIZE = 1, TCI_LOAD_RANK_MAP = 2 };

/* Load as tc_mpi_plan_load_mapped; *cause (may be NULL) says why it failed. */
int tci_run_plan_load(const char *path, const char *rank_map, MPI_Comm comm, unsigned flags, tc_mpi_plan **out,
                      int *cause, tc_error *err);

/* Annotate program p for plan (plan->rank, ranks and coll set; p is copied, not kept):
   fills the plan's chunking, ops and step boundaries and checks that the step discipline
   of mpi_exec.c runs p as program.h means it; a program that breaks it is TC_EFAIL. The
   plan's ops and step_first are then the caller's to free (tc_mpi_plan_destroy does). Local. */
int tci_run_plan_annotate(tc_mpi_plan *plan, const tc_program *p, tc_error *err);

/* Group the step's transfers by peer (plan->groups, group_ops, group_first) after
   annotation. Local. */
int tci_run_plan_group(tc_mpi_plan *plan, tc_error *err);

/* One send as its receiver learns it at load: step, chunks, first global chunk. */
typedef struct run_send_record {
  int64_t step, cnt, chunk;
} run_send_record;

/* Apply the records of the sends every peer makes to this rank — peer p's at
   rec[first[p] .. first[p+1]), in p's program order; first has ranks + 1 entries — to
   this rank's receives: one for one per peer, step and cnt equal, a known chunk agreeing,
   an unknown one (a dropped redundant receive) set. A mismatch is TC_EFAIL (a lowering
   bug). Local. */
int tci_run_plan_apply_records(tc_mpi_plan *plan, const int64_t *first, const run_send_record *rec, tc_error *err);

/* Collective over plan->comm (every rank's annotation succeeded): send every peer the
   records of this rank's sends to it, apply those received. Returns this rank's outcome:
   the caller agrees on it (tci_run_agree). */
int tci_run_plan_match(tc_mpi_plan *plan, tc_error *err);

/* First element of global chunk c (0..nchunks) for a collective of `total` elements. */
int64_t tci_run_chunk_start(const tc_mpi_plan *plan, int64_t total, int64_t c);

/* Compute plan->layout for `count` (no-op when already valid for it). Fails with
   TC_EINPUT when the count is too large for the plan. Local: no communication. */
int tci_run_layout_prepare(tc_mpi_plan *plan, long long count, tc_error *err);

/* Collective: prepare what a first call with `count` elements of `type` (in place or not)
   prepares (layout, buffers, requests) and agree on it, so that calls with them skip the
   agreement (the executor's timed calls then hold the collective's messages alone).
   Errors as a call's. */
int tci_run_plan_prepare(tc_mpi_plan *plan, long long count, MPI_Datatype type, int inplace, tc_error *err);

/* Make b at least `bytes` long (contents not kept); `shared` as in run_buf. */
int tci_run_buf_reserve(run_buf *b, size_t bytes, int shared, tc_error *err);
void tci_run_buf_release(run_buf *b);

/* Testing aid: carry at most `elements` (>= 1) per MPI message, to exercise message
   splitting without gigabyte buffers. Drops the cached layout. */
void tci_run_plan_set_msg_max(tc_mpi_plan *plan, int64_t elements);

#endif
