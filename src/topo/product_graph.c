/*
** product_graph.c — Cartesian product G1 □ G2 and power G^□k (paper 000 Def. 3, §5.3).
**
** Node (u1, u2) is u1*N2 + u2. (u1,u2) -> (v1,v2) is an arc iff u1 -> v1 in G1 and
** u2 == v2, or u1 == v1 and u2 -> v2 in G2; multiplicities and capacities carry over, so
** degrees add and distances add coordinate-wise. A node is a switch if either coordinate
** is. G^□k multiplies G in k times (k >= 1); coordinates are most significant first.
*/
#include "topocoll/expand.h"

#include <stddef.h>

#include <stdint.h>

int tc_graph_product(const tc_graph *g1, const tc_graph *g2, tc_graph **out, tc_error *err) {
  *out = NULL;
  int64_t n1 = g1->n, n2 = g2->n;
  if (n1 && n2 > TC_MAX_NODES / n1)
    return tc_error_set(err, TC_ERANGE, "product would exceed %d nodes", TC_MAX_NODES);
  if ((n2 && g1->m > TC_MAX_ARCS / n2) || (n1 && g2->m > TC_MAX_ARCS / n1) ||
      g1->m * n2 + g2->m * n1 > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "product would exceed %lld arcs", (long long)TC_MAX_ARCS);
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, n1 * n2, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, g1->m * n2 + g2->m * n1, err);
  for (int64_t a = 0; !rc && a < g1->m; a++)
    for (int64_t u2 = 0; !rc && u2 < n2; u2++)
      rc = tc_graph_builder_add_arc(&b, g1->src[a] * n2 + u2, g1->dst[a] * n2 + u2, g1->cap[a], err);
  for (int64_t a = 0; !rc && a < g2->m; a++)
    for (int64_t u1 = 0; !rc && u1 < n1; u1++)
      rc = tc_graph_builder_add_arc(&b, u1 * n2 + g2->src[a], u1 * n2 + g2->dst[a], g2->cap[a], err);
  for (int64_t u = 0; !rc && u < n1 * n2; u++)
    if (g1->kind[u / n2] == TC_NODE_SWITCH || g2->kind[u % n2] == TC_NODE_SWITCH)
      rc = tc_graph_builder_set_kind(&b, u, TC_NODE_SWITCH, err);
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}

/* G^k of a one-node G: its node with every loop k times over (one copy per coordinate). */
static int power_of_one_node(const tc_graph *g, int64_t k, tc_graph **out, tc_error *err) {
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, 1, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, k * g->m, err);
  for (int64_t i = 0; !rc && i < k; i++)
    for (int64_t a = 0; !rc && a < g->m; a++) rc = tc_graph_builder_add_arc(&b, 0, 0, g->cap[a], err);
  if (!rc) rc = tc_graph_builder_set_kind(&b, 0, g->kind[0], err);
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}

int tc_graph_power(const tc_graph *g, int64_t k, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (k < 1) return tc_error_set(err, TC_EINPUT, "power: the exponent must be >= 1 (got %lld)", (long long)k);
  /* G^k has n^k nodes and k·m·n^(k-1) arcs (each of the k coordinates moves along an arc
     of G while the other k-1 stay): both are checked, overflow-safe, before anything is
     built. A one-node G used to pass (1^k = 1) into k rounds of products, each adding m
     loops: its power is built directly below. */
  int64_t nodes = 1;
  for (int64_t i = 0; g->n > 1 && i < k && nodes <= TC_MAX_NODES; i++) nodes *= g->n;
  if (nodes > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "power: G^%lld would have more than %d nodes", (long long)k, TC_MAX_NODES);
  if (g->m && (double)k * (double)g->m * (double)(nodes / (g->n > 1 ? g->n : 1)) > (double)TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "power: G^%lld would have more than %lld arcs", (long long)k,
                        (long long)TC_MAX_ARCS);
  if (g->n == 1) return power_of_one_node(g, k, out, err);
  tc_graph *acc = NULL;
  int rc = tc_graph_copy(g, &acc, err);
  for (int64_t i = 1; !rc && i < k; i++) {
    tc_graph *next = NULL;
    rc = tc_graph_product(acc, g, &next, err);
    tc_graph_destroy(acc);
    acc = next;
  }
  if (rc) { tc_graph_destroy(acc); return rc; }
  *out = acc;
  return TC_OK;
}
