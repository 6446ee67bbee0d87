/*
** biring.c — the bidirectional ring BiRing(d,m) (paper 000 Table 9 row 8,
** App. F.1).
**
** Nodes 0..m-1; i and i+1 (mod m) are joined by d/2 parallel bidirectional links, so every
** node has degree d (d/2 ports towards each neighbour). BiRing(2,m) is the simple
** bidirectional ring (Table 7's BiRing(2,8) convention). The graph has m d arcs, diameter
** floor(m/2), no self-loops, and parallel arcs exactly when d > 2 (Table 9).
**
** Parameters: d even and >= 2; m >= 3 (with m = 2 the two neighbours of a node coincide
** and the ring would collapse into a doubled link). Sizes beyond TC_MAX_NODES /
** TC_MAX_ARCS give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

int tc_topo_biring(int64_t d, int64_t m, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "biring: output pointer is NULL");
  *out = NULL;
  if (d < 2 || d % 2 != 0)
    return tc_error_set(err, TC_EINPUT, "biring: d must be even and >= 2 (got %lld)", (long long)d);
  if (m < 3) return tc_error_set(err, TC_EINPUT, "biring: m must be >= 3 (got %lld)", (long long)m);
  if (m > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "biring: m = %lld exceeds %d nodes", (long long)m, TC_MAX_NODES);
  if (d > TC_MAX_ARCS / m)
    return tc_error_set(err, TC_ERANGE, "biring: BiRing(%lld,%lld) needs more than %lld arcs", (long long)d,
                        (long long)m, (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, m, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, m * d, err);
  for (int64_t i = 0; i < m && !rc; i++)
    for (int64_t k = 0; k < d / 2 && !rc; k++) rc = tc_graph_builder_add_edge(&b, i, (i + 1) % m, 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
