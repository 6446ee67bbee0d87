/*
** test_bfb.c — the BFB schedule generator (paper 000 §6, App. E) and the exact
** max-flow it runs on.
**
** Oracles:
**   - the paper's numbers: Fig. 1 (K_{2,2}), Fig. 5 / App. E LP example, Table 7 BFB rows
**     (exact values behind the 3 printed decimals), Table 8 diameters, and the closed forms
**     of §6.2 (tori), App. F.1 (BiRing), Thm 22 (circulants), Thm 10 (L(C(16,{3,4})));
**   - closed forms: BW optimality tau = (N-1)/N (Thm 4) with T_L = D(G) (Thm 15) on the
**     families the paper proves or reports BW-optimal (Thms 13, 18, F.1–F.4), Figure 18's
**     T_B <= 2 T_B* for generalized Kautz;
**   - independent computations: Floyd–Warshall distances (the BFB condition of Def. 15 on
**     every transfer, steps == diameter), a brute-force maximum over arc subsets of
**     |{v : f(v) ⊆ P}| / cap(P) (Thm 19's cut condition), GLPK's simplex on LP (1) as the paper states
**     it, brute-force minimum cuts for the max-flow;
**   - every schedule passes tc_schedule_verify and is measured by tc_schedule_cost.
*/
#include <math.h>
#include <omp.h>
#include <stdio.h>

#include "tc_test.h"
#include "core/rng.h"
#include "graph/maxflow.h"
#include "topocoll/bfb.h"
#include "synth/bfb_internal.h"
#include "topocoll/cost.h"
#include "topocoll/metrics.h"
#include "topocoll/topo.h"
#include "topocoll/verify.h"

/* ---- helpers -------------------------------------------------------------------------- */

static tc_rat rat(int64_t num, int64_t den) {
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_make(num, den, &r, &err), TC_OK);
  return r;
}

static void assert_rat_equal(tc_rat got, tc_rat want, const char *what) {
  if (tc_rat_cmp(got, want) != 0) {
    char a[64], b[64];
    tc_rat_format(got, a, sizeof a);
    tc_rat_format(want, b, sizeof b);
    fail_msg("%s: got %s, want %s", what, a, b);
  }
}

/* Generate, verify and measure the BFB allgather of g. */
static void bfb_checked(const tc_graph *g, const char *what, tc_schedule *s, tc_cost *c) {
  tc_error err;
  if (tc_bfb_allgather(g, s, NULL, &err)) fail_msg("%s: bfb failed: %s", what, err.msg);
  assert_int_equal(s->coll, TC_COLL_ALLGATHER);
  assert_string_equal(s->algorithm, "bfb");
  if (tc_schedule_verify(g, s, &err)) fail_msg("%s: verifier rejected the BFB schedule: %s", what, err.msg);
  if (tc_schedule_cost(g, s, c, &err)) fail_msg("%s: cost failed: %s", what, err.msg);
}

/* Def. 15 on every transfer and "every byte of every shard reaches every node exactly once"
   (the sizes u receives of v's shard add up to one shard; the verifier checks coverage). */
static void assert_bfb_structure(const tc_graph *g, const tc_schedule *s, const char *what) {
  int n = g->n, *d = tc_test_floyd(g);
  int64_t *got = calloc((size_t)n * n, sizeof *got);
  assert_non_null(got);
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int v = x->shard, w = g->src[x->arc], u = g->dst[x->arc];
    if (d[v * n + u] != x->step || d[v * n + w] != x->step - 1)
      fail_msg("%s: transfer %lld (shard %d over %d->%d at step %d) is not breadth-first", what, (long long)i, v, w, u,
               x->step);
    got[v * n + u] += x->hi - x->lo;
  }
  for (int v = 0; v < n; v++)
    for (int u = 0; u < n; u++)
      if (got[v * n + u] != (v == u ? 0 : s->units))
        fail_msg("%s: node %d receives %lld/%lld of shard %d", what, u, (long long)got[v * n + u], (long long)s->units, v);
  assert_int_equal(s->steps, tc_test_floyd_diameter(g));
  free(got);
  free(d);
}

/* tau predicted by (2) from the exact optima: (d/N) Σ_t max_u U*_{u,t}. */
static tc_rat tau_from_optima(const tc_graph *g, int64_t degree) {
  tc_rat *U = NULL, sum = {0, 1};
  int32_t D;
  tc_error err;
  assert_int_equal(tc_bfb_optima(g, &U, &D, &err), TC_OK);
  for (int32_t t = 1; t <= D; t++) {
    tc_rat best = {0, 1};
    for (int32_t u = 0; u < g->n; u++)
      if (tc_rat_cmp(U[(int64_t)u * D + t - 1], best) > 0) best = U[(int64_t)u * D + t - 1];
    assert_int_equal(tc_rat_add(sum, best, &sum, &err), TC_OK);
  }
  free(U);
  tc_rat out;
  assert_int_equal(tc_rat_mul(sum, rat(degree, g->n), &out, &err), TC_OK);
  return out;
}

/* The allgather bound by a node's in-links, counted here from the arcs themselves:
   max over v of (N-1)/N * d / (capacity into v from other nodes), d the largest
   out-capacity. On a regular loop-free graph (N-1)/N; a node with a self-loop has less. */
static tc_rat ingress_bound(const tc_graph *g) {
  int64_t d = 0, least = INT64_MAX;
  for (int32_t v = 0; v < g->n; v++) {
    int64_t out = 0, in = 0;
    for (int64_t a = 0; a < g->m; a++) {
      if (g->src[a] == v) out += g->cap[a];
      if (g->dst[a] == v && g->src[a] != v) in += g->cap[a];
    }
    if (out > d) d = out;
    if (in < least) least = in;
  }
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_mul(rat(g->n - 1, g->n), rat(d, least), &r, &err), TC_OK);
  return r;
}

/* The BFB allgather of `spec` has `steps` steps and tau = num/den; also checks the
   structure (small graphs), the cost against (2), and the BW-optimality flag. */
static void expect_bfb(const char *spec, int steps, int64_t num, int64_t den) {
  tc_graph *g = tc_test_spec(spec);
  tc_schedule s;
  tc_cost c;
  bfb_checked(g, spec, &s, &c);
  if (s.steps != steps) fail_msg("%s: %d steps, want %d", spec, s.steps, steps);
  assert_rat_equal(c.tau, rat(num, den), spec);
  assert_rat_equal(c.tau_optimal, ingress_bound(g), spec);
  assert_int_equal(c.bw_optimal, tc_rat_cmp(rat(num, den), ingress_bound(g)) == 0);
  assert_rat_equal(tau_from_optima(g, c.degree), c.tau, spec);
  if (g->n <= 120) assert_bfb_structure(g, &s, spec);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void expect_bw_optimal(const char *spec, int steps) {
  tc_graph *g = tc_test_spec(spec);
  int n = g->n;
  tc_graph_destroy(g);
  expect_bfb(spec, steps, n - 1, n);
}

/* ---- the paper's worked examples ------------------------------------------------------ */

/* Fig. 1: K_{2,2} allgather, T_L = 2, T_B = (M/B) 3/4, Moore- and BW-optimal. */
static void k22_figure1(void **state) {
  (void)state;
  expect_bw_optimal("bipartite(2)", 2);
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_schedule s;
  tc_cost c;
  bfb_checked(g, "K22", &s, &c);
  assert_true(c.moore_optimal);
  /* Step 1 one shard per link, step 2 half a shard per link (Fig. 1). */
  assert_rat_equal(c.step_load[0], rat(1, 1), "K22 step 1");
  assert_rat_equal(c.step_load[1], rat(1, 2), "K22 step 2");
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Fig. 5 / App. E: receiver u2 with in-links w1, w2, w3; v1 reaches it through w1, w2 and
   v2 through w2, w3. Nodes: v1 0, v2 1, w1 2, w2 3, w3 4, u2 5, u1 6 (u1 has in-links w1,
   w2; v2 reaches it only through w2). */
static tc_graph *figure5_graph(void) {
  static const int arcs[][2] = {{0, 2}, {0, 3}, {1, 3}, {1, 4}, {2, 5}, {3, 5},
                                {4, 5}, {5, 0}, {5, 1}, {2, 6}, {3, 6}, {6, 0}};
  return tc_test_from_arcs(7, arcs, (int)(sizeof arcs / sizeof arcs[0]));
}

/* x of job `v` over the arc from node `w` in step t of receiver r. */
static tc_rat x_of(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, const tc_rat *x, int v, int w) {
  const tci_bfb_step *st = &r->step[t - 1];
  for (int32_t i = 0; i < st->njobs; i++)
    if (st->job[i] == v)
      for (int64_t e = st->allow_off[i]; e < st->allow_off[i + 1]; e++)
        if (g->src[r->arc[st->allow[e]]] == w) return x[e];
  return (tc_rat){0, 1};
}

static void figure5_lp_example(void **state) {
  (void)state;
  tc_graph *g = figure5_graph();
  tc_error err;
  tci_bfb_receiver r;
  /* u2 = 5: U = 2/3 with x = (2/3, 1/3, 1/3, 2/3), the unique optimum. */
  assert_int_equal(tci_bfb_receiver_build(g, 5, &r, &err), TC_OK);
  assert_int_equal(r.narcs, 3);
  assert_true(r.depth >= 2);
  assert_int_equal(r.step[1].njobs, 2);
  assert_int_equal(r.step[1].job[0], 0);
  assert_int_equal(r.step[1].job[1], 1);
  tc_rat U, x[8];
  assert_int_equal(r.step[1].allow_off[2], 4);
  assert_int_equal(tci_bfb_step_solve(g, &r, 2, &U, x, &err), TC_OK);
  assert_rat_equal(U, rat(2, 3), "Fig 5 U_{u2}");
  assert_rat_equal(x_of(g, &r, 2, x, 0, 2), rat(2, 3), "x_{v1,(w1,u2)}");
  assert_rat_equal(x_of(g, &r, 2, x, 0, 3), rat(1, 3), "x_{v1,(w2,u2)}");
  assert_rat_equal(x_of(g, &r, 2, x, 1, 3), rat(1, 3), "x_{v2,(w2,u2)}");
  assert_rat_equal(x_of(g, &r, 2, x, 1, 4), rat(2, 3), "x_{v2,(w3,u2)}");
  double Ug, xg[4];
  assert_int_equal(tci_bfb_step_solve_glpk(g, &r, 2, &Ug, xg, &err), TC_OK);
  assert_true(fabs(Ug - 2.0 / 3.0) < 1e-9);
  tci_bfb_receiver_destroy(&r);
  /* u1 = 6: w1 sends v1's shard, w2 sends v2's shard, U = 1. */
  assert_int_equal(tci_bfb_receiver_build(g, 6, &r, &err), TC_OK);
  assert_int_equal(tci_bfb_step_solve(g, &r, 2, &U, x, &err), TC_OK);
  assert_rat_equal(U, rat(1, 1), "Fig 5 U_{u1}");
  assert_rat_equal(x_of(g, &r, 2, x, 0, 2), rat(1, 1), "x_{v1,(w1,u1)}");
  assert_rat_equal(x_of(g, &r, 2, x, 0, 3), rat(0, 1), "x_{v1,(w2,u1)}");
  assert_rat_equal(x_of(g, &r, 2, x, 1, 3), rat(1, 1), "x_{v2,(w2,u1)}");
  tci_bfb_receiver_destroy(&r);
  /* The schedule delivers exactly these amounts to u2 in step 2. */
  tc_schedule s;
  tc_cost c;
  bfb_checked(g, "Fig 5 graph", &s, &c);
  assert_bfb_structure(g, &s, "Fig 5 graph");
  int64_t amount[7][7] = {{0}}; /* [shard][sender] into node 5 at step 2 */
  for (int64_t i = 0; i < s.count; i++)
    if (g->dst[s.xfer[i].arc] == 5 && s.xfer[i].step == 2)
      amount[s.xfer[i].shard][g->src[s.xfer[i].arc]] += s.xfer[i].hi - s.xfer[i].lo;
  assert_int_equal(3 * amount[0][2], 2 * s.units);
  assert_int_equal(3 * amount[0][3], s.units);
  assert_int_equal(3 * amount[1][3], s.units);
  assert_int_equal(3 * amount[1][4], 2 * s.units);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- BW-optimal families (T_L = D(G), tau = (N-1)/N) ---------------------------------- */

/* Tori: T_L = Σ floor(l_i/2) (§6.2; length 2 is K_2, one hop), BW-optimal (Thm 13 + F.1):
   3x3 -> (2, 8/9), and the Frontera tori of §8.5.2, 3x3x2 -> (3, 17/18), 3x3x3x2 ->
   (4, 53/54). */
static void tori(void **state) {
  (void)state;
  expect_bfb("torus(3,3)", 2, 8, 9);
  expect_bfb("torus(3,3,2)", 3, 17, 18);
  expect_bfb("torus(3,3,3,2)", 4, 53, 54);
  static const int dims[][3] = {{3, 5, 0}, {4, 6, 0}, {5, 7, 0}, {2, 7, 0}, {6, 8, 0}, {7, 4, 0}, {9, 2, 0},
                                {4, 3, 5}, {3, 4, 6}, {2, 5, 3}, {5, 5, 2}, {6, 3, 2}, {4, 4, 7}};
  for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
    char spec[64];
    int steps = dims[i][0] / 2 + dims[i][1] / 2 + dims[i][2] / 2;
    if (dims[i][2]) snprintf(spec, sizeof spec, "torus(%d,%d,%d)", dims[i][0], dims[i][1], dims[i][2]);
    else snprintf(spec, sizeof spec, "torus(%d,%d)", dims[i][0], dims[i][1]);
    expect_bw_optimal(spec, steps);
  }
}

/* Hypercubes Q_n = K_2^{□n} (§5.3): T_L = n (Table 9 row 3), tau = (2^n - 1)/2^n (Thm 13). */
static void hypercubes(void **state) {
  (void)state;
  for (int n = 1; n <= 7; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "hypercube(%d)", n);
    expect_bfb(spec, n, (1 << n) - 1, 1 << n);
  }
}

static int diameter_of(const char *spec) {
  tc_graph *g = tc_test_spec(spec);
  int d = tc_test_floyd_diameter(g);
  tc_graph_destroy(g);
  return d;
}

/* Degree-4 circulants C(n,{1,a}) for all simple cases n = 7..26 and the Boesch–Wang
   C(n,{m,m+1}): BW-optimal (paper 000 F.4, Conjecture 1 proven for k = 2), T_L = D(G) by
   Floyd; C(16,{3,4}): diameter 3 (Thm 22: m = 3 for n = 16), tau 15/16 (the base of
   Table 4's L^3(C(16,{3,4}))). */
static void circulants_degree4(void **state) {
  (void)state;
  expect_bfb("circulant(16,3,4)", 3, 15, 16);
  for (int n = 7; n <= 26; n++) {
    char spec[48];
    for (int a = 2; 2 * a < n; a++) {
      snprintf(spec, sizeof spec, "circulant(%d,1,%d)", n, a);
      expect_bw_optimal(spec, diameter_of(spec));
    }
    snprintf(spec, sizeof spec, "circulant(%d)", n);
    expect_bw_optimal(spec, diameter_of(spec));
  }
}

/* Degree-6 circulants (Conjecture 1, "observed computationally"). */
static void circulants_degree6(void **state) {
  (void)state;
  static const int jumps[][4] = {{13, 1, 3, 4}, {20, 1, 2, 3}, {15, 1, 4, 6}, {21, 2, 3, 8}, {30, 1, 5, 11},
                                 {17, 1, 2, 3}, {19, 1, 7, 8},  {24, 1, 5, 7}, {37, 1, 6, 10}, {11, 1, 2, 4}};
  for (size_t i = 0; i < sizeof jumps / sizeof jumps[0]; i++) {
    char spec[64];
    snprintf(spec, sizeof spec, "circulant(%d,%d,%d,%d)", jumps[i][0], jumps[i][1], jumps[i][2], jumps[i][3]);
    expect_bw_optimal(spec, diameter_of(spec));
  }
}

/* Hamming H(n,q): T_L = n, tau = (q^n - 1)/q^n; K_{d,d}: 2, (2d-1)/(2d); K_m: 1, (m-1)/m;
   directed circulant on d+2 nodes: 2, (d+1)/(d+2) (Table 9 rows 1-3 and 7: BW-optimal, so
   tau = (N-1)/N by Thm 4; T_L = D(G)). */
static void hamming_bipartite_complete_dcirculant(void **state) {
  (void)state;
  static const int hq[][2] = {{2, 3}, {2, 4}, {3, 3}, {2, 5}, {3, 4}, {4, 3}};
  char spec[96];
  for (size_t i = 0; i < sizeof hq / sizeof hq[0]; i++) {
    int N = 1;
    for (int j = 0; j < hq[i][0]; j++) N *= hq[i][1];
    snprintf(spec, sizeof spec, "hamming(%d,%d)", hq[i][0], hq[i][1]);
    expect_bfb(spec, hq[i][0], N - 1, N);
  }
  for (int d = 2; d <= 8; d++) {
    snprintf(spec, sizeof spec, "bipartite(%d)", d);
    expect_bfb(spec, 2, 2 * d - 1, 2 * d);
  }
  for (int m = 2; m <= 12; m++) {
    snprintf(spec, sizeof spec, "complete(%d)", m);
    expect_bfb(spec, 1, m - 1, m);
  }
  for (int d = 1; d <= 8; d++) {
    int len = snprintf(spec, sizeof spec, "dcirculant(%d", d + 2);
    for (int j = 1; j <= d; j++) len += snprintf(spec + len, sizeof spec - (size_t)len, ",%d", j);
    snprintf(spec + len, sizeof spec - (size_t)len, ")");
    expect_bfb(spec, 2, d + 1, d + 2);
  }
}

/* Table 8: every distance-regular graph has a BW-optimal BFB schedule (F.3, Thm 18) with
   T_L = its diameter, the T_L column. */
static void table8_distance_regular(void **state) {
  (void)state;
  static const struct { const char *name; int n, steps; } rows[] = {
      {"octahedron", 6, 2},  {"paley9", 9, 2},        {"k55-i", 10, 3},      {"heawood-dist3", 14, 3},
      {"petersen-line", 15, 3}, {"q4", 16, 4},        {"heawood-line", 21, 3}, {"pg23", 26, 3},
      {"ag24-minus", 32, 4}, {"odd4", 35, 3},         {"tutte8-line", 45, 4}, {"doubled-odd4", 70, 7},
      {"gq33", 80, 4},       {"tutte12-line", 189, 6}, {"gh33", 728, 6}};
  const char *const *names = tc_topo_drg_names();
  size_t count = 0;
  for (; names[count]; count++) {
    size_t i = 0;
    while (i < sizeof rows / sizeof rows[0] && strcmp(rows[i].name, names[count])) i++;
    if (i == sizeof rows / sizeof rows[0]) fail_msg("DRG %s has no Table 8 row in this test", names[count]);
  }
  assert_int_equal(count, 15);
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char spec[64];
    snprintf(spec, sizeof spec, "drg(%s)", rows[i].name);
    expect_bfb(spec, rows[i].steps, rows[i].n - 1, rows[i].n);
  }
}

/* BiRing(2,N) BFB: T_L = floor(N/2), BW-optimal (F.1; N = 5..8 -> 2, 3, 3, 4). */
static void biring(void **state) {
  (void)state;
  for (int n = 3; n <= 20; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "biring(2,%d)", n);
    expect_bfb(spec, n / 2, n - 1, n);
  }
}

/* Theorem 13: the optimal BFB schedule of a product of simple digraphs with BW-optimal BFB
   schedules is BW-optimal with T_L = Σ D(G_i) (Table 7: BiRing(2,8)□UniRing(1,4)^{□2}, 10
   steps, 127/128). Factor diameters: BiRing floor(m/2), UniRing m-1, K_m 1, K_{d,d} 2,
   directed circulant 2. */
static void theorem13_products(void **state) {
  (void)state;
  expect_bfb("product(biring(2,8),power(uniring(1,4),2))", 10, 127, 128);
  expect_bfb("product(biring(2,5),uniring(1,4))", 5, 19, 20);
  expect_bfb("product(uniring(1,3),uniring(1,5))", 6, 14, 15);
  expect_bfb("product(biring(2,6),biring(2,7))", 6, 41, 42);
  expect_bfb("product(complete(3),uniring(1,4))", 4, 11, 12);
  expect_bfb("product(bipartite(2),biring(2,5))", 4, 19, 20);
  expect_bfb("product(dcirculant(5,1,2,3),biring(2,4))", 4, 19, 20);
  expect_bfb("product(uniring(1,4),uniring(1,4),uniring(1,2))", 7, 31, 32);
}

/* Table 7 rows that are plain BFB (LP (1) on the graph): Π_{4,64} 3 steps 21/16 (printed
   1.312), Π_{4,1024} 5 steps 341/256 (1.332), DBJ(4,4) 4 steps 85/64 (1.328); and by
   Thm 10: L(C(16,{3,4})) T_L 3 + 1 = 4, tau 15/16 + 1/16 = 1. */
static void table7_rows(void **state) {
  (void)state;
  /* Table 7 prints these as T_B; the graphs with self-loops (genkautz(4,64) and (4,1024),
     debruijn(4,4): four nodes each with three links from others) are BW-optimal against
     the bound of their thinnest node, which ingress_bound computes. */
  expect_bfb("genkautz(4,64)", 3, 21, 16);
  expect_bfb("genkautz(4,1024)", 5, 341, 256);
  expect_bfb("debruijn(4,4)", 4, 85, 64);
  expect_bfb("line(circulant(16,3,4))", 4, 1, 1);
  char printed[16];
  snprintf(printed, sizeof printed, "%.3f", 21.0 / 16);
  assert_string_equal(printed, "1.312");
  tc_graph *g = tc_test_spec("genkautz(4,64)");
  assert_rat_equal(ingress_bound(g), rat(21, 16), "genkautz(4,64) bound");
  tc_graph_destroy(g);
}

/* Figure 18: generalized Kautz Π_{d,N} has T_B <= 2 T_B*, i.e. tau <= 2(N-1)/N, for
   d = 2, 4, 8 (here N = d+1 .. 100 and a few larger N); T_L = D(G). */
static void genkautz_figure18(void **state) {
  (void)state;
  static const int ds[] = {2, 4, 8};
  static const int big[] = {127, 200, 341, 500};
  for (size_t k = 0; k < 3; k++) {
    int d = ds[k];
    for (int n = d + 1; n <= 100 + 4; n++) {
      int N = n <= 100 ? n : big[n - 101];
      char spec[48];
      snprintf(spec, sizeof spec, "genkautz(%d,%d)", d, N);
      tc_graph *g = tc_test_spec(spec);
      tc_schedule s;
      tc_cost c;
      bfb_checked(g, spec, &s, &c);
      int32_t D;
      tc_error err;
      assert_int_equal(tc_graph_diameter(g, &D, &err), TC_OK);
      assert_int_equal(s.steps, D);
      if (tc_rat_cmp(c.tau, rat(2 * (int64_t)(N - 1), N)) > 0) fail_msg("%s: tau above 2(N-1)/N", spec);
      if (N <= 40) assert_bfb_structure(g, &s, spec);
      tc_cost_destroy(&c);
      tc_schedule_destroy(&s);
      tc_graph_destroy(g);
    }
  }
}

/* ---- cross-checks of the exact solver ------------------------------------------------- */

/* A strongly connected random multigraph: a Hamiltonian cycle plus `extra` random arcs
   (loops and parallel arcs allowed), capacities 1..maxcap. */
static tc_graph *random_digraph(tc_rng *r, int n, int extra, int maxcap) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  int perm[64];
  assert_true(n <= 64);
  for (int i = 0; i < n; i++) perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)tci_rng_below(r, (uint64_t)i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < n; i++)
    assert_int_equal(tc_graph_builder_add_arc(&b, perm[i], perm[(i + 1) % n], 1 + (int64_t)tci_rng_below(r, (uint64_t)maxcap), &err),
                     TC_OK);
  for (int i = 0; i < extra; i++)
    assert_int_equal(tc_graph_builder_add_arc(&b, (int64_t)tci_rng_below(r, (uint64_t)n), (int64_t)tci_rng_below(r, (uint64_t)n),
                                              1 + (int64_t)tci_rng_below(r, (uint64_t)maxcap), &err),
                     TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* U* by brute force over nonempty arc subsets P: max |{jobs with allowed set ⊆ P}| / cap(P)
   (the cut argument of Thm 19, App. E.1, turned into a formula); r->narcs must be small. */
static tc_rat brute_force_optimum(const tc_graph *g, const tci_bfb_receiver *r, int32_t t) {
  const tci_bfb_step *st = &r->step[t - 1];
  tc_rat best = {0, 1};
  for (uint32_t P = 1; P < (1u << r->narcs); P++) {
    int64_t cap = 0, inside = 0;
    for (int32_t a = 0; a < r->narcs; a++)
      if (P >> a & 1) cap += g->cap[r->arc[a]];
    for (int32_t i = 0; i < st->njobs; i++) {
      int ok = 1;
      for (int64_t e = st->allow_off[i]; e < st->allow_off[i + 1]; e++) ok &= (int)(P >> st->allow[e] & 1);
      inside += ok;
    }
    tc_rat ratio = rat(inside, cap);
    if (tc_rat_cmp(ratio, best) > 0) best = ratio;
  }
  return best;
}

/* x is feasible for LP (1) with value U: each job sums to 1, each arc carries <= U cap. */
static void assert_feasible(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, tc_rat U, const tc_rat *x) {
  const tci_bfb_step *st = &r->step[t - 1];
  tc_error err;
  tc_rat *load = calloc((size_t)r->narcs + 1, sizeof *load);
  assert_non_null(load);
  for (int32_t a = 0; a < r->narcs; a++) load[a] = (tc_rat){0, 1};
  for (int32_t i = 0; i < st->njobs; i++) {
    tc_rat sum = {0, 1};
    for (int64_t e = st->allow_off[i]; e < st->allow_off[i + 1]; e++) {
      assert_true(x[e].num >= 0 && x[e].num <= x[e].den);
      assert_int_equal(tc_rat_add(sum, x[e], &sum, &err), TC_OK);
      assert_int_equal(tc_rat_add(load[st->allow[e]], x[e], &load[st->allow[e]], &err), TC_OK);
    }
    assert_rat_equal(sum, rat(1, 1), "a job's fractions");
  }
  for (int32_t a = 0; a < r->narcs; a++) {
    tc_rat limit;
    assert_int_equal(tc_rat_mul(U, rat(g->cap[r->arc[a]], 1), &limit, &err), TC_OK);
    assert_true(tc_rat_cmp(load[a], limit) <= 0);
  }
  free(load);
}

/* Exact optimum == brute force == GLPK (1e-9) for every (u,t), and the schedule's tau ==
   (2), on random multigraphs with loops and capacities, and on some named topologies. */
static void check_against_oracles(const tc_graph *g, const char *what) {
  tc_error err;
  tc_rat *U = NULL;
  double *Ug = NULL;
  int32_t D, Dg;
  assert_int_equal(tc_bfb_optima(g, &U, &D, &err), TC_OK);
  assert_int_equal(tci_bfb_optima_glpk(g, &Ug, &Dg, &err), TC_OK);
  assert_int_equal(D, Dg);
  assert_int_equal(D, tc_test_floyd_diameter(g));
  for (int32_t u = 0; u < g->n; u++) {
    tci_bfb_receiver r;
    assert_int_equal(tci_bfb_receiver_build(g, u, &r, &err), TC_OK);
    for (int32_t t = 1; t <= D; t++) {
      tc_rat exact = U[(int64_t)u * D + t - 1];
      if (fabs(tc_rat_to_double(exact) - Ug[(int64_t)u * D + t - 1]) > 1e-9)
        fail_msg("%s: U*(%d,%d) exact %g vs GLPK %.12g", what, u, t, tc_rat_to_double(exact), Ug[(int64_t)u * D + t - 1]);
      if (t > r.depth) {
        assert_int_equal(exact.num, 0);
        continue;
      }
      if (r.narcs <= 14) assert_rat_equal(exact, brute_force_optimum(g, &r, t), what);
      tc_rat Us, *x = malloc((size_t)(r.step[t - 1].allow_off[r.step[t - 1].njobs] + 1) * sizeof *x);
      assert_non_null(x);
      assert_int_equal(tci_bfb_step_solve(g, &r, t, &Us, x, &err), TC_OK);
      assert_rat_equal(Us, exact, what);
      assert_feasible(g, &r, t, Us, x);
      free(x);
    }
    tci_bfb_receiver_destroy(&r);
  }
  free(U);
  free(Ug);
  tc_schedule s;
  tc_cost c;
  bfb_checked(g, what, &s, &c);
  assert_bfb_structure(g, &s, what);
  assert_rat_equal(c.tau, tau_from_optima(g, c.degree), what);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
}

static void exact_matches_glpk_random(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20250501);
  int64_t loops = 0, multi = 0;
  for (int rep = 0; rep < 60; rep++) {
    int n = 2 + (int)tci_rng_below(&r, 11), extra = (int)tci_rng_below(&r, (uint64_t)(3 * n + 1));
    tc_graph *g = random_digraph(&r, n, extra, rep % 3 ? 3 : 1);
    char what[64];
    snprintf(what, sizeof what, "random digraph #%d (n %d, m %lld)", rep, n, (long long)g->m);
    check_against_oracles(g, what);
    loops += tc_graph_count_self_loops(g);
    multi += tc_graph_count_multi_arcs(g);
    tc_graph_destroy(g);
  }
  /* The sample really exercises self-loops and parallel arcs. */
  assert_true(loops >= 10);
  assert_true(multi >= 10);
}

static void exact_matches_glpk_named(void **state) {
  (void)state;
  static const char *specs[] = {"genkautz(4,64)", "debruijn(2,5)", "torus(3,4)", "circulant(13,2,5)",
                                "genkautz(3,20)", "kautz(2,2)",    "bipartite(3)", "drg(petersen-line)"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    check_against_oracles(g, specs[i]);
    tc_graph_destroy(g);
  }
}

/* The output does not depend on the number of threads. */
static void thread_count_independent(void **state) {
  (void)state;
  static const char *specs[] = {"genkautz(4,300)", "torus(6,7)", "hypercube(6)"};
  int saved = omp_get_max_threads();
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_schedule a, b;
    tc_error err;
    omp_set_num_threads(1);
    assert_int_equal(tc_bfb_allgather(g, &a, NULL, &err), TC_OK);
    omp_set_num_threads(3);
    assert_int_equal(tc_bfb_allgather(g, &b, NULL, &err), TC_OK);
    assert_int_equal(a.count, b.count);
    assert_int_equal(a.units, b.units);
    assert_memory_equal(a.xfer, b.xfer, (size_t)a.count * sizeof *a.xfer);
    tc_schedule_destroy(&a);
    tc_schedule_destroy(&b);
    tc_graph_destroy(g);
  }
  omp_set_num_threads(saved);
}

/* Statistics: repeats of a vertex-transitive graph's problems are served from the memo
   (in-neighbour order differs only at the wrap-around, so few distinct problems remain). */
static void stats_and_memo(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(12,12)");
  tc_schedule s;
  tc_bfb_stats st;
  tc_error err;
  int saved = omp_get_max_threads();
  omp_set_num_threads(1); /* one memo: repeats across all receivers are found */
  assert_int_equal(tc_bfb_allgather(g, &s, &st, &err), TC_OK);
  omp_set_num_threads(saved);
  assert_int_equal(st.diameter, 12);
  assert_int_equal(st.problems, 144 * 12);
  assert_true(st.solved >= 12 && st.solved < st.problems / 4);
  assert_true(st.maxflows >= st.solved);
  assert_int_equal(st.units, s.units);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- heterogeneous links, LP (14) ----------------------------------------------------- */

/* Equal alpha and bandwidth on every arc: U_{u,t} = alpha + (shard/bw) U*_{u,t}, nothing
   dropped, and the predicted time is D alpha + (shard/bw) Σ_t max_u U*. */
static void hetero_equal_links_reproduce_homogeneous(void **state) {
  (void)state;
  static const char *specs[] = {"torus(3,4)", "genkautz(3,20)", "debruijn(2,4)", "circulant(16,3,4)"};
  const double alpha_s = 1e-5, bw = 2.5e9, shard = 4e5, per_shard = shard / bw;
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    double *alpha = malloc((size_t)g->m * sizeof *alpha), *band = malloc((size_t)g->m * sizeof *band);
    assert_non_null(alpha);
    assert_non_null(band);
    for (int64_t a = 0; a < g->m; a++) alpha[a] = alpha_s, band[a] = bw;
    tc_rat *U;
    int32_t D;
    tc_error err;
    assert_int_equal(tc_bfb_optima(g, &U, &D, &err), TC_OK);
    double expected_total = 0;
    for (int32_t t = 1; t <= D; t++) {
      double best = 0;
      for (int32_t u = 0; u < g->n; u++) best = fmax(best, tc_rat_to_double(U[(int64_t)u * D + t - 1]));
      expected_total += alpha_s + per_shard * best;
    }
    for (int32_t u = 0; u < g->n; u++) {
      tci_bfb_receiver r;
      assert_int_equal(tci_bfb_receiver_build(g, u, &r, &err), TC_OK);
      for (int32_t t = 1; t <= r.depth; t++) {
        tci_bfb_hetero_step h;
        assert_int_equal(tci_bfb_hetero_step_solve(g, &r, t, alpha, band, shard, &h, &err), TC_OK);
        double want = alpha_s + per_shard * tc_rat_to_double(U[(int64_t)u * D + t - 1]);
        if (fabs(h.time - want) > 1e-9 * want) fail_msg("%s: hetero U(%d,%d) %.12g, want %.12g", specs[i], u, t, h.time, want);
        assert_int_equal(h.resolves, 0);
        tci_bfb_hetero_step_destroy(&h);
      }
      tci_bfb_receiver_destroy(&r);
    }
    double total;
    assert_int_equal(tc_bfb_hetero_time(g, alpha, band, shard, &total, &err), TC_OK);
    assert_true(fabs(total - expected_total) <= 1e-9 * expected_total);
    free(U);
    free(alpha);
    free(band);
    tc_graph_destroy(g);
  }
}

/* Receiver u = 5 with in-links w1 = 2, w2 = 3, w3 = 4; at step 2 source v1 = 0 may use w1
   or w3 and v2 = 1 may use w2 or w3. With equal links the optimum spreads 2/3 of a shard
   per link: U = alpha + (2/3) s/b. Give w3 a huge alpha (1 s): LP (14) first returns
   U = 1 s with w3 idle; the re-solve deletes w3, v1 goes over w1 and v2 over w2, and
   U = alpha + s/b (derived by hand: each remaining link carries one whole shard). */
static void hetero_resolve_drops_idle_dominating_link(void **state) {
  (void)state;
  static const int arcs[][2] = {{0, 2}, {0, 4}, {1, 3}, {1, 4}, {2, 5}, {3, 5}, {4, 5}, {5, 0}, {5, 1}};
  tc_graph *g = tc_test_from_arcs(6, arcs, (int)(sizeof arcs / sizeof arcs[0]));
  const double alpha_s = 1e-5, bw = 1e9, shard = 1e5, per_shard = shard / bw; /* 1e-4 s */
  double alpha[16], band[16];
  for (int64_t a = 0; a < g->m; a++) alpha[a] = alpha_s, band[a] = bw;
  tc_error err;
  tci_bfb_receiver r;
  assert_int_equal(tci_bfb_receiver_build(g, 5, &r, &err), TC_OK);
  assert_int_equal(r.narcs, 3);
  int w3 = -1;
  for (int32_t a = 0; a < r.narcs; a++)
    if (g->src[r.arc[a]] == 4) w3 = a;
  assert_true(w3 >= 0);
  tc_rat U;
  assert_int_equal(tci_bfb_step_solve(g, &r, 2, &U, NULL, &err), TC_OK);
  assert_rat_equal(U, rat(2, 3), "homogeneous U of the constructed step");
  tci_bfb_hetero_step h;
  assert_int_equal(tci_bfb_hetero_step_solve(g, &r, 2, alpha, band, shard, &h, &err), TC_OK);
  assert_true(fabs(h.time - (alpha_s + per_shard * 2.0 / 3.0)) < 1e-9 * h.time);
  assert_int_equal(h.resolves, 0);
  tci_bfb_hetero_step_destroy(&h);
  alpha[r.arc[w3]] = 1.0;
  assert_int_equal(tci_bfb_hetero_step_solve(g, &r, 2, alpha, band, shard, &h, &err), TC_OK);
  assert_int_equal(h.resolves, 1);
  assert_int_equal(h.dropped[w3], 1);
  assert_true(fabs(h.load[w3]) < 1e-12);
  for (int32_t a = 0; a < r.narcs; a++)
    if (a != w3) {
      assert_int_equal(h.dropped[a], 0);
      assert_true(fabs(h.load[a] - 1.0) < 1e-9);
    }
  assert_true(fabs(h.time - (alpha_s + per_shard)) < 1e-9 * h.time);
  tci_bfb_hetero_step_destroy(&h);
  /* At step 1 w3 must send its own shard, so it is not idle and nothing is dropped. */
  assert_int_equal(tci_bfb_hetero_step_solve(g, &r, 1, alpha, band, shard, &h, &err), TC_OK);
  assert_int_equal(h.resolves, 0);
  assert_true(fabs(h.time - (1.0 + per_shard)) < 1e-9);
  tci_bfb_hetero_step_destroy(&h);
  tci_bfb_receiver_destroy(&r);
  tc_graph_destroy(g);
}

/* ---- bad input ------------------------------------------------------------------------ */

static void rejects_bad_input(void **state) {
  (void)state;
  tc_error err;
  tc_schedule s;
  /* Not strongly connected: 0 -> 1 -> 2 -> 1. */
  static const int arcs[][2] = {{0, 1}, {1, 2}, {2, 1}};
  tc_graph *g = tc_test_from_arcs(3, arcs, 3);
  assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "bfb: graph is not strongly connected"));
  assert_non_null(strstr(err.msg, "cannot reach node 0"));
  tc_rat *U;
  int32_t D;
  assert_int_equal(tc_bfb_optima(g, &U, &D, &err), TC_EINPUT);
  assert_null(U);
  double *Ug;
  assert_int_equal(tci_bfb_optima_glpk(g, &Ug, &D, &err), TC_EINPUT);
  tci_bfb_receiver r;
  assert_int_equal(tci_bfb_receiver_build(g, 0, &r, &err), TC_EINPUT);
  tc_graph_destroy(g);
  /* Receiver and step out of range. */
  g = tc_test_spec("torus(3,3)");
  assert_int_equal(tci_bfb_receiver_build(g, 9, &r, &err), TC_EINPUT);
  assert_int_equal(tci_bfb_receiver_build(g, 0, &r, &err), TC_OK);
  tc_rat U1;
  assert_int_equal(tci_bfb_step_solve(g, &r, 3, &U1, NULL, &err), TC_EINPUT);
  assert_int_equal(tci_bfb_step_solve(g, &r, 0, &U1, NULL, &err), TC_EINPUT);
  /* Heterogeneous inputs must be finite and positive. */
  double alpha[64], band[64];
  for (int64_t a = 0; a < g->m; a++) alpha[a] = 1e-5, band[a] = 1e9;
  band[7] = 0;
  tci_bfb_hetero_step h;
  assert_int_equal(tci_bfb_hetero_step_solve(g, &r, 1, alpha, band, 1e5, &h, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "bandwidth"));
  band[7] = 1e9;
  alpha[3] = -1;
  assert_int_equal(tci_bfb_hetero_step_solve(g, &r, 1, alpha, band, 1e5, &h, &err), TC_EINPUT);
  alpha[3] = 1e-5;
  assert_int_equal(tci_bfb_hetero_step_solve(g, &r, 1, alpha, band, 0, &h, &err), TC_EINPUT);
  tci_bfb_receiver_destroy(&r);
  tc_graph_destroy(g);
  /* A switch node. */
  tc_graph_builder b;
  assert_int_equal(tc_graph_builder_init(&b, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_edge(&b, 0, 1, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_set_kind(&b, 1, TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "switch"));
  tc_graph_destroy(g);
  /* Capacities whose sum leaves int64: K_3 with 2^62 on every arc. */
  assert_int_equal(tc_graph_builder_init(&b, 3, &err), TC_OK);
  for (int u = 0; u < 3; u++)
    for (int v = 0; v < 3; v++)
      if (u != v) assert_int_equal(tc_graph_builder_add_arc(&b, u, v, (int64_t)1 << 62, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_ERANGE);
  tc_graph_destroy(g);
}

/* One node: nothing to send, zero steps, and the verifier agrees. */
static void single_node(void **state) {
  (void)state;
  tc_graph_builder b;
  tc_graph *g;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  tc_schedule s;
  assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_OK);
  assert_int_equal(s.count, 0);
  assert_int_equal(s.steps, 0);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Capacities: a UniRing with d parallel arcs (Corollary 4.1's "ring of degree d") and a
   ring whose arcs have capacity 3 are both BW-optimal in m-1 steps; parallel arcs share the
   load equally (each carries 1/d shard per step). */
static void parallel_arcs_and_capacities(void **state) {
  (void)state;
  expect_bfb("uniring(3,5)", 4, 4, 5);
  tc_graph_builder b;
  tc_graph *g;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, 5, &err), TC_OK);
  for (int i = 0; i < 5; i++) assert_int_equal(tc_graph_builder_add_arc(&b, i, (i + 1) % 5, 3, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  tc_schedule s;
  tc_cost c;
  bfb_checked(g, "capacity-3 ring", &s, &c);
  assert_int_equal(s.steps, 4);
  assert_rat_equal(c.tau, rat(4, 5), "capacity-3 ring");
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  g = tc_test_spec("uniring(3,5)");
  bfb_checked(g, "uniring(3,5)", &s, &c);
  for (int64_t i = 0; i < s.count; i++) assert_int_equal(3 * (s.xfer[i].hi - s.xfer[i].lo), s.units);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- the max-flow kernel -------------------------------------------------------------- */

/* Maximum flow == minimum cut by brute force over all s-t cuts, flows feasible and
   conserved, and the reported source side is a minimum cut. */
static void maxflow_matches_brute_force_min_cut(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 77);
  tc_maxflow f;
  tci_maxflow_init(&f);
  for (int rep = 0; rep < 300; rep++) {
    int n = 2 + (int)tci_rng_below(&r, 7), m = (int)tci_rng_below(&r, 25);
    int from[32], to[32];
    int64_t cap[32];
    tc_error err;
    assert_int_equal(tci_maxflow_reset(&f, n, &err), TC_OK);
    for (int i = 0; i < m; i++) {
      from[i] = (int)tci_rng_below(&r, (uint64_t)n);
      to[i] = (int)tci_rng_below(&r, (uint64_t)n);
      cap[i] = (int64_t)tci_rng_below(&r, 10);
      int64_t id;
      assert_int_equal(tci_maxflow_add(&f, from[i], to[i], cap[i], &id, &err), TC_OK);
      assert_int_equal(id, i);
    }
    int64_t value;
    assert_int_equal(tci_maxflow_run(&f, 0, n - 1, &value, &err), TC_OK);
    int64_t best = INT64_MAX;
    for (uint32_t S = 0; S < (1u << n); S++) {
      if (!(S & 1) || (S >> (n - 1) & 1)) continue;
      int64_t c = 0;
      for (int i = 0; i < m; i++)
        if ((S >> from[i] & 1) && !(S >> to[i] & 1)) c += cap[i];
      if (c < best) best = c;
    }
    assert_int_equal(value, best);
    int64_t net[16] = {0}, side_cut = 0;
    for (int i = 0; i < m; i++) {
      int64_t x = tci_maxflow_flow(&f, i);
      assert_true(x >= 0 && x <= cap[i]);
      net[from[i]] -= x;
      net[to[i]] += x;
      if (tci_maxflow_source_side(&f, from[i]) && !tci_maxflow_source_side(&f, to[i])) side_cut += cap[i];
    }
    for (int v = 1; v < n - 1; v++) assert_int_equal(net[v], 0);
    assert_int_equal(net[n - 1], value);
    assert_true(tci_maxflow_source_side(&f, 0));
    assert_false(tci_maxflow_source_side(&f, n - 1));
    assert_int_equal(side_cut, value);
    /* The sink side: a minimum cut, inside the sink side of every minimum cut. */
    uint8_t sink[16];
    tci_maxflow_sink_side(&f, n - 1, sink);
    assert_true(sink[n - 1]);
    assert_false(sink[0]);
    int64_t sink_cut = 0;
    for (int i = 0; i < m; i++)
      if (!sink[from[i]] && sink[to[i]]) sink_cut += cap[i];
    assert_int_equal(sink_cut, value);
    for (uint32_t S = 0; S < (1u << n); S++) {
      if (!(S & 1) || (S >> (n - 1) & 1)) continue;
      int64_t c = 0;
      for (int i = 0; i < m; i++)
        if ((S >> from[i] & 1) && !(S >> to[i] & 1)) c += cap[i];
      for (int v = 0; c == value && v < n; v++)
        if (sink[v]) assert_false(S >> v & 1);
    }
    /* Changing a capacity and re-running starts from zero flow again. */
    if (m > 0) {
      tci_maxflow_set_cap(&f, 0, 0);
      assert_int_equal(tci_maxflow_run(&f, 0, n - 1, &value, &err), TC_OK);
      assert_int_equal(tci_maxflow_flow(&f, 0), 0);
    }
  }
  tc_error err;
  assert_int_equal(tci_maxflow_reset(&f, 1, &err), TC_EINPUT);
  assert_int_equal(tci_maxflow_reset(&f, 3, &err), TC_OK);
  assert_int_equal(tci_maxflow_add(&f, 0, 3, 1, NULL, &err), TC_EINPUT);
  assert_int_equal(tci_maxflow_add(&f, 0, 1, -1, NULL, &err), TC_EINPUT);
  assert_int_equal(tci_maxflow_add(&f, 0, 1, INT64_MAX, NULL, &err), TC_OK);
  assert_int_equal(tci_maxflow_add(&f, 0, 2, 1, NULL, &err), TC_OK);
  int64_t value;
  assert_int_equal(tci_maxflow_run(&f, 0, 2, &value, &err), TC_ERANGE);
  assert_int_equal(tci_maxflow_run(&f, 0, 0, &value, &err), TC_EINPUT);
  tci_maxflow_destroy(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(maxflow_matches_brute_force_min_cut),
      cmocka_unit_test(k22_figure1),
      cmocka_unit_test(figure5_lp_example),
      cmocka_unit_test(tori),
      cmocka_unit_test(hypercubes),
      cmocka_unit_test(circulants_degree4),
      cmocka_unit_test(circulants_degree6),
      cmocka_unit_test(hamming_bipartite_complete_dcirculant),
      cmocka_unit_test(table8_distance_regular),
      cmocka_unit_test(biring),
      cmocka_unit_test(theorem13_products),
      cmocka_unit_test(table7_rows),
      cmocka_unit_test(genkautz_figure18),
      cmocka_unit_test(exact_matches_glpk_random),
      cmocka_unit_test(exact_matches_glpk_named),
      cmocka_unit_test(thread_count_independent),
      cmocka_unit_test(stats_and_memo),
      cmocka_unit_test(hetero_equal_links_reproduce_homogeneous),
      cmocka_unit_test(hetero_resolve_drops_idle_dominating_link),
      cmocka_unit_test(parallel_arcs_and_capacities),
      cmocka_unit_test(rejects_bad_input),
      cmocka_unit_test(single_node),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
