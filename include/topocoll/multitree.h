/*
** multitree.h — MULTITREE (Huang et al., ISCA'21; paper 002 §2.2.3, §4.1.2): one spanning
** tree per root, grown greedily and together so that no directed link carries two tree
** edges in one step, as a step schedule (sched.h) on any strongly connected graph.
**
** The greedy, as the dissertation modifies it (§2.2.3): every step starts with a fresh copy
** of the graph's arcs; the trees take turns, round robin over the roots, each adding one
** node c through one arc p -> c still free in this step, where p is the root or joined
** its tree in an EARLIER step (it holds the data before the step starts); a taken arc is
** removed for the rest of the step. When no tree can add a node, the next step starts.
** A tree's choice is deterministic: its members in the order they joined, each one's
** out-arcs in id order, the first free arc to a node the tree lacks.
**
** Collectives: allgather (an arc p -> c of root r's tree carries r's block in c's step) and
** alltoall (it carries the blocks of every node of c's subtree, flow semantics: each relay
** forwards what it received in an earlier step). Steps are at least Eq. 4.4's bound
** ceil(N(N-1) / m) for N nodes and m arcs; on K(d,2) (`kautz(d,1)`) the greedy takes d+1
** steps and on the m x m 2dfc (m = 4, 6, 8) m/2 + 1, the bound (tests/test_twodfc.c).
**
** g: strongly connected, at most 46340 nodes (alltoall's shard count). On failure *out is
** left empty; the schedule is NOT verified here (collective.h's pipeline verifies).
*/
#ifndef TOPOCOLL_MULTITREE_H
#define TOPOCOLL_MULTITREE_H

#include "topocoll/export.h"

#include "topocoll/sched.h"

TC_API int tc_multitree_greedy(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);

#endif
