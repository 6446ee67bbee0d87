/*
** plan_fabric.c — a plan for a fabric the user already has (contract of tc_plan_fabric_make
** in plan.h): no topology search; the graph is the user's spec, and the plan builds what
** runs best on it.
**
** Order of work, and why:
**   1. The spec is evaluated and ForestColl's conditions checked first (tc_forest_check_fabric,
**      with the Eulerian condition when there are switches to remove), so a fabric it refuses
**      costs nothing more and is the user's to fix (TC_EINPUT, one line).
**   2. BFB's three collectives when the graph has no switch (BFB's model has no relays);
**      when it cannot be built the plan says why and goes on with ForestColl.
**   3. ForestColl's allgather, reduce-scatter and allreduce, pipelined at every depth
**      (plan_forest.c), and the ring bound they are compared with.
*/
#include <stdio.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/spec.h"

static int build_graph(tc_plan *p, const char *spec, tc_error *err) {
  tc_spec *parsed = NULL;
  int rc = tc_spec_parse(spec, &parsed, err);
  if (!rc) rc = tc_spec_eval(parsed, NULL, &p->graph, err);
  tc_spec_destroy(parsed);
  return rc;
}

/* BFB's allgather, reduce-scatter and allreduce on a switch-free graph; the reason otherwise. */
static int build_bfb(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  int32_t nswitch = tc_graph_count_kind(p->graph, TC_NODE_SWITCH);
  if (nswitch > 0) {
    snprintf(p->member_note, sizeof p->member_note, "BFB needs a graph without switches; this fabric has %d",
             nswitch);
    return TC_OK;
  }
  tci_progress(progress, ctx, 0, 0, "building BFB's allgather, reduce-scatter and allreduce on %s", p->spec);
  tc_collective_set set;
  tc_collective_opts opts = {.spec = NULL, .progress = progress, .progress_ctx = ctx};
  tc_error why;
  tc_error_clear(&why);
  int rc = tc_collective_build_set(p->graph, "bfb", &opts, &set, &why);
  if (rc == TC_EINPUT || rc == TC_ERANGE) {
    snprintf(p->member_note, sizeof p->member_note, "%s", why.msg);
    return TC_OK;
  }
  if (rc) {
    *err = why;
    return rc;
  }
  p->allgather = set.allgather;
  p->reduce_scatter = set.reduce_scatter;
  p->allreduce = set.allreduce;
  p->allgather_cost = set.allgather_cost;
  p->reduce_scatter_cost = set.reduce_scatter_cost;
  p->allreduce_cost = set.allreduce_cost;
  p->reverse_symmetric = set.reverse_symmetric;
  p->has_member = 1;
  return TC_OK;
}

int tc_plan_fabric_make(const char *spec, const tc_workload *w, tc_progress_fn progress, void *ctx, tc_plan *out,
                        tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!spec || !*spec) return tc_error_set(err, TC_EINPUT, "empty fabric spec");
  int rc = tci_plan_check_workload(w, err);
  if (rc) return rc;
  if (strlen(spec) >= sizeof out->spec)
    return tc_error_set(err, TC_EINPUT, "fabric spec is longer than %zu characters", sizeof out->spec - 1);
  snprintf(out->spec, sizeof out->spec, "%s", spec);
  out->fabric = 1;
  out->chosen = -1;
  out->workload = *w;
  tci_progress(progress, ctx, 0, 0, "building the fabric %s", spec);
  rc = build_graph(out, spec, err);
  if (!rc) {
    int32_t nswitch = tc_graph_count_kind(out->graph, TC_NODE_SWITCH);
    out->find.nodes = out->graph->n - nswitch;
    rc = tc_forest_check_fabric(out->graph, nswitch > 0, err);
  }
  if (!rc) rc = build_bfb(out, progress, ctx, err);
  if (!rc) {
    tci_progress(progress, ctx, 0, 0, "building and pipelining ForestColl's trees on %s", spec);
    rc = tci_plan_forestcoll(out, 1, progress, ctx, err);
  }
  if (rc) {
    tc_error_prefix(err, "fabric %s", spec);
    tc_plan_destroy(out);
  }
  return rc;
}
