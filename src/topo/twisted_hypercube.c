/*
** twisted_hypercube.c — the Esfahanian–Ni–Sagan twisted n-cube (paper 000 App. A.1,
** ref. [28]; also paper 003 §5.1's testbed).
**
** Construction: start from the hypercube Q_n (node u = n-bit word, u ~ u XOR 2^i) and
** take its 4-cycle a–b–c–d = 000–001–011–010 in the two lowest coordinates, all higher
** bits 0, i.e. the nodes 0–1–3–2. Replace the two opposite edges {a,b} = {0,1} and
** {c,d} = {3,2} by the diagonals {a,c} = {0,3} and {b,d} = {1,2}. Everything else is Q_n.
**
** Guarantees: 2^n nodes, n-regular (every node keeps n links: 0 and 1 each trade one link,
** 2 and 3 likewise), bidirectional, no self-loops, no parallel arcs. For n = 3 the
** diameter drops from 3 to 2, the graph the paper's 8-node testbed uses (A.1, Fig. 13:
** "a variant of hypercube with a lower diameter"); in general this single twist gives
** diameter n-1 (as Esfahanian–Ni–Sagan state for the twisted n-cube; the test checks it by
** brute force for n = 3..5).
**
** Parameters: n >= 3 (for n = 2 the twist merely relabels the 4-cycle); 2^n beyond
** TC_MAX_NODES or n 2^n beyond TC_MAX_ARCS gives TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

/* The two hypercube links the twist removes: {0,1} and {2,3}. */
static int is_removed_link(int64_t u, int64_t v) {
  int64_t lo = u < v ? u : v, hi = u < v ? v : u;
  return (lo == 0 && hi == 1) || (lo == 2 && hi == 3);
}

static int add_hypercube_links_except_twist(tc_graph_builder *b, int64_t n, tc_error *err) {
  int64_t nodes = INT64_C(1) << n;
  for (int64_t u = 0; u < nodes; u++)
    for (int64_t i = 0; i < n; i++) {
      int64_t v = u ^ (INT64_C(1) << i);
      if (v < u || is_removed_link(u, v)) continue;
      int rc = tc_graph_builder_add_edge(b, u, v, 1, err);
      if (rc) return rc;
    }
  return TC_OK;
}

int tc_topo_twisted_hypercube(int64_t n, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "twisted_hypercube: output pointer is NULL");
  *out = NULL;
  if (n < 3) return tc_error_set(err, TC_EINPUT, "twisted_hypercube: n must be >= 3 (got %lld)", (long long)n);
  if (n > 62 || (INT64_C(1) << n) > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "twisted_hypercube: twisted Q_%lld has more than %d nodes",
                        (long long)n, TC_MAX_NODES);
  int64_t nodes = INT64_C(1) << n;
  if (n > TC_MAX_ARCS / nodes)
    return tc_error_set(err, TC_ERANGE, "twisted_hypercube: twisted Q_%lld needs more than %lld arcs",
                        (long long)n, (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * n, err);
  if (!rc) rc = add_hypercube_links_except_twist(&b, n, err);
  if (!rc) rc = tc_graph_builder_add_edge(&b, 0, 3, 1, err); /* diagonal {a,c} = 000–011 */
  if (!rc) rc = tc_graph_builder_add_edge(&b, 1, 2, 1, err); /* diagonal {b,d} = 001–010 */
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
