/*
** degree_graph.c — degree expansion G*n (paper 000 Def. 13, §5.2).
**
** Copy i of node v is node i*N + v. For every arc (u,v) of G and all copies i, j
** (including i == j) there is an arc (u_i, v_j) with the arc's capacity, so a d-regular
** G becomes an nd-regular graph on nN nodes. G must have no self-loops (the definition,
** and the BW-optimality of the expanded schedule, assume none).
*/
#include "topocoll/expand.h"

#include <stddef.h>

#include <stdint.h>

int tc_graph_degree_expand(const tc_graph *g, int64_t n, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (n < 1) return tc_error_set(err, TC_EINPUT, "degree: the expansion factor must be >= 1 (got %lld)", (long long)n);
  if (tc_graph_count_self_loops(g) > 0)
    return tc_error_set(err, TC_EINPUT, "degree: the base graph has self-loops; degree expansion needs a loop-free graph");
  if (n > TC_MAX_NODES / (g->n ? g->n : 1))
    return tc_error_set(err, TC_ERANGE, "degree expansion would exceed %d nodes", TC_MAX_NODES);
  if (g->m && n * n > TC_MAX_ARCS / g->m)
    return tc_error_set(err, TC_ERANGE, "degree expansion would exceed %lld arcs", (long long)TC_MAX_ARCS);
  int64_t nodes = n * g->n;
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, n * n * g->m, err);
  for (int64_t a = 0; !rc && a < g->m; a++)
    for (int64_t i = 0; !rc && i < n; i++)
      for (int64_t j = 0; !rc && j < n; j++)
        rc = tc_graph_builder_add_arc(&b, i * g->n + g->src[a], j * g->n + g->dst[a], g->cap[a], err);
  for (int64_t v = 0; !rc && v < nodes; v++) rc = tc_graph_builder_set_kind(&b, v, g->kind[v % g->n], err);
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}
