/*
** arc_map.c — what every schedule transform starts with (contract in transform_internal.h):
** checking that a schedule fits a graph, and carrying arcs through a node map.
**
** The one delicate part is the arc correspondence: a schedule names arc ids, and parallel
** arcs are distinct ports, so a node map must send the i-th arc x -> y to a distinct arc
** f(x) -> f(y) of equal capacity. tci_graph_map_arcs does that greedily: within a bundle of
** parallel arcs any capacity-preserving one-to-one matching is as good as another (the
** ports are interchangeable), and greedy matching by equal capacity succeeds exactly when
** the two bundles hold the same capacity multiset.
*/
#include "sched/transform_internal.h"

#include <stdlib.h>
#include <string.h>

int tci_schedule_check_graph(const tc_graph *g, const tc_schedule *s, const char *what, tc_error *err) {
  if (s->nodes != g->n)
    return tc_error_set(err, TC_EINPUT, "%s: schedule is for %d nodes but the graph has %d", what, s->nodes, g->n);
  for (int64_t i = 0; i < s->count; i++)
    if (s->xfer[i].arc < 0 || s->xfer[i].arc >= g->m)
      return tc_error_set(err, TC_EINPUT, "%s: transfer #%lld names arc %lld but the graph has %lld arcs", what,
                          (long long)i, (long long)s->xfer[i].arc, (long long)g->m);
  return TC_OK;
}

/* First arc x -> y of `to` that is free and has capacity cap, or -1. Out-arcs of x are
   sorted by destination, so the bundle x -> y is found by binary search. */
static int64_t free_arc(const tc_graph *to, int32_t x, int32_t y, int64_t cap, const uint8_t *used) {
  int64_t lo = to->out_off[x], hi = to->out_off[x + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (to->dst[mid] < y) lo = mid + 1;
    else hi = mid;
  }
  for (int64_t b = lo; b < to->out_off[x + 1] && to->dst[b] == y; b++)
    if (!used[b] && to->cap[b] == cap) return b;
  return -1;
}

int tci_graph_map_arcs(const tc_graph *from, const tc_graph *to, const int32_t *f, int reversed, uint8_t *used,
                      int64_t *arcmap, tc_error *err) {
  for (int32_t u = 0; f && u < from->n; u++)
    if (f[u] < 0 || f[u] >= to->n)
      return tc_error_set(err, TC_EINPUT, "node map sends node %d to %d, outside 0..%d", u, f[u], to->n - 1);
  if (!f && from->n > to->n)
    return tc_error_set(err, TC_EINPUT, "graph of %d nodes does not fit in one of %d", from->n, to->n);
  uint8_t *own = NULL;
  if (!used) {
    own = calloc((size_t)to->m + 1, 1);
    if (!own) return tc_error_set(err, TC_ENOMEM, "out of memory");
    used = own;
  }
  int rc = TC_OK;
  for (int64_t a = 0; a < from->m; a++) {
    int32_t x = f ? f[from->src[a]] : from->src[a], y = f ? f[from->dst[a]] : from->dst[a];
    if (reversed) { int32_t t = x; x = y; y = t; }
    int64_t b = free_arc(to, x, y, from->cap[a], used);
    if (b < 0) {
      rc = tc_error_set(err, TC_EINPUT,
                        "arc %lld (%d -> %d, capacity %lld) has no free counterpart %d -> %d of equal capacity",
                        (long long)a, from->src[a], from->dst[a], (long long)from->cap[a], x, y);
      break;
    }
    used[b] = 1;
    arcmap[a] = b;
  }
  free(own);
  return rc;
}
