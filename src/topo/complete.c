/*
** complete.c — the complete graph K_n (paper 000 Table 9 row 1).
**
** Nodes 0..n-1; every pair {u, v} is one bidirectional link, so the graph is
** (n-1)-regular, has n(n-1) arcs, diameter 1, no self-loops and no parallel arcs.
** K_n is Moore- and BW-optimal and is the base of the Kautz graphs (K(d,n) = L^n(K_{d+1})).
**
** Parameters: n >= 2. Sizes beyond TC_MAX_NODES / TC_MAX_ARCS give TC_ERANGE before
** anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

int tc_topo_complete(int64_t n, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "complete: output pointer is NULL");
  *out = NULL;
  if (n < 2) return tc_error_set(err, TC_EINPUT, "complete: n must be >= 2 (got %lld)", (long long)n);
  if (n > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "complete: n = %lld exceeds %d nodes", (long long)n, TC_MAX_NODES);
  int64_t arcs = n * (n - 1); /* n <= TC_MAX_NODES, so no overflow */
  if (arcs > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "complete: K_%lld needs %lld arcs (at most %lld)", (long long)n,
                        (long long)arcs, (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  for (int64_t u = 0; u < n && !rc; u++)
    for (int64_t v = u + 1; v < n && !rc; v++) rc = tc_graph_builder_add_edge(&b, u, v, 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
