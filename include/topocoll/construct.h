/*
** construct.h — the allgather schedule a topology's spec constructs (paper 000 §5): the
** construction the finder's predictions rest on, read off the spec's parse tree (spec.h).
**
**   line(X,k)        X's schedule, then Definition 1 k times (tc_schedule_line)
**   degree(X,n)      Definition 2 (tc_schedule_degree)
**   power(X,k)       Definition 14 (tc_schedule_power)
**   bidir(X)         App. A.6 (tc_schedule_bidirectional)
**   diamond(), dbjmod(d,n)   the stored searched schedules (fig_schedules.h)
**   anything else    the optimal BFB schedule (tc_bfb_allgather); products included (Thm 13)
**
** The graph of every expansion is built by expand.h, the same functions tc_spec_eval uses,
** and the finished graph is compared arc by arc with tc_spec_eval(spec) so the contract
** "the spec rebuilds exactly this topology" is checked on every construction, not assumed
** (TC_EFAIL on a difference: a bug). The schedule is NOT verified: callers verify.
** On failure *g is NULL and *ag empty.
*/
#ifndef TOPOCOLL_CONSTRUCT_H
#define TOPOCOLL_CONSTRUCT_H

#include "topocoll/export.h"

#include "topocoll/sched.h"
#include "topocoll/spec.h"

/* Graph and allgather of `node` (NULL: the root) of the parsed spec s. */
TC_API int tc_schedule_construct(const tc_spec *s, const tc_spec_node *node, tc_graph **g, tc_schedule *ag,
                                 tc_error *err);

/* The same from spec text (parsed here). */
TC_API int tc_schedule_construct_text(const char *spec, tc_graph **g, tc_schedule *ag, tc_error *err);

/* 1 if a and b have the same nodes and the same arcs (src, dst, cap) in the same order. */
TC_API int tc_graph_same_arcs(const tc_graph *a, const tc_graph *b);

#endif
