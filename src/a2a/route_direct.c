/*
** route_direct.c — the `direct` baseline (paper 003 §5.2: one path per commodity, the
** "native" point-to-point flows over shortest routes): for every commodity (s,t) one
** shortest path, chosen deterministically — from each node the lowest-id arc that gets one
** hop closer to t (arcs are sorted by destination, so the lowest next node, then the
** lowest of parallel arcs).
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

int tc_a2a_route_direct(const tc_graph *g, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_a2a_check_graph(g, "direct", err);
  if (!rc) rc = tc_a2a_routing_init(out, g->n, "direct", err);
  if (rc) return rc;
  int32_t *dist = malloc((size_t)g->n * sizeof *dist);
  int64_t *path = malloc((size_t)g->n * sizeof *path);
  if (!dist || !path) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t t = 0; t < g->n && !rc; t++) {
    if (g->kind[t] != TC_NODE_COMPUTE || (rc = tci_a2a_dist_to(g, t, dist, "direct", err))) continue;
    for (int32_t s = 0; s < g->n && !rc; s++) {
      if (!tci_a2a_live(g, s, t)) continue;
      int32_t len = 0;
      for (int32_t u = s; u != t; len++) {
        int64_t a = g->out_off[u];
        while (dist[g->dst[a]] != dist[u] - 1) a++; /* exists: dist[u] > 0 is finite */
        path[len] = a;
        u = g->dst[a];
      }
      rc = tc_a2a_routing_add(out, s, t, path, len, (tc_rat){1, 1}, err);
    }
  }
  free(dist);
  free(path);
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
  if (rc) tc_a2a_routing_destroy(out);
  return rc;
}
