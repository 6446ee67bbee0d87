/*
** test_expand.c — expansions as graph operations (paper 000 §5, A.6).
**
** Oracles: the definitions themselves (arc-by-arc checks of L(G) and G*n against the
** base), Floyd–Warshall distances for distance additivity of products, and the paper's
** stated sizes/diameters: Table 3 (L: d-fold nodes, diameter +1; G*n: nN nodes, degree
** nd; products: sizes multiply, degrees and diameters add), Table 7 rows.
*/
#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/expand.h"
#include "topocoll/iso.h"
#include "topocoll/metrics.h"

static int diameter(const tc_graph *g) {
  int32_t d;
  tc_error err;
  assert_int_equal(tc_graph_diameter(g, &d, &err), TC_OK);
  return d;
}

static void assert_regular(const tc_graph *g, int64_t d) {
  assert_int_equal(tc_graph_out_regular(g), d);
  assert_int_equal(tc_graph_in_regular(g), d);
}

/* L(G) arc-for-arc from Def. 12 on random multigraphs with loops. */
static void line_graph_matches_definition(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 3);
  for (int rep = 0; rep < 20; rep++) {
    int n = 1 + (int)tci_rng_below(&r, 6), m = (int)tci_rng_below(&r, 12);
    int arcs[12][2];
    for (int i = 0; i < m; i++) {
      arcs[i][0] = (int)tci_rng_below(&r, n);
      arcs[i][1] = (int)tci_rng_below(&r, n);
    }
    tc_graph *g = tc_test_from_arcs(n, (const int(*)[2])arcs, m), *l = NULL;
    tc_error err;
    assert_int_equal(tc_graph_line(g, &l, &err), TC_OK);
    assert_int_equal(l->n, g->m);
    for (int a = 0; a < g->m; a++)
      for (int b = 0; b < g->m; b++)
        assert_int_equal(tc_graph_arc_multiplicity(l, a, b), g->dst[a] == g->src[b]);
    tc_graph_destroy(g);
    tc_graph_destroy(l);
  }
}

/* Table 3 / Def. 12: L(G) of a d-regular G has dN nodes, degree d, diameter D(G)+1. */
static void line_graph_sizes_and_diameters(void **state) {
  (void)state;
  const struct { const char *base; int d; } bases[] = {
      {"complete(5)", 4}, {"bipartite(4)", 4}, {"circulant(16,3,4)", 4}, {"hamming(2,3)", 4},
      {"torus(3,3)", 4},  {"dcirculant(6,1,2,3,4)", 4}, {"biring(2,7)", 2}, {"hypercube(3)", 3},
  };
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    tc_graph *g = tc_test_spec(bases[i].base), *l = NULL;
    tc_error err;
    int dg = diameter(g);
    for (int k = 1; k <= 2; k++) {
      assert_int_equal(tc_graph_line_power(g, k, &l, &err), TC_OK);
      int64_t want = g->n;
      for (int j = 0; j < k; j++) want *= bases[i].d;
      assert_int_equal(l->n, want);
      assert_regular(l, bases[i].d);
      assert_false(l->bidirectional); /* line graphs are unidirectional (App. A.6) */
      assert_int_equal(diameter(l), dg + k);
      tc_graph_destroy(l);
    }
    tc_graph_destroy(g);
  }
  /* Table 7 (N = 1024): L^3(C(16,{3,4})), T_L = 6 = 3 + 3 */
  tc_graph *g = tc_test_spec("line(circulant(16,3,4),3)");
  assert_int_equal(g->n, 1024);
  assert_regular(g, 4);
  assert_int_equal(diameter(g), 6);
  tc_graph_destroy(g);
  g = tc_test_spec("line(bipartite(4),0)"); /* L^0 is the base itself */
  assert_int_equal(g->n, 8);
  tc_graph_destroy(g);
}

/* Def. 13 arc-for-arc, and Fig. 4: the 4-node unidirectional ring *2 has 8 nodes, degree 2. */
static void degree_expansion(void **state) {
  (void)state;
  tc_graph *base = tc_test_spec("uniring(1,4)"), *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_degree_expand(base, 2, &g, &err), TC_OK);
  assert_int_equal(g->n, 8);
  assert_regular(g, 2);
  for (int u = 0; u < 8; u++)
    for (int v = 0; v < 8; v++)
      assert_int_equal(tc_graph_arc_multiplicity(g, u, v), tc_graph_arc_multiplicity(base, u % 4, v % 4));
  tc_graph_destroy(g);
  tc_graph_destroy(base);
  /* nN nodes, degree nd on a bidirectional base; diameter checked against Floyd */
  g = tc_test_spec("degree(circulant(16,3,4),3)");
  assert_int_equal(g->n, 48);
  assert_regular(g, 12);
  assert_true(g->bidirectional);
  assert_int_equal(diameter(g), tc_test_floyd_diameter(g));
  tc_graph_destroy(g);
  /* loops are refused (Def. 13 needs a loop-free G): Π_{4,64} has 4 self-loops, the x with
     5x ≡ -a mod 64 for a = 1..4 (Def. 16) */
  base = tc_test_spec("genkautz(4,64)");
  assert_int_equal(tc_graph_degree_expand(base, 2, &g, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "self-loops"));
  assert_int_equal(tc_graph_degree_expand(base, 0, &g, &err), TC_EINPUT);
  tc_graph_destroy(base);
}

/* Def. 3: distances add coordinate-wise (checked against Floyd on both factors). */
static void product_distances_add(void **state) {
  (void)state;
  tc_graph *g1 = tc_test_spec("genkautz(2,5)"), *g2 = tc_test_spec("biring(2,4)"), *p = NULL;
  tc_error err;
  assert_int_equal(tc_graph_product(g1, g2, &p, &err), TC_OK);
  int *d1 = tc_test_floyd(g1), *d2 = tc_test_floyd(g2), *dp = tc_test_floyd(p);
  int n1 = g1->n, n2 = g2->n, n = p->n;
  assert_int_equal(n, n1 * n2);
  for (int u = 0; u < n; u++)
    for (int v = 0; v < n; v++)
      assert_int_equal(dp[u * n + v], d1[(u / n2) * n1 + v / n2] + d2[(u % n2) * n2 + v % n2]);
  free(d1);
  free(d2);
  free(dp);
  tc_graph_destroy(g1);
  tc_graph_destroy(g2);
  tc_graph_destroy(p);
}

static void assert_isomorphic(const char *a, const char *b) {
  tc_graph *g = tc_test_spec(a), *h = tc_test_spec(b);
  int found = 0;
  tc_error err;
  assert_int_equal(tc_graph_isomorphism(g, h, &found, NULL, &err), TC_OK);
  if (!found) fail_msg("%s is not isomorphic to %s", a, b);
  tc_graph_destroy(g);
  tc_graph_destroy(h);
}

/* Known identities: Q_n = K_2^n, H(n,q) = K_q^n (§5.3), torus = product of rings (§6.2). */
static void products_and_powers(void **state) {
  (void)state;
  assert_isomorphic("hypercube(4)", "power(complete(2),4)");
  assert_isomorphic("hamming(2,3)", "power(complete(3),2)");
  assert_isomorphic("torus(3,3,2)", "product(biring(2,3),biring(2,3),complete(2))");
  assert_isomorphic("torus(4,5)", "product(biring(2,4),biring(2,5))");
  /* Table 7, N = 128: BiRing(2,8) x UniRing(1,4)^2: degree 4, T_L = D = 4+3+3 = 10 */
  tc_graph *g = tc_test_spec("product(biring(2,8),power(uniring(1,4),2))");
  assert_int_equal(g->n, 128);
  assert_regular(g, 4);
  assert_int_equal(diameter(g), 10);
  tc_graph_destroy(g);
  /* Table 7, N = 512: UniRing(1,4)^3 x UniRing(1,8), D = 9 + 7 = 16 */
  g = tc_test_spec("product(power(uniring(1,4),3),uniring(1,8))");
  assert_int_equal(g->n, 512);
  assert_regular(g, 4);
  assert_int_equal(diameter(g), 16);
  tc_graph_destroy(g);
  /* Table 7, N = 1024: (UniRing(1,4) x UniRing(1,8))^2, D = 2*10 = 20 */
  g = tc_test_spec("power(product(uniring(1,4),uniring(1,8)),2)");
  assert_int_equal(g->n, 1024);
  assert_regular(g, 4);
  assert_int_equal(diameter(g), 20);
  tc_graph_destroy(g);
  tc_error err;
  tc_graph *k2 = tc_test_spec("complete(2)");
  assert_int_equal(tc_graph_power(k2, 0, &g, &err), TC_EINPUT);
  tc_graph_destroy(k2);
}

/* A.6: G ∪ G^T is 2d-regular and bidirectional; bidir(UniRing(1,m)) is BiRing(2,m) exactly. */
static void bidirectional_closure(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bidir(genkautz(2,12))");
  assert_int_equal(g->n, 12);
  assert_regular(g, 4);
  assert_true(g->bidirectional);
  tc_graph_destroy(g);
  tc_graph *a = tc_test_spec("bidir(uniring(1,5))"), *b = tc_test_spec("biring(2,5)");
  assert_int_equal(a->m, b->m);
  for (int64_t i = 0; i < a->m; i++) {
    assert_int_equal(a->src[i], b->src[i]);
    assert_int_equal(a->dst[i], b->dst[i]);
  }
  tc_graph_destroy(a);
  tc_graph_destroy(b);
}

/* Oversized expansions fail with TC_ERANGE before allocating. */
static void size_limits(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("genkautz(4,1000)"), *out = NULL;
  tc_error err;
  assert_int_equal(tc_graph_line_power(g, 20, &out, &err), TC_ERANGE);
  assert_null(out);
  assert_int_equal(tc_graph_line_power(g, -1, &out, &err), TC_EINPUT);
  assert_int_equal(tc_graph_power(g, 5, &out, &err), TC_ERANGE);
  tc_graph_destroy(g);
  g = tc_test_spec("complete(2)");
  assert_int_equal(tc_graph_degree_expand(g, 1LL << 40, &out, &err), TC_ERANGE);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(line_graph_matches_definition),
      cmocka_unit_test(line_graph_sizes_and_diameters),
      cmocka_unit_test(degree_expansion),
      cmocka_unit_test(product_distances_add),
      cmocka_unit_test(products_and_powers),
      cmocka_unit_test(bidirectional_closure),
      cmocka_unit_test(size_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
