/*
** test_fit.c — the least-squares fits of fit.h:
**   - tc_fit_line_weighted on data it must reproduce exactly: points on a line with small
**     integer coordinates (every intermediate representable), unweighted and weighted;
**     hand-solved off-line data, y = {0, 2, 1} at x = {0, 1, 2}: a = b = 1/2 unweighted,
**     a = 3/11, b = 7/11 with weights {2, 1, 1};
**   - sizes 1 KB .. 1 GB (doubling) on t = 6 us + 2e-11 s/B * M: a and b back to 1e-12
**     relative with the relative weights 1/t^2;
**   - tc_fit_cost_model: times equal to tc_cost_time give back alpha and 1/B = 1/(d * bw)
**     and max_rel_err exactly 0; times 1 % above the model give both relative errors
**     +1 % and max_rel_err 0.01/1.01; alpha = 0 gives alpha_rel_err NAN;
**   - refusals: fewer than 2 points, one distinct x, negative or NaN weights, zero total
**     weight, a non-positive time, a schedule with no steps or no data.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "topocoll/fit.h"

static void assert_rel(double got, double want, double tol) {
  if (!(fabs(got - want) <= tol * fabs(want))) fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

static void exact_line(void **state) {
  (void)state;
  const double x[] = {1, 2, 3, 4}, y[] = {5, 7, 9, 11}, w[] = {1, 2, 3, 4};
  tc_fit_line f;
  tc_error err;
  assert_int_equal(tc_fit_line_weighted(x, y, NULL, 4, &f, &err), TC_OK);
  assert_true(f.a == 3 && f.b == 2);
  assert_int_equal(tc_fit_line_weighted(x, y, w, 4, &f, &err), TC_OK);
  assert_true(f.a == 3 && f.b == 2);
}

static void hand_solved(void **state) {
  (void)state;
  const double x[] = {0, 1, 2}, y[] = {0, 2, 1}, w[] = {2, 1, 1};
  tc_fit_line f;
  tc_error err;
  assert_int_equal(tc_fit_line_weighted(x, y, NULL, 3, &f, &err), TC_OK);
  assert_true(f.a == 0.5 && f.b == 0.5);
  /* x̄ = ȳ = 3/4, Sxx = 11/4, Sxy = 7/4: b = 7/11, a = 3/4 (1 - 7/11) = 3/11 */
  assert_int_equal(tc_fit_line_weighted(x, y, w, 3, &f, &err), TC_OK);
  assert_rel(f.b, 7.0 / 11, 1e-15);
  assert_rel(f.a, 3.0 / 11, 1e-15);
}

static void nine_decades(void **state) {
  (void)state;
  double x[21], y[21], w[21];
  for (int i = 0; i < 21; i++) {
    x[i] = 1e3 * (double)(1 << i); /* 1 KB .. 1.05 GB */
    y[i] = 6e-6 + 2e-11 * x[i];
    w[i] = 1 / (y[i] * y[i]);
  }
  tc_fit_line f;
  tc_error err;
  assert_int_equal(tc_fit_line_weighted(x, y, w, 21, &f, &err), TC_OK);
  assert_rel(f.a, 6e-6, 1e-12);
  assert_rel(f.b, 2e-11, 1e-12);
}

/* torus(3,3) BFB allreduce: 4 steps, tau 16/9, degree 4. */
static tc_cost torus_cost(void) {
  tc_cost c;
  memset(&c, 0, sizeof c);
  c.steps = 4;
  c.degree = 4;
  c.tau = (tc_rat){16, 9};
  c.tau_optimal = (tc_rat){16, 9};
  c.moore_steps = 4;
  return c;
}

static void cost_model_exact(void **state) {
  (void)state;
  tc_cost c = torus_cost();
  const double alpha = 1e-6, bw = 12.5e9;
  double m[8], t[8];
  for (int i = 0; i < 8; i++) {
    m[i] = 1000.0 * (1 << (2 * i));
    t[i] = tc_cost_time(&c, alpha, bw, m[i]);
  }
  tc_cost_fit f;
  tc_error err;
  assert_int_equal(tc_fit_cost_model(&c, alpha, bw, m, t, 8, &f, &err), TC_OK);
  assert_rel(f.alpha_s, alpha, 1e-12);
  assert_rel(f.inv_bw_s_per_byte, 1 / (4 * bw), 1e-12);
  assert_true(fabs(f.alpha_rel_err) < 1e-12 && fabs(f.inv_bw_rel_err) < 1e-12);
  assert_true(f.max_rel_err == 0);
  assert_rel(f.line.a, 4 * alpha, 1e-12);
  assert_rel(f.line.b, 16.0 / 9 / (4 * bw), 1e-12);
}

static void cost_model_one_percent(void **state) {
  (void)state;
  tc_cost c = torus_cost();
  const double alpha = 1e-6, bw = 12.5e9;
  double m[6], t[6];
  for (int i = 0; i < 6; i++) {
    m[i] = 4096.0 * (1 << (3 * i));
    t[i] = 1.01 * tc_cost_time(&c, alpha, bw, m[i]);
  }
  tc_cost_fit f;
  tc_error err;
  assert_int_equal(tc_fit_cost_model(&c, alpha, bw, m, t, 6, &f, &err), TC_OK);
  assert_rel(f.alpha_rel_err, 0.01, 1e-9);
  assert_rel(f.inv_bw_rel_err, 0.01, 1e-9);
  assert_rel(f.max_rel_err, 0.01 / 1.01, 1e-12);
  /* no latency configured: no relative error of alpha */
  for (int i = 0; i < 6; i++) t[i] = tc_cost_time(&c, 0, bw, m[i]);
  assert_int_equal(tc_fit_cost_model(&c, 0, bw, m, t, 6, &f, &err), TC_OK);
  assert_true(isnan(f.alpha_rel_err));
  assert_true(fabs(f.alpha_s) < 1e-18);
}

static void refusals(void **state) {
  (void)state;
  tc_fit_line f;
  tc_cost_fit cf;
  tc_error err;
  const double x[] = {1, 1, 2}, y[] = {1, 2, 3}, neg[] = {1, -1, 1}, nan_w[] = {1, NAN, 1}, zero[] = {0, 0, 0};
  assert_int_equal(tc_fit_line_weighted(x, y, NULL, 1, &f, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "at least 2 points"));
  assert_int_equal(tc_fit_line_weighted(x, y, NULL, 2, &f, &err), TC_EINPUT); /* x = {1, 1} */
  assert_non_null(strstr(err.msg, "two distinct x"));
  assert_int_equal(tc_fit_line_weighted(x, y, neg, 3, &f, &err), TC_EINPUT);
  assert_int_equal(tc_fit_line_weighted(x, y, nan_w, 3, &f, &err), TC_EINPUT);
  assert_int_equal(tc_fit_line_weighted(x, y, zero, 3, &f, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "weight 0"));
  const double w_x_only[] = {1, 1, 0}; /* positive weight on x = 1 alone */
  assert_int_equal(tc_fit_line_weighted(x, y, w_x_only, 3, &f, &err), TC_EINPUT);

  tc_cost c = torus_cost();
  const double m[] = {1000, 2000}, t[] = {1e-6, 0}, good[] = {5e-6, 6e-6};
  assert_int_equal(tc_fit_cost_model(&c, 1e-6, 1e9, m, t, 2, &cf, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "not a positive number"));
  assert_int_equal(tc_fit_cost_model(&c, 1e-6, 1e9, m, good, 1, &cf, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "at least 2 points"));
  assert_int_equal(tc_fit_cost_model(&c, 1e-6, 0, m, good, 2, &cf, &err), TC_EINPUT);
  c.steps = 0;
  assert_int_equal(tc_fit_cost_model(&c, 1e-6, 1e9, m, good, 2, &cf, &err), TC_EINPUT);
  c = torus_cost();
  c.tau = (tc_rat){0, 1};
  assert_int_equal(tc_fit_cost_model(&c, 1e-6, 1e9, m, good, 2, &cf, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "nothing to fit"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exact_line),       cmocka_unit_test(hand_solved),
      cmocka_unit_test(nine_decades),     cmocka_unit_test(cost_model_exact),
      cmocka_unit_test(cost_model_one_percent), cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
