/*
** rank_map.c — ranks are the compute nodes in id order (contract in rank_map.h). The one
** place that says so: the lowerers and executors ask here instead of counting themselves.
*/
#include "topocoll/rank_map.h"

#include <stdlib.h>
#include <string.h>

int32_t tc_rank_count(const tc_graph *g) { return tc_graph_count_kind(g, TC_NODE_COMPUTE); }

int tc_rank_map_init(tc_rank_map *m, const tc_graph *g, tc_error *err) {
  memset(m, 0, sizeof *m);
  m->nodes = g->n;
  m->node = malloc(sizeof *m->node * (size_t)(g->n ? g->n : 1));
  m->rank = malloc(sizeof *m->rank * (size_t)(g->n ? g->n : 1));
  if (!m->node || !m->rank) {
    tc_rank_map_destroy(m);
    return tc_error_set(err, TC_ENOMEM, "out of memory mapping %d nodes to ranks", g->n);
  }
  for (int32_t u = 0; u < g->n; u++) {
    m->rank[u] = g->kind[u] == TC_NODE_COMPUTE ? m->ranks : -1;
    if (m->rank[u] >= 0) m->node[m->ranks++] = u;
  }
  return TC_OK;
}

void tc_rank_map_destroy(tc_rank_map *m) {
  free(m->node);
  free(m->rank);
  memset(m, 0, sizeof *m);
}
