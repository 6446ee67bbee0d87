/*
** line_graph.c — line digraph L(G) and its iterates L^k(G) (paper 000 Def. 12, §5.1).
**
** Node a of L(G) is arc a of G (so ids follow G's sorted arc order); there is an arc
** a -> b for every arc b leaving the head of a, including the reverse of a and, for a
** self-loop a, a itself. A d-regular G with N nodes gives a d-regular L(G) with dN nodes
** and diameter D(G)+1 (for D(G) >= 1). Arc capacities of L(G) are 1: a node of L(G) is a
** port-to-port link of G, not a bandwidth. Sizes are checked before anything is allocated.
*/
#include "topocoll/expand.h"

#include <stddef.h>

#include <stdint.h>

int tc_graph_line(const tc_graph *g, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (g->m > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "line graph would have %lld nodes (at most %d)",
                        (long long)g->m, TC_MAX_NODES);
  int64_t arcs = 0;
  for (int32_t v = 0; v < g->n; v++) {
    arcs += tc_graph_in_degree(g, v) * tc_graph_out_degree(g, v);
    if (arcs > TC_MAX_ARCS)
      return tc_error_set(err, TC_ERANGE, "line graph would have more than %lld arcs",
                          (long long)TC_MAX_ARCS);
  }
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, g->m, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  for (int64_t a = 0; !rc && a < g->m; a++) {
    int32_t head = g->dst[a];
    for (int64_t c = g->out_off[head]; !rc && c < g->out_off[head + 1]; c++)
      rc = tc_graph_builder_add_arc(&b, a, c, 1, err);
  }
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}

int tc_graph_line_power(const tc_graph *g, int64_t k, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (k < 0) return tc_error_set(err, TC_EINPUT, "line: the number of iterations must be >= 0 (got %lld)", (long long)k);
  /* Each iteration multiplies the node count by the common out-degree, so refuse an
     impossible size before building any intermediate graph. */
  int64_t d = tc_graph_out_regular(g), nodes = g->n;
  for (int64_t i = 0; d > 1 && i < k && nodes <= TC_MAX_NODES; i++) nodes *= d;
  if (nodes > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "line: L^%lld of this graph would have more than %d nodes", (long long)k,
                        TC_MAX_NODES);
  tc_graph *cur = NULL;
  int rc = tc_graph_copy(g, &cur, err);
  for (int64_t i = 0; !rc && i < k; i++) {
    tc_graph *next = NULL;
    rc = tc_graph_line(cur, &next, err);
    tc_graph_destroy(cur);
    cur = next;
  }
  if (rc) { tc_graph_destroy(cur); return rc; }
  *out = cur;
  return TC_OK;
}
