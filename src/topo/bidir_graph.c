/*
** bidir_graph.c — bidirectional closure G ∪ G^T (paper 000 App. A.6).
**
** Every arc u -> v of G is kept and its reverse v -> u added with the same capacity, so a
** d-regular G becomes a 2d-regular bidirectional graph (arcs pair with their reverses).
** Applied to a graph that is already bidirectional it doubles every link, as the union of
** two arc sets must. The paper pairs it with reverse-symmetric G, whose schedule then runs
** half the data each way; that condition belongs to the schedule, not the graph.
*/
#include "topocoll/expand.h"

#include <stddef.h>

int tc_graph_bidir_closure(const tc_graph *g, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (g->m > TC_MAX_ARCS / 2)
    return tc_error_set(err, TC_ERANGE, "bidirectional closure would exceed %lld arcs", (long long)TC_MAX_ARCS);
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, g->n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, 2 * g->m, err);
  for (int64_t a = 0; !rc && a < g->m; a++) {
    rc = tc_graph_builder_add_arc(&b, g->src[a], g->dst[a], g->cap[a], err);
    if (!rc) rc = tc_graph_builder_add_arc(&b, g->dst[a], g->src[a], g->cap[a], err);
  }
  for (int32_t u = 0; !rc && u < g->n; u++) {
    rc = tc_graph_builder_set_kind(&b, u, g->kind[u], err);
    if (!rc && g->label && g->label[u]) rc = tc_graph_builder_set_label(&b, u, g->label[u], err);
  }
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}
