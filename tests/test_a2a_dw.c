/*
** test_a2a_dw.c — the column-generation method "dw" (src/a2a/dw.c) and its free
** automorphism groups (src/a2a/sym.c).
**
** What is checked:
**   - the groups: on vertex-transitive graphs the search finds a regular group (torus(4,4)
**     16, torus(16,16) 256, hypercube(3) 8, K4,4 8, torus(3,3,3) 27, circulant C(16,{3,4})
**     16, genkautz(3,12) = Kautz K(3,2) 12), on L^3(C(16,{3,4})) a group of 32 (32 orbits of
**     1024 nodes) and none on a Jellyfish graph; every element is an automorphism with no fixed point
**     (identity aside), the elements are closed under composition, each node is reached
**     from its representative by exactly its `via` element, and every arc class has |H|
**     arcs of one capacity;
**   - exact values (lower bound == upper bound as rationals) on paper 003's graphs: Q3 1/4,
**     K4,4 2/5, 3x3x3 torus 1/9 (vertex-transitive: one representative), GenKautz (12,3)
**     5/33, (16,4) 7/53 without loops, (12,2) 3/43 (few symmetries);
**   - dw equals the LP optimum (method lp, certified exact) on 30 random strongly connected
**     digraphs (seeded, 3-7 nodes, capacities 1-3, loops, parallel arcs), with and without
**     symmetry: exact and equal, or the LP's F strictly inside dw's certified bounds with a
**     gap under 1e-6;
**   - stopped early (gap 0.5) on genkautz(3,16) its certified bounds still bracket 1/12;
**   - the progress callback: rounds 1, 2, ..., lower <= upper, the last gap within target;
**   - the first-order phase (dw_fw.c, masters of 400 rows and more): alone on torus(16,16)
**     without symmetry (1280 rows: no master is built) to gap 1e-2, its bounds bracketing
**     the optimum 1/512 with the rounds reported one by one; followed by the master on
**     circulant C(40,{1..5}) without symmetry (440 rows), agreeing with the symmetric solve;
**   - a host cap is refused (one line).
*/
#include <stdio.h>

#include "tc_test.h"
#include "a2a/sym.h"
#include "core/rng.h"
#include "topocoll/a2a.h"
#include "topocoll/iso.h"

static void check_group(const char *spec, int32_t order, int32_t nreps) {
  tc_graph *g = tc_test_spec(spec);
  tci_a2a_sym s;
  tc_error err;
  if (tci_a2a_sym_find(g, 1, &s, &err)) fail_msg("%s: %s", spec, err.msg);
  if (s.order != order || s.nreps != nreps)
    fail_msg("%s: group of %d with %d orbits, expected %d and %d", spec, s.order, s.nreps, order, nreps);
  int32_t n = g->n;
  int32_t *z = malloc(sizeof *z * (size_t)n);
  for (int32_t h = 0; h < s.order; h++) {
    const int32_t *x = s.elem + (int64_t)h * n;
    assert_true(tc_graph_check_isomorphism(g, g, x));
    for (int32_t u = 0; u < n && h > 0; u++) assert_int_not_equal(x[u], u);
    if (n <= 64) /* closed: x then every other element is an element */
      for (int32_t k = 0; k < s.order; k++) {
        for (int32_t u = 0; u < n; u++) z[u] = s.elem[(int64_t)k * n + x[u]];
        int found = 0;
        for (int32_t q = 0; q < s.order && !found; q++) found = !memcmp(z, s.elem + (int64_t)q * n, sizeof *z * (size_t)n);
        assert_true(found);
      }
  }
  for (int32_t u = 0; u < n; u++) assert_int_equal(s.elem[(int64_t)s.via[u] * n + s.rep[s.rep_index[u]]], u);
  int64_t *members = calloc((size_t)s.nclasses, sizeof *members);
  for (int64_t a = 0; a < g->m; a++) {
    int32_t c = s.arc_class[a];
    if (g->src[a] == g->dst[a]) {
      assert_int_equal(c, -1);
      continue;
    }
    members[c]++;
    assert_int_equal(g->cap[a], s.class_cap[c]);
    for (int32_t h = 0; h < s.order; h++) {
      int64_t b = tci_a2a_sym_arc(g, &s, h, a);
      assert_int_equal(g->src[b], s.elem[(int64_t)h * n + g->src[a]]);
      assert_int_equal(g->dst[b], s.elem[(int64_t)h * n + g->dst[a]]);
      assert_int_equal(s.arc_class[b], c);
    }
  }
  for (int32_t c = 0; c < s.nclasses; c++) assert_int_equal(members[c], s.order);
  free(members);
  free(z);
  tci_a2a_sym_destroy(&s);
  tc_graph_destroy(g);
}

static void test_groups(void **state) {
  (void)state;
  check_group("torus(4,4)", 16, 1);
  check_group("torus(16,16)", 256, 1);
  check_group("hypercube(3)", 8, 1);
  check_group("bipartite(4)", 8, 1);
  check_group("torus(3,3,3)", 27, 1);
  check_group("circulant(16,3,4)", 16, 1);
  check_group("line(circulant(16,3,4),3)", 32, 32);
  check_group("genkautz(3,12)", 12, 1);
  check_group("jellyfish(64,4)", 1, 64);
}

static tc_a2a_result solve(const tc_graph *g, tc_a2a_method method, int symmetry, double gap) {
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.method = method, o.symmetry = symmetry, o.children = 0;
  if (gap > 0) o.gap = gap;
  tc_a2a_result r;
  tc_error err;
  if (tc_a2a_solve(g, &o, &r, &err)) fail_msg("solve: %s", err.msg);
  return r;
}

static void test_exact_values(void **state) {
  (void)state;
  const struct { const char *spec; int64_t p, q; } table[] = {
      {"hypercube(3)", 1, 4},    {"bipartite(4)", 2, 5},         {"torus(3,3,3)", 1, 9},
      {"genkautz(3,12)", 5, 33}, {"genkautz(4,16,drop)", 7, 53}, {"genkautz(2,12)", 3, 43},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    tc_graph *g = tc_test_spec(table[i].spec);
    tc_a2a_result r = solve(g, TC_A2A_DW, 1, 0);
    if (!r.exact || r.f_exact.num != table[i].p || r.f_exact.den != table[i].q)
      fail_msg("%s: exact %d, f %lld/%lld (lower %.12g upper %.12g), expected %lld/%lld", table[i].spec, r.exact,
               (long long)r.f_exact.num, (long long)r.f_exact.den, r.lower_bound, r.upper_bound, (long long)table[i].p,
               (long long)table[i].q);
    assert_true(r.rounds >= 1);
    assert_null(r.commodity_flow);
    tc_a2a_result_destroy(&r);
    tc_graph_destroy(g);
  }
}

/* A random strongly connected digraph: a Hamiltonian cycle plus random arcs. */
static tc_graph *random_graph(tc_rng *r, int n) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int u = 0; u < n; u++) assert_int_equal(tc_graph_builder_add_arc(&b, u, (u + 1) % n, 1, &err), TC_OK);
  for (int i = 0; i < 2 * n; i++) {
    int u = (int)tci_rng_below(r, (uint64_t)n), v = (int)tci_rng_below(r, (uint64_t)n);
    assert_int_equal(tc_graph_builder_add_arc(&b, u, v, 1 + (int64_t)tci_rng_below(r, 3), &err), TC_OK);
  }
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* dw's answer agrees with the exact optimum f. */
static void expect_optimum(const tc_a2a_result *r, tc_rat f, const char *what) {
  if (r->exact) {
    if (tc_rat_cmp(r->f_exact, f) != 0)
      fail_msg("%s: dw exact %lld/%lld, LP %lld/%lld", what, (long long)r->f_exact.num, (long long)r->f_exact.den,
               (long long)f.num, (long long)f.den);
    return;
  }
  if (tc_rat_cmp(r->lower_exact, f) > 0 || tc_rat_cmp(r->upper_exact, f) < 0 || !(r->gap < 1e-6))
    fail_msg("%s: dw [%.12g, %.12g] gap %g, LP %lld/%lld", what, r->lower_bound, r->upper_bound, r->gap,
             (long long)f.num, (long long)f.den);
}

static void test_random_against_lp(void **state) {
  (void)state;
  tc_rng rng;
  tci_rng_seed(&rng, 99);
  int exact = 0;
  for (int trial = 0; trial < 30; trial++) {
    int n = 3 + (int)tci_rng_below(&rng, 5);
    tc_graph *g = random_graph(&rng, n);
    tc_a2a_result lp = solve(g, TC_A2A_LP, 1, 0);
    assert_true(lp.exact);
    char what[64];
    for (int sym = 0; sym < 2; sym++) {
      tc_a2a_result r = solve(g, TC_A2A_DW, sym, 0);
      snprintf(what, sizeof what, "trial %d (n %d, symmetry %d)", trial, n, sym);
      expect_optimum(&r, lp.f_exact, what);
      exact += r.exact;
      tc_a2a_result_destroy(&r);
    }
    tc_a2a_result_destroy(&lp);
    tc_graph_destroy(g);
  }
  assert_true(exact >= 50); /* nearly all of the 60 solves come out exact */
}

/* Symmetric and full solves of vertex-transitive and symmetric graphs give one value: the
   symmetric one exact, the full one exact and equal or bracketing it within 1e-6. */
static void test_symmetric_equals_full(void **state) {
  (void)state;
  const char *specs[] = {"torus(3,4)", "genkautz(3,12)", "kautz(2,3)", "circulant(10,1,3)"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_a2a_result full = solve(g, TC_A2A_DW, 0, 0), sym = solve(g, TC_A2A_DW, 1, 0);
    assert_int_equal(full.group, 1);
    assert_true(sym.group > 1);
    if (!sym.exact) fail_msg("%s: symmetric solve not exact (%.12g, %.12g)", specs[i], sym.lower_bound, sym.upper_bound);
    expect_optimum(&full, sym.f_exact, specs[i]);
    tc_a2a_result_destroy(&full);
    tc_a2a_result_destroy(&sym);
    tc_graph_destroy(g);
  }
}

typedef struct seen {
  int64_t rounds;
  double last_gap;
} seen;

/* The round report (a2a.h): "dw: round R, f in [lower, upper], gap G, C columns", done R. */
static void record(void *ctx, const char *phase, double done, double total) {
  seen *s = ctx;
  long long round = 0, columns = 0;
  double lower = 0, upper = 0, gap = 0;
  if (sscanf(phase, "dw: round %lld, f in [%lf, %lf], gap %lf, %lld columns", &round, &lower, &upper, &gap,
             &columns) != 5)
    fail_msg("round report '%s'", phase);
  assert_int_equal(round, s->rounds + 1);
  assert_true(done == (double)round && total == 0);
  assert_true(lower <= upper * (1 + 1e-8)); /* printed to 9 digits */
  assert_true(columns >= 1); /* progress reports its columns */
  s->rounds = round;
  s->last_gap = gap;
}

static void test_early_stop_and_progress(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("genkautz(3,16)"); /* F* = 1/12 (test_a2a.c, paper 003's table) */
  const tc_rat f = {1, 12};
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.method = TC_A2A_DW, o.gap = 0.5, o.symmetry = 0;
  seen s = {0, 0};
  o.progress = record, o.progress_ctx = &s;
  tc_a2a_result r;
  tc_error err;
  assert_int_equal(tc_a2a_solve(g, &o, &r, &err), TC_OK);
  assert_true(s.rounds >= 1 && s.rounds == r.rounds);
  assert_true(s.last_gap <= 0.5);
  /* the certificate brackets the optimum, whatever the gap */
  assert_true(tc_rat_cmp(r.lower_exact, f) <= 0);
  assert_true(tc_rat_cmp(r.upper_exact, f) >= 0);
  tc_a2a_result_destroy(&r);
  tc_graph_destroy(g);
}

/* Above 1024 rows only the first-order phase runs: torus(16,16) without symmetry has 256 +
   1024 rows; F* = 1/512 (the distance bound, tight on the torus). */
static void test_first_order_alone(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(16,16)");
  const tc_rat f = {1, 512};
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.method = TC_A2A_DW, o.gap = 1e-2, o.symmetry = 0;
  seen s = {0, 0};
  o.progress = record, o.progress_ctx = &s;
  tc_a2a_result r;
  tc_error err;
  assert_int_equal(tc_a2a_solve(g, &o, &r, &err), TC_OK);
  assert_int_equal(r.lp_rows, 1280);
  assert_int_equal(r.group, 1);
  assert_false(r.stopped);
  assert_true(s.rounds >= 2 && s.rounds == r.rounds);
  assert_true(r.gap <= 1e-2 && s.last_gap <= 1e-2);
  assert_true(tc_rat_cmp(r.lower_exact, f) <= 0);
  assert_true(tc_rat_cmp(r.upper_exact, f) >= 0);
  tc_a2a_result_destroy(&r);
  tc_graph_destroy(g);
}

/* From 400 to 1024 rows the phase hands over to the master at gap 1e-2, which then
   closes the gap: C(40,{1..5}) without symmetry (40 + 400 rows) against the solve on its
   regular group, both to 1e-6 and each certified interval meeting the other. */
static void test_first_order_then_master(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("circulant(40,1,2,3,4,5)");
  tc_a2a_result full = solve(g, TC_A2A_DW, 0, 0), sym = solve(g, TC_A2A_DW, 1, 0);
  assert_int_equal(full.lp_rows, 440);
  assert_int_equal(sym.group, 40);
  assert_true(full.gap < 1e-6 && sym.gap < 1e-6);
  assert_true(full.rounds > 1 && full.lp_cols > 1);
  if (tc_rat_cmp(full.lower_exact, sym.upper_exact) > 0 || tc_rat_cmp(sym.lower_exact, full.upper_exact) > 0)
    fail_msg("full [%.12g, %.12g], symmetric [%.12g, %.12g]", full.lower_bound, full.upper_bound, sym.lower_bound,
             sym.upper_bound);
  tc_a2a_result_destroy(&full);
  tc_a2a_result_destroy(&sym);
  tc_graph_destroy(g);
}

static void test_refusals(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("hypercube(3)");
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.method = TC_A2A_DW, o.host_cap.num = 4, o.host_cap.den = 1;
  tc_a2a_result r;
  tc_error err;
  assert_int_equal(tc_a2a_solve(g, &o, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the dw method takes no host cap (use --method lp for --host-cap)");
  assert_null(r.source_flow);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_groups),
      cmocka_unit_test(test_exact_values),
      cmocka_unit_test(test_random_against_lp),
      cmocka_unit_test(test_symmetric_equals_full),
      cmocka_unit_test(test_early_stop_and_progress),
      cmocka_unit_test(test_first_order_alone),
      cmocka_unit_test(test_first_order_then_master),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
