/*
** circulant.c — circulant graphs C(n, {a_1..a_k}) (paper 000 Def. 18, App. F.4, Table 9
** row 6) and the minimum-diameter degree-4 circulant of Boesch and Wang
** (paper 000 Thm 22).
**
** C(n, {a_1..a_k}): nodes 0..n-1, node i linked to i + a_j and i - a_j (mod n) for every
** offset, each offset contributing `mult` parallel links (mult > 1 gives the multi-edge
** variant the paper uses to reach any even degree). Offsets must be distinct and lie in
** 1..floor(n/2); other values are redundant spellings (a and n-a give the same links).
**
** Offset n/2 (n even): i + n/2 and i - n/2 are the same node, so that offset gives ONE
** link per node (times mult), not two: we do not double it, because a doubled diameter
** link would be a parallel link the caller did not ask for. Degree is therefore
** mult (2k - 1) when n/2 is an offset and mult 2k otherwise. Self-loops never arise
** (offsets are nonzero mod n); parallel arcs arise exactly when mult > 1.
**
** The graph is connected iff gcd(n, a_1, ..., a_k) = 1; disconnected circulants are
** rejected (the paper only uses connected ones, and every consumer assumes connectivity).
**
** tc_topo_min_circulant(n, d) builds C(n, {m, m+1}) with m = ceil((-1 + sqrt(2n-1))/2) and
** d/4 parallel links per offset (degree d). Boesch–Wang (Thm 22): for n > 6 its diameter is
** m, the minimum over all two-offset circulants on n nodes. m is computed exactly as the
** least m >= 0 with (2m+1)^2 >= 2n-1 (equivalent to the ceiling because both sides of
** 2m+1 >= sqrt(2n-1) are positive), using an integer square root — no floating point.
**
** Sizes beyond TC_MAX_NODES / TC_MAX_ARCS give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include "topo_util.h"

#include <stddef.h>
#include <stdlib.h>

/* Check n, k, mult and each offset's range; report whether n/2 is an offset. */
static int check_circulant_params(int64_t n, const int64_t *offs, int k, int64_t mult, int *has_half,
                                  tc_error *err) {
  if (n < 2) return tc_error_set(err, TC_EINPUT, "circulant: n must be >= 2 (got %lld)", (long long)n);
  if (n > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "circulant: n = %lld exceeds %d nodes", (long long)n, TC_MAX_NODES);
  if (k < 1) return tc_error_set(err, TC_EINPUT, "circulant: need at least one offset (got %d)", k);
  if (!offs) return tc_error_set(err, TC_EINPUT, "circulant: offsets array is NULL");
  if (k > n / 2)
    return tc_error_set(err, TC_EINPUT, "circulant: %d offsets cannot be distinct in 1..%lld", k,
                        (long long)(n / 2));
  if (mult < 1) return tc_error_set(err, TC_EINPUT, "circulant: mult must be >= 1 (got %lld)", (long long)mult);
  *has_half = 0;
  for (int j = 0; j < k; j++) {
    if (offs[j] < 1 || offs[j] > n / 2)
      return tc_error_set(err, TC_EINPUT, "circulant: offset %lld is outside 1..%lld", (long long)offs[j],
                          (long long)(n / 2));
    if (2 * offs[j] == n) *has_half = 1;
  }
  return TC_OK;
}

/* Offsets pairwise distinct (a bitmap over 1..n/2: n is bounded, k may be large). */
static int check_distinct_offsets(int64_t n, const int64_t *offs, int k, tc_error *err) {
  unsigned char *seen = calloc((size_t)(n / 2 + 1), 1);
  if (!seen) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = TC_OK;
  for (int j = 0; j < k && !rc; j++) {
    if (seen[offs[j]])
      rc = tc_error_set(err, TC_EINPUT, "circulant: offset %lld is repeated", (long long)offs[j]);
    seen[offs[j]] = 1;
  }
  free(seen);
  return rc;
}

static int check_connected(int64_t n, const int64_t *offs, int k, tc_error *err) {
  int64_t g = n;
  for (int j = 0; j < k; j++) g = tci_gcd64(g, offs[j]);
  if (g != 1)
    return tc_error_set(err, TC_EINPUT, "circulant: gcd(n, offsets) = %lld, graph would be disconnected",
                        (long long)g);
  return TC_OK;
}

/* Add the links of every node towards i + a_j (the i - a_j links are the same links seen
   from the other end); the n/2 offset only from the lower half so each link is added once. */
static int add_circulant_links(tc_graph_builder *b, int64_t n, const int64_t *offs, int k, int64_t mult,
                               tc_error *err) {
  for (int64_t i = 0; i < n; i++)
    for (int j = 0; j < k; j++) {
      if (2 * offs[j] == n && i >= n / 2) continue;
      for (int64_t c = 0; c < mult; c++) {
        int rc = tc_graph_builder_add_edge(b, i, (i + offs[j]) % n, 1, err);
        if (rc) return rc;
      }
    }
  return TC_OK;
}

int tc_topo_circulant(int64_t n, const int64_t *offs, int k, int64_t mult, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "circulant: output pointer is NULL");
  *out = NULL;
  int has_half = 0;
  int rc = check_circulant_params(n, offs, k, mult, &has_half, err);
  if (rc) return rc;
  /* k <= n/2 and mult is checked against the arc limit before multiplying. */
  int64_t links_per_node = 2 * (int64_t)k - has_half;
  if (mult > TC_MAX_ARCS / links_per_node || mult * links_per_node > TC_MAX_ARCS / n)
    return tc_error_set(err, TC_ERANGE, "circulant: C(%lld, ...) with mult %lld needs more than %lld arcs",
                        (long long)n, (long long)mult, (long long)TC_MAX_ARCS);
  int64_t degree = mult * links_per_node;
  rc = check_distinct_offsets(n, offs, k, err);
  if (!rc) rc = check_connected(n, offs, k, err);
  if (rc) return rc;

  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, n * degree, err);
  if (!rc) rc = add_circulant_links(&b, n, offs, k, mult, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

/* floor(sqrt(x)) for x >= 0, by bisection on integers (exact for every int64). */
static int64_t isqrt64(int64_t x) {
  int64_t lo = 0, hi = 3037000499; /* floor(sqrt(INT64_MAX)) */
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (mid <= x / mid) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/* Boesch–Wang m = ceil((-1 + sqrt(2n-1))/2) = least m >= 0 with (2m+1)^2 >= 2n-1. */
static int64_t boesch_wang_m(int64_t n) {
  int64_t s = isqrt64(2 * n - 1); /* s^2 <= 2n-1 < (s+1)^2 */
  int64_t m = s > 0 ? (s - 1) / 2 : 0;
  while ((2 * m + 1) * (2 * m + 1) < 2 * n - 1) m++; /* at most one step past floor */
  return m;
}

int tc_topo_min_circulant(int64_t n, int64_t d, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "min_circulant: output pointer is NULL");
  *out = NULL;
  if (n <= 6) return tc_error_set(err, TC_EINPUT, "min_circulant: n must be > 6 (got %lld)", (long long)n);
  if (n > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "min_circulant: n = %lld exceeds %d nodes", (long long)n, TC_MAX_NODES);
  if (d < 4 || d % 4 != 0)
    return tc_error_set(err, TC_EINPUT, "min_circulant: d must be a positive multiple of 4 (got %lld)",
                        (long long)d);
  if (d > TC_MAX_ARCS / n)
    return tc_error_set(err, TC_ERANGE, "min_circulant: n = %lld with degree %lld needs more than %lld arcs",
                        (long long)n, (long long)d, (long long)TC_MAX_ARCS);
  int64_t m = boesch_wang_m(n);
  /* n > 6 gives m >= 2 and m + 1 <= n/2, so {m, m+1} is a valid, connected offset set. */
  const int64_t offs[2] = {m, m + 1};
  return tc_topo_circulant(n, offs, 2, d / 4, out, err);
}
