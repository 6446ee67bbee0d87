/*
** plan_time.c — the plan's predicted times (contract in plan.h): steps·α + tau·M/(d·b) with
** steps, tau and d measured by tc_schedule_cost on verified schedules, and, per size, which
** of the plan's allreduces is the fastest. The one home of the model's formula in src/plan.
*/
#include <string.h>

#include "plan/plan_internal.h"

double tci_plan_time_of(int32_t steps, tc_rat tau, int64_t degree, const tc_workload *w, double bytes) {
  return steps * w->alpha_s + tc_rat_to_double(tau) * bytes / ((double)degree * w->link_bw);
}

double tc_plan_time(const tc_plan *p, double bytes) {
  if (!p->has_member) return -1;
  const tc_cost *c = &p->allreduce_cost;
  return tci_plan_time_of(c->steps, c->tau, c->degree, &p->workload, bytes);
}

double tc_plan_baseline_time(const tc_plan *p, const tc_plan_baseline *b, double bytes) {
  return tci_plan_time_of(b->steps, b->tau, b->degree, &p->workload, bytes);
}

int tci_plan_forestcoll_index(const tc_plan *p, tc_collective coll) {
  const tc_plan_forestcoll *fc = &p->forestcoll;
  for (int i = 0; fc->built && i < fc->ncoll; i++)
    if (fc->coll[i] == coll) return i;
  return -1;
}

double tc_plan_allreduce_at(const tc_plan *p, double bytes, const char **name, int64_t *chunks) {
  double best = -1;
  const char *n = NULL;
  int64_t P = 0;
  if (p->has_member) {
    best = tc_plan_time(p, bytes);
    n = p->fabric ? "bfb" : "expand";
    P = 1;
  }
  int i = tci_plan_forestcoll_index(p, TC_COLL_ALLREDUCE);
  for (int j = 0; i >= 0 && j < TC_PLAN_DEPTHS; j++) {
    double t = tc_plan_baseline_time(p, &p->forestcoll.depth[i][j], bytes);
    if (best < 0 || t < best) {
      best = t;
      n = "forestcoll";
      P = p->forestcoll.depth[i][j].chunks;
    }
  }
  if (name) *name = n;
  if (chunks) *chunks = P;
  return best;
}

int tci_plan_forestcoll_wins(const tc_plan *p) {
  const tc_workload *w = &p->workload;
  double big = 0;
  for (int32_t i = 0; i < w->count; i++)
    if (w->bytes[i] > big) big = w->bytes[i];
  const char *name = NULL;
  tc_plan_allreduce_at(p, big, &name, NULL);
  return !p->fabric && name && !strcmp(name, "forestcoll");
}
