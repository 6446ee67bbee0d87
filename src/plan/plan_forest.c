/*
** plan_forest.c — ForestColl in a plan (contract in plan.h, tc_plan_forestcoll): the
** optimal forest of each collective on the plan's graph (tc_forest_build, verified), lowered
** to step schedules at every pipelining depth the plan tries for pipelined algorithms
** (P = 1, 2, 4, ..., TC_PIPELINE_MAX), each verified by tc_forest_lower and costed by
** tc_schedule_cost. The plan compares these costs per workload size; it keeps one schedule
** per collective, the one fastest at the workload's largest size (where a schedule's
** bandwidth term, ForestColl's strength, matters most), so that what is written is
** something the summary says wins somewhere.
**
** A forest is built once per collective and lowered seven times: the forest is the
** expensive part (its max-flows), each lowering is linear in the transfers.
*/
#include <stdio.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/cost.h"

/* The predicted time of one measured variant at `bytes` (plan.h's model). */
static double variant_time(const tc_plan *p, const tc_plan_baseline *b, double bytes) {
  return tc_plan_baseline_time(p, b, bytes);
}

static double largest_size(const tc_workload *w) {
  double m = 0;
  for (int32_t i = 0; i < w->count; i++)
    if (w->bytes[i] > m) m = w->bytes[i];
  return m;
}

/* Lower forest f at every depth into row i; keep the schedule fastest at the largest size. */
static int lower_depths(tc_plan *p, int i, const tc_forest *f, tc_error *err) {
  tc_plan_forestcoll *fc = &p->forestcoll;
  double big = largest_size(&p->workload), best = 0;
  for (int j = 0; j < TC_PLAN_DEPTHS; j++) {
    int64_t P = (int64_t)1 << j;
    tc_schedule s;
    tc_cost c;
    int rc = tc_forest_lower(p->graph, f, P, &s, err);
    if (!rc) rc = tc_schedule_cost(p->graph, &s, &c, err);
    else memset(&c, 0, sizeof c);
    if (rc) {
      tc_schedule_destroy(&s);
      return rc;
    }
    tc_plan_baseline *b = &fc->depth[i][j];
    snprintf(b->name, sizeof b->name, "forestcoll");
    snprintf(b->topology, sizeof b->topology, "%.*s", (int)sizeof b->topology - 1, p->spec); /* a long spec is cut */
    b->chunks = (int32_t)P;
    b->available = 1;
    b->steps = c.steps;
    b->tau = c.tau;
    b->degree = c.degree;
    double t = variant_time(p, b, big);
    if (j == 0 || t < best) {
      best = t;
      tc_schedule_destroy(&fc->sched[i]);
      tc_cost_destroy(&fc->cost[i]);
      fc->sched[i] = s;
      fc->cost[i] = c;
      fc->chunks[i] = P;
    } else {
      tc_schedule_destroy(&s);
      tc_cost_destroy(&c);
    }
  }
  return TC_OK;
}

int tci_plan_forestcoll(tc_plan *p, int all_three, tc_error *err) {
  static const tc_collective three[3] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  tc_plan_forestcoll *fc = &p->forestcoll;
  fc->ncoll = all_three ? 3 : 1;
  for (int i = 0; i < fc->ncoll; i++) fc->coll[i] = all_three ? three[i] : TC_COLL_ALLREDUCE;
  int rc = tc_forest_ring_bound(p->graph, &fc->ring_algbw, &fc->ring_min_cut, err);
  for (int i = 0; !rc && i < fc->ncoll; i++) {
    tc_forest_options fo = {.coll = fc->coll[i]};
    tc_forest f;
    rc = tc_forest_build(p->graph, &fo, &f, err);
    if (!rc) rc = lower_depths(p, i, &f, err);
    if (!rc && fc->coll[i] == TC_COLL_ALLREDUCE) fc->forest = f; /* the certificate the plan writes */
    else tc_forest_destroy(&f);
  }
  if (!rc) fc->built = 1;
  else tci_plan_forestcoll_destroy(fc);
  return rc;
}

void tci_plan_forestcoll_destroy(tc_plan_forestcoll *fc) {
  tc_forest_destroy(&fc->forest);
  for (int i = 0; i < 3; i++) {
    tc_schedule_destroy(&fc->sched[i]);
    tc_cost_destroy(&fc->cost[i]);
  }
  char note[TC_ERRMSG_MAX];
  memcpy(note, fc->note, sizeof note);
  memset(fc, 0, sizeof *fc);
  memcpy(fc->note, note, sizeof note);
}
