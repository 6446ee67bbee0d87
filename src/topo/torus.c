/*
** torus.c — the torus d_1 x ... x d_k = BiRing(2,d_1) □ ... □ BiRing(2,d_k) (paper 000
** §6.2, §5.3, Thm 13).
**
** Node numbering: row-major, the last coordinate fastest: the node with coordinates
** (x_0, ..., x_{k-1}) has id Σ_i x_i s_i with s_{k-1} = 1 and s_i = s_{i+1} d_{i+1}.
** In dimension i a node is linked to the nodes one step either way along that dimension
** (mod d_i). A dimension of length 2 contributes ONE link (K_2), not a doubled one — Thm 13
** needs simple factors, and a doubled 2-ring is not one — and lengths may differ.
**
** Guarantees: N = Π d_i nodes; every node has degree Σ_i (d_i == 2 ? 1 : 2) (so 3x3x2
** has degree 5); bidirectional; no self-loops; no parallel arcs; diameter Σ_i floor(d_i/2).
** Nodes are labelled by their coordinates, e.g. "(1,2,0)", when N <= 65536 (beyond that the
** labels would cost more memory than they are worth).
**
** Parameters: k >= 1 dimensions, each of length >= 2 (length 1 is rejected: it adds
** nothing but a self-loop or nothing at all, and is almost certainly a typo). Sizes beyond
** TC_MAX_NODES / TC_MAX_ARCS give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include "topo_util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>


/* Validate dims and compute N and the per-node degree; TC_OK or an error. */
static int torus_size(const int64_t *dims, int k, int64_t *nodes, int64_t *degree, tc_error *err) {
  if (k < 1) return tc_error_set(err, TC_EINPUT, "torus: need at least one dimension (got %d)", k);
  if (!dims) return tc_error_set(err, TC_EINPUT, "torus: dims is NULL");
  int64_t n = 1, deg = 0;
  for (int i = 0; i < k; i++) {
    if (dims[i] < 2)
      return tc_error_set(err, TC_EINPUT, "torus: dims[%d] must be >= 2 (got %lld)", i, (long long)dims[i]);
    if (dims[i] > TC_MAX_NODES / n)
      return tc_error_set(err, TC_ERANGE, "torus: more than %d nodes", TC_MAX_NODES);
    n *= dims[i];
    deg += dims[i] == 2 ? 1 : 2;
  }
  /* n <= TC_MAX_NODES and deg <= 2k <= 2 log2(n), so n * deg cannot overflow. */
  if (deg > TC_MAX_ARCS / n)
    return tc_error_set(err, TC_ERANGE, "torus: more than %lld arcs", (long long)TC_MAX_ARCS);
  *nodes = n;
  *degree = deg;
  return TC_OK;
}

/* Add, for every node, the link to its successor along each dimension; a length-2
   dimension only from coordinate 0 so that its single link is added once. */
static int add_torus_links(tc_graph_builder *b, const int64_t *dims, int k, int64_t nodes, tc_error *err) {
  for (int64_t u = 0; u < nodes; u++) {
    int64_t stride = 1;
    for (int i = k - 1; i >= 0; stride *= dims[i], i--) {
      int64_t x = (u / stride) % dims[i];
      if (dims[i] == 2 && x == 1) continue;
      int64_t v = u + (((x + 1) % dims[i]) - x) * stride;
      int rc = tc_graph_builder_add_edge(b, u, v, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

int tc_topo_torus(const int64_t *dims, int k, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "torus: output pointer is NULL");
  *out = NULL;
  int64_t nodes = 0, degree = 0;
  int rc = torus_size(dims, k, &nodes, &degree, err);
  if (rc) return rc;

  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * degree, err);
  if (!rc) rc = add_torus_links(&b, dims, k, nodes, err);
  if (!rc && nodes <= TC_TOPO_LABEL_MAX_NODES) rc = tci_topo_label_coordinates(&b, dims, k, nodes, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
