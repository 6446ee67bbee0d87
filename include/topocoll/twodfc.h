/*
** twodfc.h — multi-port collectives on the two-dimensional fully connected network (2dfc,
** paper 002 Ch. 4): dimension order (DO, §4.1.1, Algorithm 1), the multi-dimensional
** algorithm (MD, §4.2, Algorithm 2) and MULTITREE's parity construction (§4.1.2, Fig. 4.2),
** each as a step schedule (sched.h).
**
** Topology: the dissertation's m2 x m1 2dfc (Eq. 2.4: m2 rows along Y, m1 columns along X)
** is `hyperx(m2,m1)` as src/topo/hyperx.c numbers it: node (a2, a1) is rank a2*m1 + a1
** (Eq. 2.5), X-links join the nodes of a row (same a2), Y-links those of a column (same a1).
** The 2dfc is symmetric in its two dimensions, so hyperx(m1,m2) is the same network with
** X and Y swapped. Every generator checks that g is exactly that graph (each node linked
** once, unit capacity, to the m1-1 nodes of its row and the m2-1 of its column) and fails
** with TC_EINPUT naming the first node or arc that does not fit.
**
** Collectives and what the tests hold them to (tc_schedule_cost, b = M/N the block of one
** node, so tau * M/B = (coefficient) * b * beta with B = (m1+m2-2) links):
**   DO alltoall        step 1 sends to every row neighbour (a2, x') the m2 blocks for
**                      column x', step 2 forwards to every column neighbour (y', a1) the
**                      m1 blocks of the row for (y', a1): 2 steps, m2 + m1 (Table 4.2,
**                      Eq. 4.5). It sends exactly the minimum volume (Eqs. 4.1 = 4.2).
**   MD alltoall        every block is split, x = m1/(m1+m2) of it goes X then Y as in DO and
**                      the rest Y then X, at the same time on the other links: 2 steps,
**                      max(m1, m2) (Eq. 4.6); the two halves of step 2 differ by
**                      |m2 - m1| blocks (t_dics, Eq. 4.7). DO is MD with x = 1.
**   DO allgather       own block to the row (1), then the row's m1 blocks to the column
**                      (m1): 2 steps, 1 + m1.
**   MD allgather       split x = m2/(m1+m2) X-first, the rest Y-first (x balances the heavy
**                      second step): 2 steps, (max(m1,m2) + m1 m2)/(m1+m2); (1+m)/2 square.
**   DO reduce-scatter  the reverse order of work: step 1 reduces along the row the m2
**                      blocks each row neighbour's column owns, step 2 sends each column
**                      neighbour its row-reduced block: 2 steps, m2 + 1.
**   DO / MD allreduce  DO reduce-scatter then DO / MD allgather (the dissertation's final
**                      allreduce, Fig. 4.12, is DO-RS + MD-AG): 4 steps.
**   MULTITREE          on the m x m 2dfc with m even, the parity construction: one spanning
**                      tree per root, all of them translates of root 0's, step 1 adds the
**                      2(m-1) neighbours, step k >= 2 the children of the Y-axis nodes
**                      2k-3, 2k-2 (those of equal parity in their row) and of the X-axis
**                      nodes 2k-3, 2k-2 (those of opposite parity in their column). Every
**                      directed link carries at most one tree edge per step, and it takes
**                      m/2 + 1 = ceil((N-1)/(2m-2)) steps (Eq. 4.4's bound). Allgather: one
**                      block per tree edge, m/2 + 1; alltoall: a tree edge carries the
**                      blocks of its subtree, (m/2 + 1) in step 1 then 1: m + 1.
**
** On failure *out is left empty. The schedules are NOT verified here (the registry's
** pipeline, collective.h, verifies them as it does every generator's).
*/
#ifndef TOPOCOLL_TWODFC_H
#define TOPOCOLL_TWODFC_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/sched.h"

/* g must be hyperx(m2,m1). DO: alltoall, allgather, reduce-scatter, allreduce. */
TC_API int tc_twodfc_do(const tc_graph *g, int64_t m2, int64_t m1, tc_collective coll, tc_schedule *out,
                        tc_error *err);
/* MD: alltoall, allgather, allreduce (DO reduce-scatter + MD allgather). */
TC_API int tc_twodfc_md(const tc_graph *g, int64_t m2, int64_t m1, tc_collective coll, tc_schedule *out,
                        tc_error *err);
/* MULTITREE by the parity construction: alltoall, allgather; g = hyperx(m,m), m even. */
TC_API int tc_twodfc_multitree(const tc_graph *g, int64_t m, tc_collective coll, tc_schedule *out, tc_error *err);

#endif
