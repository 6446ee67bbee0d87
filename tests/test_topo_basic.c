/*
** test_topo_basic.c — the basic topology families of topo.h: complete, complete bipartite,
** Hamming, hypercube, twisted hypercube, uni-/bidirectional rings, torus, twisted torus,
** circulant (incl. Boesch–Wang), directed circulant, HyperX, Dragonfly.
**
** For every family we check the Table 9 columns of paper 000 (App. H): node and
** arc counts, regular degree, bidirectional flag, self-loops and multi-arcs; the diameter
** (tc_graph_diameter) against closed forms or against a brute-force oracle; and every
** parameter error path (code + message fragment).
**
** The oracle is independent of the generators: a dense n x n multiplicity matrix filled
** straight from each family's definition (coordinates, digits, offsets), compared pair by
** pair with the generated graph, and a Floyd–Warshall diameter on that matrix.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/iso.h"
#include "topocoll/metrics.h"
#include "topocoll/topo.h"

/* ---------------------------------------------------------------- oracle ---- */

/* Dense arc-multiplicity matrix: mult[u * n + v] = number of arcs u -> v. */
typedef struct dense {
  int n;
  int *mult;
} dense;

static dense dense_new(int n) {
  dense d = {n, calloc((size_t)n * (size_t)n, sizeof(int))};
  assert_non_null(d.mult);
  return d;
}

static void dense_free(dense *d) { free(d->mult); }

static void dense_arc(dense *d, int u, int v) { d->mult[u * d->n + v]++; }

/* One undirected link u ~ v (two opposite arcs). */
static void dense_link(dense *d, int u, int v) {
  dense_arc(d, u, v);
  dense_arc(d, v, u);
}

/* Floyd–Warshall over the matrix; -1 if some ordered pair is unreachable. */
static int dense_diameter(const dense *d) {
  int n = d->n, inf = n + 1;
  int *dist = malloc((size_t)n * (size_t)n * sizeof *dist);
  assert_non_null(dist);
  for (int u = 0; u < n; u++)
    for (int v = 0; v < n; v++) dist[u * n + v] = u == v ? 0 : d->mult[u * n + v] ? 1 : inf;
  for (int w = 0; w < n; w++)
    for (int u = 0; u < n; u++)
      for (int v = 0; v < n; v++)
        if (dist[u * n + w] + dist[w * n + v] < dist[u * n + v]) dist[u * n + v] = dist[u * n + w] + dist[w * n + v];
  int diameter = 0;
  for (int i = 0; i < n * n; i++) {
    if (dist[i] == inf) diameter = -1;
    if (diameter >= 0 && dist[i] > diameter) diameter = dist[i];
  }
  free(dist);
  return diameter;
}

/* The generated graph has exactly the oracle's arcs, with multiplicity. */
static void assert_same_as_oracle(const tc_graph *g, const dense *d) {
  assert_int_equal(g->n, d->n);
  int64_t total = 0;
  for (int u = 0; u < d->n; u++)
    for (int v = 0; v < d->n; v++) {
      assert_int_equal(tc_graph_arc_multiplicity(g, u, v), d->mult[u * d->n + v]);
      total += d->mult[u * d->n + v];
    }
  assert_int_equal(g->m, total);
}

/* ---------------------------------------------------------------- helpers --- */

/* Table 9 columns plus counts: n nodes, m arcs, out- and in-regular of `degree`. */
static void assert_shape(const tc_graph *g, int64_t n, int64_t m, int64_t degree, int bidirectional,
                         int64_t self_loops, int64_t multi_arcs) {
  assert_int_equal(g->n, n);
  assert_int_equal(g->m, m);
  assert_int_equal(tc_graph_out_regular(g), degree);
  assert_int_equal(tc_graph_in_regular(g), degree);
  assert_int_equal(g->bidirectional, bidirectional);
  assert_int_equal(tc_graph_count_self_loops(g), self_loops);
  assert_int_equal(tc_graph_count_multi_arcs(g), multi_arcs);
  assert_true(tc_graph_unit_capacity(g));
}

static int32_t diameter_of(const tc_graph *g) {
  tc_error err;
  int32_t diameter = -2;
  assert_int_equal(tc_graph_diameter(g, &diameter, &err), TC_OK);
  return diameter;
}

/* Same node count and the same arcs with the same multiplicities (same ids). */
static void assert_identical(const tc_graph *a, const tc_graph *b) {
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->m, b->m);
  for (int64_t i = 0; i < a->m; i++) {
    assert_int_equal(a->src[i], b->src[i]);
    assert_int_equal(a->dst[i], b->dst[i]);
  }
}

/* A failed call: the code, the error record, no graph, and one line naming the problem. */
/* `g` is passed by address so that it is read after the call (argument order is unspecified). */
static void assert_fails(int rc, tc_graph *const *g, const tc_error *err, int code, const char *fragment) {
  assert_int_equal(rc, code);
  assert_int_equal(err->code, code);
  assert_null(*g);
  if (!strstr(err->msg, fragment)) fail_msg("message \"%s\" lacks \"%s\"", err->msg, fragment);
  assert_null(strchr(err->msg, '\n'));
}

/* floor(sqrt(x)) by bisection: used to aim size-limit tests just past TC_MAX_* so they
   keep probing the right check whatever the limits are. */
static int64_t isqrt_floor(int64_t x) {
  int64_t lo = 0, hi = 3037000499;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (mid <= x / mid) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/* Least n with n (n-1) > TC_MAX_ARCS: K_n whose nodes fit but whose arcs do not. */
static int64_t complete_too_many_arcs(void) {
  int64_t n = isqrt_floor(TC_MAX_ARCS);
  while (n * (n - 1) <= TC_MAX_ARCS) n++;
  assert_true(n <= TC_MAX_NODES);
  return n;
}

static int popcount(unsigned x) {
  int c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

/* ----------------------------------------------------------- complete ------ */

static void complete_graph(void **state) {
  (void)state;
  for (int n = 2; n <= 9; n++) {
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_complete(n, &g, &err), TC_OK);
    /* Table 9 row 1: degree m-1, size m, no loops, no multi-edges; diameter 1 (T_L = 1). */
    assert_shape(g, n, (int64_t)n * (n - 1), n - 1, 1, 0, 0);
    assert_int_equal(diameter_of(g), 1);
    dense d = dense_new(n);
    for (int u = 0; u < n; u++)
      for (int v = u + 1; v < n; v++) dense_link(&d, u, v);
    assert_same_as_oracle(g, &d);
    dense_free(&d);
    tc_graph_destroy(g);
  }
}

static void complete_errors(void **state) {
  (void)state;
  tc_graph *g = (tc_graph *)&g; /* must be reset to NULL on failure */
  tc_error err;
  assert_fails(tc_topo_complete(1, &g, &err), &g, &err, TC_EINPUT, "complete: n must be >= 2 (got 1)");
  assert_fails(tc_topo_complete(-3, &g, &err), &g, &err, TC_EINPUT, "n must be >= 2 (got -3)");
  assert_fails(tc_topo_complete((int64_t)TC_MAX_NODES + 1, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_complete(INT64_MAX, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  /* The nodes fit, but n (n-1) arcs exceed TC_MAX_ARCS. */
  assert_fails(tc_topo_complete(complete_too_many_arcs(), &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* ---------------------------------------------------------- bipartite ------ */

static void bipartite_graph(void **state) {
  (void)state;
  for (int d = 1; d <= 7; d++) {
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_bipartite(d, &g, &err), TC_OK);
    /* Table 9 row 2: degree d, size 2d, simple; T_L = 2 (Fig. 1: K_{2,2} needs 2 steps). */
    assert_shape(g, 2 * d, 2LL * d * d, d, 1, 0, 0);
    assert_int_equal(diameter_of(g), d == 1 ? 1 : 2);
    dense o = dense_new(2 * d);
    for (int u = 0; u < d; u++)
      for (int v = d; v < 2 * d; v++) dense_link(&o, u, v);
    assert_same_as_oracle(g, &o);
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void bipartite_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_bipartite(0, &g, &err), &g, &err, TC_EINPUT, "bipartite: d must be >= 1 (got 0)");
  assert_fails(tc_topo_bipartite(TC_MAX_NODES / 2 + 1, &g, &err), &g, &err, TC_ERANGE, "nodes");
  assert_fails(tc_topo_bipartite(INT64_MAX, &g, &err), &g, &err, TC_ERANGE, "nodes");
  int64_t d = isqrt_floor(TC_MAX_ARCS / 2) + 1; /* 2d nodes fit, 2 d^2 arcs do not */
  assert_true(2 * d <= TC_MAX_NODES);
  assert_fails(tc_topo_bipartite(d, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* ------------------------------------------------------ hamming, cubes ----- */

/* Digits of u in base q differ from those of v in exactly one place. */
static int hamming_adjacent(int u, int v, int n, int q) {
  int differ = 0;
  for (int i = 0; i < n; i++, u /= q, v /= q) differ += u % q != v % q;
  return differ == 1;
}

static void hamming_graph(void **state) {
  (void)state;
  const int cases[][2] = {{1, 2}, {1, 5}, {2, 3}, {3, 3}, {2, 4}, {4, 2}, {3, 4}, {2, 6}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int n = cases[c][0], q = cases[c][1], nodes = 1;
    for (int i = 0; i < n; i++) nodes *= q;
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_hamming(n, q, &g, &err), TC_OK);
    /* Table 9 row 3: degree n(q-1), size q^n, simple; diameter (T_L) n. */
    assert_shape(g, nodes, (int64_t)nodes * n * (q - 1), n * (q - 1), 1, 0, 0);
    assert_int_equal(diameter_of(g), n);
    dense o = dense_new(nodes);
    for (int u = 0; u < nodes; u++)
      for (int v = u + 1; v < nodes; v++)
        if (hamming_adjacent(u, v, n, q)) dense_link(&o, u, v);
    assert_same_as_oracle(g, &o);
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void hamming_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_hamming(0, 3, &g, &err), &g, &err, TC_EINPUT, "hamming: n must be >= 1 (got 0)");
  assert_fails(tc_topo_hamming(2, 1, &g, &err), &g, &err, TC_EINPUT, "hamming: q must be >= 2 (got 1)");
  assert_fails(tc_topo_hamming(40, 2, &g, &err), &g, &err, TC_ERANGE, "nodes"); /* 2^40 */
  assert_fails(tc_topo_hamming(INT64_MAX, 2, &g, &err), &g, &err, TC_ERANGE, "nodes"); /* no hang */
  assert_fails(tc_topo_hamming(1, INT64_MAX, &g, &err), &g, &err, TC_ERANGE, "nodes");
  /* H(1,q) = K_q: q nodes fit, q (q-1) arcs do not. */
  assert_fails(tc_topo_hamming(1, complete_too_many_arcs(), &g, &err), &g, &err, TC_ERANGE, "arcs");
}

static void hypercube_graph(void **state) {
  (void)state;
  for (int n = 1; n <= 6; n++) {
    tc_graph *g = NULL, *h = NULL;
    tc_error err;
    assert_int_equal(tc_topo_hypercube(n, &g, &err), TC_OK);
    /* Q_n = H(n,2): 2^n nodes, degree n, diameter n (Table 9 row 3), simple. */
    assert_shape(g, 1 << n, (int64_t)n << n, n, 1, 0, 0);
    assert_int_equal(diameter_of(g), n);
    dense o = dense_new(1 << n);
    for (int u = 0; u < (1 << n); u++)
      for (int v = u + 1; v < (1 << n); v++)
        if (popcount((unsigned)(u ^ v)) == 1) dense_link(&o, u, v);
    assert_same_as_oracle(g, &o);
    dense_free(&o);
    assert_int_equal(tc_topo_hamming(n, 2, &h, &err), TC_OK); /* Q_n = H(n,2), same ids */
    assert_identical(g, h);
    tc_graph_destroy(h);
    tc_graph_destroy(g);
  }
}

static void hypercube_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_hypercube(0, &g, &err), &g, &err, TC_EINPUT, "hypercube: n must be >= 1 (got 0)");
  assert_fails(tc_topo_hypercube(40, &g, &err), &g, &err, TC_ERANGE, "hypercube: Q_40 has more than");
  assert_fails(tc_topo_hypercube(64, &g, &err), &g, &err, TC_ERANGE, "nodes"); /* no 1 << 64 */
  /* The largest n whose 2^n nodes fit: n 2^n arcs do not (true for the current limits). */
  int64_t n = 1;
  while ((INT64_C(2) << n) <= TC_MAX_NODES) n++;
  assert_true(n * (INT64_C(1) << n) > TC_MAX_ARCS);
  assert_fails(tc_topo_hypercube(n, &g, &err), &g, &err, TC_ERANGE, "hypercube: Q_");
  assert_non_null(strstr(err.msg, "arcs"));
}

/* Twisted Q_n from its definition: Q_n minus {0,1},{2,3} plus the diagonals {0,3},{1,2}. */
static dense twisted_cube_oracle(int n) {
  dense o = dense_new(1 << n);
  for (int u = 0; u < (1 << n); u++)
    for (int v = u + 1; v < (1 << n); v++) {
      int removed = (u == 0 && v == 1) || (u == 2 && v == 3);
      if (popcount((unsigned)(u ^ v)) == 1 && !removed) dense_link(&o, u, v);
    }
  dense_link(&o, 0, 3);
  dense_link(&o, 1, 2);
  return o;
}

static void twisted_hypercube_graph(void **state) {
  (void)state;
  for (int n = 3; n <= 5; n++) {
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_twisted_hypercube(n, &g, &err), TC_OK);
    assert_shape(g, 1 << n, (int64_t)n << n, n, 1, 0, 0);
    dense o = twisted_cube_oracle(n);
    assert_same_as_oracle(g, &o);
    int expected = dense_diameter(&o);
    /* Esfahanian–Ni–Sagan: the twisted n-cube has diameter n-1, one less than Q_n; the
       brute-force oracle must agree with that, and the generator with both. */
    assert_int_equal(expected, n - 1);
    assert_int_equal(diameter_of(g), expected);
    dense_free(&o);
    tc_graph_destroy(g);
  }
  /* Paper 000 App. A.1: the 8-node twisted hypercube has "a lower diameter", 2 against Q_3's
     3, and BFB takes D(G) steps (Thm 15). */
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_topo_twisted_hypercube(3, &g, &err), TC_OK);
  assert_int_equal(diameter_of(g), 2);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 1), 0);
  assert_int_equal(tc_graph_arc_multiplicity(g, 2, 3), 0);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 3), 1);
  assert_int_equal(tc_graph_arc_multiplicity(g, 1, 2), 1);
  tc_graph_destroy(g);
}

static void twisted_hypercube_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_twisted_hypercube(2, &g, &err), &g, &err,
               TC_EINPUT, "twisted_hypercube: n must be >= 3 (got 2)");
  assert_fails(tc_topo_twisted_hypercube(40, &g, &err), &g, &err, TC_ERANGE, "nodes");
  int64_t n = 1;
  while ((INT64_C(2) << n) <= TC_MAX_NODES) n++;
  assert_true(n * (INT64_C(1) << n) > TC_MAX_ARCS);
  assert_fails(tc_topo_twisted_hypercube(n, &g, &err), &g, &err, TC_ERANGE, "arcs");
  assert_fails(tc_topo_twisted_hypercube(INT64_MAX, &g, &err), &g, &err, TC_ERANGE, "nodes");
}

/* ---------------------------------------------------------------- rings ---- */

static void uniring_graph(void **state) {
  (void)state;
  const int cases[][2] = {{1, 2}, {1, 5}, {1, 8}, {3, 4}, {2, 7}, {4, 2}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int d = cases[c][0], m = cases[c][1];
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_uniring(d, m, &g, &err), TC_OK);
    /* Table 9 row 9: degree d, size m, multi-edges when d > 1; T_L = diameter = m-1. Only
       the 2-node ring is its own reverse pairing (0->1 and 1->0). */
    assert_shape(g, m, (int64_t)m * d, d, m == 2, 0, (int64_t)(d - 1) * m);
    assert_int_equal(diameter_of(g), m - 1);
    dense o = dense_new(m);
    for (int i = 0; i < m; i++)
      for (int k = 0; k < d; k++) dense_arc(&o, i, (i + 1) % m);
    assert_same_as_oracle(g, &o);
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void uniring_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_uniring(0, 5, &g, &err), &g, &err, TC_EINPUT, "uniring: d must be >= 1 (got 0)");
  assert_fails(tc_topo_uniring(1, 1, &g, &err), &g, &err, TC_EINPUT, "uniring: m must be >= 2 (got 1)");
  assert_fails(tc_topo_uniring(1, (int64_t)TC_MAX_NODES + 1, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_uniring(INT64_MAX, 1000, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

static void biring_graph(void **state) {
  (void)state;
  const int cases[][2] = {{2, 3}, {2, 4}, {2, 5}, {2, 6}, {2, 7}, {2, 8}, {4, 5}, {6, 4}, {4, 9}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int d = cases[c][0], m = cases[c][1];
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_biring(d, m, &g, &err), TC_OK);
    /* Table 9 row 8: even degree d, m >= 3 nodes, multi-edges when d > 2 (each of the 2m
       arc bundles holds d/2 arcs, d/2 - 1 of them repeats); T_L = floor(m/2) (App. F.1:
       N = 5..8 -> 2, 3, 3, 4). */
    assert_shape(g, m, (int64_t)m * d, d, 1, 0, (int64_t)m * (d - 2));
    assert_int_equal(diameter_of(g), m / 2);
    dense o = dense_new(m);
    for (int i = 0; i < m; i++)
      for (int k = 0; k < d / 2; k++) dense_link(&o, i, (i + 1) % m);
    assert_same_as_oracle(g, &o);
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void biring_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_biring(3, 5, &g, &err), &g, &err, TC_EINPUT, "biring: d must be even and >= 2 (got 3)");
  assert_fails(tc_topo_biring(0, 5, &g, &err), &g, &err, TC_EINPUT, "d must be even and >= 2 (got 0)");
  assert_fails(tc_topo_biring(-2, 5, &g, &err), &g, &err, TC_EINPUT, "d must be even and >= 2 (got -2)");
  assert_fails(tc_topo_biring(2, 2, &g, &err), &g, &err, TC_EINPUT, "biring: m must be >= 3 (got 2)");
  assert_fails(tc_topo_biring(2, (int64_t)TC_MAX_NODES + 1, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_biring(INT64_MAX - 1, 1000, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* ---------------------------------------------------------------- torus ---- */

/* Coordinates of u in the row-major (last fastest) numbering over dims. */
static void decode(int u, const int64_t *dims, int k, int *x) {
  for (int i = k - 1; i >= 0; i--) {
    x[i] = u % (int)dims[i];
    u /= (int)dims[i];
  }
}

/* Torus adjacency from coordinates: differ in exactly one coordinate, by ±1 mod its length
   (a set test, so a length-2 dimension gives one link). */
static dense torus_oracle(const int64_t *dims, int k) {
  int n = 1;
  for (int i = 0; i < k; i++) n *= (int)dims[i];
  dense o = dense_new(n);
  int x[8], y[8];
  for (int u = 0; u < n; u++)
    for (int v = u + 1; v < n; v++) {
      decode(u, dims, k, x);
      decode(v, dims, k, y);
      int differ = 0, step = 0;
      for (int i = 0; i < k; i++)
        if (x[i] != y[i]) {
          differ++;
          int l = (int)dims[i];
          step = (x[i] - y[i] + l) % l == 1 || (y[i] - x[i] + l) % l == 1;
        }
      if (differ == 1 && step) dense_link(&o, u, v);
    }
  return o;
}

static void torus_graph(void **state) {
  (void)state;
  /* Paper 000 §6.2: T_L = Σ floor(l_i/2): 3x3 -> 2, 3x3x2 -> 3, 3x3x3x2 -> 4 (§8.5.2's tori). */
  const struct {
    int k;
    int64_t dims[4];
    int nodes, degree, diameter;
  } cases[] = {
      {2, {3, 3}, 9, 4, 2},          {3, {3, 3, 2}, 18, 5, 3},   {4, {3, 3, 3, 2}, 54, 7, 4},
      {2, {4, 5}, 20, 4, 4},         {3, {2, 2, 2}, 8, 3, 3},    {1, {5}, 5, 2, 2},
      {1, {2}, 2, 1, 1},             {4, {2, 3, 4, 2}, 48, 6, 5}, {3, {3, 3, 3}, 27, 6, 3},
      {2, {6, 7}, 42, 4, 6},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_torus(cases[c].dims, cases[c].k, &g, &err), TC_OK);
    int64_t sum_half = 0;
    for (int i = 0; i < cases[c].k; i++) sum_half += cases[c].dims[i] / 2;
    assert_int_equal(sum_half, cases[c].diameter);
    assert_shape(g, cases[c].nodes, (int64_t)cases[c].nodes * cases[c].degree, cases[c].degree, 1, 0, 0);
    assert_int_equal(diameter_of(g), cases[c].diameter);
    dense o = torus_oracle(cases[c].dims, cases[c].k);
    assert_same_as_oracle(g, &o);
    assert_int_equal(dense_diameter(&o), cases[c].diameter);
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void torus_labels_and_special_cases(void **state) {
  (void)state;
  tc_graph *g = NULL, *h = NULL;
  tc_error err;
  const int64_t d332[3] = {3, 3, 2};
  assert_int_equal(tc_topo_torus(d332, 3, &g, &err), TC_OK);
  assert_string_equal(tc_graph_label(g, 1 * 6 + 2 * 2 + 0), "(1,2,0)");
  assert_string_equal(tc_graph_label(g, 17), "(2,2,1)");
  tc_graph_destroy(g);
  /* 2 x 2 x 2 torus = Q_3 (each length-2 dimension is K_2), with the same numbering. */
  const int64_t d222[3] = {2, 2, 2};
  assert_int_equal(tc_topo_torus(d222, 3, &g, &err), TC_OK);
  assert_int_equal(tc_topo_hypercube(3, &h, &err), TC_OK);
  assert_identical(g, h);
  tc_graph_destroy(g);
  tc_graph_destroy(h);
  /* A 1D torus of length m is BiRing(2,m). */
  const int64_t d7[1] = {7};
  assert_int_equal(tc_topo_torus(d7, 1, &g, &err), TC_OK);
  assert_int_equal(tc_topo_biring(2, 7, &h, &err), TC_OK);
  assert_identical(g, h);
  tc_graph_destroy(g);
  tc_graph_destroy(h);
}

static void torus_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  const int64_t ok[2] = {3, 3}, one[3] = {3, 1, 3}, neg[2] = {-4, 3}, big[2] = {10000, 10000},
                huge[2] = {INT64_MAX, 2};
  /* As many length-3 dimensions as the node limit allows: 3^k nodes, degree 2k. */
  int64_t many_threes[40], threes = 1;
  int k = 0;
  while (threes * 3 <= TC_MAX_NODES) threes *= 3, many_threes[k++] = 3;
  assert_true(threes * 2 * k > TC_MAX_ARCS);
  assert_fails(tc_topo_torus(ok, 0, &g, &err), &g, &err, TC_EINPUT, "torus: need at least one dimension (got 0)");
  assert_fails(tc_topo_torus(ok, -1, &g, &err), &g, &err, TC_EINPUT, "at least one dimension");
  assert_fails(tc_topo_torus(NULL, 2, &g, &err), &g, &err, TC_EINPUT, "torus: dims is NULL");
  assert_fails(tc_topo_torus(one, 3, &g, &err), &g, &err, TC_EINPUT, "torus: dims[1] must be >= 2 (got 1)");
  assert_fails(tc_topo_torus(neg, 2, &g, &err), &g, &err, TC_EINPUT, "dims[0] must be >= 2 (got -4)");
  assert_fails(tc_topo_torus(big, 2, &g, &err), &g, &err, TC_ERANGE, "nodes");
  assert_fails(tc_topo_torus(huge, 2, &g, &err), &g, &err, TC_ERANGE, "nodes");
  assert_fails(tc_topo_torus(many_threes, k, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* ------------------------------------------------------- twisted torus ----- */

/* Twisted a x b torus from its definition (twisted_torus.c header), as a set of links. */
static dense twisted_torus_oracle(int a, int b, int twist) {
  dense o = dense_new(a * b);
  for (int u = 0; u < a * b; u++)
    for (int v = u + 1; v < a * b; v++) {
      int xu = u / b, yu = u % b, xv = v / b, yv = v % b, linked = 0;
      if (yu == yv && ((xu + 1) % a == xv || (xv + 1) % a == xu)) linked = 1;
      if (xu == xv && (yu + 1 == yv || yv + 1 == yu)) linked = 1;
      if (yu == b - 1 && yv == 0 && (xu + twist) % a == xv) linked = 1;
      if (yv == b - 1 && yu == 0 && (xv + twist) % a == xu) linked = 1;
      if (linked) dense_link(&o, u, v);
    }
  return o;
}

static void twisted_torus_graph(void **state) {
  (void)state;
  const int cases[][3] = {{5, 4, 2}, {6, 3, 1}, {4, 2, 1}, {2, 2, 1}, {3, 2, 0}, {2, 5, 1},
                          {7, 5, 3}, {8, 4, 4}, {3, 7, 2}, {2, 2, 0}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int a = cases[c][0], b = cases[c][1], t = cases[c][2];
    int degree = (a == 2 ? 1 : 2) + (b == 2 && t == 0 ? 1 : 2);
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_twisted_torus(a, b, t, &g, &err), TC_OK);
    assert_shape(g, a * b, (int64_t)a * b * degree, degree, 1, 0, 0);
    dense o = twisted_torus_oracle(a, b, t);
    assert_same_as_oracle(g, &o);
    assert_int_equal(diameter_of(g), dense_diameter(&o));
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void twisted_torus_closed_forms(void **state) {
  (void)state;
  tc_error err;
  /* twist 0 is the plain torus, ids and labels included. */
  const int cases[][2] = {{3, 3}, {4, 5}, {2, 3}, {3, 2}, {2, 2}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    tc_graph *g = NULL, *h = NULL;
    const int64_t dims[2] = {cases[c][0], cases[c][1]};
    assert_int_equal(tc_topo_twisted_torus(dims[0], dims[1], 0, &g, &err), TC_OK);
    assert_int_equal(tc_topo_torus(dims, 2, &h, &err), TC_OK);
    assert_identical(g, h);
    for (int32_t u = 0; u < g->n; u++) assert_string_equal(tc_graph_label(g, u), tc_graph_label(h, u));
    tc_graph_destroy(g);
    tc_graph_destroy(h);
  }
  /* Cámara et al.'s rectangular twisted torus 2c x c with twist c (paper 000 ref. [26]) has
     diameter c, against c + floor(c/2) for the untwisted 2c x c torus. */
  for (int c = 2; c <= 7; c++) {
    tc_graph *g = NULL, *h = NULL;
    assert_int_equal(tc_topo_twisted_torus(2 * c, c, c, &g, &err), TC_OK);
    assert_int_equal(tc_topo_twisted_torus(2 * c, c, 0, &h, &err), TC_OK);
    assert_int_equal(diameter_of(g), c);
    assert_int_equal(diameter_of(h), c + c / 2);
    tc_graph_destroy(g);
    tc_graph_destroy(h);
  }
}

static void twisted_torus_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_twisted_torus(1, 4, 0, &g, &err), &g, &err, TC_EINPUT, "twisted_torus: a must be >= 2 (got 1)");
  assert_fails(tc_topo_twisted_torus(4, 1, 0, &g, &err), &g, &err, TC_EINPUT, "twisted_torus: b must be >= 2 (got 1)");
  assert_fails(tc_topo_twisted_torus(4, 4, -1, &g, &err), &g, &err, TC_EINPUT, "twist must be in 0..3 (got -1)");
  assert_fails(tc_topo_twisted_torus(4, 4, 4, &g, &err), &g, &err, TC_EINPUT, "twist must be in 0..3 (got 4)");
  assert_fails(tc_topo_twisted_torus(TC_MAX_NODES, 2, 1, &g, &err), &g, &err, TC_ERANGE, "nodes");
  assert_fails(tc_topo_twisted_torus(INT64_MAX, 2, 1, &g, &err), &g, &err, TC_ERANGE, "nodes");
}

/* ------------------------------------------------------------ circulant ---- */

/* C(n, offs) with mult parallel links per offset, from Def. 18: j ∈ {i ± a} as a set. */
static dense circulant_oracle(int n, const int64_t *offs, int k, int mult) {
  dense o = dense_new(n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int s = 0; s < k; s++)
        if (i != j && ((i + offs[s]) % n == j || (j + offs[s]) % n == i)) o.mult[i * n + j] += mult;
  return o;
}

static void circulant_graph(void **state) {
  (void)state;
  const struct {
    int n, k, mult;
    int64_t offs[4];
  } cases[] = {
      {16, 2, 1, {3, 4}}, {10, 2, 1, {1, 5}}, {8, 3, 1, {1, 2, 3}}, {13, 2, 1, {1, 5}},
      {12, 2, 2, {1, 6}}, {9, 2, 1, {2, 3}},  {2, 1, 1, {1}},       {20, 3, 1, {1, 4, 9}},
      {11, 1, 3, {2}},    {15, 3, 2, {3, 5, 7}}, {6, 1, 1, {1}},    {30, 4, 1, {6, 10, 15, 2}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int n = cases[c].n, k = cases[c].k, mult = cases[c].mult, half = 0;
    for (int s = 0; s < k; s++) half |= 2 * cases[c].offs[s] == n;
    int degree = mult * (2 * k - half); /* offset n/2 gives one link, not two */
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_circulant(n, cases[c].offs, k, mult, &g, &err), TC_OK);
    /* Table 9 row 6: degree 2k, no loops; parallel links only from mult. */
    assert_shape(g, n, (int64_t)n * degree, degree, 1, 0, (int64_t)n * degree * (mult - 1) / mult);
    dense o = circulant_oracle(n, cases[c].offs, k, mult);
    assert_same_as_oracle(g, &o);
    assert_int_equal(diameter_of(g), dense_diameter(&o));
    dense_free(&o);
    tc_graph_destroy(g);
  }
  /* Paper 000 Table 4 / Thm 22: C(16,{3,4}) has diameter 3. */
  tc_graph *g = NULL;
  tc_error err;
  const int64_t offs[2] = {3, 4};
  assert_int_equal(tc_topo_circulant(16, offs, 2, 1, &g, &err), TC_OK);
  assert_int_equal(diameter_of(g), 3);
  tc_graph_destroy(g);
}

static void circulant_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  const int64_t o1[1] = {1}, o34[2] = {3, 4}, zero[1] = {0}, far[2] = {1, 9}, dup[3] = {1, 3, 1}, even[2] = {2, 4},
                many[5] = {1, 2, 3, 4, 5};
  assert_fails(tc_topo_circulant(1, o1, 1, 1, &g, &err), &g, &err, TC_EINPUT, "circulant: n must be >= 2 (got 1)");
  assert_fails(tc_topo_circulant((int64_t)TC_MAX_NODES + 1, o1, 1, 1, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_circulant(16, o34, 0, 1, &g, &err), &g, &err, TC_EINPUT, "need at least one offset (got 0)");
  assert_fails(tc_topo_circulant(16, NULL, 2, 1, &g, &err), &g, &err, TC_EINPUT, "offsets array is NULL");
  assert_fails(tc_topo_circulant(8, many, 5, 1, &g, &err), &g, &err, TC_EINPUT, "5 offsets cannot be distinct in 1..4");
  assert_fails(tc_topo_circulant(16, o34, 2, 0, &g, &err), &g, &err, TC_EINPUT, "mult must be >= 1 (got 0)");
  assert_fails(tc_topo_circulant(16, zero, 1, 1, &g, &err), &g, &err, TC_EINPUT, "offset 0 is outside 1..8");
  assert_fails(tc_topo_circulant(16, far, 2, 1, &g, &err), &g, &err, TC_EINPUT, "offset 9 is outside 1..8");
  assert_fails(tc_topo_circulant(16, dup, 3, 1, &g, &err), &g, &err, TC_EINPUT, "offset 1 is repeated");
  assert_fails(tc_topo_circulant(12, even, 2, 1, &g, &err), &g, &err, TC_EINPUT, "gcd(n, offsets) = 2");
  assert_fails(tc_topo_circulant(1000, o34, 2, TC_MAX_ARCS / 4000 + 1, &g, &err), &g, &err, TC_ERANGE, "arcs");
  assert_fails(tc_topo_circulant(1000, o34, 2, INT64_MAX, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* Boesch–Wang m, computed here from the equivalent count form: the least m with
   2m^2 + 2m + 1 >= n (the most nodes a 2-offset circulant reaches within m hops);
   (2m+1)^2 >= 2n-1 <=> 2m^2 + 2m + 1 >= n, so this is ceil((-1 + sqrt(2n-1))/2). */
static int boesch_wang_m(int n) {
  int m = 0;
  while (2 * m * m + 2 * m + 1 < n) m++;
  return m;
}

/* Diameter of C(n,{a,b}) by BFS from node 0 on Z_n arithmetic (circulants are
   vertex-transitive, so node 0's eccentricity is the diameter); -1 if disconnected. */
static int circulant_diameter_oracle(int n, int a, int b) {
  int dist[64], queue[64], head = 0, tail = 0, far = 0;
  for (int i = 0; i < n; i++) dist[i] = -1;
  dist[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int u = queue[head++];
    const int next[4] = {(u + a) % n, (u - a + n) % n, (u + b) % n, (u - b + n) % n};
    for (int s = 0; s < 4; s++)
      if (dist[next[s]] < 0) {
        dist[next[s]] = dist[u] + 1;
        far = dist[next[s]];
        queue[tail++] = next[s];
      }
  }
  return tail == n ? far : -1;
}

static void boesch_wang_min_circulant(void **state) {
  (void)state;
  tc_error err;
  /* Thm 22: for every n > 6, C(n,{m,m+1}) has diameter m. */
  for (int n = 7; n <= 200; n++) {
    tc_graph *g = NULL;
    int m = boesch_wang_m(n);
    assert_int_equal(tc_topo_min_circulant(n, 4, &g, &err), TC_OK);
    assert_shape(g, n, 4LL * n, 4, 1, 0, 0);
    assert_int_equal(tc_graph_arc_multiplicity(g, 0, m), 1); /* offsets are exactly m, m+1 */
    assert_int_equal(tc_graph_arc_multiplicity(g, 0, m + 1), 1);
    assert_int_equal(tc_graph_arc_multiplicity(g, 0, n - m), 1);
    assert_int_equal(tc_graph_arc_multiplicity(g, 0, n - m - 1), 1);
    assert_int_equal(diameter_of(g), m);
    tc_graph_destroy(g);
  }
  /* Thm 22's m = ceil((-1 + sqrt(2n-1))/2): n = 7, 9, 10, 11, 12 -> 2; 16, 25 -> 3; 50 -> 5;
     100 -> 7. */
  const int n_of[] = {7, 9, 10, 11, 12, 16, 25, 50, 100}, m_of[] = {2, 2, 2, 2, 2, 3, 3, 5, 7};
  for (int i = 0; i < 9; i++) {
    tc_graph *g = NULL;
    assert_int_equal(boesch_wang_m(n_of[i]), m_of[i]);
    assert_int_equal(tc_topo_min_circulant(n_of[i], 4, &g, &err), TC_OK);
    assert_int_equal(diameter_of(g), m_of[i]);
    tc_graph_destroy(g);
  }
  /* ... and m is the minimum over all two-offset circulants (brute force, n = 7..60). */
  for (int n = 7; n <= 60; n++) {
    int best = -1;
    for (int a = 1; a <= n / 2; a++)
      for (int b = a + 1; b <= n / 2; b++) {
        int d = circulant_diameter_oracle(n, a, b);
        if (d >= 0 && (best < 0 || d < best)) best = d;
      }
    assert_int_equal(best, boesch_wang_m(n));
  }
  /* Degree 8 = two parallel links per offset: same diameter, every arc doubled. */
  tc_graph *g = NULL;
  assert_int_equal(tc_topo_min_circulant(50, 8, &g, &err), TC_OK);
  assert_shape(g, 50, 400, 8, 1, 0, 200);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 5), 2);
  assert_int_equal(diameter_of(g), 5);
  tc_graph_destroy(g);
}

static void min_circulant_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_min_circulant(6, 4, &g, &err), &g, &err, TC_EINPUT, "min_circulant: n must be > 6 (got 6)");
  assert_fails(tc_topo_min_circulant((int64_t)TC_MAX_NODES + 1, 4, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_min_circulant(20, 6, &g, &err), &g, &err,
               TC_EINPUT, "d must be a positive multiple of 4 (got 6)");
  assert_fails(tc_topo_min_circulant(20, 0, &g, &err), &g, &err, TC_EINPUT, "multiple of 4 (got 0)");
  assert_fails(tc_topo_min_circulant(20, -4, &g, &err), &g, &err, TC_EINPUT, "multiple of 4 (got -4)");
  int64_t d = 4 * (TC_MAX_ARCS / TC_MAX_NODES / 4 + 1); /* n d > TC_MAX_ARCS for n = TC_MAX_NODES */
  assert_fails(tc_topo_min_circulant(TC_MAX_NODES, d, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* --------------------------------------------------- directed circulant ---- */

static void directed_circulant_graph(void **state) {
  (void)state;
  for (int d = 1; d <= 7; d++) {
    int64_t offs[7];
    for (int j = 0; j < d; j++) offs[j] = j + 1;
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_directed_circulant(d + 2, offs, d, &g, &err), TC_OK);
    /* Table 9 row 7: degree d, size d+2, no loops or multi-edges; the jump d+1 is missing,
       so the graph is not symmetric. Diameter 2 = T_L, Moore optimal: d+2 > M_{d,1}. */
    assert_shape(g, d + 2, (int64_t)d * (d + 2), d, 0, 0, 0);
    assert_int_equal(diameter_of(g), 2);
    assert_true(d + 2 > tc_moore_directed(d, 1));
    dense o = dense_new(d + 2);
    for (int i = 0; i < d + 2; i++)
      for (int j = 1; j <= d; j++) dense_arc(&o, i, (i + j) % (d + 2));
    assert_same_as_oracle(g, &o);
    assert_int_equal(dense_diameter(&o), 2);
    dense_free(&o);
    tc_graph_destroy(g);
  }
  /* Other jump sets, against the oracle; {1, 6} on Z_7 is closed under a -> n-a. */
  const struct {
    int n, k, bidirectional;
    int64_t offs[3];
  } cases[] = {{7, 2, 1, {1, 6}}, {10, 2, 0, {1, 3}}, {12, 3, 0, {5, 2, 9}}, {9, 1, 0, {4}}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int n = cases[c].n, k = cases[c].k;
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_directed_circulant(n, cases[c].offs, k, &g, &err), TC_OK);
    assert_shape(g, n, (int64_t)n * k, k, cases[c].bidirectional, 0, 0);
    dense o = dense_new(n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++) dense_arc(&o, i, (int)((i + cases[c].offs[j]) % n));
    assert_same_as_oracle(g, &o);
    assert_int_equal(diameter_of(g), dense_diameter(&o));
    dense_free(&o);
    tc_graph_destroy(g);
  }
}

static void directed_circulant_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  const int64_t o1[1] = {1}, zero[1] = {0}, full[1] = {6}, dup[2] = {2, 2}, even[2] = {2, 4},
                many[3] = {1, 2, 3};
  /* TC_MAX_NODES nodes with one offset more than TC_MAX_ARCS / TC_MAX_NODES. */
  int k = (int)(TC_MAX_ARCS / TC_MAX_NODES) + 1;
  int64_t *jumps = malloc((size_t)k * sizeof *jumps);
  assert_non_null(jumps);
  for (int j = 0; j < k; j++) jumps[j] = j + 1;
  assert_fails(tc_topo_directed_circulant(1, o1, 1, &g, &err), &g, &err,
               TC_EINPUT, "directed_circulant: n must be >= 2 (got 1)");
  assert_fails(tc_topo_directed_circulant((int64_t)TC_MAX_NODES + 1, o1, 1, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_directed_circulant(6, o1, 0, &g, &err), &g, &err, TC_EINPUT, "need at least one offset (got 0)");
  assert_fails(tc_topo_directed_circulant(6, NULL, 1, &g, &err), &g, &err, TC_EINPUT, "offsets array is NULL");
  assert_fails(tc_topo_directed_circulant(3, many, 3, &g, &err), &g, &err,
               TC_EINPUT, "3 offsets cannot be distinct in 1..2");
  assert_fails(tc_topo_directed_circulant(TC_MAX_NODES, jumps, k, &g, &err), &g, &err, TC_ERANGE, "arcs");
  free(jumps);
  assert_fails(tc_topo_directed_circulant(6, zero, 1, &g, &err), &g, &err, TC_EINPUT, "offset 0 is outside 1..5");
  assert_fails(tc_topo_directed_circulant(6, full, 1, &g, &err), &g, &err, TC_EINPUT, "offset 6 is outside 1..5");
  assert_fails(tc_topo_directed_circulant(7, dup, 2, &g, &err), &g, &err, TC_EINPUT, "offset 2 is repeated");
  assert_fails(tc_topo_directed_circulant(6, even, 2, &g, &err), &g, &err, TC_EINPUT, "gcd(n, offsets) = 2");
}

/* --------------------------------------------------------------- hyperx ---- */

/* HyperX from Eqs. 2.6–2.7: linked iff the addresses differ in exactly one coordinate. */
static dense hyperx_oracle(const int64_t *dims, int k) {
  int n = 1, x[8], y[8];
  for (int i = 0; i < k; i++) n *= (int)dims[i];
  dense o = dense_new(n);
  for (int u = 0; u < n; u++)
    for (int v = u + 1; v < n; v++) {
      decode(u, dims, k, x);
      decode(v, dims, k, y);
      int differ = 0;
      for (int i = 0; i < k; i++) differ += x[i] != y[i];
      if (differ == 1) dense_link(&o, u, v);
    }
  return o;
}

static void hyperx_graph(void **state) {
  (void)state;
  /* Paper 002 Table 2.1: 3x3 2dfc has 9 nodes, degree 4, 18 links, diameter 2; an m x n
     2dfc has degree m+n-2 and mn(m+n-2)/2 links (Eqs. 2.8–2.9). 12x8 is the TiTech HyperX,
     16x6 the Cray Aries group (paper 002 §2.1.4). */
  const struct {
    int k;
    int64_t dims[3];
  } cases[] = {{2, {3, 3}}, {2, {2, 3}}, {2, {3, 4}}, {2, {4, 6}}, {2, {12, 8}}, {2, {16, 6}},
               {3, {2, 3, 4}}, {1, {5}}, {3, {3, 3, 3}}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int k = cases[c].k, n = 1, degree = 0;
    for (int i = 0; i < k; i++) {
      n *= (int)cases[c].dims[i];
      degree += (int)cases[c].dims[i] - 1;
    }
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_hyperx(cases[c].dims, k, &g, &err), TC_OK);
    assert_shape(g, n, (int64_t)n * degree, degree, 1, 0, 0);
    if (k == 2) {
      int64_t m1 = cases[c].dims[0], m2 = cases[c].dims[1];
      assert_int_equal(degree, m1 + m2 - 2);
      assert_int_equal(g->m / 2, m1 * m2 * (m1 + m2 - 2) / 2);
    }
    assert_int_equal(diameter_of(g), k); /* one hop per differing coordinate */
    if (n <= 96) {
      dense o = hyperx_oracle(cases[c].dims, k);
      assert_same_as_oracle(g, &o);
      assert_int_equal(dense_diameter(&o), k);
      dense_free(&o);
    }
    tc_graph_destroy(g);
  }
  tc_graph *g = NULL;
  tc_error err;
  const int64_t d33[2] = {3, 3}, d34[2] = {3, 4};
  assert_int_equal(tc_topo_hyperx(d33, 2, &g, &err), TC_OK);
  assert_int_equal(g->n, 9);
  assert_int_equal(tc_graph_out_regular(g), 4);
  assert_int_equal(g->m / 2, 18);
  assert_int_equal(diameter_of(g), 2);
  tc_graph_destroy(g);
  /* Rank i = a_2 m_1 + a_1 (Eq. 2.5): node 7 of the 3 x 4 2dfc is (a_2, a_1) = (1, 3). */
  assert_int_equal(tc_topo_hyperx(d34, 2, &g, &err), TC_OK);
  assert_string_equal(tc_graph_label(g, 7), "(1,3)");
  assert_int_equal(tc_graph_arc_multiplicity(g, 7, 4), 1);  /* same row a_2 = 1 */
  assert_int_equal(tc_graph_arc_multiplicity(g, 7, 11), 1); /* same column a_1 = 3 */
  assert_int_equal(tc_graph_arc_multiplicity(g, 7, 8), 0);
  tc_graph_destroy(g);
}

static void hyperx_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  const int64_t ok[2] = {3, 3}, one[2] = {3, 1}, big[2] = {TC_MAX_NODES, 2}, huge[2] = {2, INT64_MAX};
  /* s x s with s^2 <= TC_MAX_NODES: nodes fit, degree 2(s-1) makes the arcs overflow. */
  const int64_t side = isqrt_floor(TC_MAX_NODES), dense_big[2] = {side, side};
  assert_fails(tc_topo_hyperx(ok, 0, &g, &err), &g, &err, TC_EINPUT, "hyperx: need at least one dimension (got 0)");
  assert_fails(tc_topo_hyperx(NULL, 2, &g, &err), &g, &err, TC_EINPUT, "hyperx: dims is NULL");
  assert_fails(tc_topo_hyperx(one, 2, &g, &err), &g, &err, TC_EINPUT, "hyperx: dims[1] must be >= 2 (got 1)");
  assert_fails(tc_topo_hyperx(big, 2, &g, &err), &g, &err, TC_ERANGE, "nodes");
  assert_fails(tc_topo_hyperx(huge, 2, &g, &err), &g, &err, TC_ERANGE, "nodes");
  assert_fails(tc_topo_hyperx(dense_big, 2, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* ------------------------------------------------------------ dragonfly ---- */

/* Structure that holds for every arrangement meeting the definition: each group is K_a,
   each router has exactly h global links, and each pair of groups has a h / (g-1) links. */
static void assert_dragonfly_structure(const tc_graph *g, int a, int h, int groups) {
  int *pair_links = calloc((size_t)groups * (size_t)groups, sizeof *pair_links);
  assert_non_null(pair_links);
  for (int u = 0; u < g->n; u++) {
    int local = 0, global = 0;
    for (int64_t e = g->out_off[u]; e < g->out_off[u + 1]; e++) {
      int v = g->dst[e];
      if (v / a == u / a) local++;
      else {
        global++;
        pair_links[(u / a) * groups + v / a]++;
      }
    }
    assert_int_equal(local, a - 1);
    assert_int_equal(global, h);
    for (int v = (u / a) * a; v < (u / a + 1) * a; v++)
      if (v != u) assert_int_equal(tc_graph_arc_multiplicity(g, u, v), 1);
  }
  for (int i = 0; i < groups; i++)
    for (int j = 0; j < groups; j++) assert_int_equal(pair_links[i * groups + j], i == j ? 0 : a * h / (groups - 1));
  free(pair_links);
}

static void dragonfly_graph(void **state) {
  (void)state;
  const int cases[][3] = {{3, 3, 4}, {3, 1, 4}, {3, 2, 4}, {4, 2, 5}, {4, 2, 3}, {4, 4, 3},
                          {2, 3, 4}, {6, 3, 10}, {1, 1, 2}, {5, 2, 11}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int a = cases[c][0], h = cases[c][1], groups = cases[c][2], degree = a - 1 + h;
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_dragonfly(a, h, groups, &g, &err), TC_OK);
    assert_int_equal(g->n, a * groups);
    assert_int_equal(g->m, (int64_t)a * groups * degree);
    assert_int_equal(tc_graph_out_regular(g), degree);
    assert_true(g->bidirectional);
    assert_int_equal(tc_graph_count_self_loops(g), 0);
    if (h <= groups - 1) assert_int_equal(tc_graph_count_multi_arcs(g), 0); /* see dragonfly.c */
    assert_dragonfly_structure(g, a, h, groups);
    assert_true(tc_graph_is_strongly_connected(g));
    tc_graph_destroy(g);
  }
}

static void dragonfly_is_hyperx(void **state) {
  (void)state;
  tc_error err;
  tc_graph *df = NULL, *hx43 = NULL, *hx34 = NULL;
  const int64_t d43[2] = {4, 3}, d34[2] = {3, 4};
  assert_int_equal(tc_topo_dragonfly(3, 3, 4, &df, &err), TC_OK);
  assert_shape(df, 12, 60, 5, 1, 0, 0);
  assert_int_equal(diameter_of(df), 2);
  /* With h = g-1 the arrangement joins equal router indices, so dragonfly(3,3,4) is the
     4 x 3 2dfc with the same ids (group = a_2, router = a_1). */
  assert_int_equal(tc_topo_hyperx(d43, 2, &hx43, &err), TC_OK);
  assert_identical(df, hx43);
  /* Paper 002 §2.1.4 (Figs 2.4/2.5): isomorphic to the 3 x 4 2dfc. The explicit map swaps the
     coordinates: node (group j, router r) = id 3j + r goes to (a_2, a_1) = (r, j) = 4r + j. */
  assert_int_equal(tc_topo_hyperx(d34, 2, &hx34, &err), TC_OK);
  int32_t swap[12];
  for (int u = 0; u < 12; u++) swap[u] = (u % 3) * 4 + u / 3;
  for (int u = 0; u < 12; u++)
    for (int v = 0; v < 12; v++)
      assert_int_equal(tc_graph_arc_multiplicity(df, u, v), tc_graph_arc_multiplicity(hx34, swap[u], swap[v]));
  assert_true(tc_graph_check_isomorphism(df, hx34, swap));
  int found = 0;
  int32_t map[12];
  assert_int_equal(tc_graph_isomorphism(df, hx34, &found, map, &err), TC_OK);
  assert_true(found);
  assert_true(tc_graph_check_isomorphism(df, hx34, map));
  tc_graph_destroy(df);
  tc_graph_destroy(hx43);
  tc_graph_destroy(hx34);
  /* With h = g-1 in general: dragonfly(a, g-1, g) is the g x a 2dfc. */
  const int64_t d52[2] = {5, 2};
  assert_int_equal(tc_topo_dragonfly(2, 4, 5, &df, &err), TC_OK);
  assert_int_equal(tc_topo_hyperx(d52, 2, &hx43, &err), TC_OK);
  assert_identical(df, hx43);
  tc_graph_destroy(df);
  tc_graph_destroy(hx43);
}

static void dragonfly_balanced(void **state) {
  (void)state;
  /* Kim et al.'s balanced Dragonfly (paper 002 §4.4): a = 2h, g = a h + 1 (g = 0 here). Its
     diameter is 3: <= 3 since every pair of groups has a global link (local, global, local),
     and >= 3 since N = a g exceeds the undirected Moore bound 1 + d + d(d-1) for diameter 2. */
  for (int h = 1; h <= 4; h++) {
    int a = 2 * h, groups = a * h + 1, degree = a - 1 + h;
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_dragonfly(a, h, 0, &g, &err), TC_OK);
    assert_shape(g, a * groups, (int64_t)a * groups * degree, degree, 1, 0, 0);
    assert_dragonfly_structure(g, a, h, groups);
    assert_true(tc_moore_undirected(degree, 2) < a * groups);
    assert_int_equal(diameter_of(g), 3);
    tc_graph_destroy(g);
  }
}

static void dragonfly_errors(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_fails(tc_topo_dragonfly(0, 1, 0, &g, &err), &g, &err, TC_EINPUT, "dragonfly: a must be >= 1 (got 0)");
  assert_fails(tc_topo_dragonfly(2, 0, 0, &g, &err), &g, &err, TC_EINPUT, "dragonfly: h must be >= 1 (got 0)");
  assert_fails(tc_topo_dragonfly(2, 1, 1, &g, &err), &g, &err, TC_EINPUT, "g must be 0 (balanced) or >= 2 (got 1)");
  assert_fails(tc_topo_dragonfly(2, 1, -3, &g, &err), &g, &err, TC_EINPUT, "(got -3)");
  assert_fails(tc_topo_dragonfly(3, 2, 5, &g, &err), &g, &err, TC_EINPUT, "g-1 = 4 must divide a*h = 6");
  assert_fails(tc_topo_dragonfly((int64_t)TC_MAX_NODES + 1, 1, 0, &g, &err), &g, &err, TC_ERANGE, "exceeds");
  assert_fails(tc_topo_dragonfly(2, TC_MAX_ARCS + 1, 0, &g, &err), &g, &err, TC_ERANGE, "h = ");
  assert_fails(tc_topo_dragonfly(10000, 10000, 0, &g, &err), &g, &err, TC_ERANGE, "nodes");
  /* a (a+1) routers fit, degree a makes the arcs overflow. */
  int64_t a = isqrt_floor(TC_MAX_NODES) - 1;
  assert_fails(tc_topo_dragonfly(a, 1, a + 1, &g, &err), &g, &err, TC_ERANGE, "arcs");
}

/* ------------------------------------------------------- output pointer ---- */

static void null_output_pointer(void **state) {
  (void)state;
  tc_error err;
  const int64_t dims[2] = {3, 3}, offs[2] = {1, 2};
  const int rc[] = {
      tc_topo_complete(4, NULL, &err),        tc_topo_bipartite(2, NULL, &err),
      tc_topo_hamming(2, 3, NULL, &err),      tc_topo_hypercube(3, NULL, &err),
      tc_topo_twisted_hypercube(3, NULL, &err), tc_topo_uniring(1, 4, NULL, &err),
      tc_topo_biring(2, 4, NULL, &err),       tc_topo_torus(dims, 2, NULL, &err),
      tc_topo_twisted_torus(3, 3, 1, NULL, &err), tc_topo_circulant(7, offs, 2, 1, NULL, &err),
      tc_topo_min_circulant(9, 4, NULL, &err), tc_topo_directed_circulant(5, offs, 2, NULL, &err),
      tc_topo_hyperx(dims, 2, NULL, &err),    tc_topo_dragonfly(3, 3, 4, NULL, &err),
  };
  for (size_t i = 0; i < sizeof rc / sizeof *rc; i++) assert_int_equal(rc[i], TC_EINPUT);
  assert_int_equal(tc_topo_dragonfly(3, 3, 4, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "dragonfly: output pointer is NULL");
  /* A NULL error record is allowed: the code alone reports the failure. */
  tc_graph *g = NULL;
  assert_int_equal(tc_topo_complete(1, &g, NULL), TC_EINPUT);
  assert_null(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(complete_graph),
      cmocka_unit_test(complete_errors),
      cmocka_unit_test(bipartite_graph),
      cmocka_unit_test(bipartite_errors),
      cmocka_unit_test(hamming_graph),
      cmocka_unit_test(hamming_errors),
      cmocka_unit_test(hypercube_graph),
      cmocka_unit_test(hypercube_errors),
      cmocka_unit_test(twisted_hypercube_graph),
      cmocka_unit_test(twisted_hypercube_errors),
      cmocka_unit_test(uniring_graph),
      cmocka_unit_test(uniring_errors),
      cmocka_unit_test(biring_graph),
      cmocka_unit_test(biring_errors),
      cmocka_unit_test(torus_graph),
      cmocka_unit_test(torus_labels_and_special_cases),
      cmocka_unit_test(torus_errors),
      cmocka_unit_test(twisted_torus_graph),
      cmocka_unit_test(twisted_torus_closed_forms),
      cmocka_unit_test(twisted_torus_errors),
      cmocka_unit_test(circulant_graph),
      cmocka_unit_test(circulant_errors),
      cmocka_unit_test(boesch_wang_min_circulant),
      cmocka_unit_test(min_circulant_errors),
      cmocka_unit_test(directed_circulant_graph),
      cmocka_unit_test(directed_circulant_errors),
      cmocka_unit_test(hyperx_graph),
      cmocka_unit_test(hyperx_errors),
      cmocka_unit_test(dragonfly_graph),
      cmocka_unit_test(dragonfly_is_hyperx),
      cmocka_unit_test(dragonfly_balanced),
      cmocka_unit_test(dragonfly_errors),
      cmocka_unit_test(null_output_pointer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
