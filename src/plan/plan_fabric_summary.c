/*
** plan_fabric_summary.c — summary.md of a fabric plan (tc_plan_fabric_make, plan.h): the
** fabric, what was built, the optimum with its certificate (each part's bottleneck cut, which
** anyone can re-add from the fabric), the predicted allreduce time per size of every
** candidate with the one chosen, and the comparison with the best ring.
**
** Every time is steps·α + tau·M/B measured by tc_schedule_cost on a verified schedule,
** except the "fluid optimum" column, which is M / algbw of the verified forest (no latency:
** the bound the pipelined schedules approach as P grows).
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/units.h"

static void fmt_time(double s, char *buf, size_t size) { tc_units_format_time(s, TC_UNITS_TIME_MICRO_SIGN, buf, size); }
static void fmt_size(double bytes, char *buf, size_t size) { tc_units_format_size((int64_t)bytes, buf, size); }

/* A forest's algbw in bytes/s: capacity units times the bandwidth of capacity 1. */
static double algbw_bytes(const tc_plan *p, tc_rat algbw) { return tc_rat_to_double(algbw) * p->workload.link_bw; }

static void write_fabric(FILE *f, const tc_plan *p) {
  const tc_workload *w = &p->workload;
  const tc_graph *g = p->graph;
  char t[64], sz[64];
  fmt_time(w->alpha_s, t, sizeof t);
  fprintf(f, "# topocoll plan: fabric `%s`\n\n", p->spec);
  fprintf(f, "| fabric | |\n| --- | --- |\n");
  fprintf(f, "| compute nodes | %d |\n", tc_graph_count_kind(g, TC_NODE_COMPUTE));
  fprintf(f, "| switch nodes | %d |\n", tc_graph_count_kind(g, TC_NODE_SWITCH));
  fprintf(f, "| arcs | %" PRId64 " |\n", g->m);
  fprintf(f, "| per-step latency α | %s |\n", t);
  fprintf(f, "| bandwidth of capacity 1 | %.6g GB/s |\n", w->link_bw * 1e-9);
  fprintf(f, "| allreduce sizes M (weight) |");
  for (int32_t i = 0; i < w->count; i++) {
    fmt_size(w->bytes[i], sz, sizeof sz);
    fprintf(f, "%s %s (%g)", i ? "," : "", sz, w->weight[i]);
  }
  fprintf(f, " |\n\n");
}

static void write_part_certificate(FILE *f, const tc_plan *p, const tc_forest_part *part) {
  const tc_forest_optimum *o = &part->opt;
  const tc_forest *forest = &p->forestcoll.forest;
  char r[64], cut[128];
  tc_rat_format(o->inv_x, r, sizeof r);
  if (forest->weights)
    snprintf(cut, sizeof cut, "holding %" PRId64 " of the W = %" PRId64 " shares", o->cut_compute,
             forest->weight_total);
  else snprintf(cut, sizeof cut, "of %" PRId64 " compute nodes", o->cut_compute);
  fprintf(f, "- %s (%s, k = %" PRId64 " per %s): algbw %.6g GB/s; bottleneck cut %s with %" PRId64
          " capacity leaving, 1/x* = %s; S* = {",
          part->in_trees ? "reduce-scatter" : "allgather", part->in_trees ? "in-trees on the transpose" : "out-trees",
          o->k, forest->weights ? "share" : "node", algbw_bytes(p, part->algbw) * 1e-9, cut, o->cut_exit, r);
  for (int32_t i = 0, j; i < o->cut_len; i = j + 1) { /* runs of consecutive ids as "a-b" */
    for (j = i; j + 1 < o->cut_len && o->cut[j + 1] == o->cut[j] + 1;) j++;
    if (j > i) fprintf(f, "%s%d-%d", i ? "," : "", o->cut[i], o->cut[j]);
    else fprintf(f, "%s%d", i ? "," : "", o->cut[i]);
  }
  fprintf(f, "}\n");
}

static void write_built(FILE *f, const tc_plan *p) {
  const tc_plan_forestcoll *fc = &p->forestcoll;
  char tau[64];
  fprintf(f, "## What was built\n\nEvery schedule passed the independent verifier; costs are measured on the "
          "schedules (tc_schedule_cost). No topology search: the fabric is given.\n\n");
  for (int i = 0; i < fc->ncoll; i++) {
    tc_rat_format(fc->cost[i].tau, tau, sizeof tau);
    fprintf(f, "- ForestColl %s, pipelined at P = %" PRId64 " (the fastest of P = 1, 2, 4, ..., %d at the "
            "largest size): T_L = %dα, T_B = %s M/B (B = %" PRId64 "·b)\n",
            tc_collective_name(fc->coll[i]), fc->chunks[i], TC_PIPELINE_MAX, fc->cost[i].steps, tau,
            fc->cost[i].degree);
  }
  if (p->has_member) {
    const tc_cost *c[3] = {&p->allgather_cost, &p->reduce_scatter_cost, &p->allreduce_cost};
    static const char *const names[3] = {"allgather", "reduce-scatter", "allreduce"};
    for (int i = 0; i < 3; i++) {
      tc_rat_format(c[i]->tau, tau, sizeof tau);
      fprintf(f, "- BFB %s: T_L = %dα, T_B = %s M/B (B = %" PRId64 "·b)\n", names[i], c[i]->steps, tau,
              c[i]->degree);
    }
  } else {
    fprintf(f, "- BFB: not applicable (%s)\n", p->member_note);
  }
  if (fc->forest.weights)
    fprintf(f, "\n## The optimum and its certificate (paper 001, eq. (1), weighted roots)\n\n"
            "With these shares (W in all, w_v of them at node v) no allgather or reduce-scatter of any kind beats "
            "algbw = W·x*, 1/x* = max over cuts S of w(S ∩ V_c) / B⁺(S): re-add the capacities of the arcs "
            "leaving S* to check it. ForestColl's trees reach it (measured on the trees); the allreduce is "
            "reduce-scatter then allgather, algbw %.6g GB/s.\n\n", algbw_bytes(p, fc->forest.algbw) * 1e-9);
  else
    fprintf(f, "\n## The optimum and its certificate (paper 001, eq. (1))\n\n"
            "No allgather or reduce-scatter of any kind beats algbw = N·x*, 1/x* = max over cuts S of "
            "|S ∩ V_c| / B⁺(S): re-add the capacities of the arcs leaving S* to check it. ForestColl's "
            "trees reach it (measured on the trees); the allreduce is reduce-scatter then allgather, "
            "algbw %.6g GB/s.\n\n", algbw_bytes(p, fc->forest.algbw) * 1e-9);
  for (int i = 0; i < fc->forest.nparts; i++) write_part_certificate(f, p, &fc->forest.part[i]);
  fprintf(f, "\n");
  tci_plan_forestcoll_weights_line(f, p);
}

/* The fastest forestcoll allreduce depth at `bytes`. */
static const tc_plan_baseline *best_depth(const tc_plan *p, double bytes) {
  int i = tci_plan_forestcoll_index(p, TC_COLL_ALLREDUCE);
  const tc_plan_baseline *best = NULL;
  for (int j = 0; j < TC_PLAN_DEPTHS; j++) {
    const tc_plan_baseline *b = &p->forestcoll.depth[i][j];
    if (!best || tc_plan_baseline_time(p, b, bytes) < tc_plan_baseline_time(p, best, bytes)) best = b;
  }
  return best;
}

static void write_per_size(FILE *f, const tc_plan *p) {
  const tc_workload *w = &p->workload;
  char t[64], sz[64];
  fprintf(f, "## Allreduce per size\n\nPredicted time T_L + T_B of each verified candidate; ForestColl at its "
          "fastest P for the size; the fluid optimum is M / algbw of the forest (no latency).\n\n"
          "| size | BFB | ForestColl | fluid optimum | chosen |\n| --- | ---: | ---: | ---: | --- |\n");
  for (int32_t i = 0; i < w->count; i++) {
    fmt_size(w->bytes[i], sz, sizeof sz);
    fprintf(f, "| %s |", sz);
    if (p->has_member) {
      fmt_time(tc_plan_time(p, w->bytes[i]), t, sizeof t);
      fprintf(f, " %s |", t);
    } else {
      fprintf(f, " n/a |");
    }
    const tc_plan_baseline *b = best_depth(p, w->bytes[i]);
    fmt_time(tc_plan_baseline_time(p, b, w->bytes[i]), t, sizeof t);
    fprintf(f, " %s (P = %d) |", t, b->chunks);
    fmt_time(w->bytes[i] / algbw_bytes(p, p->forestcoll.forest.algbw), t, sizeof t);
    fprintf(f, " %s |", t);
    const char *name;
    int64_t P;
    tc_plan_allreduce_at(p, w->bytes[i], &name, &P);
    if (!strcmp(name, "forestcoll")) fprintf(f, " ForestColl, P = %" PRId64 " |\n", P);
    else fprintf(f, " BFB |\n");
  }
  fprintf(f, "\n");
}

static void write_ring(FILE *f, const tc_plan *p) {
  const tc_plan_forestcoll *fc = &p->forestcoll;
  int ag = fc->forest.nparts - 1; /* the allreduce's allgather part */
  double ring = algbw_bytes(p, fc->ring_algbw), ours = algbw_bytes(p, fc->forest.part[ag].algbw);
  fprintf(f, "## Against the ring\n\nEvery ring allgather sends N−1 shards across the least cut that splits the "
          "compute nodes (capacity %" PRId64 "), so no ring, nor several in parallel, beats %.6g GB/s; "
          "ForestColl's allgather reaches %.6g GB/s, %.3f× that%s.\n\n",
          fc->ring_min_cut, ring * 1e-9, ours * 1e-9, ours / ring,
          fc->forest.weights ? " (the allreduce's allgather half, from its weighted roots rather than from equal "
                               "shards)" : "");
}

static void write_files(FILE *f, const tc_plan *p) {
  fprintf(f, "## Files\n\n"
          "- `topology.json`: the fabric (graph JSON with node kinds and capacities; "
          "`topocoll topo 'file(topology.json)'` reads it)\n"
          "- `topology.dot`: Graphviz drawing\n"
          "- `wiring.csv`: one cable per row (node, port -> node, port, capacity)\n"
          "- `forest.json`: the allreduce forest with every tree and route (docs/formats.md, \"Forest JSON\")\n"
          "- `allgather-forestcoll.json`, `reduce-scatter-forestcoll.json`, `allreduce-forestcoll.json`: "
          "ForestColl's schedules (`topocoll verify FILE` re-verifies each)\n");
  if (p->has_member)
    fprintf(f, "- `allgather-bfb.json`, `reduce-scatter-bfb.json`, `allreduce-bfb.json`: BFB's schedules\n");
}

void tci_plan_fabric_summary(const tc_plan *p, FILE *f) {
  write_fabric(f, p);
  write_built(f, p);
  write_per_size(f, p);
  write_ring(f, p);
  write_files(f, p);
}
