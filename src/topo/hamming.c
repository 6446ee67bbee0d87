/*
** hamming.c — the Hamming graph H(n,q) = K_q^{□n} (paper 000 Table 9 row 3, §5.3,
** Thm 13).
**
** Node u = Σ_i x_i q^i (i = 0..n-1, 0 <= x_i < q) is the word x_{n-1}..x_0 of base-q
** digits; u and v are linked when their words differ in exactly one digit. The graph has
** q^n nodes, is n(q-1)-regular (n q^n (q-1) arcs), has diameter n, no self-loops and no
** parallel arcs. H(n,2) is the hypercube Q_n and H(2,3) the Paley graph P9.
**
** Parameters: n >= 1, q >= 2. q^n beyond TC_MAX_NODES or an arc count beyond TC_MAX_ARCS
** gives TC_ERANGE before anything is allocated (q^n is accumulated with an early exit, so
** huge n or q cannot overflow).
*/
#include "topocoll/topo.h"

#include <stddef.h>

/* q^n if it is at most TC_MAX_NODES, else -1. */
static int64_t bounded_power(int64_t q, int64_t n) {
  int64_t p = 1;
  for (int64_t i = 0; i < n; i++) {
    if (p > TC_MAX_NODES / q) return -1;
    p *= q;
  }
  return p;
}

/* Link u to every word that differs from it in digit i by a larger value (so every link is
   added once, from its smaller end). */
static int add_links_of_node(tc_graph_builder *b, int64_t u, int64_t n, int64_t q, tc_error *err) {
  int64_t weight = 1;
  for (int64_t i = 0; i < n; i++, weight *= q) {
    int64_t digit = (u / weight) % q;
    for (int64_t c = digit + 1; c < q; c++) {
      int rc = tc_graph_builder_add_edge(b, u, u + (c - digit) * weight, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

int tc_topo_hamming(int64_t n, int64_t q, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "hamming: output pointer is NULL");
  *out = NULL;
  if (n < 1) return tc_error_set(err, TC_EINPUT, "hamming: n must be >= 1 (got %lld)", (long long)n);
  if (q < 2) return tc_error_set(err, TC_EINPUT, "hamming: q must be >= 2 (got %lld)", (long long)q);
  int64_t nodes = bounded_power(q, n);
  if (nodes < 0)
    return tc_error_set(err, TC_ERANGE, "hamming: H(%lld,%lld) has more than %d nodes", (long long)n,
                        (long long)q, TC_MAX_NODES);
  /* nodes >= q^n >= 2^n and nodes <= TC_MAX_NODES bound n and q, so degree * nodes fits. */
  int64_t degree = n * (q - 1);
  if (degree > TC_MAX_ARCS / nodes)
    return tc_error_set(err, TC_ERANGE, "hamming: H(%lld,%lld) needs more than %lld arcs", (long long)n,
                        (long long)q, (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * degree, err);
  for (int64_t u = 0; u < nodes && !rc; u++) rc = add_links_of_node(&b, u, n, q, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
