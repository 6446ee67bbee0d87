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
** transform.h (tc_schedule_bidir).
*/
#ifndef TOPOCOLL_EXPAND_SCHED_H
#define TOPOCOLL_EXPAND_SCHED_H

#include "topocoll/sched.h"

int tc_schedule_line(const tc_graph *g, const tc_schedule *ag, const tc_graph *lg, tc_schedule *out, tc_error *err);
int tc_schedule_degree(const tc_graph *g, const tc_schedule *ag, int64_t n, const tc_graph *dg, tc_schedule *out,
                       tc_error *err);
int tc_schedule_power(const tc_graph *g, const tc_schedule *ag, int64_t k, const tc_graph *pg, tc_schedule *out,
                      tc_error *err);

#endif
