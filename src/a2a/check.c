/*
** check.c — what tc_a2a_solve refuses before any LP is built (contract in a2a_internal.h).
**
** All-to-all is defined between compute nodes over their own links (paper 003 §2.2); a
** switch would be a node that neither sends nor receives a shard, which the formulations of
** §3.1 do not model, so a graph with one is refused rather than silently mis-modelled. Every
** ordered pair must be connected or F is 0 and no schedule exists.
*/
#include <stdlib.h>

#include "a2a/a2a_internal.h"
#include "topocoll/metrics.h"

int tci_a2a_check(const tc_graph *g, const tc_a2a_options *o, tc_error *err) {
  if (g->n < 2) return tc_error_set(err, TC_EINPUT, "all-to-all needs at least 2 nodes, the graph has %d", g->n);
  int32_t sw = tc_graph_count_kind(g, TC_NODE_SWITCH);
  if (sw > 0) {
    int32_t u = 0;
    while (g->kind[u] != TC_NODE_SWITCH) u++;
    return tc_error_set(err, TC_EINPUT,
                        "all-to-all needs a graph of compute nodes only: node %d is a switch (%d switches)", u, sw);
  }
  if (o->host_cap.num < 0 || o->host_cap.den <= 0)
    return tc_error_set(err, TC_EINPUT, "the host cap must be positive");
  int32_t *dist = malloc(sizeof *dist * (size_t)g->n);
  if (!dist) return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  /* strongly connected iff node 0 reaches all and all reach node 0 */
  for (int dir = 0; dir < 2; dir++) {
    int rc = tc_graph_bfs(g, 0, dir ? TC_IN : TC_OUT, dist, err);
    if (rc) {
      free(dist);
      return rc;
    }
    for (int32_t v = 1; v < g->n; v++)
      if (dist[v] < 0) {
        free(dist);
        return dir ? tc_error_set(err, TC_EINPUT, "all-to-all needs every node to reach every other: node %d cannot reach node 0", v)
                   : tc_error_set(err, TC_EINPUT, "all-to-all needs every node to reach every other: node 0 cannot reach node %d", v);
      }
  }
  free(dist);
  return TC_OK;
}
