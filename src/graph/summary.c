/*
** summary.c — one-call graph report (contract in summary.h).
*/
#include "topocoll/summary.h"

#include <string.h>

#include "core/intmath.h"
#include "topocoll/budget.h"
#include "topocoll/iso.h"

/* The smallest and largest capacity: a fabric's links are not all alike (25..300 GB/s), and
   the report says so in one line. */
static void capacity_range(const tc_graph *g, int64_t *lo, int64_t *hi) {
  *lo = *hi = 0;
  for (int64_t a = 0; a < g->m; a++) {
    if (!a || g->cap[a] < *lo) *lo = g->cap[a];
    if (!a || g->cap[a] > *hi) *hi = g->cap[a];
  }
}

/* Why skip rather than refuse: a summary of a graph too big for all-pairs distances still
   answers most of what `topocoll topo` is asked (does the file hold what I think: N, arcs,
   degrees, loops, is it strongly connected), and those take O(N + M). */
int tc_graph_summarize_bounded(const tc_graph *g, int check_reverse_symmetry, double max_seconds,
                               tc_graph_summary *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (g->n == 0) /* no degree, distance or Moore bound means anything: refused, not "regular, diameter 0" */
    return tc_error_set(err, TC_EINPUT, "the graph has no nodes: there is nothing to report about it");
  out->nodes = g->n;
  out->arcs = g->m;
  out->out_degree = tc_graph_out_regular(g);
  out->in_degree = tc_graph_in_regular(g);
  out->regular = out->out_degree >= 0 && out->out_degree == out->in_degree;
  out->moore_degree = out->out_degree >= 0 ? out->out_degree : tc_graph_max_out_degree(g);
  out->bidirectional = g->bidirectional;
  out->self_loops = tc_graph_count_self_loops(g);
  out->multi_arcs = tc_graph_count_multi_arcs(g);
  out->switches = tc_graph_count_kind(g, TC_NODE_SWITCH);
  capacity_range(g, &out->capacity_min, &out->capacity_max);
  out->reverse_symmetric = -1;
  int rc = tc_graph_distance_cost(g, &out->distance_cost, err);
  if (rc) return rc;
  out->distances = (max_seconds <= 0 || out->distance_cost.seconds <= max_seconds) &&
                   out->distance_cost.bytes <= (double)tc_memory_limit();
  if (out->distances && (rc = tc_graph_distance_stats(g, &out->dist, err))) return rc;
  if (!out->distances) out->dist.strongly_connected = out->distance_cost.strongly_connected;
  int64_t g_sum = tci_gcd64(out->dist.distance_sum, out->dist.pairs);
  if (g_sum) {
    out->avg_distance_num = out->dist.distance_sum / g_sum;
    out->avg_distance_den = out->dist.pairs / g_sum;
  }
  out->moore_diameter = tc_moore_diameter_directed(g->n, out->moore_degree);
  out->moore_diameter_undirected = tc_moore_diameter_undirected(g->n, out->moore_degree);
  out->moore_optimal = out->distances && out->dist.strongly_connected && out->dist.diameter == out->moore_diameter;
  /* BLISS's time has no estimate and grows faster than the BFS's on large sparse graphs
     (16 M nodes and one arc: 2 GB and more than 20 s), so a graph beyond the distances'
     bound is beyond it too: reverse_symmetric stays -1. */
  if (check_reverse_symmetry && out->distances) {
    rc = tc_graph_reverse_symmetry(g, &out->reverse_symmetric, NULL, err);
    if (rc) { tc_graph_summary_destroy(out); return rc; }
  }
  return TC_OK;
}

int tc_graph_summarize(const tc_graph *g, int check_reverse_symmetry, tc_graph_summary *out, tc_error *err) {
  return tc_graph_summarize_bounded(g, check_reverse_symmetry, 0, out, err);
}

void tc_graph_summary_destroy(tc_graph_summary *s) { tc_distance_stats_destroy(&s->dist); }
