/*
** plan_internal.h — what the plan's files share (src/plan). Internal header.
*/
#ifndef TC_PLAN_INTERNAL_H
#define TC_PLAN_INTERNAL_H

#include <stdio.h>

#include "core/progress.h"
#include "topocoll/plan.h"


/* steps·α + tau·M/(degree·b): the model's one formula (plan_time.c). */
double tci_plan_time_of(int32_t steps, tc_rat tau, int64_t degree, const tc_workload *w, double bytes);

/* Single link failures on p->graph into p->resilience (plan_resilience.c), and its
   summary.md section. */
int tci_plan_resilience(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err);
void tci_plan_resilience_summary(FILE *f, const tc_plan *p);

/* summary.md's section of the user's alternatives (plan_compare.c); nothing without any. */
void tci_plan_compare_summary(FILE *f, const tc_plan *p);

/* The workload's checks (plan.h: count 1..64, alpha >= 0, link_bw > 0, sizes and weights > 0). */
int tci_plan_check_workload(const tc_workload *w, tc_error *err);

/* ForestColl on p->graph into p->forestcoll (plan_forest.c): allgather, reduce-scatter and
   allreduce when all_three, else allreduce only, reporting the forest's phases through
   progress. On failure p->forestcoll is left empty
   (its note kept) and the forest's error returned. */
int tci_plan_forestcoll(tc_plan *p, int all_three, tc_progress_fn progress, void *ctx, tc_error *err);
/* Row of collective coll in p->forestcoll, or -1 when it was not built. */
int tci_plan_forestcoll_index(const tc_plan *p, tc_collective coll);
void tci_plan_forestcoll_destroy(tc_plan_forestcoll *fc);
/* One paragraph for summary.md when the auto weights were measured (weights_tried): which
   weighting the allreduce kept and both T_B factors; nothing otherwise. */
void tci_plan_forestcoll_weights_line(FILE *f, const tc_plan *p);
/* 1 when a (non-fabric) plan's fastest allreduce at the workload's largest size is
   forestcoll: the plan then writes allreduce-forestcoll.json (plan_time.c). */
int tci_plan_forestcoll_wins(const tc_plan *p);

/* All-to-all (plan_alltoall.c, when workload.a2a_bytes > 0): certify every frontier member's
   MCF (before the choice); build the chosen topology's all-to-all schedules into p->a2a,
   keeping the fastest in p->alltoall (and its routing); release them. */
int tci_plan_certify_a2a(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err);
int tci_plan_alltoall(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err);
void tci_plan_alltoall_destroy(tc_plan *p);

/* The other cabling's choice (plan_links.c): the finder's frontier with find.bidirectional
   flipped, predicted only, chosen by allreduce time; none is noted, not an error. And its
   paragraph of summary.md. */
int tci_plan_other_links(tc_plan *p, tc_error *err);
void tci_plan_links_summary(FILE *f, const tc_plan *p);

/* summary.md of a fabric plan (plan_fabric_summary.c). */
void tci_plan_fabric_summary(const tc_plan *p, FILE *f);

#endif
