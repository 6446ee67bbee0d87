/*
** summary.h — everything `topocoll topo` reports about a graph, computed in one call:
** sizes, node kinds, the capacity range, degree regularity, loops and multi-arcs,
** distances, Moore bounds (paper 000 Def. 9–10) and reverse symmetry (Def. 6).
**
** "Moore-optimal" follows paper 000 Def. 10: diameter == T_L*(N, d), the directed bound,
** with d the common out-degree (loops and parallel arcs counted, as the paper counts
** ports) or the largest out-degree of a non-regular graph. For bidirectional graphs the
** undirected bound T_L** (Table 8's last columns) is reported beside it.
*/
#ifndef TOPOCOLL_SUMMARY_H
#define TOPOCOLL_SUMMARY_H

#include "topocoll/export.h"

#include "topocoll/metrics.h"

typedef struct tc_graph_summary {
  int32_t nodes;
  int64_t arcs;
  int64_t out_degree, in_degree;      /* -1 when not regular */
  int64_t moore_degree;               /* degree used for the Moore bounds */
  int regular;                        /* out- and in-regular with the same degree */
  int bidirectional;
  int64_t self_loops, multi_arcs;
  int32_t switches;                   /* switch nodes; the other nodes - switches are compute */
  int64_t capacity_min, capacity_max; /* over all arcs; both 0 when there are no arcs */
  tc_distance_stats dist;
  int64_t avg_distance_num, avg_distance_den; /* exact average distance, reduced; 0/0 if no pairs */
  int32_t moore_diameter;             /* T_L*(N, d), -1 if none */
  int32_t moore_diameter_undirected;  /* T_L**(N, d), -1 if none */
  int moore_optimal;
  int reverse_symmetric;              /* 1, 0, or -1 when not checked */
  int distances;                      /* 1: dist holds the all-pairs summary; 0: it was skipped
                                         (beyond the bound): dist is zero but for
                                         strongly_connected, which is always exact */
  tc_distance_cost distance_cost;     /* the all-pairs BFS's estimated cost (metrics.h) */
} tc_graph_summary;

/* Fill `out`; the reverse-symmetry search runs only when `check_reverse_symmetry`. A graph
   of 0 nodes (a JSON graph may have none) is refused with TC_EINPUT: it has no degree,
   distances or Moore bound to report. */
TC_API int tc_graph_summarize(const tc_graph *g, int check_reverse_symmetry, tc_graph_summary *out, tc_error *err);
/* The same, but the all-pairs distances (diameter, histogram, average, Moore-optimality)
   are computed only when their estimated cost is within `max_seconds` (<= 0: no bound) and
   the memory limit (budget.h); otherwise `distances` is 0, the reverse-symmetry search is
   skipped too (reverse_symmetric -1), and the rest is still filled — sizes, degrees and
   strong connectivity take O(N + M). */
TC_API int tc_graph_summarize_bounded(const tc_graph *g, int check_reverse_symmetry, double max_seconds,
                                      tc_graph_summary *out, tc_error *err);
TC_API void tc_graph_summary_destroy(tc_graph_summary *s);

#endif
