/*
** test_summary.c — the one-call graph report (summary.h): sizes, degree regularity, loops
** and multi-arcs, switches, the capacity range, distances (histogram, exact average), Moore bounds (paper 000
** Def. 9–10) and reverse symmetry (Def. 6).
**
** Oracles: (1) small graphs whose every field is derived by hand in the comment above
** them; (2) random multigraphs (loops, parallel arcs, capacities 1 or 2, up to 6 nodes)
** against brute force written here: degrees and pair counts from the arc list, distances
** by Floyd–Warshall (tc_test.h), the Moore bounds by summing d^i until N fits, the average
** reduced by Euclid, bidirectionality by comparing capacity multisets of u->v and v->u, and
** reverse symmetry by trying all n! node maps G -> G^T.
*/
#include <stdio.h>
#include <unistd.h>

#include "tc_test.h"
#include "core/intmath.h"
#include "core/rng.h"
#include "topocoll/summary.h"

/* Every field of the summary that a case pins down. */
typedef struct want {
  int32_t nodes;
  int64_t arcs, out_degree, in_degree, moore_degree;
  int regular, bidirectional;
  int64_t self_loops, multi_arcs;
  int32_t switches;
  int strongly_connected;
  int32_t diameter;
  const int64_t *histogram; /* diameter + 1 entries */
  int64_t unreachable, pairs, distance_sum, avg_num, avg_den;
  int32_t moore_diameter, moore_diameter_undirected;
  int moore_optimal, reverse_symmetric;
} want;

static void expect_summary(const char *what, const tc_graph *g, const want *w) {
  tc_graph_summary s;
  tc_error err;
  if (tc_graph_summarize(g, 1, &s, &err)) fail_msg("%s: %s", what, err.msg);
#define FIELD(got, exp)                                                                                          \
  do {                                                                                                           \
    if ((int64_t)(got) != (int64_t)(exp))                                                                        \
      fail_msg("%s: %s = %lld, expected %lld", what, #got, (long long)(got), (long long)(exp));                 \
  } while (0)
  FIELD(s.nodes, w->nodes);
  FIELD(s.arcs, w->arcs);
  FIELD(s.out_degree, w->out_degree);
  FIELD(s.in_degree, w->in_degree);
  FIELD(s.moore_degree, w->moore_degree);
  FIELD(s.regular, w->regular);
  FIELD(s.bidirectional, w->bidirectional);
  FIELD(s.self_loops, w->self_loops);
  FIELD(s.multi_arcs, w->multi_arcs);
  FIELD(s.switches, w->switches);
  FIELD(s.dist.strongly_connected, w->strongly_connected);
  FIELD(s.dist.diameter, w->diameter);
  for (int32_t t = 0; t <= w->diameter; t++) FIELD(s.dist.histogram[t], w->histogram[t]);
  FIELD(s.dist.unreachable, w->unreachable);
  FIELD(s.dist.pairs, w->pairs);
  FIELD(s.dist.distance_sum, w->distance_sum);
  FIELD(s.avg_distance_num, w->avg_num);
  FIELD(s.avg_distance_den, w->avg_den);
  FIELD(s.moore_diameter, w->moore_diameter);
  FIELD(s.moore_diameter_undirected, w->moore_diameter_undirected);
  FIELD(s.moore_optimal, w->moore_optimal);
  FIELD(s.reverse_symmetric, w->reverse_symmetric);
#undef FIELD
  tc_graph_summary_destroy(&s);
  /* without the symmetry check: -1, everything else the same */
  if (tc_graph_summarize(g, 0, &s, &err)) fail_msg("%s: %s", what, err.msg);
  assert_int_equal(s.reverse_symmetric, -1);
  assert_int_equal(s.dist.diameter, w->diameter);
  assert_int_equal(s.moore_optimal, w->moore_optimal);
  tc_graph_summary_destroy(&s);
}

/* K_4: 12 arcs, 3-regular, bidirectional, every ordered pair at distance 1: histogram
   [0, 12], sum 12, average 1/1. M_{3,1} = 1 + 3 = 4 >= 4, so T_L* = 1 and, undirected,
   1 + 3 = 4 >= 4, T_L** = 1; diameter 1 = T_L*: Moore-optimal. Undirected: G^T = G. */
static void complete_graph(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(4)");
  const int64_t h[] = {0, 12};
  const want w = {.nodes = 4, .arcs = 12, .out_degree = 3, .in_degree = 3, .moore_degree = 3, .regular = 1,
                  .bidirectional = 1, .strongly_connected = 1, .diameter = 1, .histogram = h, .pairs = 12,
                  .distance_sum = 12, .avg_num = 1, .avg_den = 1, .moore_diameter = 1,
                  .moore_diameter_undirected = 1, .moore_optimal = 1, .reverse_symmetric = 1};
  expect_summary("complete(4)", g, &w);
  tc_graph_destroy(g);
}

/* Unidirectional 5-ring i -> i+1: 5 arcs, 1-regular, not bidirectional. From each node one
   node at each distance 1..4: histogram [0,5,5,5,5], 20 pairs, sum 5·(1+2+3+4) = 50, average
   5/2. d = 1: M_{1,k} = k + 1 >= 5 first at k = 4 = diameter: Moore-optimal. Undirected
   with d = 1: 1 + 1·(1 + 0 + ...) = 2 < 5 for every k: none (-1). Reverse-symmetric by
   i -> -i mod 5. */
static void unidirectional_ring(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,5)");
  const int64_t h[] = {0, 5, 5, 5, 5};
  const want w = {.nodes = 5, .arcs = 5, .out_degree = 1, .in_degree = 1, .moore_degree = 1, .regular = 1,
                  .bidirectional = 0, .strongly_connected = 1, .diameter = 4, .histogram = h, .pairs = 20,
                  .distance_sum = 50, .avg_num = 5, .avg_den = 2, .moore_diameter = 4,
                  .moore_diameter_undirected = -1, .moore_optimal = 1, .reverse_symmetric = 1};
  expect_summary("uniring(1,5)", g, &w);
  tc_graph_destroy(g);
}

/* Q_3: 8 nodes, 3-regular, 24 arcs, bidirectional. From a node, C(3,t) nodes at Hamming
   distance t: 3, 3, 1 → histogram [0, 24, 24, 8] (56 pairs), sum 24 + 48 + 24 = 96, average
   96/56 = 12/7. T_L*(8,3): M_{3,1} = 4 < 8 <= M_{3,2} = 13 → 2; T_L**(8,3): 1 + 3 = 4 < 8 <=
   1 + 3(1 + 2) = 10 → 2. Diameter 3 > 2: not Moore-optimal. Undirected: reverse-symmetric. */
static void hypercube3(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("hypercube(3)");
  const int64_t h[] = {0, 24, 24, 8};
  const want w = {.nodes = 8, .arcs = 24, .out_degree = 3, .in_degree = 3, .moore_degree = 3, .regular = 1,
                  .bidirectional = 1, .strongly_connected = 1, .diameter = 3, .histogram = h, .pairs = 56,
                  .distance_sum = 96, .avg_num = 12, .avg_den = 7, .moore_diameter = 2,
                  .moore_diameter_undirected = 2, .moore_optimal = 0, .reverse_symmetric = 1};
  expect_summary("hypercube(3)", g, &w);
  tc_graph_destroy(g);
}

/* Loops and parallel arcs count as ports.
   (a) 0->0, 0->1, 1->2, 1->2, 2->0, 2->1: out-degrees 2, 2, 2 (the loop and both parallel
   arcs counted); in-degrees 0: {0->0, 2->0}, 1: {0->1, 2->1}, 2: {1->2 twice} = 2, 2, 2:
   regular, d = 2. 1 loop, 1 multi-arc. Distances: 0->1 1, 1->2 1, 2->0 1, 2->1 1, 0->2 2
   (via 1), 1->0 2 (via 2): histogram [0, 4, 2], sum 8, average 4/3. T_L*(3,2): M_{2,1} = 3
   → 1; T_L** = 1 too; diameter 2: not optimal. Reverse-symmetric by 0->0, 1->2, 2->1:
   images of the arcs are 0->0, 0->2, 2->1 (x2), 1->0, 1->2, exactly the arcs of G^T
   (1->0, 2->1 x2, 0->2, 1->2, 0->0).
   (b) 0->0, 0->1, 0->1, 1->2, 2->0: out-degrees 3, 1, 1 (not regular: -1, and the Moore
   bounds use the largest, 3); in-degrees 0: 2, 1: 2, 2: 1 (-1). A directed 3-cycle plus
   extras: histogram [0, 3, 3], sum 9, average 3/2. T_L*(3,3) = 1 (M_{3,1} = 4), T_L** = 1;
   not optimal. Not reverse-symmetric: out-degrees of G^T are 2, 2, 1, not 3, 1, 1.
   (c) 0->0, 0->1, 1->0, 1->0: out-regular (2, 2) but in-degrees 3 and 1: regular 0, in -1,
   moore degree = the common out-degree 2. Distances 1 both ways: [0, 2], average 1/1;
   T_L*(2,2) = 1 = diameter: Moore-optimal. Not bidirectional (two 1->0 against one 0->1);
   G^T has out-degrees 3, 1: not reverse-symmetric. */
static void loops_and_parallel_arcs(void **state) {
  (void)state;
  const int a[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 2, 1}, {1, 2, 1}, {2, 0, 1}, {2, 1, 1}};
  const int b[][3] = {{0, 0, 1}, {0, 1, 1}, {0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  const int c[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 0, 1}};
  tc_graph *ga = tc_test_graph(3, a, 6, NULL, 0), *gb = tc_test_graph(3, b, 5, NULL, 0), *gc = tc_test_graph(2, c, 4, NULL, 0);
  const int64_t ha[] = {0, 4, 2}, hb[] = {0, 3, 3}, hc[] = {0, 2};
  const want wa = {.nodes = 3, .arcs = 6, .out_degree = 2, .in_degree = 2, .moore_degree = 2, .regular = 1,
                   .bidirectional = 0, .self_loops = 1, .multi_arcs = 1, .strongly_connected = 1, .diameter = 2,
                   .histogram = ha, .pairs = 6, .distance_sum = 8, .avg_num = 4, .avg_den = 3,
                   .moore_diameter = 1, .moore_diameter_undirected = 1, .moore_optimal = 0,
                   .reverse_symmetric = 1};
  const want wb = {.nodes = 3, .arcs = 5, .out_degree = -1, .in_degree = -1, .moore_degree = 3, .regular = 0,
                   .bidirectional = 0, .self_loops = 1, .multi_arcs = 1, .strongly_connected = 1, .diameter = 2,
                   .histogram = hb, .pairs = 6, .distance_sum = 9, .avg_num = 3, .avg_den = 2,
                   .moore_diameter = 1, .moore_diameter_undirected = 1, .moore_optimal = 0,
                   .reverse_symmetric = 0};
  const want wc = {.nodes = 2, .arcs = 4, .out_degree = 2, .in_degree = -1, .moore_degree = 2, .regular = 0,
                   .bidirectional = 0, .self_loops = 1, .multi_arcs = 1, .strongly_connected = 1, .diameter = 1,
                   .histogram = hc, .pairs = 2, .distance_sum = 2, .avg_num = 1, .avg_den = 1,
                   .moore_diameter = 1, .moore_diameter_undirected = 1, .moore_optimal = 1,
                   .reverse_symmetric = 0};
  expect_summary("(a)", ga, &wa);
  expect_summary("(b)", gb, &wb);
  expect_summary("(c)", gc, &wc);
  tc_graph_destroy(ga);
  tc_graph_destroy(gb);
  tc_graph_destroy(gc);
}

/* Capacities are not degrees, but symmetry respects them. Directed 3-cycle 0->1->2->0:
   with capacities (2, 1, 1) the map 0->1, 1->0, 2->2 sends it onto G^T (0->1 cap 2 to 1->0
   cap 2 ...): reverse-symmetric; with (1, 2, 3) the capacity sequence read backwards,
   (3, 2, 1), is no rotation of (1, 2, 3): not reverse-symmetric. Both: 1-regular, histogram
   [0, 3, 3], sum 9, average 3/2, T_L*(3,1) = 2 = diameter (optimal), T_L**(3,1) none. */
static void capacities(void **state) {
  (void)state;
  const int a[][3] = {{0, 1, 2}, {1, 2, 1}, {2, 0, 1}}, b[][3] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 3}};
  tc_graph *ga = tc_test_graph(3, a, 3, NULL, 0), *gb = tc_test_graph(3, b, 3, NULL, 0);
  const int64_t h[] = {0, 3, 3};
  want w = {.nodes = 3, .arcs = 3, .out_degree = 1, .in_degree = 1, .moore_degree = 1, .regular = 1,
            .bidirectional = 0, .strongly_connected = 1, .diameter = 2, .histogram = h, .pairs = 6,
            .distance_sum = 9, .avg_num = 3, .avg_den = 2, .moore_diameter = 2, .moore_diameter_undirected = -1,
            .moore_optimal = 1, .reverse_symmetric = 1};
  expect_summary("cycle (2,1,1)", ga, &w);
  w.reverse_symmetric = 0;
  expect_summary("cycle (1,2,3)", gb, &w);
  /* the capacity range: 1..2, then 1..3 */
  tc_graph_summary s;
  tc_error err;
  assert_int_equal(tc_graph_summarize(ga, 0, &s, &err), TC_OK);
  assert_int_equal(s.capacity_min, 1);
  assert_int_equal(s.capacity_max, 2);
  tc_graph_summary_destroy(&s);
  assert_int_equal(tc_graph_summarize(gb, 0, &s, &err), TC_OK);
  assert_int_equal(s.capacity_min, 1);
  assert_int_equal(s.capacity_max, 3);
  tc_graph_summary_destroy(&s);
  tc_graph_destroy(ga);
  tc_graph_destroy(gb);
}

/* A star: switch 0 linked both ways to compute nodes 1, 2, 3. 1 switch; out-degrees 3, 1,
   1, 1 (not regular, Moore degree 3). Hub pairs at 1 (6), leaf pairs at 2 via the hub (6):
   [0, 6, 6], sum 18, average 3/2. T_L*(4,3) = 1 (M_{3,1} = 4), T_L**(4,3) = 1 (1 + 3);
   not optimal. Undirected: reverse-symmetric by the identity (kinds kept). */
static void switches(void **state) {
  (void)state;
  const int a[][3] = {{0, 1, 1}, {1, 0, 1}, {0, 2, 1}, {2, 0, 1}, {0, 3, 1}, {3, 0, 1}};
  const int sw[] = {0};
  tc_graph *g = tc_test_graph(4, a, 6, sw, 1);
  const int64_t h[] = {0, 6, 6};
  const want w = {.nodes = 4, .arcs = 6, .out_degree = -1, .in_degree = -1, .moore_degree = 3, .regular = 0,
                  .bidirectional = 1, .switches = 1, .strongly_connected = 1, .diameter = 2, .histogram = h,
                  .pairs = 12, .distance_sum = 18, .avg_num = 3, .avg_den = 2, .moore_diameter = 1,
                  .moore_diameter_undirected = 1, .moore_optimal = 0, .reverse_symmetric = 1};
  expect_summary("star", g, &w);
  tc_graph_destroy(g);
}

/* Not strongly connected. Read through the spec file(...) from an edge list: links 0-1 and 2-3 and
   an isolated node 4. 4 arcs; out-degrees 1, 1, 1, 1, 0 (not regular; Moore degree 1);
   bidirectional. Reachable ordered pairs: (0,1), (1,0), (2,3), (3,2) at distance 1; the
   other 5·4 - 4 = 16 are unreachable. Diameter and histogram describe the reachable pairs
   only (metrics.h): 1, [0, 4], sum 4, average 1/1. T_L*(5,1) = 4 (M_{1,k} = k + 1);
   T_L**(5,1) none; not strongly connected, so not Moore-optimal. Undirected:
   reverse-symmetric. */
static void not_strongly_connected(void **state) {
  (void)state;
  char path[] = "/tmp/tc_summary_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *fp = fdopen(fd, "w");
  assert_non_null(fp);
  fputs("# two links and an isolated node\nnodes 5\n0 1\n1 0\n2 3\n3 2\n", fp);
  assert_int_equal(fclose(fp), 0);
  char spec[64];
  snprintf(spec, sizeof spec, "file(%s)", path);
  tc_graph *g = tc_test_spec(spec);
  remove(path);
  const int64_t h[] = {0, 4};
  const want w = {.nodes = 5, .arcs = 4, .out_degree = -1, .in_degree = -1, .moore_degree = 1, .regular = 0,
                  .bidirectional = 1, .strongly_connected = 0, .diameter = 1, .histogram = h, .unreachable = 16,
                  .pairs = 4, .distance_sum = 4, .avg_num = 1, .avg_den = 1, .moore_diameter = 4,
                  .moore_diameter_undirected = -1, .moore_optimal = 0, .reverse_symmetric = 1};
  expect_summary(spec, g, &w);
  tc_graph_destroy(g);
  /* The directed path 0 -> 1 -> 2 -> 3: its reachable pairs reach T_L*(4,1) = 3 (out-degrees
     1, 1, 1, 0, largest 1), but Def. 10 needs every pair: not Moore-optimal. Pairs at 1, 2, 3:
     3, 2, 1 (6 reachable, 12 - 6 = 6 unreachable), sum 3 + 4 + 3 = 10, average 5/3.
     In-degrees 0, 1, 1, 1. Reverse-symmetric by u -> 3 - u. */
  const int chain[][2] = {{0, 1}, {1, 2}, {2, 3}};
  g = tc_test_from_arcs(4, chain, 3);
  const int64_t hp[] = {0, 3, 2, 1};
  const want wp = {.nodes = 4, .arcs = 3, .out_degree = -1, .in_degree = -1, .moore_degree = 1, .regular = 0,
                   .bidirectional = 0, .strongly_connected = 0, .diameter = 3, .histogram = hp, .unreachable = 6,
                   .pairs = 6, .distance_sum = 10, .avg_num = 5, .avg_den = 3, .moore_diameter = 3,
                   .moore_diameter_undirected = -1, .moore_optimal = 0, .reverse_symmetric = 1};
  expect_summary("path", g, &wp);
  tc_graph_destroy(g);
}

/* No pairs or no arcs.
   3 nodes, no arcs: every degree 0, so regular with d = 0; no path: 6 unreachable, 0
   reachable pairs: average 0/0 (summary.h), diameter 0; T_L*(3,0) and T_L**(3,0) do not
   exist (d = 0, N > 1). The empty arc set pairs up trivially (bidirectional), and the
   identity maps G to G^T.
   1 node: no pairs (0/0), diameter 0, strongly connected (n <= 1); T_L*(1,0) = 0 since
   M_{0,0} = 1 >= 1: Moore-optimal. */
static void no_pairs(void **state) {
  (void)state;
  tc_graph *g3 = tc_test_graph(3, NULL, 0, NULL, 0), *g1 = tc_test_graph(1, NULL, 0, NULL, 0);
  const int64_t h[] = {0};
  const want w3 = {.nodes = 3, .out_degree = 0, .in_degree = 0, .regular = 1, .bidirectional = 1,
                   .strongly_connected = 0, .diameter = 0, .histogram = h, .unreachable = 6,
                   .moore_diameter = -1, .moore_diameter_undirected = -1, .moore_optimal = 0,
                   .reverse_symmetric = 1};
  const want w1 = {.nodes = 1, .out_degree = 0, .in_degree = 0, .regular = 1, .bidirectional = 1,
                   .strongly_connected = 1, .diameter = 0, .histogram = h, .moore_diameter = 0,
                   .moore_diameter_undirected = 0, .moore_optimal = 1, .reverse_symmetric = 1};
  expect_summary("3 isolated nodes", g3, &w3);
  expect_summary("1 node", g1, &w1);
  tc_graph_destroy(g3);
  tc_graph_destroy(g1);
}

/* ---- random multigraphs against brute force --------------------------------------------- */

/* min k with n <= Σ_{i<=k} d^i; -1 if none (checked up to k = n, enough for d >= 1). */
static int32_t moore_directed(int64_t n, int64_t d) {
  int64_t sum = 0, p = 1;
  for (int32_t k = 0; k <= n; k++) {
    sum += p;
    if (n <= sum) return k;
    p *= d;
  }
  return -1;
}

/* min k with n <= 1 + d Σ_{i<k} (d-1)^i; -1 if none. */
static int32_t moore_undirected(int64_t n, int64_t d) {
  int64_t sum = 0, p = 1;
  for (int32_t k = 0; k <= n; k++) {
    if (n <= 1 + d * sum) return k;
    sum += p;
    p *= d - 1;
  }
  return -1;
}

#define MAXN 6

static int next_permutation(int *p, int n) {
  int i = n - 2;
  while (i >= 0 && p[i] >= p[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (p[j] <= p[i]) j--;
  int t = p[i];
  p[i] = p[j];
  p[j] = t;
  for (int a = i + 1, b = n - 1; a < b; a++, b--) {
    t = p[a];
    p[a] = p[b];
    p[b] = t;
  }
  return 1;
}

static void random_against_brute_force(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 99);
  int symmetric = 0, not_symmetric = 0, bidir = 0;
  for (int rep = 0; rep < 400; rep++) {
    int n = 1 + (int)tci_rng_below(&r, MAXN), m = (int)tci_rng_below(&r, 3 * n + 1);
    int arcs[3 * MAXN][3];
    int mult[3][MAXN][MAXN]; /* [cap][u][v] */
    memset(mult, 0, sizeof mult);
    int pairs_mode = (int)tci_rng_below(&r, 3); /* 0: links both ways, so bidirectional graphs occur */
    int count = 0;
    for (int i = 0; i < m && count < 3 * MAXN; i++) {
      int u = (int)tci_rng_below(&r, n), v = (int)tci_rng_below(&r, n), c = 1 + (int)tci_rng_below(&r, 2);
      arcs[count][0] = u, arcs[count][1] = v, arcs[count][2] = c, count++;
      if (pairs_mode == 0 && u != v && count < 3 * MAXN)
        arcs[count][0] = v, arcs[count][1] = u, arcs[count][2] = c, count++;
    }
    for (int i = 0; i < count; i++) mult[arcs[i][2]][arcs[i][0]][arcs[i][1]]++;
    tc_graph *g = tc_test_graph(n, arcs, count, NULL, 0);
    /* brute force */
    int64_t outd[MAXN] = {0}, ind[MAXN] = {0}, loops = 0, distinct = 0, maxout = 0;
    for (int i = 0; i < count; i++) outd[arcs[i][0]]++, ind[arcs[i][1]]++, loops += arcs[i][0] == arcs[i][1];
    int64_t cap_lo = count ? 2 : 0, cap_hi = 0; /* capacities are 1 or 2; none: both 0 */
    for (int i = 0; i < count; i++) {
      if (arcs[i][2] < cap_lo) cap_lo = arcs[i][2];
      if (arcs[i][2] > cap_hi) cap_hi = arcs[i][2];
    }
    for (int u = 0; u < n; u++) {
      if (outd[u] > maxout) maxout = outd[u];
      for (int v = 0; v < n; v++) distinct += mult[1][u][v] + mult[2][u][v] > 0;
    }
    int64_t out_reg = outd[0], in_reg = ind[0];
    for (int u = 1; u < n; u++) {
      if (outd[u] != out_reg) out_reg = -1;
      if (ind[u] != in_reg) in_reg = -1;
    }
    int is_bidir = 1;
    for (int u = 0; u < n; u++)
      for (int v = 0; v < n; v++)
        for (int c = 1; c <= 2; c++) is_bidir &= mult[c][u][v] == mult[c][v][u];
    int *d = tc_test_floyd(g);
    int64_t hist[MAXN] = {0}, unreachable = 0, npairs = 0, sum = 0;
    int32_t diam = 0;
    for (int u = 0; u < n; u++)
      for (int v = 0; v < n; v++) {
        if (u == v) continue;
        int x = d[u * n + v];
        if (x < 0) {
          unreachable++;
          continue;
        }
        hist[x]++, npairs++, sum += x;
        if (x > diam) diam = x;
      }
    free(d);
    int64_t moore_d = out_reg >= 0 ? out_reg : maxout;
    int32_t md = moore_directed(n, moore_d), mu = moore_undirected(n, moore_d);
    int64_t gg = tci_gcd64(sum, npairs);
    int perm[MAXN], found = 0;
    for (int i = 0; i < n; i++) perm[i] = i;
    do { /* f: G -> G^T, mult_G(u,v) == mult_{G^T}(f u, f v) == mult_G(f v, f u) */
      int ok = 1;
      for (int u = 0; u < n && ok; u++)
        for (int v = 0; v < n && ok; v++)
          for (int c = 1; c <= 2 && ok; c++) ok = mult[c][u][v] == mult[c][perm[v]][perm[u]];
      found = ok;
    } while (!found && next_permutation(perm, n));

    tc_graph_summary s;
    tc_error err;
    assert_int_equal(tc_graph_summarize(g, 1, &s, &err), TC_OK);
    int64_t got[] = {s.nodes, s.arcs, s.out_degree, s.in_degree, s.moore_degree, s.regular, s.bidirectional,
                     s.self_loops, s.multi_arcs, s.switches, s.dist.strongly_connected, s.dist.diameter,
                     s.dist.unreachable, s.dist.pairs, s.dist.distance_sum, s.avg_distance_num,
                     s.avg_distance_den, s.moore_diameter, s.moore_diameter_undirected, s.moore_optimal,
                     s.reverse_symmetric, s.capacity_min, s.capacity_max};
    int64_t exp[] = {n, count, out_reg, in_reg, moore_d, out_reg >= 0 && out_reg == in_reg, is_bidir,
                     loops, count - distinct, 0, unreachable == 0, diam,
                     unreachable, npairs, sum, gg ? sum / gg : 0,
                     gg ? npairs / gg : 0, md, mu, unreachable == 0 && diam == md,
                     found, cap_lo, cap_hi};
    const char *names[] = {"nodes", "arcs", "out_degree", "in_degree", "moore_degree", "regular", "bidirectional",
                           "self_loops", "multi_arcs", "switches", "strongly_connected", "diameter",
                           "unreachable", "pairs", "distance_sum", "avg_num", "avg_den", "moore_diameter",
                           "moore_diameter_undirected", "moore_optimal", "reverse_symmetric", "capacity_min",
                           "capacity_max"};
    for (size_t i = 0; i < sizeof got / sizeof got[0]; i++)
      if (got[i] != exp[i])
        fail_msg("rep %d (n %d, %d arcs): %s = %lld, brute force %lld", rep, n, count, names[i], (long long)got[i],
                 (long long)exp[i]);
    for (int32_t t = 0; t <= diam; t++) assert_int_equal(s.dist.histogram[t], hist[t]);
    symmetric += found;
    not_symmetric += !found;
    bidir += is_bidir && count > 0;
    tc_graph_summary_destroy(&s);
    tc_graph_destroy(g);
  }
  /* both verdicts of each search occur, or the comparison proves little */
  print_message("reverse-symmetric %d, not %d, bidirectional with arcs %d\n", symmetric, not_symmetric, bidir);
  assert_true(symmetric > 40 && not_symmetric > 40 && bidir > 40);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(complete_graph),
      cmocka_unit_test(unidirectional_ring),
      cmocka_unit_test(hypercube3),
      cmocka_unit_test(loops_and_parallel_arcs),
      cmocka_unit_test(capacities),
      cmocka_unit_test(switches),
      cmocka_unit_test(not_strongly_connected),
      cmocka_unit_test(no_pairs),
      cmocka_unit_test(random_against_brute_force),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
