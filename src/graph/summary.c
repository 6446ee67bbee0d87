/*
** summary.c — one-call graph report (contract in summary.h).
*/
#include "topocoll/summary.h"

#include <string.h>

#include "core/intmath.h"
#include "topocoll/iso.h"

int tc_graph_summarize(const tc_graph *g, int check_reverse_symmetry, tc_graph_summary *out, tc_error *err) {
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
  out->reverse_symmetric = -1;
  int rc = tc_graph_distance_stats(g, &out->dist, err);
  if (rc) return rc;
  int64_t g_sum = tci_gcd64(out->dist.distance_sum, out->dist.pairs);
  if (g_sum) {
    out->avg_distance_num = out->dist.distance_sum / g_sum;
    out->avg_distance_den = out->dist.pairs / g_sum;
  }
  out->moore_diameter = tc_moore_diameter_directed(g->n, out->moore_degree);
  out->moore_diameter_undirected = tc_moore_diameter_undirected(g->n, out->moore_degree);
  out->moore_optimal = out->dist.strongly_connected && out->dist.diameter == out->moore_diameter;
  if (check_reverse_symmetry) {
    rc = tc_graph_reverse_symmetry(g, &out->reverse_symmetric, NULL, err);
    if (rc) { tc_graph_summary_destroy(out); return rc; }
  }
  return TC_OK;
}

void tc_graph_summary_destroy(tc_graph_summary *s) { tc_distance_stats_destroy(&s->dist); }
