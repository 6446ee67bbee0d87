/*
** uniring.c — the unidirectional ring UniRing(d,m) (paper 000 Table 9 row 9;
** the "ring of degree d" of App. C.2).
**
** Nodes 0..m-1; node i sends d parallel arcs to i+1 (mod m). Out- and in-degree are d,
** there are m d arcs, the diameter is m-1, there are no self-loops, and there are
** (d-1) m repeated arcs (multi-edges when d > 1, as Table 9 says). For m = 2 the two
** arc bundles 0 -> 1 and 1 -> 0 are opposite, so the graph is then also flagged
** bidirectional (it equals BiRing's 2-node degenerate case); for m >= 3 it is not.
**
** Parameters: d >= 1, m >= 2 (a ring needs two nodes). m d beyond TC_MAX_ARCS or m beyond
** TC_MAX_NODES gives TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

int tc_topo_uniring(int64_t d, int64_t m, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "uniring: output pointer is NULL");
  *out = NULL;
  if (d < 1) return tc_error_set(err, TC_EINPUT, "uniring: d must be >= 1 (got %lld)", (long long)d);
  if (m < 2) return tc_error_set(err, TC_EINPUT, "uniring: m must be >= 2 (got %lld)", (long long)m);
  if (m > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "uniring: m = %lld exceeds %d nodes", (long long)m, TC_MAX_NODES);
  if (d > TC_MAX_ARCS / m)
    return tc_error_set(err, TC_ERANGE, "uniring: UniRing(%lld,%lld) needs more than %lld arcs", (long long)d,
                        (long long)m, (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, m, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, m * d, err);
  for (int64_t i = 0; i < m && !rc; i++)
    for (int64_t k = 0; k < d && !rc; k++) rc = tc_graph_builder_add_arc(&b, i, (i + 1) % m, 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
