/*
** test_hetero.c — heterogeneous links (paper 000 App. E.3): the per-arc time model of
** cost.h and the LP (14) BFB schedule of bfb_hetero.c.
**
** Oracles: with equal α and bandwidth on every arc, Σ_t max_a (α + bytes/bw) must equal
** the homogeneous model T_L·α + τ·M/B exactly (paper 000 §3.2), and the LP (14) schedule
** must cost what the exact BFB schedule costs (the LPs coincide when links are equal).
** With one slow link, the LP (14) schedule must verify and beat the homogeneous BFB
** schedule run on the same heterogeneous network.
*/
#include <math.h>

#include "tc_test.h"
#include "topocoll/bfb.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

static double *filled(int64_t m, double value) {
  double *v = malloc((size_t)m * sizeof *v);
  for (int64_t a = 0; a < m; a++) v[a] = value;
  return v;
}

static void equal_links_match_the_homogeneous_model(void **state) {
  (void)state;
  const char *specs[] = {"torus(3,3)", "genkautz(2,12)", "hypercube(3)", "line(bipartite(3))"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_schedule s;
    tc_error err;
    assert_int_equal(tc_bfb_allgather(g, &s, NULL, &err), TC_OK);
    tc_cost c;
    assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
    double alpha = 1e-5, bw = 3.125e9, M = 1 << 20;
    double *A = filled(g->m, alpha), *W = filled(g->m, bw), t_hetero;
    assert_int_equal(tc_schedule_time_hetero(g, &s, A, W, M, &t_hetero, &err), TC_OK);
    double t_homog = tc_cost_time(&c, alpha, bw, M);
    if (fabs(t_hetero - t_homog) > 1e-12 * t_homog) fail_msg("%s: %.15g vs %.15g", specs[i], t_hetero, t_homog);
    /* LP (14) with equal links: same steps, same time */
    tc_schedule h;
    assert_int_equal(tc_bfb_allgather_hetero(g, A, W, M / g->n, 720, &h, &err), TC_OK);
    assert_int_equal(tc_schedule_verify(g, &h, &err), TC_OK);
    assert_int_equal(h.steps, s.steps);
    double t_lp;
    assert_int_equal(tc_schedule_time_hetero(g, &h, A, W, M, &t_lp, &err), TC_OK);
    if (fabs(t_lp - t_homog) > 1e-9 * t_homog) fail_msg("%s: LP (14) schedule %.15g vs exact %.15g", specs[i], t_lp, t_homog);
    free(A);
    free(W);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
    tc_schedule_destroy(&h);
    tc_graph_destroy(g);
  }
}

/* One arc of torus(3,3) at a tenth of the bandwidth: LP (14) routes around it. */
static void slow_link_is_avoided(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(3,3)");
  tc_error err;
  double M = 9e6, *A = filled(g->m, 1e-6), *W = filled(g->m, 1e9);
  W[0] = 1e8;
  tc_schedule base, h;
  assert_int_equal(tc_bfb_allgather(g, &base, NULL, &err), TC_OK);
  assert_int_equal(tc_bfb_allgather_hetero(g, A, W, M / g->n, 1000, &h, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &h, &err), TC_OK);
  double t_base, t_h, t_lp;
  assert_int_equal(tc_schedule_time_hetero(g, &base, A, W, M, &t_base, &err), TC_OK);
  assert_int_equal(tc_schedule_time_hetero(g, &h, A, W, M, &t_h, &err), TC_OK);
  assert_int_equal(tc_bfb_hetero_time(g, A, W, M / g->n, &t_lp, &err), TC_OK);
  assert_true(t_h < t_base); /* the homogeneous split pushes 1/2 shard through the slow arc */
  /* rounding to 1000 units moves each arc's load by under (jobs on it)/1000 shard (E.2) */
  if (fabs(t_h - t_lp) > 0.01 * t_lp) fail_msg("rounded %.9g vs LP %.9g", t_h, t_lp);
  tc_schedule_destroy(&h);
  assert_int_equal(tc_bfb_allgather_hetero(g, A, W, M / g->n, 0, &h, &err), TC_EINPUT);
  free(A);
  free(W);
  tc_schedule_destroy(&base);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(equal_links_match_the_homogeneous_model),
      cmocka_unit_test(slow_link_is_avoided),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
