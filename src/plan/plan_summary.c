/*
** plan_summary.c — summary.md of a plan (contract in plan.h): the cluster, the choice and
** why, the finder's frontier, and the chosen schedules against the baselines. Every time
** in it is steps*α + tau*M/B with steps and tau measured by tc_schedule_cost on a verified
** schedule, except the frontier's prediction tables, which are the finder's and say so.
** All-to-all values (workload with all-to-alls) are certified: f exact or its certified
** bounds with the gap, times at the lower bound.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/io_atomic.h"
#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/plan.h"
#include "topocoll/units.h"

/* The summary's times and sizes are the library's (units.h); markdown takes "µs". */
static void format_time(double s, char *buf, size_t size) {
  tc_units_format_time(s, TC_UNITS_TIME_MICRO_SIGN, buf, size);
}

/* Workload sizes are whole byte counts held as doubles (tc_workload_parse_sizes). */
static void format_size(double bytes, char *buf, size_t size) { tc_units_format_size((int64_t)bytes, buf, size); }

/* "21/16", or "24" for a whole number. */
static void format_rat(tc_rat r, char *buf, size_t size) { tc_rat_format(r, buf, (int)size); }

static double weight_sum(const tc_workload *w) {
  double s = 0;
  for (int32_t i = 0; i < w->count; i++) s += w->weight[i];
  return s;
}

/* Predicted allreduce time of member c at one size (the finder's model, one-size workload). */
static double member_time(const tc_plan *p, const tc_candidate *c, double bytes) {
  tc_workload one = p->workload;
  one.count = 1;
  one.bytes[0] = bytes;
  one.weight[0] = 1;
  return tc_candidate_allreduce_time(c, &one);
}

static void write_cluster(FILE *f, const tc_plan *p) {
  const tc_workload *w = &p->workload;
  char t[64], sz[64];
  format_time(w->alpha_s, t, sizeof t);
  fprintf(f, "# topocoll plan: %d nodes, %d ports each\n\n", p->find.nodes, p->find.degree);
  fprintf(f, "| cluster | |\n| --- | --- |\n");
  fprintf(f, "| nodes N | %d |\n", p->find.nodes);
  fprintf(f, "| ports per node d | %d (%s) |\n", p->find.degree,
          p->find.bidirectional ? "duplex links: bidirectional topologies only" : "simplex links: any topology");
  fprintf(f, "| per-step latency α | %s |\n", t);
  fprintf(f, "| link bandwidth b | %.6g Gbit/s (node bandwidth B = d·b = %.6g Gbit/s) |\n", w->link_bw * 8e-9,
          w->link_bw * 8e-9 * p->find.degree);
  fprintf(f, "| allreduce sizes M (weight) |");
  for (int32_t i = 0; i < w->count; i++) {
    format_size(w->bytes[i], sz, sizeof sz);
    fprintf(f, "%s %s (%g)", i ? "," : "", sz, w->weight[i]);
  }
  fprintf(f, " |\n");
  if (w->a2a_bytes > 0) {
    format_size(w->a2a_bytes, sz, sizeof sz);
    fprintf(f, "| all-to-all: bytes each node sends M (per allreduce) | %s (%g) |\n", sz, w->a2a_weight);
  }
  fprintf(f, "\n");
}

/* A member's certified f: "2/35" exact, else "≥ 0.021708 (gap 7e-10)". */
static void format_mcf(const tc_candidate *c, char *buf, size_t size) {
  char exact[64];
  format_rat(c->a2a_lower, exact, sizeof exact);
  if (c->a2a_exact) snprintf(buf, size, "%s = %.3g", exact, tc_rat_to_double(c->a2a_lower));
  else snprintf(buf, size, "≥ %.6g (gap %.1e)", tc_rat_to_double(c->a2a_lower), c->a2a_gap);
}

static void write_choice(FILE *f, const tc_plan *p) {
  const tc_candidate *c = &p->frontier.member[p->chosen];
  const tc_workload *w = &p->workload;
  char t[64], ag[64], rs[64], ar[64], sz[64];
  format_time(tc_candidate_allreduce_time(c, w), t, sizeof t);
  format_rat(p->allgather_cost.tau, ag, sizeof ag);
  format_rat(p->reduce_scatter_cost.tau, rs, sizeof rs);
  format_rat(p->allreduce_cost.tau, ar, sizeof ar);
  if (p->has_a2a) {
    char total[64];
    format_time(tc_candidate_workload_time(c, w), total, sizeof total);
    fprintf(f, "## Choice\n\n**`%s`** (%s): the least expected time of the Pareto frontier, %s: the allreduce "
            "%s (predicted; weighted mean over the sizes) plus %g all-to-all(s) at the certified MCF.\n\n",
            c->spec, c->label, total, t, w->a2a_weight);
  } else {
    fprintf(f, "## Choice\n\n**`%s`** (%s): the least expected allreduce time of the Pareto frontier, %s "
            "(predicted; weighted mean over the sizes).\n\n", c->spec, c->label, t);
  }
  fprintf(f, "Built and verified (every schedule passed the independent verifier; costs measured on "
          "the schedules):\n\n");
  fprintf(f, "- topology: %d nodes, degree %d, diameter %d, average distance %.4f; how the costs are known: "
          "%s\n", p->graph->n, c->degree, c->diameter, c->avg_distance, c->source);
  fprintf(f, "- allgather: T_L = %dα, T_B = %s M/B (predicted %dα, %s%.3f M/B)\n", p->allgather_cost.steps, ag,
          c->steps, c->tau_is_bound ? "≤ " : "", tc_rat_to_double(c->tau));
  fprintf(f, "- reduce-scatter: T_L = %dα, T_B = %s M/B, by %s\n", p->reduce_scatter_cost.steps, rs,
          p->reverse_symmetric ? "Theorem 2 (G ≅ G^T: the reverse of the allgather, relabelled)"
                               : "Corollary 1.1 (G is not reverse-symmetric: the reverse of the BFB "
                                 "allgather on G^T)");
  fprintf(f, "- allreduce = reduce-scatter + allgather: T_L = %dα, T_B = %s M/B\n\n", p->allreduce_cost.steps, ar);
  fprintf(f, "Why: the predicted allreduce time 2(T_L + T_B) of every frontier member at each size "
          "(paper 000 §5.4: small sizes favour few steps, large ones a small T_B):\n\n| topology |");
  for (int32_t i = 0; i < w->count; i++) {
    format_size(w->bytes[i], sz, sizeof sz);
    fprintf(f, " %s |", sz);
  }
  fprintf(f, " expected |");
  if (p->has_a2a) fprintf(f, " MCF f (certified) | all-to-all | expected total |");
  fprintf(f, "\n| --- |");
  for (int32_t i = 0; i <= w->count; i++) fprintf(f, " ---: |");
  if (p->has_a2a) fprintf(f, " ---: | ---: | ---: |");
  fprintf(f, "\n");
  for (int32_t k = 0; k < p->frontier.count; k++) {
    const tc_candidate *m = &p->frontier.member[k];
    fprintf(f, k == p->chosen ? "| **`%s`** (chosen) |" : "| `%s` |", m->spec);
    for (int32_t i = 0; i < w->count; i++) {
      format_time(member_time(p, m, w->bytes[i]), t, sizeof t);
      fprintf(f, " %s |", t);
    }
    format_time(tc_candidate_allreduce_time(m, w), t, sizeof t);
    fprintf(f, " %s |", t);
    if (p->has_a2a) {
      char mcf[96];
      format_mcf(m, mcf, sizeof mcf);
      format_time(tc_candidate_alltoall_time(m, w), t, sizeof t);
      fprintf(f, " %s | %s |", mcf, t);
      format_time(tc_candidate_workload_time(m, w), t, sizeof t);
      fprintf(f, " %s |", t);
    }
    fprintf(f, "\n");
  }
  fprintf(f, "\n");
  if (p->has_a2a)
    fprintf(f, "The all-to-all time is (M/N)/(f·b) at the certified lower bound of f (paper 000 App. A.5): a rate "
            "a checked flow achieves, with no latency term.\n\n");
}

/* The chosen topology's all-to-all: its certified f, the schedules tried, the one written. */
static void write_alltoall(FILE *f, const tc_plan *p) {
  if (!p->has_a2a) return;
  const tc_candidate *c = &p->frontier.member[p->chosen];
  const tc_workload *w = &p->workload;
  const double m = w->a2a_bytes;
  char mcf[96], up[64], t[64], sz[64], tau[64];
  format_mcf(c, mcf, sizeof mcf);
  format_rat(c->a2a_upper, up, sizeof up);
  format_size(m, sz, sizeof sz);
  const double fluid = tc_candidate_alltoall_time(c, w);
  format_time(fluid, t, sizeof t);
  fprintf(f, "## All-to-all on the chosen topology (paper 003)\n\n"
          "Maximum concurrent multi-commodity flow f = %s (certified: a checked flow reaches the lower bound, "
          "dual lengths prove f ≤ %s); the fluid all-to-all of %s per node takes %s at that rate.\n\n"
          "Step schedules tried (each verified; T_L, T_B measured), the fastest at %s written:\n\n"
          "| schedule | T_L | T_B | time at %s | vs fluid |\n| --- | ---: | ---: | ---: | ---: |\n",
          mcf, up, sz, t, sz, sz);
  for (int32_t i = 0; i < p->na2a; i++) {
    const tc_plan_baseline *e = &p->a2a[i];
    const tc_algorithm_info *a = tc_algorithm_find(e->name);
    const char *title = a ? a->title : e->name;
    if (!e->available) {
      fprintf(f, "| %s (`%s`) | – | – | not built: %s | |\n", title, e->name, e->note);
      continue;
    }
    format_rat(e->tau, tau, sizeof tau);
    double et = tc_plan_baseline_time(p, e, m);
    format_time(et, t, sizeof t);
    fprintf(f, i == p->a2a_chosen ? "| **%s (`%s`)**, written |" : "| %s (`%s`) |", title, e->name);
    fprintf(f, " %dα | %s M/B | %s | %.2f× |\n", e->steps, tau, t, et / fluid);
  }
  fprintf(f, "\n`alltoall.json` is the %s schedule%s.\n\n", p->a2a[p->a2a_chosen].name,
          p->has_a2a_routing ? "; `alltoall.routes` its routing (route file)" : "");
}

static void write_frontier(FILE *f, const tc_plan *p) {
  const tc_frontier *fr = &p->frontier;
  char exact[64];
  fprintf(f, "## Pareto frontier (paper 000 §5.4, as Tables 4 and 7)\n\n"
          "Predicted by the finder from the expansion theorems and the base database; "
          "\"≤\" marks an upper bound (Theorem 7 without Theorem 10).\n\n"
          "| topology | class | T_L | T_B | exact T_B factor | D(G) |%s how known |\n"
          "| --- | --- | ---: | ---: | ---: | ---: |%s --- |\n",
          p->has_a2a ? " MCF f |" : "", p->has_a2a ? " ---: |" : "");
  for (int32_t k = 0; k < fr->count; k++) {
    const tc_candidate *m = &fr->member[k];
    format_rat(m->tau, exact, sizeof exact);
    fprintf(f, k == p->chosen ? "| **`%s`** |" : "| `%s` |", m->spec);
    fprintf(f, " %s | %dα | %s%.3f M/B | %s | ", m->label, m->steps, m->tau_is_bound ? "≤ " : "",
            tc_rat_to_double(m->tau), exact);
    if (m->diameter >= 0) fprintf(f, "%d |", m->diameter);
    else fprintf(f, "– |");
    if (p->has_a2a) {
      char mcf[96];
      format_mcf(m, mcf, sizeof mcf);
      fprintf(f, " %s |", mcf);
    }
    fprintf(f, " %s |\n", m->source);
  }
  format_rat(fr->bound_tau, exact, sizeof exact);
  fprintf(f, "| theoretical bound | | %dα | %.3f M/B | %s | %d |", fr->bound_steps, tc_rat_to_double(fr->bound_tau),
          exact, fr->bound_steps);
  if (p->has_a2a) {
    format_rat(fr->bound_mcf, exact, sizeof exact);
    fprintf(f, " %s = %.3g |", exact, tc_rat_to_double(fr->bound_mcf));
  }
  fprintf(f, " %s%s |\n\n",
          p->find.bidirectional ? "undirected Moore bound T_L** (Table 8), Thm 4"
                                : "Moore bound T_L* (Def. 10), Thm 4",
          p->has_a2a ? "; MCF d/S_min (paper 003 Thm 1)" : "");
}

/* The index of the fastest available entry named `name` at `bytes`, or -1. */
static int32_t best_variant(const tc_plan *p, const char *name, double bytes) {
  int32_t best = -1;
  for (int32_t i = 0; i < p->nbaselines; i++) {
    const tc_plan_baseline *b = &p->baseline[i];
    if (!b->available || strcmp(b->name, name)) continue;
    if (best < 0 || tc_plan_baseline_time(p, b, bytes) < tc_plan_baseline_time(p, &p->baseline[best], bytes))
      best = i;
  }
  return best;
}

/* The distinct baseline names, in first-appearance order. */
static int32_t baseline_names(const tc_plan *p, const char **names) {
  int32_t k = 0;
  for (int32_t i = 0; i < p->nbaselines; i++) {
    int seen = 0;
    for (int32_t j = 0; j < k; j++) seen |= !strcmp(names[j], p->baseline[i].name);
    if (!seen) names[k++] = p->baseline[i].name;
  }
  return k;
}

/* 1 if the plan measured the algorithm at several pipelining depths (registry). */
static int pipelined(const char *name) {
  const tc_algorithm_info *a = tc_algorithm_find(name);
  return a && tc_algorithm_pipelined(a);
}

/* The algorithm's name in tables, from the registry. */
static const char *baseline_title(const char *name) {
  const tc_algorithm_info *a = tc_algorithm_find(name);
  return a ? a->title : name;
}

/* One cell: the best variant's time at `bytes` and its ratio to ours. */
static void write_baseline_cell(FILE *f, const tc_plan *p, const char *name, double bytes, double ours) {
  char t[64];
  int32_t v = best_variant(p, name, bytes);
  if (v < 0) {
    fprintf(f, " n/a |");
    return;
  }
  double bt = tc_plan_baseline_time(p, &p->baseline[v], bytes);
  format_time(bt, t, sizeof t);
  fprintf(f, " %s (%.2f×", t, bt / ours);
  if (pipelined(name)) fprintf(f, ", P = %d", p->baseline[v].chunks);
  fprintf(f, ") |");
}

/* Expected time of a baseline, its best variant per size; < 0 if unavailable. */
static double baseline_expected(const tc_plan *p, const char *name) {
  double sum = 0;
  for (int32_t i = 0; i < p->workload.count; i++) {
    int32_t v = best_variant(p, name, p->workload.bytes[i]);
    if (v < 0) return -1;
    sum += p->workload.weight[i] * tc_plan_baseline_time(p, &p->baseline[v], p->workload.bytes[i]);
  }
  return sum / weight_sum(&p->workload);
}

static int same_baseline(const tc_plan *p, int32_t i, int32_t j) {
  return j >= 0 && j < p->nbaselines && !strcmp(p->baseline[i].name, p->baseline[j].name);
}

/* One bullet per baseline; its pipelining depths share the bullet. */
static void write_baseline_details(FILE *f, const tc_plan *p) {
  char tau[64];
  int64_t degree = 0;
  fprintf(f, "Baseline schedules (allreduce, built by baselines.h and verified):\n\n");
  for (int32_t i = 0; i < p->nbaselines; i++) {
    const tc_plan_baseline *b = &p->baseline[i];
    if (!same_baseline(p, i, i - 1)) {
      fprintf(f, "- %s on %s:", baseline_title(b->name), b->topology);
      degree = 0;
    }
    if (same_baseline(p, i, i - 1)) fputc(';', f);
    if (pipelined(b->name)) fprintf(f, " P = %d:", b->chunks);
    if (b->available) {
      format_rat(b->tau, tau, sizeof tau);
      fprintf(f, " T_L = %dα, T_B = %s M/B", b->steps, tau);
      degree = b->degree;
    } else {
      fprintf(f, " not applicable (%s)", b->note);
    }
    if (!same_baseline(p, i, i + 1)) {
      if (degree) fprintf(f, " (B = %" PRId64 "·b)", degree);
      fprintf(f, "\n");
    }
  }
  fprintf(f, "\n");
}

static void write_baselines(FILE *f, const tc_plan *p) {
  const char *names[TC_PLAN_MAX_BASELINES];
  int32_t k = baseline_names(p, names);
  const tc_workload *w = &p->workload;
  char t[64], sz[64];
  fprintf(f, "## Against the baselines\n\nPredicted allreduce time T_L + T_B per size, each from a verified "
          "schedule's measured T_L and T_B (tc_schedule_cost); in parentheses the ratio to the chosen "
          "topology's time. The double binary tree takes its best pipelining depth P per size.\n\n"
          "| size | `%s` |", p->frontier.member[p->chosen].spec);
  for (int32_t j = 0; j < k; j++) fprintf(f, " %s |", baseline_title(names[j]));
  fprintf(f, "\n| --- | ---: |");
  for (int32_t j = 0; j < k; j++) fprintf(f, " ---: |");
  fprintf(f, "\n");
  double expected = 0;
  for (int32_t i = 0; i < w->count; i++) {
    double ours = tc_plan_time(p, w->bytes[i]);
    expected += w->weight[i] * ours;
    format_size(w->bytes[i], sz, sizeof sz);
    format_time(ours, t, sizeof t);
    fprintf(f, "| %s | %s |", sz, t);
    for (int32_t j = 0; j < k; j++) write_baseline_cell(f, p, names[j], w->bytes[i], ours);
    fprintf(f, "\n");
  }
  expected /= weight_sum(w);
  format_time(expected, t, sizeof t);
  fprintf(f, "| expected | %s |", t);
  for (int32_t j = 0; j < k; j++) {
    double bt = baseline_expected(p, names[j]);
    if (bt < 0) { fprintf(f, " n/a |"); continue; }
    format_time(bt, t, sizeof t);
    fprintf(f, " %s (%.2f×) |", t, bt / expected);
  }
  fprintf(f, "\n\n");
  write_baseline_details(f, p);
}

/* ForestColl on the chosen member: per size, its allreduce at its best P beside the
   member's, and which one the plan runs (tc_plan_allreduce_at). */
static void write_forestcoll(FILE *f, const tc_plan *p) {
  const tc_plan_forestcoll *fc = &p->forestcoll;
  const tc_workload *w = &p->workload;
  char t[64], sz[64], r[64];
  fprintf(f, "## ForestColl on the chosen topology (paper 001)\n\n");
  if (!fc->built) {
    fprintf(f, "ForestColl's allreduce: %s.\n\n", fc->note);
    return;
  }
  const tc_forest_optimum *o = &fc->forest.part[fc->forest.nparts - 1].opt;
  tc_rat_format(o->inv_x, r, sizeof r);
  char cut[128];
  if (fc->forest.weights)
    snprintf(cut, sizeof cut, "holding %" PRId64 " of the %" PRId64 " shares", o->cut_compute,
             fc->forest.weight_total);
  else snprintf(cut, sizeof cut, "of %" PRId64 " nodes", o->cut_compute);
  fprintf(f, "ForestColl's optimal allreduce trees on `%s` (bottleneck cut %s with %" PRId64
          " links leaving, 1/x* = %s), pipelined at P = 1, 2, 4, ..., %d, each verified and costed. Per "
          "size the plan runs the faster of them and the chosen topology's allreduce:\n\n"
          "| size | `%s` | ForestColl | runs |\n| --- | ---: | ---: | --- |\n",
          p->spec, cut, o->cut_exit, r, TC_PIPELINE_MAX, p->spec);
  for (int32_t i = 0; i < w->count; i++) {
    double bytes = w->bytes[i];
    const tc_plan_baseline *best = NULL;
    for (int j = 0; j < TC_PLAN_DEPTHS; j++) {
      const tc_plan_baseline *b = &fc->depth[0][j];
      if (!best || tc_plan_baseline_time(p, b, bytes) < tc_plan_baseline_time(p, best, bytes)) best = b;
    }
    format_size(bytes, sz, sizeof sz);
    format_time(tc_plan_time(p, bytes), t, sizeof t);
    fprintf(f, "| %s | %s |", sz, t);
    format_time(tc_plan_baseline_time(p, best, bytes), t, sizeof t);
    fprintf(f, " %s (P = %d) |", t, best->chunks);
    const char *name;
    int64_t P;
    tc_plan_allreduce_at(p, bytes, &name, &P);
    if (!strcmp(name, "forestcoll")) fprintf(f, " ForestColl, P = %" PRId64 " |\n", P);
    else fprintf(f, " `%s` |\n", p->spec);
  }
  if (tci_plan_forestcoll_wins(p))
    fprintf(f, "\nForestColl is faster at the largest size: its allreduce at P = %" PRId64
            " is written too, `allreduce-forestcoll.json`.\n\n", fc->chunks[0]);
  else
    fprintf(f, "\nThe chosen topology's allreduce is faster at the largest size: `allreduce.json` is the one "
            "to run.\n\n");
  tci_plan_forestcoll_weights_line(f, p);
}

static void write_files(FILE *f, const tc_plan *p) {
  fprintf(f, "## Files\n\n"
          "- `topology.json`: the graph (topocoll graph JSON; `topocoll topo 'file(topology.json)'` reads it)\n"
          "- `topology.dot`: Graphviz drawing\n"
          "- `wiring.csv`: cabling plan, one cable per row (node, port -> node, port)\n"
          "- `allgather.json`, `reduce-scatter.json`, `allreduce.json`: the schedules "
          "(`topocoll verify FILE` re-verifies each)\n");
  if (p->has_a2a)
    fprintf(f, "- `alltoall.json`: the all-to-all schedule (each rank's send buffer is M)\n");
  if (p->has_a2a_routing) fprintf(f, "- `alltoall.routes`: its routing, a route file (weighted paths per pair)\n");
}

static int summary_stream(const tc_plan *p, FILE *f) {
  if (p->fabric) {
    tci_plan_fabric_summary(p, f);
    return TC_OK;
  }
  write_cluster(f, p);
  write_choice(f, p);
  tci_plan_links_summary(f, p);
  tci_plan_compare_summary(f, p);
  tci_plan_resilience_summary(f, p);
  write_frontier(f, p);
  write_alltoall(f, p);
  write_forestcoll(f, p);
  write_baselines(f, p);
  write_files(f, p);
  if (tci_plan_forestcoll_wins(p))
    fprintf(f, "- `allreduce-forestcoll.json`: ForestColl's allreduce, faster at the largest size\n");
  return TC_OK;
}

int tc_plan_write_summary(const tc_plan *p, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  summary_stream(p, af.fp);
  return tci_atomic_commit(&af, err);
}
