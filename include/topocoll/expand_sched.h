/*
** expand_sched.h — schedules of the expanded topologies of paper 000 §5 (Definitions 1, 2,
** 14), constructed from a base allgather schedule, never solved. Each takes the base graph
** g, an allgather schedule `ag` on it, and the expanded graph built by expand.h (so node and
** arc ids follow expand.h's numbering), and writes an allgather schedule on the expansion.
** The theorems give the costs exactly (Thm 7/Cor 7.1 bound, Thm 10/Cor 10.1 equality when
** `ag` is the optimal BFB schedule, Thm 11, Thm 12); the tests compare the measured costs
** with them. Results must still pass tc_schedule_verify before use.
**
**   tc_schedule_line     Def. 1: L(G), T_L + 1, T_B <= T_B + (M/B)/N
**   tc_schedule_degree   Def. 2: G*n (g loop-free), T_L + 1, T_B + (M/B)(n-1)/(nN)
**   tc_schedule_power    Def. 14: G^□k, k T_L, T_B * N/(N-1) * (N^k - 1)/N^k
** Products of distinct graphs use BFB on the product (Thm 13); A.6 conversion is in
** transform.h (tc_schedule_bidirectional). L^n is tc_schedule_line applied n times, each time on
** the previous line graph.
**
** Common contract:
**   - `ag` must be an allgather in the paper's layout (N shards, shard k owned by node k)
**     on g, g must have compute nodes only, and every transfer must name a shard, an arc of
**     g, a step in 1..ag->steps and a chunk inside the shard; else TC_EINPUT. Whether `ag`
**     really gathers is the verifier's question: a valid `ag` gives a valid result.
**   - the expanded graph must be the expansion of g with the given n or k, arc for arc
**     (parallel arcs and self-loops are distinct arcs, matched by destination and
**     capacity); else TC_EINPUT naming the first node that differs.
**   - units per shard: line keeps ag's; degree refines them to a multiple of n*indeg(u)
**     for every u (LCM); power multiplies them by k. Steps: line ag->steps + 1, degree
**     ag->steps + 1 (n > 1), power k * ag->steps; n == 1 and k == 1 reproduce ag.
**   - a size that does not fit (units, steps, transfer count) is TC_ERANGE before the
**     result is allocated; on any failure *out is left empty.
**   - the hypotheses of the equalities (d-regular g; >= 2 distinct out-neighbours per node
**     for Thm 10) only affect the cost, never validity. Degree expansion refuses a g with
**     self-loops (Def. 13), and any node without in-arcs when n > 1.
*/
#ifndef TOPOCOLL_EXPAND_SCHED_H
#define TOPOCOLL_EXPAND_SCHED_H

#include "topocoll/export.h"

#include "topocoll/sched.h"

TC_API int tc_schedule_line(const tc_graph *g, const tc_schedule *ag, const tc_graph *lg, tc_schedule *out,
                            tc_error *err);
TC_API int tc_schedule_degree(const tc_graph *g, const tc_schedule *ag, int64_t n, const tc_graph *dg,
                              tc_schedule *out,
                              tc_error *err);
TC_API int tc_schedule_power(const tc_graph *g, const tc_schedule *ag, int64_t k, const tc_graph *pg,
                             tc_schedule *out,
                             tc_error *err);

#endif
