/*
** directed_circulant.c — the directed circulant on Z_n (paper 000 Table 9 row 7;
** a base of Fig. 3).
**
** Nodes 0..n-1; node i has one arc i -> i + a_j (mod n) per offset a_j. The graph is
** k-regular (out- and in-degree k), has n k arcs, no self-loops (offsets are nonzero mod
** n) and no parallel arcs (offsets are distinct mod n). It is flagged bidirectional
** exactly when the offset set is closed under a -> n - a.
**
** Table 9's instance is Z_{d+2} with the d jumps 1..d: diameter 2, Moore optimal because
** d + 2 > M_{d,1} = d + 1.
**
** Strong connectivity holds iff gcd(n, a_1, ..., a_k) = 1 (the offsets then generate
** Z_n, and in a finite group the semigroup they generate is that subgroup). Like the
** undirected circulant we reject disconnected instances.
**
** Parameters: n >= 2, k >= 1 offsets, distinct, each in 1..n-1, gcd(n, offsets) = 1.
** Sizes beyond TC_MAX_NODES / TC_MAX_ARCS give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include "topo_util.h"

#include <stddef.h>
#include <stdlib.h>

static int check_offsets(int64_t n, const int64_t *offs, int k, tc_error *err) {
  for (int j = 0; j < k; j++)
    if (offs[j] < 1 || offs[j] >= n)
      return tc_error_set(err, TC_EINPUT, "directed_circulant: offset %lld is outside 1..%lld",
                          (long long)offs[j], (long long)(n - 1));
  unsigned char *seen = calloc((size_t)n, 1);
  if (!seen) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = TC_OK;
  int64_t g = n;
  for (int j = 0; j < k && !rc; j++) {
    if (seen[offs[j]])
      rc = tc_error_set(err, TC_EINPUT, "directed_circulant: offset %lld is repeated", (long long)offs[j]);
    seen[offs[j]] = 1;
    g = tci_gcd64(g, offs[j]);
  }
  free(seen);
  if (!rc && g != 1)
    rc = tc_error_set(err, TC_EINPUT, "directed_circulant: gcd(n, offsets) = %lld, graph would be disconnected",
                      (long long)g);
  return rc;
}

int tc_topo_directed_circulant(int64_t n, const int64_t *offs, int k, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "directed_circulant: output pointer is NULL");
  *out = NULL;
  if (n < 2) return tc_error_set(err, TC_EINPUT, "directed_circulant: n must be >= 2 (got %lld)", (long long)n);
  if (n > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "directed_circulant: n = %lld exceeds %d nodes", (long long)n,
                        TC_MAX_NODES);
  if (k < 1) return tc_error_set(err, TC_EINPUT, "directed_circulant: need at least one offset (got %d)", k);
  if (!offs) return tc_error_set(err, TC_EINPUT, "directed_circulant: offsets array is NULL");
  if (k > n - 1)
    return tc_error_set(err, TC_EINPUT, "directed_circulant: %d offsets cannot be distinct in 1..%lld", k,
                        (long long)(n - 1));
  if (k > TC_MAX_ARCS / n)
    return tc_error_set(err, TC_ERANGE, "directed_circulant: n = %lld with %d offsets needs more than %lld arcs",
                        (long long)n, k, (long long)TC_MAX_ARCS);
  int rc = check_offsets(n, offs, k, err);
  if (rc) return rc;

  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, n * k, err);
  for (int64_t i = 0; i < n && !rc; i++)
    for (int j = 0; j < k && !rc; j++) rc = tc_graph_builder_add_arc(&b, i, (i + offs[j]) % n, 1, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
