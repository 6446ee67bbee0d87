/*
** plan_compare.c — the alternatives a user is deciding between, beside the plan's choice
** (contract in plan.h, tc_plan_compare; issue #14 §4).
**
** An alternative is judged the way it would run: a topology with its own best algorithm
** (a ring on a ring, not a ring embedded where it cannot run), so for a spec every registry
** algorithm that builds an allreduce on it is tried — tc_collective_build refuses those
** that cannot run there, and they are skipped — and for an algorithm name its own home
** topology (tc_algorithm_home). Every schedule kept is verified and costed by
** tc_collective_build; per size the fastest (algorithm, P) wins, times by the plan's one
** formula (tci_plan_time_of). Pipelined algorithms go through P = 1, 2, ..., 64 and stop at
** the first depth that cannot be built; ForestColl is tried only where the plan itself
** tries it (TC_PLAN_FOREST_MAX_NODES: it takes seconds per hundred nodes).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/spec.h"
#include "topocoll/units.h"

/* Build algorithm a's allreduce on g at depth P and keep, per size, what beats the best so
   far. *built is 1 when it could be built here. Refusals (EINPUT, ERANGE) are not errors. */
static int try_one(const tc_graph *g, const tc_spec *spec, const tc_algorithm_info *a, int32_t P, int32_t degree,
                   const tc_workload *w, tc_plan_alternative *out, int *built, tc_error *err) {
  *built = 0;
  tc_schedule s;
  tc_cost c;
  tc_error why;
  tc_error_clear(&why);
  tc_collective_opts opts = {.chunks = tc_algorithm_pipelined(a) ? P : 0, .spec = spec};
  int rc = tc_collective_build(g, a->name, TC_COLL_ALLREDUCE, &opts, &s, &c, &why);
  if (rc == TC_EINPUT || rc == TC_ERANGE) return TC_OK;
  if (rc) {
    *err = why;
    return rc;
  }
  if (c.degree <= degree) {
    *built = 1;
    for (int32_t i = 0; i < w->count; i++) {
      double t = tci_plan_time_of(c.steps, c.tau, c.degree, w, w->bytes[i]);
      if (out->time_s[i] < 0 || t < out->time_s[i]) {
        out->time_s[i] = t;
        snprintf(out->algorithm[i], sizeof out->algorithm[i], "%s", a->name);
        out->chunks[i] = tc_algorithm_pipelined(a) ? P : 1;
      }
    }
  }
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  return TC_OK;
}

/* Algorithm a on g at every depth worth trying. */
static int try_algorithm(const tc_graph *g, const tc_spec *spec, const tc_algorithm_info *a, int32_t degree,
                         const tc_workload *w, tc_plan_alternative *out, tc_error *err) {
  int32_t top = tc_algorithm_pipelined(a) ? TC_PIPELINE_MAX : 1;
  for (int32_t P = 1; P <= top; P *= 2) {
    int built = 0, rc = try_one(g, spec, a, P, degree, w, out, &built, err);
    if (rc || !built) return rc;
  }
  return TC_OK;
}

static int32_t max_out_degree(const tc_graph *g) {
  int32_t most = 0;
  for (int32_t u = 0; u < g->n; u++)
    if (g->out_off[u + 1] - g->out_off[u] > most) most = (int32_t)(g->out_off[u + 1] - g->out_off[u]);
  return most;
}

/* Every allreduce algorithm on the topology `item` builds. */
static int compare_spec(const char *item, int32_t nodes, int32_t degree, const tc_workload *w, tc_plan_alternative *out,
                        tc_error *err) {
  tc_spec *spec = NULL;
  tc_graph *g = NULL;
  int rc = tc_spec_parse(item, &spec, err);
  if (!rc) rc = tc_spec_eval(spec, NULL, &g, err);
  if (!rc && g->n != nodes)
    rc = tc_error_set(err, TC_EINPUT, "%s has %d nodes; the cluster has %d", item, g->n, nodes);
  if (!rc && max_out_degree(g) > degree)
    rc = tc_error_set(err, TC_EINPUT, "%s needs %d ports on some node; the cluster has %d", item, max_out_degree(g),
                      degree);
  for (int i = 0; !rc && i < tc_algorithm_count(); i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    if (!(a->collectives & TC_COLL_BIT(TC_COLL_ALLREDUCE))) continue;
    if (!strcmp(a->name, "forestcoll") && g->n > TC_PLAN_FOREST_MAX_NODES) continue;
    rc = try_algorithm(g, spec, a, degree, w, out, err);
  }
  if (!rc && out->time_s[0] < 0) rc = tc_error_set(err, TC_EINPUT, "no algorithm builds an allreduce on %s", item);
  if (!rc) snprintf(out->topology, sizeof out->topology, "%s", item);
  tc_graph_destroy(g);
  tc_spec_destroy(spec);
  return rc;
}

/* Algorithm `a` on its own topology for the cluster. */
static int compare_algorithm(const tc_algorithm_info *a, int32_t nodes, int32_t degree, int bidirectional,
                             const tc_workload *w, tc_plan_alternative *out, tc_error *err) {
  tc_graph *g = NULL;
  int rc = tc_algorithm_home(a, nodes, degree, bidirectional, &g, out->topology, sizeof out->topology, err);
  /* simplex fibres can cable a bidirectional home too (biring); duplex cables no one-way one */
  if (rc == TC_ALGO_NO_HOME && !bidirectional)
    rc = tc_algorithm_home(a, nodes, degree, 1, &g, out->topology, sizeof out->topology, err);
  if (rc == TC_ALGO_NO_HOME)
    return tc_error_set(err, TC_EINPUT, "%s has no topology of its own for %d nodes of %d %s ports; name a topology "
                        "instead", a->name, nodes, degree, bidirectional ? "duplex" : "simplex");
  if (rc) {
    tc_error_prefix(err, "%s", a->name);
    return rc;
  }
  rc = try_algorithm(g, NULL, a, degree, w, out, err);
  if (!rc && out->time_s[0] < 0)
    rc = tc_error_set(err, TC_EINPUT, "%s on %s does not fit %d ports per node", a->name, out->topology, degree);
  tc_graph_destroy(g);
  return rc;
}

int tc_plan_compare(const char *item, int32_t nodes, int32_t degree, int bidirectional, const tc_workload *w,
                    tc_plan_alternative *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_plan_check_workload(w, err);
  if (rc) return rc;
  if (!item || !*item) return tc_error_set(err, TC_EINPUT, "an empty alternative");
  if (strlen(item) >= sizeof out->item) return tc_error_set(err, TC_EINPUT, "alternative '%.40s...' is too long", item);
  snprintf(out->item, sizeof out->item, "%s", item);
  out->count = w->count;
  for (int32_t i = 0; i < w->count; i++) out->time_s[i] = -1;
  const tc_algorithm_info *a = tc_algorithm_find(item);
  rc = a ? compare_algorithm(a, nodes, degree, bidirectional, w, out, err)
         : compare_spec(item, nodes, degree, w, out, err);
  if (rc) {
    memset(out, 0, sizeof *out);
    return rc;
  }
  double sum = 0, wsum = 0;
  for (int32_t i = 0; i < w->count; i++) {
    sum += w->weight[i] * out->time_s[i];
    wsum += w->weight[i];
  }
  out->expected_s = sum / wsum;
  return TC_OK;
}

/* "bfb", or "dbt, P = 8" */
static void format_algo(const tc_plan_alternative *x, int32_t i, char *buf, size_t size) {
  if (x->chunks[i] > 1) snprintf(buf, size, "%s, P = %" PRId64, x->algorithm[i], x->chunks[i]);
  else snprintf(buf, size, "%s", x->algorithm[i]);
}

void tci_plan_compare_summary(FILE *f, const tc_plan *p) {
  if (p->ncompare < 1) return;
  const tc_workload *w = &p->workload;
  fprintf(f, "## Your alternatives\n\nEach on its own topology with its own fastest verified allreduce per size "
             "(every algorithm that runs there tried; in parentheses the algorithm, and the ratio to the "
             "chosen topology's time):\n\n| size | `%s` |",
          p->spec);
  for (int32_t j = 0; j < p->ncompare; j++) fprintf(f, " `%s` |", p->compare[j].item);
  fprintf(f, "\n| --- | ---: |");
  for (int32_t j = 0; j < p->ncompare; j++) fprintf(f, " ---: |");
  fprintf(f, "\n");
  double ours_sum = 0, wsum = 0;
  for (int32_t i = 0; i < w->count; i++) {
    char sz[64], t[64], algo[64];
    double ours = tc_plan_allreduce_at(p, w->bytes[i], NULL, NULL);
    ours_sum += w->weight[i] * ours;
    wsum += w->weight[i];
    tc_units_format_size((int64_t)w->bytes[i], sz, sizeof sz);
    tc_units_format_time(ours, TC_UNITS_TIME_MICRO_SIGN, t, sizeof t);
    fprintf(f, "| %s | %s |", sz, t);
    for (int32_t j = 0; j < p->ncompare; j++) {
      const tc_plan_alternative *x = &p->compare[j];
      tc_units_format_time(x->time_s[i], TC_UNITS_TIME_MICRO_SIGN, t, sizeof t);
      format_algo(x, i, algo, sizeof algo);
      fprintf(f, " %s (%s, %.2f×) |", t, algo, x->time_s[i] / ours);
    }
    fprintf(f, "\n");
  }
  char t[64];
  tc_units_format_time(ours_sum / wsum, TC_UNITS_TIME_MICRO_SIGN, t, sizeof t);
  fprintf(f, "| expected | %s |", t);
  for (int32_t j = 0; j < p->ncompare; j++) {
    tc_units_format_time(p->compare[j].expected_s, TC_UNITS_TIME_MICRO_SIGN, t, sizeof t);
    fprintf(f, " %s (%.2f×) |", t, p->compare[j].expected_s / (ours_sum / wsum));
  }
  fprintf(f, "\n\nTopologies: ");
  for (int32_t j = 0; j < p->ncompare; j++)
    fprintf(f, "%s`%s` on `%s`", j ? "; " : "", p->compare[j].item, p->compare[j].topology);
  fprintf(f, ".\n\n");
}
