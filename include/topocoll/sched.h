/*
** sched.h — the schedule IR: step schedules of collectives on a tc_graph.
**
** A step schedule is a list of transfers ((v, C), (u, w), t) (paper 000 §3.1): in comm
** step t node u sends chunk C of shard v over the arc u -> w. Here a transfer names the
** arc id (so a parallel arc is a distinct port: multiplicity is capacity, not permission
** to reuse), the shard v, the step t >= 1, and the chunk C = [lo, hi) as an interval of
** integer *units*: the shard is divided into `units` equal units, so chunk endpoints are
** exact rationals lo/units, hi/units with one common denominator per schedule. A
** discretized schedule with P chunks per shard is simply one with units == P; exact
** generators pick `units` as the LCM of their denominators (tc_schedule_refine rescales).
**
** Shards: the buffer of M bytes is cut into `nshards` equal shards of M/nshards bytes;
** shard k belongs to node owner[k] (owner == NULL means nshards == N and owner[k] == k, the
** paper's layout). Collectives and what a transfer means:
**   TC_COLL_ALLGATHER       shard k starts at its owner; a transfer copies it forward; every
**                           node ends with every shard.
**   TC_COLL_REDUCE_SCATTER  every node contributes to every shard; a transfer sends the
**                           sender's current partial reduction of the chunk, which the
**                           receiver adds into its own (paper 000 Def. 4); the owner ends with
**                           the full reduction of its shard.
**   TC_COLL_ALLREDUCE       steps 1..rs_steps reduce every shard into its owner, steps
**                           rs_steps+1..steps copy it from the owner to all (RS then AG,
**                           paper 000 §3; with 2 shards owned by two tree roots this is
**                           also the double binary tree).
**   TC_COLL_BROADCAST       copy semantics; every shard is owned by the root.
**   TC_COLL_REDUCE          reduce semantics; every shard is owned by the root.
**   TC_COLL_ALLTOALL        every node sends a distinct shard to every node (paper 003
**                           §2.2): nshards = N*N, shard k = s*N + t goes from its owner
**                           s = k / N to its destination t = k % N (tc_schedule_dest); the
**                           layout is fixed (owner == NULL). A shard is M/C bytes, where M
**                           is each node's send buffer and C its number of compute nodes
**                           (C = N on a graph without switches). Flow semantics (paper 003
**                           §3.1.3, eqs. 17-19): a transfer moves the sender's copy on, so a
**                           relay forwards only what it received in an earlier step and not
**                           yet forwarded, and every unit of shard (s,t), s != t, travels
**                           one walk from s and reaches t exactly once. Diagonal shards
**                           (s == t) and shards with a switch end carry no data and are
**                           never transferred.
**   TC_COLL_SCATTER         the root's buffer M holds one shard of M/C per compute node
**                           (C of them; C = N without switches): nshards = N, shard k is
**                           owned by the root and destined to node k (tc_schedule_dest).
**                           Copy semantics: a node sends only what it held before the step
**                           (relays may keep copies in transit), and node k must end with
**                           shard k. Shards of switch nodes carry nothing and are never
**                           transferred. The dissertation's scatter (Ch. 3 §3.2.2).
**   TC_COLL_GATHER          the reverse: nshards = N, shard k owned by node k (owner NULL),
**                           every shard destined to the root `dest`; copy semantics; the
**                           root must end with every shard of a compute node.
**   TC_COLL_P2P             one source S sends its whole buffer M to one destination T,
**                           possibly over several paths (the dissertation's multi-path
**                           point-to-point, Ch. 3 §3.3): nshards = 1, owner[0] = S, dest =
**                           T, S != T both compute nodes. Flow semantics as alltoall's (a
**                           single commodity): every unit travels one walk S -> T and
**                           reaches T exactly once; T never sends it on.
** Roots: broadcast, reduce and scatter keep theirs as the owner of every shard; gather and
** p2p name the node every shard must reach in `dest` (-1 in the other collectives).
**
** The IR only stores; tc_schedule_verify (verify.h) decides whether a schedule performs its
** collective, and tc_schedule_cost (cost.h) measures it. Generators (src/synth) must pass
** every schedule through the verifier before anyone prints or writes it.
**
** Other kinds get their own IR types beside this one with their own verifier entry points
** and lower to step schedules, so every lowerer consumes this type: ForestColl's tree
** packings (forest.h, tc_forest_verify) lower by pipelining (tc_forest_lower); all-to-all
** routings (a2a_route.h) lower to TC_COLL_ALLTOALL step schedules.
*/
#ifndef TOPOCOLL_SCHED_H
#define TOPOCOLL_SCHED_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/graph.h"

typedef enum {
  TC_COLL_ALLGATHER = 0,
  TC_COLL_REDUCE_SCATTER = 1,
  TC_COLL_ALLREDUCE = 2,
  TC_COLL_BROADCAST = 3,
  TC_COLL_REDUCE = 4,
  TC_COLL_ALLTOALL = 5,
  TC_COLL_SCATTER = 6,
  TC_COLL_GATHER = 7,
  TC_COLL_P2P = 8
} tc_collective;

/* The last collective, for loops over all of them. */
#define TC_COLL_LAST TC_COLL_P2P
/* The most nodes an alltoall schedule can have: N*N shards fit an int32. */
#define TC_ALLTOALL_MAX_NODES 46340

/* "allgather", "reduce-scatter", "allreduce", "broadcast", "reduce", "alltoall", "scatter",
   "gather", "p2p". */
TC_API const char *tc_collective_name(tc_collective c);
/* Parse a name as above; returns -1 if unknown. */
TC_API int tc_collective_parse(const char *name);
/* nccl-tests' bus-bandwidth factor of coll on `ranks` ranks (busbw = algbw * factor):
   2(N-1)/N for allreduce, (N-1)/N for allgather, reduce-scatter and alltoall, 1 for
   broadcast and reduce (busbw.c, one row per collective); -1 for an unknown collective or
   ranks < 1. */
TC_API double tc_collective_busbw_factor(tc_collective coll, int32_t ranks);

typedef struct tc_transfer {
  int32_t shard; /* k: which shard (its owner is the allgather source / reduction target) */
  int32_t step;  /* t, 1-based */
  int64_t arc;   /* arc id in the graph; sender = src[arc], receiver = dst[arc] */
  int64_t lo;    /* chunk [lo, hi) in units, 0 <= lo < hi <= units */
  int64_t hi;
} tc_transfer;

typedef struct tc_schedule {
  tc_collective coll;
  int32_t nodes;      /* N of the graph it runs on */
  int32_t nshards;    /* shards of M/nshards bytes each */
  int32_t *owner;     /* nshards owners, or NULL for the identity (nshards == nodes) */
  int64_t units;      /* units per shard (common denominator of chunk endpoints) */
  int32_t steps;      /* number of comm steps: T_L = steps * alpha */
  int32_t rs_steps;   /* allreduce: last step of the reduce-scatter half; else 0 */
  int32_t dest;       /* gather: the root; p2p: the destination T; else -1 (unused) */
  int64_t count;      /* number of transfers */
  int64_t room;
  tc_transfer *xfer;
  char algorithm[32]; /* generator name, e.g. "bfb", "ring" */
} tc_schedule;

/* Start an empty schedule with N shards owned by their nodes (allgather, reduce-scatter,
   allreduce in the paper's layout), or, for alltoall, N*N shards in its fixed layout
   (TC_ERANGE when N*N does not fit an int32: N > TC_ALLTOALL_MAX_NODES). */
TC_API int tc_schedule_init(tc_schedule *s, tc_collective coll, int32_t nodes, int64_t units, const char *algorithm,
                            tc_error *err);
/* Start an empty schedule with `nshards` shards owned by owner[0..nshards-1] (copied).
   Broadcast and reduce need every owner equal (the root). Alltoall takes no owners
   (owner NULL, nshards == nodes * nodes). Scatter, gather and p2p are refused here: they
   are started by tc_schedule_init_rooted. */
TC_API int tc_schedule_init_owned(tc_schedule *s, tc_collective coll, int32_t nodes, int32_t nshards,
                                  const int32_t *owner,
                                  int64_t units, const char *algorithm, tc_error *err);
/* Start an empty rooted schedule in its fixed layout: broadcast and reduce with one shard
   owned by `root`; scatter (N shards owned by `root`, shard k for node k); gather (N shards,
   shard k owned by node k, dest = `root`); p2p (one shard owned by the source `root`, dest
   = `dst`, which must differ from it). `dst` is ignored except for p2p. TC_EINPUT naming
   the problem for a node outside 0..N-1 or another collective. */
TC_API int tc_schedule_init_rooted(tc_schedule *s, tc_collective coll, int32_t nodes, int32_t root, int32_t dst,
                                   int64_t units, const char *algorithm, tc_error *err);
/* Owner of shard k (alltoall: its source k / N). */
static inline int32_t tc_schedule_owner(const tc_schedule *s, int32_t k) {
  return s->owner ? s->owner[k] : s->coll == TC_COLL_ALLTOALL ? k / s->nodes : k;
}
/* Destination of shard k: k % N for alltoall, k for scatter, the root for gather, T for
   p2p; -1 for the other collectives, where every node (allgather, broadcast) or the owner
   (reductions) ends with it. */
static inline int32_t tc_schedule_dest(const tc_schedule *s, int32_t k) {
  switch (s->coll) {
    case TC_COLL_ALLTOALL: return k % s->nodes;
    case TC_COLL_SCATTER: return k;
    case TC_COLL_GATHER:
    case TC_COLL_P2P: return s->dest;
    default: return -1;
  }
}
/* The collective's root: the owner of every shard (broadcast, reduce, scatter), the node
   every shard reaches (gather), the source S (p2p); -1 for the others. */
static inline int32_t tc_schedule_root(const tc_schedule *s) {
  switch (s->coll) {
    case TC_COLL_BROADCAST:
    case TC_COLL_REDUCE:
    case TC_COLL_SCATTER:
    case TC_COLL_P2P: return s->owner ? s->owner[0] : -1;
    case TC_COLL_GATHER: return s->dest;
    default: return -1;
  }
}
/* Flow semantics (a unit is handed on, not copied): alltoall and p2p. */
static inline int tc_collective_flows(tc_collective c) { return c == TC_COLL_ALLTOALL || c == TC_COLL_P2P; }
TC_API void tc_schedule_destroy(tc_schedule *s);
/* Append a transfer (no semantic checks here; steps grows to cover t). */
TC_API int tc_schedule_add(tc_schedule *s, int32_t shard, int64_t arc, int32_t step, int64_t lo, int64_t hi,
                           tc_error *err);
/* Reserve room for `count` transfers in total. */
TC_API int tc_schedule_reserve(tc_schedule *s, int64_t count, tc_error *err);
/* Multiply `units` and every endpoint by k >= 1 (overflow-checked). */
TC_API int tc_schedule_refine(tc_schedule *s, int64_t k, tc_error *err);
/* Sort transfers by (step, shard, arc, lo, hi) ascending — the canonical order of schedule
   files, reports and comparisons. Linear time (radix sort; an already sorted schedule is
   only read), the same result as any comparison sort by that key, and never fails: short of
   scratch memory it falls back to qsort. */
TC_API void tc_schedule_sort(tc_schedule *s);
/* Deep copy. */
TC_API int tc_schedule_copy(const tc_schedule *s, tc_schedule *out, tc_error *err);

#endif
