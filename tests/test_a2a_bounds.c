/*
** test_a2a_bounds.c — the analytic all-to-all bounds (tc_a2a_bounds, src/a2a/bounds.c).
**
** What is checked:
**   - the distance bound |E|/Σdist of every row of paper 003's worked table (Q3 1/4, K4,4
**     2/5, 3x3x3 torus 1/9, GenKautz (N,d) = (8,2) 7/59, (12,2) 4/51, (16,2) 3/68, (8,3)
**     3/11, (12,3) 3/19, (16,3) 6/65, (10,4) 2/7, (12,4) 1/5, (16,4) 1/7), exactly; our
**     genkautz keeps loops, the table drops them, and loops count for nothing: the same
**     numbers either way;
**   - the Moore bound C/(N·S_min(N,Δ)): d/S_min on d-regular graphs (Q3 3/11, K4,4 2/5, the
**     torus 3/23); on GenKautz(12,4) without its 4 loops C = 44 < 4·12, so 44/(12·18) = 11/54;
**   - the bisection bound: Q3 1/4 (χ = 4), K4,4 1/2 (χ = 8), the reported cut's sizes and
**     capacities recomputed from its sides; on 40 random digraphs (2-12 nodes) the cut found
**     is balanced, its bound is what its sides give, and it is the least over all balanced
**     cuts (enumerated);
**   - every bound is at least the certified optimum F* of tc_a2a_solve (they bracket it
**     from above), on the table's graphs and the random ones;
**   - the throughput bound (N-1)·f·b: Q3 at b = 3.125 GB/s is 5.46875 GB/s;
**   - refusals, one line each (the same as tc_a2a_solve's).
*/
#include <stdio.h>

#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/a2a.h"

static tc_a2a_bounds bounds_of(const tc_graph *g) {
  tc_a2a_bounds b;
  tc_error err;
  if (tc_a2a_bounds_compute(g, 1, &b, &err)) fail_msg("bounds: %s", err.msg);
  return b;
}

static void expect_rat(tc_rat r, int64_t p, int64_t q, const char *what, const char *spec) {
  if (r.num != p || r.den != q)
    fail_msg("%s of %s: %lld/%lld, expected %lld/%lld", what, spec, (long long)r.num, (long long)r.den, (long long)p,
             (long long)q);
}

/* The cut's sizes and capacities recomputed from its sides. */
static void check_cut(const tc_graph *g, const tc_a2a_bounds *b) {
  int32_t size = 0;
  int64_t out = 0, in = 0;
  for (int32_t u = 0; u < g->n; u++) size += b->cut_side[u];
  for (int64_t a = 0; a < g->m; a++) {
    int su = b->cut_side[g->src[a]], sv = b->cut_side[g->dst[a]];
    if (su && !sv) out += g->cap[a];
    if (!su && sv) in += g->cap[a];
  }
  assert_int_equal(size, b->cut_size);
  assert_true(size == g->n / 2 || size == (g->n + 1) / 2);
  assert_int_equal(out, b->cut_out);
  assert_int_equal(in, b->cut_in);
  tc_rat want;
  tc_error err;
  assert_int_equal(tc_rat_make(out < in ? out : in, (int64_t)size * (g->n - size), &want, &err), TC_OK);
  assert_int_equal(tc_rat_cmp(want, b->bisection), 0);
}

/* F* certified exact by the LP; every bound at least F*. */
static void check_brackets(const tc_graph *g, const tc_a2a_bounds *b, const char *what) {
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.children = 0;
  tc_a2a_result r;
  tc_error err;
  if (tc_a2a_solve(g, &o, &r, &err)) fail_msg("%s: %s", what, err.msg);
  assert_true(r.exact);
  if (tc_rat_cmp(r.f_exact, b->distance) > 0 || tc_rat_cmp(r.f_exact, b->moore) > 0 ||
      tc_rat_cmp(r.f_exact, b->bisection) > 0)
    fail_msg("%s: F* %lld/%lld above a bound", what, (long long)r.f_exact.num, (long long)r.f_exact.den);
  tc_a2a_result_destroy(&r);
}

static void test_table_distance_bounds(void **state) {
  (void)state;
  const struct { const char *spec; int64_t p, q; } table[] = {
      {"hypercube(3)", 1, 4},         {"bipartite(4)", 2, 5},          {"torus(3,3,3)", 1, 9},
      {"genkautz(2,8)", 7, 59},       {"genkautz(2,8,drop)", 7, 59},   {"genkautz(2,12)", 4, 51},
      {"genkautz(2,16,drop)", 3, 68}, {"genkautz(3,8)", 3, 11},        {"genkautz(3,12)", 3, 19},
      {"genkautz(3,16)", 6, 65},      {"genkautz(4,10)", 2, 7},        {"genkautz(4,12)", 1, 5},
      {"genkautz(4,12,drop)", 1, 5},  {"genkautz(4,16,drop)", 1, 7},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    tc_graph *g = tc_test_spec(table[i].spec);
    tc_a2a_bounds b = bounds_of(g);
    expect_rat(b.distance, table[i].p, table[i].q, "distance bound", table[i].spec);
    check_cut(g, &b);
    check_brackets(g, &b, table[i].spec);
    tc_a2a_bounds_destroy(&b);
    tc_graph_destroy(g);
  }
}

static void test_moore_and_bisection(void **state) {
  (void)state;
  const struct { const char *spec; int64_t mp, mq, degree, s_min, bp, bq; } table[] = {
      {"hypercube(3)", 3, 11, 3, 11, 1, 4},
      {"bipartite(4)", 2, 5, 4, 10, 1, 2},
      {"torus(3,3,3)", 3, 23, 6, 46, 0, 0},
      {"genkautz(4,12,drop)", 11, 54, 4, 18, 0, 0},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    tc_graph *g = tc_test_spec(table[i].spec);
    tc_a2a_bounds b = bounds_of(g);
    expect_rat(b.moore, table[i].mp, table[i].mq, "Moore bound", table[i].spec);
    assert_int_equal(b.moore_degree, table[i].degree);
    assert_int_equal(b.s_min, table[i].s_min);
    if (table[i].bq) expect_rat(b.bisection, table[i].bp, table[i].bq, "bisection bound", table[i].spec);
    assert_true(tc_rat_cmp(b.best, b.distance) <= 0 && tc_rat_cmp(b.best, b.bisection) <= 0);
    assert_true(tc_rat_cmp(b.best, b.distance) == 0 || tc_rat_cmp(b.best, b.bisection) == 0);
    assert_true(tc_rat_cmp(b.distance, b.moore) <= 0); /* Moore never beats the distance bound */
    tc_a2a_bounds_destroy(&b);
    tc_graph_destroy(g);
  }
  /* Q3 in detail: χ = 4 each way over 4·4 pairs */
  tc_graph *g = tc_test_spec("hypercube(3)");
  tc_a2a_bounds b = bounds_of(g);
  assert_int_equal(b.cut_size, 4);
  assert_int_equal(b.cut_out, 4);
  assert_int_equal(b.cut_in, 4);
  assert_int_equal(b.capacity, 24);
  assert_int_equal(b.distance_sum, 96);
  tc_a2a_bounds_destroy(&b);
  tc_graph_destroy(g);
}

/* A random strongly connected digraph: a Hamiltonian cycle plus random arcs (capacities
   1-3, loops and parallel arcs allowed). */
static tc_graph *random_graph(tc_rng *r, int n) {
  tc_graph_builder bld;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&bld, n, &err), TC_OK);
  for (int u = 0; u < n; u++) assert_int_equal(tc_graph_builder_add_arc(&bld, u, (u + 1) % n, 1, &err), TC_OK);
  for (int i = 0; i < 2 * n; i++) {
    int u = (int)tci_rng_below(r, (uint64_t)n), v = (int)tci_rng_below(r, (uint64_t)n);
    assert_int_equal(tc_graph_builder_add_arc(&bld, u, v, 1 + (int64_t)tci_rng_below(r, 3), &err), TC_OK);
  }
  assert_int_equal(tc_graph_builder_finish(&bld, &g, &err), TC_OK);
  return g;
}

/* The least bisection bound over all balanced cuts (|S| = ⌊n/2⌋ suffices: the bound is
   symmetric in S and its complement). */
static tc_rat brute_bisection(const tc_graph *g) {
  tc_rat best = {-1, 1};
  int n = g->n, half = n / 2;
  for (uint32_t mask = 0; mask < (1u << n); mask++) {
    if (__builtin_popcount(mask) != half) continue;
    int64_t out = 0, in = 0;
    for (int64_t a = 0; a < g->m; a++) {
      int su = (mask >> g->src[a]) & 1, sv = (mask >> g->dst[a]) & 1;
      if (su && !sv) out += g->cap[a];
      if (!su && sv) in += g->cap[a];
    }
    tc_rat r;
    tc_error err;
    assert_int_equal(tc_rat_make(out < in ? out : in, (int64_t)half * (n - half), &r, &err), TC_OK);
    if (best.num < 0 || tc_rat_cmp(r, best) < 0) best = r;
  }
  return best;
}

static void test_random_graphs(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 7);
  for (int trial = 0; trial < 40; trial++) {
    int n = 2 + (int)tci_rng_below(&r, 11);
    tc_graph *g = random_graph(&r, n);
    tc_a2a_bounds b = bounds_of(g);
    check_cut(g, &b);
    tc_rat least = brute_bisection(g);
    if (tc_rat_cmp(b.bisection, least) != 0)
      fail_msg("trial %d (n %d): bisection %lld/%lld, least %lld/%lld", trial, n, (long long)b.bisection.num,
               (long long)b.bisection.den, (long long)least.num, (long long)least.den);
    if (n <= 6) check_brackets(g, &b, "random graph");
    tc_a2a_bounds_destroy(&b);
    tc_graph_destroy(g);
  }
}

static void test_throughput(void **state) {
  (void)state;
  assert_true(tc_a2a_throughput_bound(8, 0.25, 3.125e9) == 5.46875e9);
  assert_true(tc_a2a_throughput_bound(27, 1.0 / 9, 3.125e9) == 26 * (1.0 / 9) * 3.125e9);
}

static void expect_refused(const tc_graph *g, const char *msg) {
  tc_a2a_bounds b;
  tc_error err;
  assert_int_equal(tc_a2a_bounds_compute(g, 1, &b, &err), TC_EINPUT);
  assert_string_equal(err.msg, msg);
  assert_null(b.cut_side);
}

static void test_refusals(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("fattree(4)");
  expect_refused(g, "all-to-all needs a graph of compute nodes only: node 16 is a switch (20 switches)");
  tc_graph_destroy(g);
  static const int one[][2] = {{0, 0}};
  g = tc_test_from_arcs(1, one, 1);
  expect_refused(g, "all-to-all needs at least 2 nodes, the graph has 1");
  tc_graph_destroy(g);
  static const int path[][2] = {{0, 1}, {1, 2}};
  g = tc_test_from_arcs(3, path, 2);
  expect_refused(g, "all-to-all needs every node to reach every other: node 1 cannot reach node 0");
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_distance_bounds),
      cmocka_unit_test(test_moore_and_bisection),
      cmocka_unit_test(test_random_graphs),
      cmocka_unit_test(test_throughput),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
