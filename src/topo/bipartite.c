/*
** bipartite.c — the complete bipartite graph K_{d,d} (paper 000 Table 9 row 2,
** Fig. 1).
**
** Nodes 0..d-1 form one side and d..2d-1 the other; every cross pair is one bidirectional
** link. The graph is d-regular with 2d nodes and 2d^2 arcs, has diameter 2 for d >= 2
** (diameter 1 for d = 1, where it is K_2), no self-loops and no parallel arcs.
**
** Parameters: d >= 1. Sizes beyond TC_MAX_NODES / TC_MAX_ARCS give TC_ERANGE before
** anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

int tc_topo_bipartite(int64_t d, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "bipartite: output pointer is NULL");
  *out = NULL;
  if (d < 1) return tc_error_set(err, TC_EINPUT, "bipartite: d must be >= 1 (got %lld)", (long long)d);
  if (d > TC_MAX_NODES / 2)
    return tc_error_set(err, TC_ERANGE, "bipartite: K_{%lld,%lld} exceeds %d nodes", (long long)d,
                        (long long)d, TC_MAX_NODES);
  int64_t arcs = 2 * d * d; /* d <= TC_MAX_NODES / 2, so no overflow */
  if (arcs > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "bipartite: K_{%lld,%lld} needs %lld arcs (at most %lld)",
                        (long long)d, (long long)d, (long long)arcs, (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, 2 * d, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  for (int64_t u = 0; u < d && !rc; u++)
    for (int64_t v = d; v < 2 * d && !rc; v++) rc = tc_graph_builder_add_edge(&b, u, v, 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
