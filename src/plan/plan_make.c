/*
** plan_make.c — the plan (contract in plan.h): the finder's choice for a workload, built
** into a topology and three verified schedules, and measured against the baselines.
**
** Order of work, and why:
**   1. tc_find predicts the Pareto frontier without building anything; tc_frontier_choose
**      picks the member with the least expected allreduce time.
**   2. Only the chosen member is built: its graph from its spec, its three collectives by
**      the registry's `expand` algorithm (the construction its prediction rests on;
**      reduce-scatter by Theorem 2 when G ≅ G^T, else Corollary 1.1; allreduce their
**      composition), each verified and costed by tc_collective_build_set. The allgather is
**      then held to the finder's prediction (tc_candidate_measure).
**   3. Baselines on the same N and d: every registry algorithm with a topology of its own
**      for this cluster (tc_algorithm_home), its allreduce built, verified and costed the
**      same way; one that cannot exist here (odd d for a bidirectional ring, too few ports
**      for the double binary tree, too many transfers) is listed with the reason instead.
**      Pipelined algorithms are measured at P = 1, 2, 4, ..., 64.
**   4. ForestColl's allreduce on the chosen member at the same depths (plan_forest.c),
**      between 2 and 3, for members of at most TC_PLAN_FOREST_MAX_NODES nodes (or
**      TC_PLAN_FOREST_MAX_NODES_UNMET when the member's allreduce misses the cost model's
**      bound): per size the plan runs whichever of it and the member's allreduce is faster
**      (tc_plan_allreduce_at).
**   Then every single link failure of the chosen topology, one per automorphism class
**   (plan_resilience.c), its allreduce re-synthesized by BFB and verified.
**   With all-to-alls in the workload (plan_alltoall.c), every member's MCF is certified
**   between 1's prediction and the choice (the choice weighs them), and the chosen
**   topology's all-to-all schedules are built after 2.
*/
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_internal.h"
#include "core/budget.h"
#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/spec.h"

#define MAX_SIZES ((int)(sizeof(((tc_workload *)0)->bytes) / sizeof(double)))

/* ---- the chosen member ---- */

/* Move the set's schedules and costs into the plan. */
static void take_set(tc_plan *p, tc_collective_set *set) {
  p->allgather = set->allgather;
  p->reduce_scatter = set->reduce_scatter;
  p->allreduce = set->allreduce;
  p->allgather_cost = set->allgather_cost;
  p->reduce_scatter_cost = set->reduce_scatter_cost;
  p->allreduce_cost = set->allreduce_cost;
  p->reverse_symmetric = set->reverse_symmetric;
  memset(set, 0, sizeof *set);
}

static int build_chosen(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  tc_candidate *c = &p->frontier.member[p->chosen];
  tci_progress(progress, ctx, 0, 0, "building %s and its allgather, reduce-scatter and allreduce", c->spec);
  tc_spec *spec = NULL;
  tc_collective_set set;
  memset(&set, 0, sizeof set);
  int rc = tc_spec_parse(c->spec, &spec, err);
  if (!rc) rc = tc_spec_eval(spec, NULL, &p->graph, err);
  tc_collective_opts opts = {.spec = spec, .progress = progress, .progress_ctx = ctx}; /* seconds each at N = 1024 */
  if (!rc) rc = tc_collective_build_set(p->graph, "expand", &opts, &set, err);
  tc_spec_destroy(spec);
  if (rc) {
    tc_error_prefix(err, "building %s", c->spec);
    return rc;
  }
  take_set(p, &set);
  p->has_member = 1;
  tci_progress(progress, ctx, 0, 0, "holding the allgather to the prediction");
  return tc_candidate_measure(c, p->graph, &p->allgather, err);
}

/* ---- ForestColl on the chosen member ---- */

/* Its allreduce at every depth beside the member's (plan.h); a member ForestColl cannot take
   is noted, not fatal; past TC_PLAN_FOREST_MAX_NODES it is not tried (seconds per hundred
   nodes, where the rest of the plan takes one), unless the member's allreduce misses the
   cost model's bound: then ForestColl's weighted roots may reach it, and it is worth the
   seconds up to TC_PLAN_FOREST_MAX_NODES_UNMET. */
static int build_forestcoll(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  tc_plan_forestcoll *fc = &p->forestcoll;
  int unmet = !p->allreduce_cost.bw_optimal;
  if (p->graph->n > (unmet ? TC_PLAN_FOREST_MAX_NODES_UNMET : TC_PLAN_FOREST_MAX_NODES)) {
    if (unmet)
      snprintf(fc->note, sizeof fc->note, "not tried on %d nodes (the plan tries it up to %d, or %d when the "
               "chosen topology's allreduce misses the bound)", p->graph->n, TC_PLAN_FOREST_MAX_NODES,
               TC_PLAN_FOREST_MAX_NODES_UNMET);
    else
      snprintf(fc->note, sizeof fc->note, "not tried on %d nodes (the plan tries it up to %d)", p->graph->n,
               TC_PLAN_FOREST_MAX_NODES);
    return TC_OK;
  }
  tci_progress(progress, ctx, 0, 0, "building and pipelining ForestColl's allreduce trees on %s", p->spec);
  tc_error why;
  tc_error_clear(&why);
  int rc = tci_plan_forestcoll(p, 0, progress, ctx, &why);
  if (rc == TC_EINPUT || rc == TC_ERANGE) {
    snprintf(fc->note, sizeof fc->note, "%s", why.msg);
    return TC_OK;
  }
  if (rc) *err = why;
  return rc;
}

/* ---- baselines ---- */

static tc_plan_baseline *next_baseline(tc_plan *p, const char *name, const char *topology, int32_t chunks) {
  tc_plan_baseline *b = &p->baseline[p->nbaselines++];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  snprintf(b->topology, sizeof b->topology, "%s", topology);
  b->chunks = chunks;
  return b;
}

/* A baseline that cannot exist here is recorded with the reason; other errors stop. */
static int unavailable(tc_plan_baseline *b, int rc, const tc_error *why, tc_error *err) {
  if (rc != TC_EINPUT && rc != TC_ERANGE) {
    *err = *why;
    return rc;
  }
  b->available = 0;
  snprintf(b->note, sizeof b->note, "%s", why->msg);
  return TC_OK;
}

/* The allreduce of algorithm a on its topology g (NULL: g could not be built, `built` and
   `why` say why), pipelined P chunks; appends one baseline entry. */
static int measure_baseline(tc_plan *p, const tc_algorithm_info *a, const tc_graph *g, const char *desc, int32_t P,
                            int built, tc_error *why, tc_error *err) {
  tc_plan_baseline *b = next_baseline(p, a->name, desc, P);
  if (built) return unavailable(b, built, why, err);
  tc_schedule s;
  tc_cost c;
  tc_collective_opts opts = {.chunks = tc_algorithm_pipelined(a) ? P : 0};
  int rc = tc_collective_build(g, a->name, TC_COLL_ALLREDUCE, &opts, &s, &c, why);
  if (rc == TC_EFAIL) *err = *why; /* a schedule that failed verification is our bug: stop */
  if (rc) return rc == TC_EFAIL ? rc : unavailable(b, rc, why, err);
  if (c.degree > p->find.degree) {
    snprintf(b->note, sizeof b->note, "needs %" PRId64 " ports per node, the cluster has %d", c.degree,
             p->find.degree);
  } else {
    b->available = 1;
    b->steps = c.steps;
    b->tau = c.tau;
    b->degree = c.degree;
  }
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  return TC_OK;
}

/* Every registry algorithm with a topology of its own for this cluster; pipelined ones at
   P = 1, 2, 4, ... until a depth is not available (deeper ones need the same ports). */
static int build_baselines(tc_plan *p, tc_progress_fn progress, void *ctx, tc_error *err) {
  int rc = TC_OK, count = tc_algorithm_count();
  for (int i = 0; !rc && i < count; i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    tci_progress(progress, ctx, i, count, "baselines: %s on its own topology", a->name);
    tc_graph *g = NULL;
    char desc[64];
    tc_error why;
    tc_error_clear(&why);
    int built = tc_algorithm_home(a, p->find.nodes, p->find.degree, p->find.bidirectional, &g, desc, sizeof desc, &why);
    if (built == TC_ALGO_NO_HOME) continue;
    int32_t top = tc_algorithm_pipelined(a) ? TC_PIPELINE_MAX : 1;
    for (int32_t P = 1; !rc && P <= top && p->nbaselines < TC_PLAN_MAX_BASELINES; P *= 2) {
      rc = measure_baseline(p, a, g, desc, P, built, &why, err);
      if (!p->baseline[p->nbaselines - 1].available) break;
    }
    tc_graph_destroy(g);
  }
  if (!rc) tci_progress(progress, ctx, count, count, "baselines: built and verified");
  return rc;
}

/* ---- tc_plan_make ---- */

/* What a plan for N nodes holds at its peak, per pair N(N-1): the chosen member's three
   schedules and the baselines' allreduces built beside them. Measured as the peak resident
   size (GNU time %M) of `topocoll plan --nodes N --degree 4 --alpha 10us --link-bw 25Gbps
   --size 1MB`: 697 MB at N = 1024 (665 B per pair), 2.83 GB at N = 2048 (675 B). */
#define PLAN_BYTES_PER_PAIR 680.0

/* Refuse a plan whose schedules cannot fit, before the finder runs. */
static int check_memory(int32_t nodes, tc_error *err) {
  char what[64], count[32], detail[96];
  double n = nodes;
  snprintf(what, sizeof what, "a plan for %d nodes", nodes);
  tci_budget_format_count(tci_collective_transfers(nodes, TC_COLL_ALLGATHER) * 4, count, sizeof count);
  snprintf(detail, sizeof detail, "%s transfers in its three schedules", count);
  return tci_budget_check(PLAN_BYTES_PER_PAIR * n * (n - 1), what, detail, err);
}

int tci_plan_check_workload(const tc_workload *w, tc_error *err) {
  if (w->count < 1 || w->count > MAX_SIZES)
    return tc_error_set(err, TC_EINPUT, "the workload needs 1..%d sizes (got %d)", MAX_SIZES, w->count);
  if (!(w->alpha_s >= 0) || !isfinite(w->alpha_s))
    return tc_error_set(err, TC_EINPUT, "alpha must be a finite time >= 0");
  if (!(w->link_bw > 0) || !isfinite(w->link_bw))
    return tc_error_set(err, TC_EINPUT, "the link bandwidth must be positive");
  for (int32_t i = 0; i < w->count; i++)
    if (!(w->bytes[i] > 0) || !(w->weight[i] > 0) || !isfinite(w->weight[i]))
      return tc_error_set(err, TC_EINPUT, "size %d needs a positive size and weight", i + 1);
  if (!(w->a2a_bytes >= 0) || !isfinite(w->a2a_bytes) || !(w->a2a_weight >= 0) || !isfinite(w->a2a_weight) ||
      !(w->a2a_time_limit >= 0) || !isfinite(w->a2a_time_limit))
    return tc_error_set(err, TC_EINPUT, "the all-to-all size, weight and time limit must be finite and >= 0");
  if (w->a2a_bytes > 0 && !(w->a2a_weight > 0))
    return tc_error_set(err, TC_EINPUT, "all-to-alls of %.0f bytes need a positive weight", w->a2a_bytes);
  return TC_OK;
}

int tc_plan_make(const tc_find_options *find, const tc_workload *w, tc_progress_fn progress, void *ctx,
                 tc_plan *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_plan_check_workload(w, err);
  if (!rc) rc = check_memory(find->nodes, err);
  if (!rc && find->bidirectional && find->nodes % 2 && find->degree % 2)
    rc = tc_error_set(err, TC_EINPUT, "duplex links pair up ports, so N*d must be even (N = %d, d = %d); simplex "
                      "fibres can cable it (--links simplex)", find->nodes, find->degree);
  if (rc) return rc;
  out->find = *find;
  out->find.build = 0;
  out->workload = *w;
  tci_progress(progress, ctx, 0, 0, "finding the Pareto frontier for N = %d, d = %d", find->nodes, find->degree);
  rc = tc_find(&out->find, &out->frontier, err);
  if (!rc && out->frontier.count < 1)
    rc = tc_error_set(err, TC_EFAIL, "the finder found no topology for N = %d, d = %d", find->nodes,
                      find->degree);
  const int a2a = w->a2a_bytes > 0;
  if (!rc && a2a) rc = tci_plan_certify_a2a(out, progress, ctx, err);
  if (!rc) {
    out->chosen = tc_frontier_choose(&out->frontier, w);
    snprintf(out->spec, sizeof out->spec, "%s", out->frontier.member[out->chosen].spec);
    rc = build_chosen(out, progress, ctx, err);
  }
  if (!rc) {
    tci_progress(progress, ctx, 0, 0, "predicting the choice with %s links",
                           find->bidirectional ? "simplex" : "duplex");
    rc = tci_plan_other_links(out, err);
  }
  if (!rc && a2a) rc = tci_plan_alltoall(out, progress, ctx, err);
  if (!rc) rc = tci_plan_resilience(out, progress, ctx, err);
  if (!rc) rc = build_forestcoll(out, progress, ctx, err);
  if (!rc) rc = build_baselines(out, progress, ctx, err);
  if (rc) tc_plan_destroy(out);
  return rc;
}

void tc_plan_destroy(tc_plan *p) {
  tc_frontier_destroy(&p->frontier);
  tc_graph_destroy(p->graph);
  tc_schedule_destroy(&p->allgather);
  tc_schedule_destroy(&p->reduce_scatter);
  tc_schedule_destroy(&p->allreduce);
  tc_cost_destroy(&p->allgather_cost);
  tc_cost_destroy(&p->reduce_scatter_cost);
  tc_cost_destroy(&p->allreduce_cost);
  tci_plan_forestcoll_destroy(&p->forestcoll);
  tci_plan_alltoall_destroy(p);
  free(p->compare);
  memset(p, 0, sizeof *p);
}
