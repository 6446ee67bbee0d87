/*
** hypercube.c — the hypercube Q_n = H(n,2) = K_2^{□n} (paper 000 §5.3; Table 9 row 3, q = 2).
**
** Node u is the n-bit word of its id; u and u XOR 2^i are linked for i = 0..n-1. The
** graph has 2^n nodes, is n-regular, has diameter n, no self-loops and no parallel arcs.
** It is built by the Hamming generator (same node numbering); this file only validates
** n so that errors name the hypercube.
**
** Parameters: n >= 1; 2^n beyond TC_MAX_NODES or n 2^n beyond TC_MAX_ARCS gives TC_ERANGE.
*/
#include "topocoll/topo.h"

#include <stddef.h>

int tc_topo_hypercube(int64_t n, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "hypercube: output pointer is NULL");
  *out = NULL;
  if (n < 1) return tc_error_set(err, TC_EINPUT, "hypercube: n must be >= 1 (got %lld)", (long long)n);
  if (n > 62 || (INT64_C(1) << n) > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "hypercube: Q_%lld has more than %d nodes", (long long)n, TC_MAX_NODES);
  if (n > TC_MAX_ARCS / (INT64_C(1) << n))
    return tc_error_set(err, TC_ERANGE, "hypercube: Q_%lld needs more than %lld arcs", (long long)n,
                        (long long)TC_MAX_ARCS);
  return tc_topo_hamming(n, 2, out, err);
}
