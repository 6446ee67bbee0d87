/*
** hyperx.c — the n-dimensional fully connected network (ndfc) / HyperX (paper 002 §2.1.4,
** §4.5, Eqs. 2.4–2.9 and 4.14–4.16).
**
** Node addresses are A = (a_k, ..., a_1) with 0 <= a_i < m_i, and A ~ A' iff they differ in
** exactly one coordinate (each dimension is a complete graph K_{m_i}; the whole graph is the
** Cartesian product K_{m_k} □ ... □ K_{m_1}, a mixed-radix Hamming graph).
**
** Node numbering follows the paper's rank conversion (Eq. 2.5: i = a_2 m_1 + a_1): a_1
** varies fastest. dims[] is given in the paper's written order, most significant first:
** dims = {m_k, ..., m_1}, so dims[k-1] = m_1 and id = Σ_i a_i Π_{j<i} m_j. This is the same
** row-major, last-coordinate-fastest order tc_topo_torus uses, and a "3 x 4 2dfc"
** (N = m_2 x m_1 = 3 x 4, Eq. 2.4) is dims = {3, 4}.
**
** Guarantees: N = Π m_i nodes; regular of degree Σ_i (m_i - 1) (Eq. 2.8); N Σ(m_i-1)/2
** links (Eq. 2.9; Table 2.1: 3x3 -> 9 nodes, degree 4, 18 links); bidirectional; no
** self-loops; no parallel arcs; diameter = number of dimensions (2 for a 2dfc). Nodes are
** labelled by their address "(a_k,...,a_1)" when N <= 65536.
**
** Parameters: k >= 1 dimensions, each m_i >= 2. Sizes beyond TC_MAX_NODES / TC_MAX_ARCS
** give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include "topo_util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>


static int hyperx_size(const int64_t *dims, int k, int64_t *nodes, int64_t *degree, tc_error *err) {
  if (k < 1) return tc_error_set(err, TC_EINPUT, "hyperx: need at least one dimension (got %d)", k);
  if (!dims) return tc_error_set(err, TC_EINPUT, "hyperx: dims is NULL");
  int64_t n = 1, deg = 0;
  for (int i = 0; i < k; i++) {
    if (dims[i] < 2)
      return tc_error_set(err, TC_EINPUT, "hyperx: dims[%d] must be >= 2 (got %lld)", i, (long long)dims[i]);
    if (dims[i] > TC_MAX_NODES / n)
      return tc_error_set(err, TC_ERANGE, "hyperx: more than %d nodes", TC_MAX_NODES);
    n *= dims[i];
    deg += dims[i] - 1;
  }
  /* Each m_i <= n <= TC_MAX_NODES and k <= log2(n), so deg is small and n * deg fits. */
  if (deg > TC_MAX_ARCS / n)
    return tc_error_set(err, TC_ERANGE, "hyperx: more than %lld arcs", (long long)TC_MAX_ARCS);
  *nodes = n;
  *degree = deg;
  return TC_OK;
}

/* Link u to every address that differs from it in one coordinate by a larger value, so
   each link is added once (from its smaller end). */
static int add_links_of_node(tc_graph_builder *b, const int64_t *dims, int k, int64_t u, tc_error *err) {
  int64_t stride = 1;
  for (int i = k - 1; i >= 0; stride *= dims[i], i--) {
    int64_t x = (u / stride) % dims[i];
    for (int64_t c = x + 1; c < dims[i]; c++) {
      int rc = tc_graph_builder_add_edge(b, u, u + (c - x) * stride, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

int tc_topo_hyperx(const int64_t *dims, int k, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "hyperx: output pointer is NULL");
  *out = NULL;
  int64_t nodes = 0, degree = 0;
  int rc = hyperx_size(dims, k, &nodes, &degree, err);
  if (rc) return rc;

  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * degree, err);
  for (int64_t u = 0; u < nodes && !rc; u++) rc = add_links_of_node(&b, dims, k, u, err);
  if (!rc && nodes <= TC_TOPO_LABEL_MAX_NODES) rc = tci_topo_label_coordinates(&b, dims, k, nodes, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
