/*
** metrics.h — distances and size bounds: BFS layers N_t^+(u) / N_t^-(u), diameter,
** all-pairs distance histogram, average distance, Moore bounds (paper 000 Def. 9–10).
**
** Distances count arcs (hops); capacities and multiplicities do not matter. The all-pairs
** routine is a bit-parallel BFS (64 sources per machine word, OpenMP across batches): it
** never stores the n x n matrix, so memory is O(n + m) per thread.
*/
#ifndef TOPOCOLL_METRICS_H
#define TOPOCOLL_METRICS_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/graph.h"

/* Hop distances from u along dir (TC_OUT: u -> x; TC_IN: x -> u); -1 if unreachable.
   `dist` has room for g->n entries. */
TC_API int tc_graph_bfs(const tc_graph *g, int32_t u, tc_dir dir, int32_t *dist, tc_error *err);

/* BFS layers of one node: nodes at distance exactly t are
   order[layer_off[t] .. layer_off[t+1]-1] for t = 0..depth (layer 0 is u itself).
   With dir == TC_OUT these are N_t^+(u); with TC_IN, N_t^-(u). */
typedef struct tc_layers {
  int32_t depth;      /* largest finite distance */
  int32_t reached;    /* number of nodes reached, u included */
  int32_t *order;     /* reached entries */
  int64_t *layer_off; /* depth + 2 entries */
} tc_layers;
TC_API int tc_graph_layers(const tc_graph *g, int32_t u, tc_dir dir, tc_layers *out, tc_error *err);
TC_API void tc_layers_destroy(tc_layers *l);

/* All-pairs distance summary over ordered pairs of distinct nodes. */
typedef struct tc_distance_stats {
  int strongly_connected;  /* 0: some pair is unreachable; diameter and histogram then
                              describe reachable pairs only */
  int32_t diameter;        /* max finite distance (0 for n <= 1) */
  int64_t *histogram;      /* histogram[t] = #ordered pairs at distance t, t = 0..diameter
                              (histogram[0] = 0) */
  int64_t unreachable;     /* #ordered pairs with no path */
  int64_t pairs;           /* #reachable ordered pairs of distinct nodes */
  int64_t distance_sum;    /* Σ distances over reachable pairs; avg = sum / pairs */
} tc_distance_stats;
TC_API int tc_graph_distance_stats(const tc_graph *g, tc_distance_stats *out, tc_error *err);
TC_API void tc_distance_stats_destroy(tc_distance_stats *s);

/* What tc_graph_distance_stats will cost, found in O(N + M) by a BFS each way from node 0:
   whether g is strongly connected (exact), and the estimated seconds and bytes of the
   all-pairs BFS (formula and the measured rate in distance.c). */
typedef struct tc_distance_cost {
  int strongly_connected;
  double seconds;
  double bytes;
} tc_distance_cost;
TC_API int tc_graph_distance_cost(const tc_graph *g, tc_distance_cost *out, tc_error *err);

/* Diameter only (-1 if not strongly connected). Same cost as the stats. */
TC_API int tc_graph_diameter(const tc_graph *g, int32_t *diameter, tc_error *err);

/* Directed Moore bound M_{d,k} = Σ_{i=0..k} d^i (saturates at INT64_MAX). */
TC_API int64_t tc_moore_directed(int64_t d, int64_t k);
/* Undirected Moore bound 1 + d Σ_{i=0..k-1} (d-1)^i (saturates at INT64_MAX). */
TC_API int64_t tc_moore_undirected(int64_t d, int64_t k);
/* T_L*(N,d) = min{k : N <= M_{d,k}} (paper 000 Def. 10); -1 if no k exists (d == 0, N > 1). */
TC_API int32_t tc_moore_diameter_directed(int64_t n, int64_t d);
/* T_L**(N,d) = min{k : N <= 1 + d Σ_{i<k} (d-1)^i}; -1 if none exists. */
TC_API int32_t tc_moore_diameter_undirected(int64_t n, int64_t d);
/* S_min(N,d) (paper 003 Theorem 1): the least possible Σ of hop distances from one node to
   the N-1 others when at most d^i of them lie at distance i (levels filled greedily):
   S_min(8,3) = 11, S_min(1000,4) = 4547. 0 for N <= 1; -1 when d <= 0 and N > 1;
   saturates at INT64_MAX. */
TC_API int64_t tc_moore_depth_sum(int64_t n, int64_t d);

#endif
