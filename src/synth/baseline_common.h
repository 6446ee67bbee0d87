/*
** baseline_common.h — pieces the baseline generators share (baseline_common.c): finding the
** arcs between two nodes, sending a chunk split over parallel arcs by capacity, the two
** ring broadcasts (halves both ways, BFB), and turning an allgather into the
** requested collective. Internal header.
*/
#ifndef TC_SYNTH_BASELINE_COMMON_H
#define TC_SYNTH_BASELINE_COMMON_H

#include <stdint.h>

#include "topocoll/baselines.h"

/* The arcs u -> v: ids first .. first+count-1 (count 0 if there are none), total capacity
   weight. Arcs are sorted by (src, dst), so they are contiguous. */
typedef struct tc_bl_bundle {
  int64_t first, count, weight;
} tc_bl_bundle;

/* The bundle u -> v into *b; TC_ERANGE naming algo when its capacities sum beyond 2^63-1. */
int tci_bl_bundle_find(const tc_graph *g, int32_t u, int32_t v, const char *algo, tc_bl_bundle *b, tc_error *err);

/* Splits over parallel arcs are exact when every chunk length is a multiple of the
   bundle's weight: *scale = lcm of all bundle weights of g (1 for graphs without parallel
   arcs and unit capacities). */
int tci_bl_split_scale(const tc_graph *g, const char *algo, int64_t *scale, tc_error *err);

/* *units = alg_units * scale, or TC_ERANGE naming algo. */
int tci_bl_units(const char *algo, int64_t alg_units, int64_t scale, int64_t *units, tc_error *err);

/* Send chunk [lo, hi) (in alg units; the schedule's units are alg units * scale) of shard
   over every arc u -> v, each arc taking a piece proportional to its capacity. */
int tci_bl_send(tc_schedule *s, const tc_graph *g, int32_t u, int32_t v, int32_t shard, int32_t step, int64_t lo,
               int64_t hi, int64_t scale, tc_error *err);

typedef enum {
  TC_BL_HALVES, /* first half forward, second half backward, a full circle each: len-1 steps */
  TC_BL_BFB     /* the whole chunk both ways, half a circle: floor(len/2) steps (App. F.1) */
} tc_bl_ring_kind;

/* A cycle: node[p] for positions p = 0..len-1; forward is p -> p+1 (mod len). */
typedef struct tc_bl_cycle {
  int32_t len;
  const int32_t *node;
} tc_bl_cycle;

/* Broadcast chunk [lo, hi) of shard from position `start` around the cycle (copy
   semantics), in steps step0+1 .. step0+steps; hi - lo even. On a 2-cycle both
   directions reach the same node: the whole chunk goes in one transfer. (The one-way ring
   is ring.c's logical blocks.) */
int tci_bl_ring_broadcast(tc_schedule *s, const tc_graph *g, const tc_bl_cycle *c, int32_t start,
                         tc_bl_ring_kind kind, int32_t shard, int64_t lo, int64_t hi, int32_t step0, int64_t scale,
                         tc_error *err);

/* The collective `coll` from the allgather ag (copy semantics, N shards): ag itself, its
   reverse (reduce-scatter) when rs is NULL, or rs; allreduce is RS then AG. ag is consumed
   (destroyed) in every case; the result is named algo. */
int tci_bl_finish(const tc_graph *g, tc_collective coll, tc_schedule *ag, tc_schedule *rs, const char *algo,
                 tc_schedule *out, tc_error *err);

/* TC_EINPUT "algo: supports allgather, reduce-scatter and allreduce (not X)" unless coll is
   one of those. */
int tci_bl_check_rs_ag(const char *algo, tc_collective coll, tc_error *err);

/* The IR lists every transfer, and these schedules have Θ(N^2) of them; beyond this many
   a generator fails with TC_ERANGE before allocating instead of exhausting memory. */
#define TC_BL_MAX_TRANSFERS (INT64_C(1) << 26)

/* TC_ERANGE naming algo unless a * b * c (all >= 0) <= TC_BL_MAX_TRANSFERS. */
int tci_bl_check_transfers(const char *algo, int64_t a, int64_t b, int64_t c, tc_error *err);

/* Largest number of parallel arcs between two nodes of g (>= 1 when g has arcs). */
int64_t tci_bl_max_bundle(const tc_graph *g);

/* TC_EINPUT unless g is bidirectional (needed to reverse an allgather on g itself). */
int tci_bl_check_bidirectional(const tc_graph *g, const char *algo, tc_error *err);

/* TC_EINPUT unless g is a bidirectional ring on N >= 3 nodes: bidirectional, every arc of
   node i goes to i+1 or i-1 (mod N), and both neighbours are reached. */
int tci_bl_check_biring(const tc_graph *g, const char *algo, tc_error *err);

/* The identity cycle 0, 1, ..., n-1 (caller frees), or NULL after TC_ENOMEM. */
int32_t *tci_bl_identity(int32_t n, tc_error *err);

/* ---- topology-unaware baselines: logical messages routed hop by hop (logical_sched.c) ---- */

/* One block of a logical message: in round `round` (>= 1) node src sends units [lo, hi) of
   `shard` to node dst. Blocks of one (round, src, dst) form one combined message. */
typedef struct tc_bl_block {
  int32_t round, src, dst, shard;
  int64_t lo, hi;
} tc_bl_block;

/* A growing list of blocks (free `b` when done). */
typedef struct tc_bl_blocks {
  tc_bl_block *b;
  int64_t n, room;
} tc_bl_blocks;
int tci_bl_push(tc_bl_blocks *l, int32_t round, int32_t src, int32_t dst, int32_t shard, int64_t lo, int64_t hi,
               tc_error *err);

/* The empty schedule of `coll` in its layout: rooted collectives from `root` (p2p to dst),
   the others in the N-shard (alltoall: N*N) layout; TC_EINPUT when g has switches (these
   baselines play ranks = nodes). */
int tci_bl_logical_init(const tc_graph *g, tc_collective coll, int32_t root, int32_t dst, int64_t units,
                       const char *algo, tc_schedule *out, tc_error *err);

/* Append the blocks to `out` (started by tci_bl_logical_init): every message gets its
   shortest route (contention.h), and hop h of a message of round r goes in step base(r) + h,
   base(r) = the longest routes of the earlier rounds summed — on complete(n) round r is
   step r. Messages of a round whose routes share a link are combined on it (their loads
   add; tc_contention_check tells where that happens). An alltoall or p2p block whose
   shortest route passes through its own destination takes the shortest route avoiding it
   (flow semantics: a unit reaches its destination once), TC_EINPUT when none does. A
   reduce-phase
   message (reduce, reduce-scatter; allreduce rounds <= rs_rounds) must be one hop (a
   compute node that relayed a partial would add its own into it): TC_EINPUT naming it.
   Allreduce: rs_steps = base(rs_rounds + 1). */
int tci_bl_logical(const tc_graph *g, const tc_bl_block *b, int64_t n, const char *algo, int32_t rs_rounds,
                  tc_schedule *out, tc_error *err);

/* The blocks (one unit per shard) as the schedule of `coll`, started here in the N-shard
   layout: when every block's src -> dst is an arc, round r is step r and every chunk is
   split over the arcs src -> dst by capacity (tci_bl_send, units = tci_bl_split_scale) —
   contention-free, a hypercube's or ring's own schedule; otherwise routed by
   tci_bl_logical. Allreduce: rounds 1..rs_rounds reduce. On failure *out is empty. */
int tci_bl_emit(const tc_graph *g, tc_collective coll, const tc_bl_block *b, int64_t n, const char *algo,
                int32_t rs_rounds, tc_schedule *out, tc_error *err);

/* A cycle through every node of g over its arcs, into order[0..N-1] (order[p] -> order[p+1
   mod N] an arc): the rank order 0, 1, ..., N-1 when it is one, else the first found by a
   depth-first search from node 0 (out-arcs in id order) within `budget` extensions.
   1 when found, 0 when not (none exists, or the budget ran out). */
int tci_bl_hamiltonian_cycle(const tc_graph *g, int64_t budget, int32_t *order);

#endif
