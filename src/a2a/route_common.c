/*
** route_common.c — the helpers of route_internal.h: the common denominator of a routing's
** weights, distances to a destination, and the graph checks every baseline shares.
*/
#include "a2a/route_internal.h"

#include <stdlib.h>

#include "core/intmath.h"
#include "topocoll/metrics.h"

int tci_a2a_denominator(const tc_a2a_routing *r, int64_t *out, tc_error *err) {
  int64_t D = 1;
  for (int64_t p = 0; p < r->npaths; p++) {
    int64_t d = r->weight[p].den, g = tci_gcd64(D, d);
    if (D / g > TCI_A2A_MAX_DENOM / d)
      return tc_error_set(err, TC_ERANGE, "the weights' common denominator exceeds 2^62 (path %lld has weight "
                          "%lld/%lld): the shard cannot be cut into that many units", (long long)p,
                          (long long)r->weight[p].num, (long long)d);
    D = D / g * d;
  }
  *out = D;
  return TC_OK;
}

int tci_a2a_dist_to(const tc_graph *g, int32_t t, int32_t *dist, const char *what, tc_error *err) {
  int rc = tc_graph_bfs(g, t, TC_IN, dist, err);
  for (int32_t u = 0; u < g->n && !rc; u++)
    if (dist[u] < 0 && tci_a2a_live(g, u, t))
      rc = tc_error_set(err, TC_EINPUT, "%s: node %d cannot reach node %d: the graph is not strongly connected", what,
                        u, t);
  return rc;
}

int tci_a2a_check_graph(const tc_graph *g, const char *what, tc_error *err) {
  int32_t compute = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  if (compute < 2)
    return tc_error_set(err, TC_EINPUT, "%s: alltoall needs at least 2 compute nodes (the graph has %d)", what,
                        compute);
  if (g->n > TC_ALLTOALL_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "%s: alltoall on %d nodes: at most %d nodes (N*N shards fit an int32)", what,
                        g->n, TC_ALLTOALL_MAX_NODES);
  return TC_OK;
}
