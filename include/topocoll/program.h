/*
** program.h — per-rank programs: a step schedule lowered to what one rank executes.
**
** A program is the ordered list of operations one rank performs for a schedule: sends,
** receives, receive-and-reduce and local copies on chunk ranges of three buffers
** (input, output, scratch), with the dependencies an asynchronous executor (MSCCL) needs.
** It is the form both lowerers consume: the MSCCL XML writer (msccl.h) and the MPI
** executor (run_mpi.h). Every collective of sched.h is lowered.
**
** Ranks and switches. Rank r plays the r-th compute node of the graph (rank_map.h; on a
** graph without switches, node r); a program's ranks are the graph's compute nodes and its
** peers are ranks. A transfer between compute nodes is a message between their ranks. On a
** fabric, where a transfer between GPUs goes GPU -> switch -> ... -> GPU one step per hop,
** the switches are not ranks and hold nothing: every chunk interval that leaves a switch
** for a compute node is traced back, step by step through any chain of switches, to the
** compute node that sent it into the switches, and becomes one message from that node's
** rank to the receiver's rank, at the step it leaves the last switch (its `arc` is that
** last hop); transfers into a switch are no messages of their own. Within a step the
** switch's sends see only what reached it in earlier steps. A switch relays as the
** verifier's does (verify.h): each of its sends forwards, per unit, the earliest copy or
** partial it received and has not forwarded yet (ties by arc, lo, hi), unchanged — it
** never adds partials up — so a reduce phase may cross one switch many times (ForestColl's
** in-trees). A reduce-phase send that finds nothing left carries an empty partial: no
** message. Copy and reduce phases are traced apart (an allreduce's switches start its
** allgather half empty, as the verifier's do). An interval whose units entered the switches
** from several compute nodes (or in several steps) becomes one message per origin (and
** entry step). A schedule is refused (TC_EINPUT, one line naming the switch or node, the
** shard, the units and the step) when
**   - a switch replicates: in the copy phase, sends an interval on more often than it
**     received it (the verifier lets a switch copy; the executors have no switch to do it);
**   - reduce phase only, the compute node that sent a partial into the switches receives
**     into those units before the partial leaves them: the message, sent at the step it
**     leaves, would carry the changed partial (copy-phase data never changes).
**
** Chunks. The collective's data is cut into nchunks = nshards * units chunks; chunk
** c = k * units + j is unit j of shard k (the schedule's integer units, so a transfer
** [lo, hi) of shard k is the chunk range [k*units + lo, k*units + hi)). How many elements
** a chunk has is the executor's business (MPI: shard k of an allreduce of `count`
** elements is [k*count/nshards, (k+1)*count/nshards) rounded down, unit j of it likewise;
** MSCCL: equal chunks). Buffer layouts, in chunks (r = this rank):
**   allgather       input  = units chunks: r's shard (input chunk j == output chunk r*units+j)
**                   output = nchunks
**   reduce-scatter  input  = nchunks;  output = units chunks: r's shard (output j == chunk r*units+j)
**   allreduce       input  = output = nchunks (any shard owners, e.g. double binary tree)
**   scratch         allgather / allreduce: scratch_chunks chunks of the per-step
**                   ("redundant") area: received data that carried nothing new (a
**                   redundant copy-receive lands there and is dropped) and, with
**                   TC_LOWER_DEPS only, staged sends (below); reduce-scatter: additionally
**                   nchunks chunks mirroring the input layout (scratch chunk c accumulates
**                   r's partial of chunk c, which the input — read-only — cannot hold). The
**                   redundant area follows the mirror. scratch_chunks is the total.
**   alltoall        the program's shards are the rank pairs, not the schedule's node pairs:
**                   nshards = ranks * ranks, shard k = s * ranks + t from rank s to rank
**                   t (the schedule's shard of the nodes they play; on a graph without
**                   switches the same numbering). input = output = ranks * units chunks:
**                   input block t (chunks t*units ..) is shard r*ranks + t, output block
**                   s is shard s*ranks + r; the own block is one COPY in step 0.
**                   scratch = nchunks, a mirror (scratch chunk c holds chunk c), where a
**                   rank keeps the units it relays: flow semantics (sched.h) hand each
**                   unit on, so a rank sends its own units from its input and any other
**                   from the mirror, and a unit lands in the output at its destination and
**                   in the mirror anywhere else (back at its owner too, which keeps sending
**                   from its input: the same data). A unit is held in one place at a time,
**                   so no receive is ever redundant: redundant_off = scratch_chunks. Input
**                   and output never alias (in place, the executors copy the input away).
**   broadcast       input = output = nchunks, meant to be one buffer (MPI_Bcast's): the
**                   root's step-0 COPY of every chunk from input to output is then a no-op.
**                   Copy semantics as allgather's (the root holds everything from step 0).
**   reduce          input = nchunks; output = nchunks at the root (its accumulator and
**                   result), none elsewhere; scratch: an nchunks mirror, where every other
**                   rank accumulates its partials (MPI_Reduce's recvbuf means nothing off the
**                   root). The root copies the chunks it never received into from its input
**                   at step steps+1 (only when N == 1).
**   scatter         shard k is rank k's (the schedule's shard of rank k's node): input =
**                   nchunks at the root (MPI_Scatter's sendbuf), none elsewhere; output =
**                   units chunks, the rank's shard (output j == chunk r*units+j; the root's
**                   own is one step-0 COPY); scratch: an nchunks mirror, where a relay keeps
**                   the copies it forwards for other ranks, then the redundant area.
**   gather          the reverse: input = units chunks, the rank's shard (input j == chunk
**                   r*units+j); output = nchunks at the root (its own shard one step-0
**                   COPY), none elsewhere; scratch: mirror and redundant area as scatter's.
**   p2p             one shard: input = units chunks at the source (`root`), output = units
**                   chunks at the destination (`dest`), none elsewhere; scratch: a units
**                   mirror where relays keep what they forward, flow semantics as alltoall's
**                   (nothing is ever redundant: redundant_off = scratch_chunks).
** Allgather and reduce-scatter need the paper's layout (one shard per rank, shard k owned
** by rank k's node; without switches nshards == nodes, shard k owned by node k); anything
** else is TC_EINPUT.
**
** Semantics, step by step (the order of the ops in the array, and the order an executor
** that runs step-synchronously — the MPI executor — must respect): ops are sorted by step;
** within step t come first local COPYs ("pre-copies", which move a rank's own input into
** its accumulator so a range can be read from one place, or stage a send: below), then
** every SEND of step t,
** then the RECV / RECV_REDUCE of step t each followed by the COPYs that move its new
** pieces. COPYs of step 0 run before step 1, of step steps+1 after the last step. A
** step-synchronous executor runs the pre-copies, posts the receives and sends, waits for
** all of them, then applies reductions and post-copies in array order.
**   SEND         send src[src_off, src_off+cnt) to peer (reads the value as of the end of
**                step t-1);
**   RECV         receive cnt chunks from peer into dst[dst_off, ...);
**   RECV_REDUCE  receive cnt chunks from peer; dst = src (op) received, elementwise, after
**                every earlier op of this rank in array order (several receive-reduces of
**                one chunk in one step are applied one after the other);
**   COPY         dst = src, locally (a pre-copy, or right after the RECV whose data it
**                moves, or in step 0 / steps+1).
** Matching: for each step t and ordered rank pair (u, w), the SENDs of u to w at step t in
** u's array order match one for one, with equal cnt, the RECV / RECV_REDUCE ops of w from
** u at step t in w's array order (MPI's non-overtaking rule and MSCCL's FIFO connections
** both preserve this). A copy transfer whose data the receiver already holds, wholly or in
** part (or receives earlier in the same step), is still sent — the schedule says so — but
** lands in the redundant scratch area (reused from step to step), and COPY ops of the same
** step, right after that RECV, move the pieces that were new into the output; a receive
** is never split, and two receives never land on the same chunk in one step.
** Redundant receive-reduces. A verified schedule may hold a reduce-phase transfer whose
** data reaches no owner (its receiver is not the owner and forwards none of it later, or
** only to such receivers; an owner may send its own shard). It is lowered like any other:
** the receiver reduces it into its accumulator, which the verifier's own model of a
** schedule does too (a node's partial is its input plus everything it received, a send
** carries the partial at the start of its step, and the owner must count every
** contribution once), so the owners' results are exact and the extra data only reaches
** accumulators nothing reads for the result (a non-owner's, which an allreduce's second
** half overwrites). Such a transfer may make a rank send and receive-reduce one chunk in
** one step; the SEND still carries the value at the end of step t-1.
**
** Dependencies (only with TC_LOWER_DEPS): deps[dep_first .. dep_first+ndeps) are indices
** of earlier ops of the same rank that must have completed before the op may start, so
** that an executor running each peer's ops in their own order, with no step barrier,
** computes the same result: read-after-write, write-after-read and write-after-write
** conflicts on overlapping chunks, only the nearest conflicting op per chunk range kept.
** Conflicts are computed with the in-place aliases assumed (allreduce: input == output;
** allgather: input == output[r*units...]; reduce-scatter: output == input[r*units...]),
** so the same program is correct in place and out of place; alltoall's three buffers are
** apart (out of place only). No RECV / RECV_REDUCE or
** COPY after it depends on a SEND of its own step: with rendezvous sends (a send ends only
** once its receive has begun, as MSCCL's bounded connection buffers behave at large
** sizes) such waits could close a cycle across ranks and deadlock. So, with TC_LOWER_DEPS,
** a SEND whose chunks a RECV_REDUCE of its step reduces into reads a copy of them made by a
** pre-copy into the per-step area ("staged"); the step-synchronous form needs no staging
** (its reductions run after all the step's messages).
**
** Cost: lowering rank r scans the schedule once (O(transfers); tc_program_lower_all
** lowers every rank in one pass; on a fabric collapsing the relays first costs
** O(transfers log transfers + the segments they cover)); dependencies add
** O(sum of cnt) of chunk bookkeeping, refused with TC_ERANGE past 2^24 chunks per rank.
*/
#ifndef TOPOCOLL_PROGRAM_H
#define TOPOCOLL_PROGRAM_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched.h"

typedef enum { TC_BUF_INPUT = 0, TC_BUF_OUTPUT = 1, TC_BUF_SCRATCH = 2 } tc_buffer;

typedef enum {
  TC_OP_SEND = 0,
  TC_OP_RECV = 1,
  TC_OP_RECV_REDUCE = 2,
  TC_OP_COPY = 3
} tc_op_kind;

typedef struct tc_op {
  tc_op_kind kind;
  int32_t step;      /* comm step 1..steps; COPY also 0 (before) or steps+1 (after) */
  int32_t peer;      /* the other rank of a SEND / RECV*, -1 for COPY */
  int64_t arc;       /* the schedule's arc of a SEND / RECV*, -1 for COPY */
  tc_buffer src;     /* SEND, RECV_REDUCE, COPY */
  int64_t src_off;   /* in chunks; -1 when unused */
  tc_buffer dst;     /* RECV, RECV_REDUCE, COPY */
  int64_t dst_off;   /* in chunks; -1 when unused */
  int64_t cnt;       /* chunks, >= 1 */
  int64_t dep_first; /* first index into deps[] */
  int32_t ndeps;     /* 0 unless lowered with TC_LOWER_DEPS */
} tc_op;

typedef struct tc_program {
  tc_collective coll;
  int32_t rank;
  int32_t ranks;           /* the graph's compute nodes (N without switches) */
  int32_t nshards;
  int64_t units;           /* chunks per shard */
  int32_t steps;
  int32_t rs_steps;        /* allreduce: last reduce-scatter step */
  int32_t root;            /* broadcast, reduce, scatter, gather: the root's rank; p2p: the source's; else -1 */
  int32_t dest;            /* p2p: the destination's rank; else -1 */
  const int32_t *owner;    /* borrowed from the schedule (node ids, rank_map.h): NULL = identity */
  int64_t input_chunks;
  int64_t output_chunks;
  int64_t scratch_chunks;
  int64_t redundant_off;   /* where the redundant-receive area starts in scratch */
  int64_t nops;
  tc_op *ops;
  int64_t ndeps;
  int64_t *deps;
} tc_program;

enum { TC_LOWER_DEPS = 1 };

/* Whether s on g can be lowered, i.e. run by the executors (MPI: `run`, the interposer,
   SMPI; MSCCL for the collectives it has, msccl.h): allgather and reduce-scatter in the
   paper's layout (above); the rooted collectives in their fixed layouts (sched.h) with
   compute nodes as roots (and p2p's destination); nshards * units chunks representable
   (TC_ERANGE; alltoall: ranks^2 * units); on a fabric, some compute node, every shard
   owned by one (alltoall, gather: shards of a switch carry nothing), and relays that
   collapse (above).
   TC_EINPUT naming the problem otherwise. The lowerers check it first; `run` calls it
   before launching mpirun, so a schedule the executor would refuse never starts one. */
TC_API int tc_program_check(const tc_graph *g, const tc_schedule *s, tc_error *err);

/* Lower schedule s (on g; s must have passed tc_schedule_verify) for `rank`, 0..ranks-1. */
TC_API int tc_program_lower(const tc_graph *g, const tc_schedule *s, int32_t rank, unsigned flags, tc_program *out,
                            tc_error *err);
/* All ranks at once into out[0..ranks-1] (ranks = tc_rank_count(g)), in O(transfers log
   transfers) for the bookkeeping (calling tc_program_lower for every rank scans the
   schedule once per rank). On failure nothing is left to free. */
TC_API int tc_program_lower_all(const tc_graph *g, const tc_schedule *s, unsigned flags, tc_program *out,
                                tc_error *err);
TC_API void tc_program_destroy(tc_program *p);

/* Whether collective c has a root in its programs (tc_program.root): broadcast, reduce,
   scatter, gather, and p2p (its source). */
static inline int tc_program_rooted(tc_collective c) { return c >= TC_COLL_BROADCAST && c != TC_COLL_ALLTOALL; }

/* Whether an executor call's `count` is one block per rank — the collective then has
   N*count elements (alltoall: N*N*count): allgather, reduce-scatter, alltoall, scatter,
   gather — rather than the whole buffer (allreduce, broadcast, reduce, p2p). What `run`
   and `simulate` divide a size M by, and the MPI executor multiplies a count by. */
static inline int tc_program_count_per_rank(tc_collective c) {
  return c != TC_COLL_ALLREDUCE && c != TC_COLL_BROADCAST && c != TC_COLL_REDUCE && c != TC_COLL_P2P;
}

/* Why MPI has no in-place form (MPI_IN_PLACE) of collective c, or NULL when it has one:
   broadcast (MPI_Bcast has one buffer, input at the root and result everywhere: always in
   place) and p2p (MPI_Send and MPI_Recv name one buffer each, on two ranks) have none.
   What the executor runs, and `run` and `simulate` report, as the in-place variant
   (nccl-tests' in-place columns; n/a with this reason). */
static inline const char *tc_program_no_inplace(tc_collective c) {
  return c == TC_COLL_BROADCAST ? "MPI_Bcast has one buffer"
         : c == TC_COLL_P2P     ? "MPI_Send and MPI_Recv have one buffer each"
                                : NULL;
}
static inline int tc_program_has_inplace(tc_collective c) { return tc_program_no_inplace(c) == NULL; }

/* Shard k of chunk c, and the chunk range of shard k: helpers both executors use. */
static inline int32_t tc_program_chunk_shard(const tc_program *p, int64_t c) { return (int32_t)(c / p->units); }

/* "send", "recv", "recv-reduce", "copy" and "input", "output", "scratch". */
TC_API const char *tc_op_kind_name(tc_op_kind k);
TC_API const char *tc_buffer_name(tc_buffer b);

#endif
