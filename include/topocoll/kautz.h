/*
** kautz.h — multi-port collectives on the Kautz graph K(d,2) (paper 002 Ch. 3): Kautz-C
** (message-combine) and Kautz-M (MULTITREE serialisation), each as a step schedule
** (sched.h) of one-hop transfers along per-root BFS trees.
**
** Convention: paper 002's K(d,k) is indexed by its diameter, ours by diameter - 1, so its
** K(d,2) is our kautz(d,1): the pairs (x,y) of letters 0..d, x != y, n = d(d+1) nodes, arcs
** (x,y) -> (y,z). The generators check that g is exactly that graph (kautz(d,1), d >= 2,
** kautz.c's numbering) and fail with TC_EINPUT naming the first node that differs.
**
** The schedules (outgoing trees for broadcast, scatter, allgather, alltoall; incoming
** trees, the mirror image, for reduce, gather and reduce-scatter; paper 002 Table 3.1):
**   broadcast / reduce   root R: R's tree, depth 1 in step 1, depth 2 in step 2 (Eq. 3.3);
**                        one tree has no contention, so Kautz-C and Kautz-M are the same.
**   scatter / gather     root R's tree; in step 1 each child c gets the blocks of c's
**                        subtree (n_{1,j} = d+1 or d blocks of M/n), in step 2 one block
**                        per grandchild (Eq. 3.4); gather is the mirror image. Kautz-C =
**                        Kautz-M.
**   allgather            every node's tree at once. Kautz-C: step 1 each root to its d
**                        children, step 2 every child to its children; an arc carries up
**                        to d roots' blocks in step 2, combined into one message (Eq. 3.5,
**                        §4.2's d flows per link). Kautz-M: the depth-2 arcs serialised
**                        over steps 2..d+1 by the MULTITREE rule of kautz_common.h, one
**                        block per arc per step.
**   reduce-scatter       the mirror image of the allgather on the incoming trees.
**   allreduce            reduce-scatter then allgather (§3.1).
**   alltoall             flow semantics: in step 1 root s sends child c the blocks of every
**                        node in c's subtree (d+1 or d blocks), then each child forwards one
**                        block to each grandchild — in step 2 (Kautz-C, up to d blocks
**                        combined per arc, Eq. 3.6) or in the grandchild's MULTITREE step.
** Costs, as tc_schedule_cost measures them, with M as paper 002 Table 3.2 reads it
** (broadcast: the message; scatter / gather: the root's buffer of n blocks; allgather:
** each node's contribution; allreduce: the vector; alltoall: each node's buffer of n
** blocks):
**                        Kautz-C                       Kautz-M
**   broadcast / reduce   2(α + Mβ)                     2(α + Mβ)
**   scatter / gather     2α + (d+2)M/(d(d+1))β         the same
**   allgather / RS       2α + (d+1)Mβ                  (d+1)(α + Mβ)
**   allreduce            4α + 2(M/d)β                  2(d+1)α + 2(M/d)β
**   alltoall             2α + (2d+1)M/(d(d+1))β        (d+1)α + (2d+1)M/(d(d+1))β
** Message-combine needs a local reorder of the combined blocks at the receivers (§3.2.2);
** that is why Kautz-M wins for large messages even though both have the same β term.
**
** Outputs are NOT verified (collective.h's pipeline verifies); on failure *out is empty.
*/
#ifndef TOPOCOLL_KAUTZ_H
#define TOPOCOLL_KAUTZ_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/sched.h"

typedef enum {
  TC_KAUTZ_COMBINE = 0,  /* Kautz-C: every tree level in one step, flows on an arc combined */
  TC_KAUTZ_MULTITREE = 1 /* Kautz-M: one flow per arc per step, d+1 steps */
} tc_kautz_variant;

/* The collective `coll` on g = kautz(d,1) by variant v; `root` is the broadcast, reduce,
   scatter or gather root (0..n-1, ignored otherwise). The schedule is named "kautz-c" or "kautz-m". */
TC_API int tc_kautz_collective(const tc_graph *g, tc_kautz_variant v, tc_collective coll, int32_t root,
                               tc_schedule *out, tc_error *err);

/* The size switch of paper 002 §3.2.2: Kautz-C for small messages, Kautz-M from the size at
   which it is predicted faster. Both schedules are built, verified and costed
   (tc_schedule_cost); with T(M) = steps*alpha + (tau/(d*link_bw) + local_copy/copy_bw) * M
   (tc_cost_time_copy) for each, *bytes is the M at which the two lines cross:
       (steps_M - steps_C) * alpha / ((tau_C - tau_M)/(d*link_bw) + (lc_C - lc_M)/copy_bw),
   from which on Kautz-M is at least as fast, or INFINITY when Kautz-C stays faster at every
   size (no local-copy term: copy_bw <= 0; or one tree, where the variants are the same
   schedule). alpha_s >= 0, link_bw > 0 (bytes/s per link), copy_bw in bytes/s. */
TC_API int tc_kautz_switch_size(const tc_graph *g, tc_collective coll, int32_t root, double alpha_s, double link_bw,
                                double copy_bw, double *bytes, tc_error *err);

/* Point-to-point from src to dst (two different nodes) on g = kautz(d,1) (paper 002 §3.3):
   with `multipath`, the buffer split equally over the paths of the pair's type (kautz_p2p.c:
   d paths of at most 3 hops for types 1 and 2, d - 1 for type 3), part j = units [j, j+1)
   of units = the path count, hop h in step h; without it, the unique shortest path (1 or 2
   hops), the single-path baseline of Eq. 3.7. Named "kautz-mp" / "kautz-sp". Costs: type 1
   and 2 3(α + (M/d)β), type 3 3(α + M/(d-1)β) (d = 2: α + Mβ, the direct arc alone);
   single path t(α + Mβ) at distance t. */
TC_API int tc_kautz_p2p(const tc_graph *g, int32_t src, int32_t dst, int multipath, tc_schedule *out,
                        tc_error *err);

#endif
