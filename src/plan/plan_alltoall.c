/*
** plan_alltoall.c — the all-to-all part of a plan (contract in plan.h): every frontier
** member's certified MCF before the choice, then the chosen topology's all-to-all schedule.
**
** Which schedules are tried, and why (measured on the members of d = 4, docs/alltoall.md
** "In find and plan"): tsMCF (paper 003 §3.1.3, `mcf`) is the best step schedule where its
** time-expanded LP is affordable — 0.09 s at N = 16, but 11 s at 32 and minutes at 64 — so
** only up to TC_PLAN_TSMCF_MAX_NODES; the routings EwSP and SSSP (paper 003 §5.2–§5.3) take
** seconds even at N = 1024 and are tried at every size. Each is built by the algorithm
** registry (tc_collective_build: generated, verified, costed); one that cannot exist here
** (TC_EINPUT, TC_ERANGE: too many paths, too large an LP) is listed with the reason. The
** fastest at the workload's a2a_bytes (steps·α + T_B, measured) is kept and written; for a
** routing, the routing itself too, as a route file.
*/
#include <stdio.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"

static const char *const a2a_algorithms[TC_PLAN_MAX_A2A] = {"mcf", "ewsp", "sssp"};

int tci_plan_certify_a2a(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  tc_find_a2a_options o;
  tc_find_a2a_options_default(&o);
  if (p->workload.a2a_time_limit > 0) o.time_limit = p->workload.a2a_time_limit;
  o.progress = progress; /* the members certified and their rounds (find.h) */
  o.ctx = ctx;
  return tc_frontier_a2a(&p->frontier, &o, err);
}

/* Try algorithm `algo` into entry e; *s and *cost get the verified schedule. A refusal is
   noted in e (return TC_OK, e->available 0); anything else stops the plan. */
static int try_one(tc_plan *p, const char *algo, tc_plan_baseline *e, tc_schedule *s, tc_cost *cost, tc_error *err) {
  memset(e, 0, sizeof *e);
  snprintf(e->name, sizeof e->name, "%s", algo);
  snprintf(e->topology, sizeof e->topology, "the chosen topology");
  e->chunks = 1;
  if (!strcmp(algo, "mcf") && p->graph->n > TC_PLAN_TSMCF_MAX_NODES) {
    snprintf(e->note, sizeof e->note, "not tried on %d nodes (the plan tries it up to %d)", p->graph->n,
             TC_PLAN_TSMCF_MAX_NODES);
    return TC_OK;
  }
  tc_error why;
  tc_error_clear(&why);
  tc_collective_opts opts;
  memset(&opts, 0, sizeof opts);
  int rc = tc_collective_build(p->graph, algo, TC_COLL_ALLTOALL, &opts, s, cost, &why);
  if (rc == TC_EINPUT || rc == TC_ERANGE) {
    snprintf(e->note, sizeof e->note, "%s", why.msg);
    return TC_OK;
  }
  if (rc) {
    *err = why;
    return rc;
  }
  e->available = 1;
  e->steps = cost->steps;
  e->tau = cost->tau;
  e->degree = cost->degree;
  return TC_OK;
}

int tci_plan_alltoall(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  const double bytes = p->workload.a2a_bytes;
  p->a2a_chosen = -1;
  for (int i = 0; i < TC_PLAN_MAX_A2A; i++) {
    tc_schedule s;
    tc_cost cost;
    memset(&s, 0, sizeof s);
    memset(&cost, 0, sizeof cost);
    tci_progress(progress, ctx, i, TC_PLAN_MAX_A2A, "all-to-all schedules: building and verifying %s on %s",
                 a2a_algorithms[i], p->spec);
    tc_plan_baseline *e = &p->a2a[p->na2a++];
    int rc = try_one(p, a2a_algorithms[i], e, &s, &cost, err);
    if (rc) return rc;
    if (e->available &&
        (p->a2a_chosen < 0 ||
         tc_plan_baseline_time(p, e, bytes) < tc_plan_baseline_time(p, &p->a2a[p->a2a_chosen], bytes))) {
      tc_schedule_destroy(&p->alltoall);
      tc_cost_destroy(&p->alltoall_cost);
      p->alltoall = s;
      p->alltoall_cost = cost;
      p->a2a_chosen = (int32_t)(e - p->a2a);
    } else {
      tc_schedule_destroy(&s);
      tc_cost_destroy(&cost);
    }
  }
  tci_progress(progress, ctx, TC_PLAN_MAX_A2A, TC_PLAN_MAX_A2A, "all-to-all schedules: built and verified on %s",
               p->spec);
  if (p->a2a_chosen < 0)
    return tc_error_set(err, TC_EFAIL, "no all-to-all schedule could be built on %s (%s: %s)", p->spec,
                        p->a2a[p->na2a - 1].name, p->a2a[p->na2a - 1].note);
  p->has_a2a = 1;
  const tc_algorithm_info *a = tc_algorithm_find(p->a2a[p->a2a_chosen].name);
  if (a && tc_algorithm_routes(a)) {
    tc_collective_opts opts;
    memset(&opts, 0, sizeof opts);
    int rc = tc_algorithm_routing(p->graph, a->name, &opts, &p->alltoall_routing, err);
    if (rc) return rc;
    p->has_a2a_routing = 1;
  }
  return TC_OK;
}

double tc_plan_alltoall_time(const tc_plan *p, double bytes) {
  if (!p->has_a2a) return -1;
  return tc_plan_baseline_time(p, &p->a2a[p->a2a_chosen], bytes);
}

void tci_plan_alltoall_destroy(tc_plan *p) {
  tc_schedule_destroy(&p->alltoall);
  tc_cost_destroy(&p->alltoall_cost);
  tc_a2a_routing_destroy(&p->alltoall_routing);
}
