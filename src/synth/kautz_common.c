/*
** kautz_common.c — the K(d,2) graph check and out-BFS trees (contract in kautz_common.h).
**
** The check compares g arc by arc with the definition instead of trusting a spec string,
** so a graph read from a file or built another way is accepted exactly when it is
** kautz(d,1) with kautz.c's numbering — the numbering every id computation here relies on.
*/
#include "synth/kautz_common.h"

int tci_kautz2_check(const tc_graph *g, const char *algo, int32_t *d, tc_error *err) {
  int64_t deg = tc_graph_out_regular(g);
  if (deg < 2 || deg > 46340 || g->n != deg * (deg + 1))
    return tc_error_set(err, TC_EINPUT, "%s: needs paper 002's K(d,2), written kautz(d,1), with d >= 2 (a graph of "
                        "d(d+1) nodes, each of out-degree d; got %d nodes%s)", algo, g->n,
                        deg < 0 ? " of unequal out-degrees" : "");
  int32_t dd = (int32_t)deg;
  for (int32_t u = 0; u < g->n; u++) {
    int32_t x, y;
    tci_kautz2_letters(dd, u, &x, &y);
    if (g->kind && g->kind[u] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EINPUT, "%s: node %d is a switch; K(d,2) has compute nodes only", algo, u);
    for (int32_t z = 0; z <= dd; z++) {
      if (z == y) continue;
      int64_t a = tci_kautz2_arc(g, dd, u, z);
      if (g->dst[a] != tci_kautz2_node(dd, y, z) || g->cap[a] != 1)
        return tc_error_set(err, TC_EINPUT, "%s: needs paper 002's K(%d,2), written kautz(%d,1): node %d (%d,%d) "
                            "should have a unit arc to %d (%d,%d)", algo, dd, dd, u, x, y,
                            tci_kautz2_node(dd, y, z), y, z);
    }
  }
  *d = dd;
  return TC_OK;
}

int32_t tci_kautz2_out_tree(int32_t d, int32_t root, tci_kautz2_edge *e) {
  int32_t x, y, k = 0;
  tci_kautz2_letters(d, root, &x, &y);
  for (int32_t z = 0; z <= d; z++)
    if (z != y) e[k++] = (tci_kautz2_edge){root, tci_kautz2_node(d, y, z), 1, 0};
  for (int32_t z = 0; z <= d; z++) {
    if (z == y) continue;
    int32_t child = tci_kautz2_node(d, y, z);
    for (int32_t w = 0; w <= d; w++)
      if (w != z && !(z == x && w == y)) /* (z,w) == root closes a cycle: not a tree arc */
        e[k++] = (tci_kautz2_edge){child, tci_kautz2_node(d, z, w), 2, tci_kautz2_slot(x, y, z, d)};
  }
  return k;
}
