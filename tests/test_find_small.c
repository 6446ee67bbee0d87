/*
** test_find_small.c — the finder misses nothing small (issue #14 §5): at d = 3 and
** N = 7, 8, 12, 16, 20 no member of the frontier is strictly dominated by any directed or
** undirected circulant on N nodes.
**
** Oracle: brute force independent of the finder's search — every 3-subset S of 1..N-1
** with gcd(N, S) = 1 (no symmetry reduction), the graph built by tc_topo_directed_circulant,
** its optimal BFB allgather from tc_bfb_optima (every receiver's LP, not receiver 0 alone),
** steps = D(G) and tau = (d/N) Σ_t max_u U*_{u,t} (bfb.h). A member (s, τ) is strictly
** dominated when some circulant has steps <= s and tau <= τ with one strict. Every frontier
** member is also built and held to its prediction (options.build: tc_candidate_measure).
** At N = 7 the case is pinned: dcirculant(7,1,2,3) (2 steps, 6/7, both bounds) is the
** whole frontier, where uniring(3,7) (6 steps) was chosen before.
*/
#include <omp.h>
#include <stdlib.h>

#include "tc_test.h"
#include "topocoll/bfb.h"
#include "topocoll/find.h"
#include "topocoll/topo.h"

#define D 3

typedef struct point {
  int32_t steps;
  tc_rat tau;
  int64_t offs[D];
} point;

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Optimal BFB (steps, tau) of dcirculant(n, offs) over all receivers. */
static point brute_score(int32_t n, const int64_t *offs) {
  tc_graph *g = NULL;
  tc_rat *U = NULL;
  int32_t diam = 0;
  tc_error err;
  if (tc_topo_directed_circulant(n, offs, D, &g, &err)) fail_msg("dcirculant: %s", err.msg);
  if (tc_bfb_optima(g, &U, &diam, &err)) fail_msg("bfb: %s", err.msg);
  tc_rat sum = {0, 1};
  for (int32_t t = 1; t <= diam; t++) {
    tc_rat best = {0, 1};
    for (int32_t u = 0; u < n; u++)
      if (tc_rat_cmp(U[(int64_t)u * diam + t - 1], best) > 0) best = U[(int64_t)u * diam + t - 1];
    assert_int_equal(tc_rat_add(sum, best, &sum, NULL), TC_OK);
  }
  point p = {.steps = diam};
  assert_int_equal(tc_rat_mul(sum, (tc_rat){D, n}, &p.tau, NULL), TC_OK);
  for (int i = 0; i < D; i++) p.offs[i] = offs[i];
  free(U);
  tc_graph_destroy(g);
  return p;
}

/* Every connected 3-offset circulant on n nodes; returns how many. */
static int32_t all_circulants(int32_t n, point **out) {
  int32_t count = 0, room = 1024;
  point *v = malloc((size_t)room * sizeof *v);
  assert_non_null(v);
  for (int64_t a = 1; a < n; a++)
    for (int64_t b = a + 1; b < n; b++)
      for (int64_t c = b + 1; c < n; c++) {
        if (gcd(gcd(gcd(n, a), b), c) != 1) continue;
        assert_true(count < room);
        int64_t offs[D] = {a, b, c};
        v[count++] = brute_score(n, offs);
      }
  *out = v;
  return count;
}

static void never_dominated(int32_t n) {
  tc_find_options o = {n, D, 0, 1};
  tc_frontier f;
  tc_error err;
  if (tc_find(&o, &f, &err)) fail_msg("find N=%d: %s", (int)n, err.msg);
  point *all = NULL;
  int32_t count = all_circulants(n, &all);
  assert_true(count > 0);
  for (int32_t i = 0; i < f.count; i++) {
    const tc_candidate *c = &f.member[i];
    assert_true(c->built && c->verified);
    for (int32_t j = 0; j < count; j++) {
      int tau = tc_rat_cmp(all[j].tau, c->tau);
      int dominated = all[j].steps <= c->steps && tau <= 0 && (all[j].steps < c->steps || tau < 0);
      if (dominated)
        fail_msg("N=%d: %s (%d steps, %lld/%lld) is beaten by dcirculant(%d,%lld,%lld,%lld) (%d steps, %lld/%lld)",
                 (int)n, c->spec, (int)c->steps, (long long)c->tau.num, (long long)c->tau.den, (int)n,
                 (long long)all[j].offs[0], (long long)all[j].offs[1], (long long)all[j].offs[2], (int)all[j].steps,
                 (long long)all[j].tau.num, (long long)all[j].tau.den);
    }
  }
  free(all);
  tc_frontier_destroy(&f);
}

static void n7_is_the_directed_circulant(void **state) {
  (void)state;
  tc_find_options o = {7, D, 0, 1};
  tc_frontier f;
  tc_error err;
  assert_int_equal(tc_find(&o, &f, &err), TC_OK);
  assert_int_equal(f.count, 1);
  assert_string_equal(f.member[0].spec, "dcirculant(7,1,2,3)");
  assert_int_equal(f.member[0].steps, 2);
  assert_int_equal(f.member[0].tau.num, 6);
  assert_int_equal(f.member[0].tau.den, 7);
  assert_int_equal(f.member[0].measured_steps, 2);
  /* both lower bounds: nothing on 7 nodes of degree 3 can do better */
  assert_int_equal(f.bound_steps, 2);
  assert_int_equal(tc_rat_cmp(f.bound_tau, f.member[0].tau), 0);
  /* and the brute force agrees on its point */
  int64_t offs[D] = {1, 2, 3};
  point p = brute_score(7, offs);
  assert_int_equal(p.steps, 2);
  assert_int_equal(tc_rat_cmp(p.tau, (tc_rat){6, 7}), 0);
  tc_frontier_destroy(&f);
}

static void n7(void **state) { (void)state; never_dominated(7); }
static void n8(void **state) { (void)state; never_dominated(8); }
static void n12(void **state) { (void)state; never_dominated(12); }
static void n16(void **state) { (void)state; never_dominated(16); }
static void n20(void **state) { (void)state; never_dominated(20); }

int main(void) {
  /* Thousands of 20-node BFB runs: one thread each, or OpenMP's start-up dominates. */
  omp_set_num_threads(1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(n7_is_the_directed_circulant),
      cmocka_unit_test(n7),
      cmocka_unit_test(n8),
      cmocka_unit_test(n12),
      cmocka_unit_test(n16),
      cmocka_unit_test(n20),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
