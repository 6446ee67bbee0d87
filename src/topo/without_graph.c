/*
** without_graph.c — a topology with failed links removed (issue #14 §8: schedules for a
** degraded cluster, `without(G, u1, v1, u2, v2, ...)`, `sched --without-links`, the plan's
** resilience).
**
** What "a link" is follows the graph: in a bidirectional graph a link is a duplex cable, an
** opposite arc pair (u -> v with its partner rev), so both directions go; otherwise — or
** when arcs_only says the cluster is cabled with simplex fibres — it is the arc u -> v
** alone. Each pair (u, v) removes one link — one of several parallel links between the
** same nodes — and naming the same link more often than it
** exists is refused, as is a graph left not strongly connected (no collective could run on
** it). Capacities, node kinds and labels of what stays are kept.
*/
#include "topocoll/expand.h"

#include <stdlib.h>
#include <string.h>

/* The lowest arc u -> v not yet removed, or -1. */
static int64_t find_arc(const tc_graph *g, int64_t u, int64_t v, const uint8_t *gone) {
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v && !gone[a]) return a;
  return -1;
}

/* Mark the link (u, v) removed in gone[]. */
static int remove_link(const tc_graph *g, int64_t u, int64_t v, int duplex, uint8_t *gone, tc_error *err) {
  if (u < 0 || u >= g->n || v < 0 || v >= g->n)
    return tc_error_set(err, TC_EINPUT, "without: link %lld-%lld names a node outside 0..%d", (long long)u,
                        (long long)v, g->n - 1);
  int64_t a = find_arc(g, u, v, gone);
  if (a < 0)
    return tc_error_set(err, TC_EINPUT, "without: there is no %s %lld-%lld (left) in the graph",
                        duplex ? "link" : "arc", (long long)u, (long long)v);
  gone[a] = 1;
  if (duplex && g->rev[a] != a) gone[g->rev[a]] = 1;
  return TC_OK;
}

int tc_graph_without_links(const tc_graph *g, const int64_t *ends, int count, int arcs_only, tc_graph **out,
                           tc_error *err) {
  int duplex = g->bidirectional && !arcs_only;
  *out = NULL;
  if (count < 2 || count % 2)
    return tc_error_set(err, TC_EINPUT, "without: needs node pairs u, v (got %d numbers)", count);
  uint8_t *gone = calloc((size_t)(g->m ? g->m : 1), 1);
  if (!gone) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = TC_OK;
  for (int i = 0; !rc && i < count; i += 2) rc = remove_link(g, ends[i], ends[i + 1], duplex, gone, err);
  tc_graph_builder b;
  memset(&b, 0, sizeof b);
  if (!rc) rc = tc_graph_builder_init(&b, g->n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, g->m, err);
  for (int64_t a = 0; !rc && a < g->m; a++)
    if (!gone[a]) rc = tc_graph_builder_add_arc(&b, g->src[a], g->dst[a], g->cap[a], err);
  for (int32_t u = 0; !rc && u < g->n; u++) {
    rc = tc_graph_builder_set_kind(&b, u, g->kind[u], err);
    if (!rc && g->label && g->label[u]) rc = tc_graph_builder_set_label(&b, u, g->label[u], err);
  }
  free(gone);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  rc = tc_graph_builder_finish(&b, out, err);
  if (!rc && !tc_graph_is_strongly_connected(*out)) {
    tc_graph_destroy(*out);
    *out = NULL;
    rc = tc_error_set(err, TC_EINPUT, "without: the graph left is not strongly connected");
  }
  return rc;
}
