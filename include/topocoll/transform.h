/*
** transform.h — schedule transforms of paper 000 App. B, A.6 and E.2: reverse schedules,
** schedule isomorphisms, reduce-scatter from allgather (Thm 2 / Cor. 1.1), allreduce
** composition, unidirectional -> bidirectional conversion and chunk discretization.
**
** Every transform maps schedules to schedules of the same IR (sched.h) and names arcs of
** the graph the result runs on; a parallel arc is a distinct port, so arcs are matched one
** to one (with equal capacity), never merged. Transforms check the structure they rely on
** (node counts, arc ids, the graph correspondence) and fail with TC_EINPUT naming the
** problem; they do NOT run the verifier — a caller that publishes a schedule verifies it
** (tc_schedule_verify), as every generator must.
**
** What the paper guarantees, and therefore what the tests check through the verifier and
** the cost model:
**   - reverse (Def. 5, Thm 1): an allgather on G becomes a reduce-scatter on G^T and vice
**     versa, with T_L and T_B unchanged. With sum reductions "exactly once" needs that no
**     node receives a byte of a shard twice in the allgather (true of BFB schedules and of
**     every BW-optimal one, Thm 5); a redundant allgather reverses into a reduce-scatter
**     that double-counts, which the verifier rejects.
**   - relabel (Def. 7): an isomorphism carries a schedule to an equally good one.
**   - Thm 2: on reverse-symmetric G, f(A^T) turns an allgather into a reduce-scatter on the
**     same G with equal T_L and T_B; Cor. 1.1 covers every other G by generating on G^T.
**   - allreduce = reduce-scatter then allgather: T_L and T_B add.
**   - A.6: on reverse-symmetric d-regular G, A on G plus g(A) on G^T, half a shard each, is
**     a schedule on the 2d-regular G ∪ G^T with T_L and T_B unchanged.
**   - P-chunk rounding (E.2): exactly P equal chunks per shard, T_B within Theorem 20's
**     additive bound d(d^D - 1)/((d - 1) P N) · M/B of the fractional input.
**
** On failure every function leaves `out` empty (safe to tc_schedule_destroy, owns nothing).
*/
#ifndef TOPOCOLL_TRANSFORM_H
#define TOPOCOLL_TRANSFORM_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/sched.h"

/* A schedule generator (e.g. BFB allgather): builds a schedule for g into *out. */
typedef int (*tc_schedule_generator)(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err);

/* Reverse schedule A^T (Def. 5) of s on g, onto gt, which must be the transpose of g (any
   arc numbering: checked arc by arc). Transfer (k, t, a = w -> u) becomes
   (k, steps - t + 1, the arc u -> w of gt); chunks and owners are kept. Allgather <->
   reduce-scatter, broadcast <-> reduce; an allreduce stays one with rs_steps' =
   steps - rs_steps; an alltoall stays one with shard s*N + t renamed t*N + s; scatter from R
   <-> gather to R (shard k stays node k's); p2p S -> T becomes p2p T -> S. */
TC_API int tc_schedule_reverse(const tc_graph *g, const tc_schedule *s, const tc_graph *gt, tc_schedule *out,
                               tc_error *err);

/* Schedule isomorphism f(A) (Def. 7): f maps the nodes of g one to one onto those of g2 and
   must be an isomorphism (checked through the arcs). Shard k of the N-shard layout becomes
   shard f(k), alltoall's shard s*N + t becomes f(s)*N + f(t); with explicit owners, shard
   indices stay and owners map. Scatter's and gather's shard k (named by its non-root node)
   becomes shard f(k); their root, and p2p's source and destination, map through f.
   The other transforms take the collectives they name and refuse the rest the same way
   (A.6: the N-shard layout; rounding: allgather, broadcast; Thm 2 / Cor 1.1, compose:
   allgather and reduce-scatter). */
TC_API int tc_schedule_relabel(const tc_graph *g, const tc_schedule *s, const tc_graph *g2, const int32_t *f,
                               tc_schedule *out, tc_error *err);

/* Theorem 2: on reverse-symmetric g, f(s^T) — an allgather becomes a reduce-scatter on the
   same g (and back) with equal T_L and T_B. iso maps g to g^T (as tc_graph_reverse_symmetry
   returns it; such a map is also an isomorphism g^T -> g); NULL computes one. A graph that
   is not reverse-symmetric is TC_EINPUT: use tc_schedule_reduce_scatter_from. */
TC_API int tc_schedule_reverse_symmetric(const tc_graph *g, const tc_schedule *s, const int32_t *iso,
                                         tc_schedule *out,
                                         tc_error *err);

/* Corollary 1.1: the reduce-scatter on g that is the reverse of the allgather that `gen`
   builds on g^T. Works on every g, reverse-symmetric or not. */
TC_API int tc_schedule_reduce_scatter_from(const tc_graph *g, tc_schedule_generator gen, void *ctx, tc_schedule *out,
                                           tc_error *err);

/* Reduce-scatter on g: Theorem 2 applied to the allgather ag on g when g ≅ g^T (so the
   reduce-scatter costs what the allgather costs; ag == NULL lets gen build it), Corollary
   1.1 with gen otherwise. */
TC_API int tc_schedule_reduce_scatter_by(const tc_graph *g, const tc_schedule *ag, tc_schedule_generator gen,
                                         void *ctx,
                                         tc_schedule *out, tc_error *err);

/* Allreduce = reduce-scatter rs followed by allgather ag on g (paper 000 §3): both in the
   same unit (the LCM of theirs), ag's steps shifted by rs->steps, rs_steps = rs->steps.
   Both must have the same shards and owners. */
TC_API int tc_schedule_allreduce_compose(const tc_graph *g, const tc_schedule *rs, const tc_schedule *ag,
                                         tc_schedule *out, tc_error *err);

/* Allreduce from an allgather generator: gen(g), the reduce-scatter by
   tc_schedule_reduce_scatter_by, then tc_schedule_allreduce_compose. */
TC_API int tc_schedule_allreduce_by(const tc_graph *g, tc_schedule_generator gen, void *ctx, tc_schedule *out,
                                    tc_error *err);

/* A.6: s on reverse-symmetric g (N shards owned by their nodes) to the bidirectional
   closure gbi = g ∪ g^T (tc_graph_bidir_closure; checked arc by arc): the first half of
   every shard follows s on the arcs of g, the second half follows iso(s) on the arcs of
   g^T. iso maps g to g^T; NULL computes one. units double; steps and rs_steps are kept. */
TC_API int tc_schedule_bidirectional(const tc_graph *g, const tc_schedule *s, const int32_t *iso, const tc_graph *gbi,
                                     tc_schedule *out, tc_error *err);

/* Exact LCM chunking: the IR already holds a common denominator (units); this is the
   least one, units / gcd(units, every endpoint) (>= 1). */
TC_API int64_t tc_schedule_chunk_count(const tc_schedule *s);
/* Rewrite s in its least units (same schedule, same chunks). */
TC_API void tc_schedule_normalize(tc_schedule *s);

/* P-chunk rounding (App. E.2) of a copy-semantics schedule (allgather or broadcast) in
   which a node that receives a shard receives it in exactly one step, as one whole shard
   split over its in-arcs, from senders that hold all of it (BFB schedules, rings). Per
   (receiver, step, shard) the amount y on each in-arc, in P-ths of a shard, is rounded:
   floor everything, then +1 chunk to the P - Σ floor arcs with the largest fractional parts
   (lowest arc id on ties); the arcs then take consecutive chunk ranges in arc-id order.
   The result has units == P and the same steps; every rounded amount stays below the
   fractional one plus one chunk, which is what Theorem 20's bound rests on. */
TC_API int tc_schedule_round_chunks(const tc_graph *g, const tc_schedule *s, int64_t P, tc_schedule *out,
                                    tc_error *err);

/* P-chunk rounding of an all-to-all (flow semantics; round_flows.c): units of a shard that
   travel the same walk form one path share a (of `units`); the shares are rounded to whole
   chunks of 1/P — floor, then +1 to the largest fractional parts (first walk on ties) — and
   each walk carries one consecutive chunk range. Same walks and steps, units == P, valid
   whenever the input is; an (arc, step) gains less than one chunk per share through it. A
   P that is a multiple of the input's least units gives the same schedule, refined. */
TC_API int tc_schedule_round_flows(const tc_graph *g, const tc_schedule *s, int64_t P, tc_schedule *out,
                                   tc_error *err);

#endif
