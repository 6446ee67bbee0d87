/*
** test_netcost.c — network sizes and the 2dfc price model (netcost.h; paper 002 §4.4).
**
** Exact: the fits recomputed from Listing 4.1 round to the printed f_el, f_op, f_switch
** (§12 item 10); Fig. 4.16's node counts at about 1000 routers for the families whose
** sizing the text defines (2dfc100/50/25 on 32x32: 16384, 32768, 65536 — the text reads
** 16000, 37000, "over 65000"; Slim Fly q = 23: 19044, printed "190000"; 3D torus 10^3:
** 1000); Eqs. 4.10-4.13 and 2.13 on hand-computed small cases. Measured and compared with
** Fig. 4.19 (docs/multiport.md says why they differ): the 2dfc classes at 100000 endpoints
** cost 1.600 and 2.807 times 2dfc25 per endpoint, where the figure reads 1.43 and 2.23.
*/
#include <math.h>
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/netcost.h"

static void assert_near(double got, double want, double tol, const char *what) {
  if (fabs(got - want) > tol) fail_msg("%s: %.6f, expected %.6f", what, got, want);
}

/* The printed coefficients are the recomputed fits rounded to cents. */
static void fits_reproduce_listing(void **state) {
  (void)state;
  tc_price_line el, op, sw;
  tc_price_fits(&el, &op, &sw);
  assert_near(el.slope, 22.76, 1e-9, "f_el slope");
  assert_near(el.intercept, 111.41, 1e-9, "f_el intercept");
  assert_near(round(op.slope * 100) / 100, 6.76, 1e-9, "f_op slope");
  assert_near(round(op.intercept * 100) / 100, 624.68, 1e-9, "f_op intercept");
  assert_near(round(sw.slope * 100) / 100, 414.25, 1e-9, "f_switch slope");
  assert_near(round(sw.intercept * 100) / 100, 8806.20, 1e-9, "f_switch intercept");
  assert_near(tc_price_electrical(1), 134.17, 1e-9, "f_el(1)");
  assert_near(tc_price_optical(2), 638.20, 1e-9, "f_op(2)");
  assert_near(tc_price_switch(64), 35318.20, 1e-9, "f_switch(64)");
}

/* 3x2 2dfc, T = 2: lines of 2 (one 2 m cable) in 3 rows, lines of 3 (two 2 m, one 3 m) in 2
   columns: 3 f_op(2) + 2 (2 f_op(2) + f_op(3)); 12 endpoint cables f_el(1); 6 switches of
   radix 1 + 2 + 2 = 5; B_B = min(3,2)/(2*2) = 1/2. */
static void twodfc_price(void **state) {
  (void)state;
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_2dfc(3, 2, 2, &c, &err), TC_OK);
  assert_string_equal(c.name, "2dfc 3x2, T=2");
  assert_int_equal(c.routers, 6);
  assert_int_equal(c.endpoints, 12);
  assert_int_equal(c.radix, 5);
  assert_near(c.bisection, 0.5, 0, "B_B");
  assert_true(c.priced);
  double op2 = 6.76 * 2 + 624.68, op3 = 6.76 * 3 + 624.68;
  assert_near(c.optical, 3 * op2 + 2 * (2 * op2 + op3), 1e-6, "optical");
  assert_near(c.electrical, 12 * 134.17, 1e-6, "electrical");
  assert_near(c.switches, 6 * (414.25 * 5 + 8806.20), 1e-6, "switches");
  assert_near(c.total, c.optical + c.electrical + c.switches, 1e-6, "total");
}

/* Fig. 4.16 at 1000 routers (exact values of the sizing formulas). */
static void scalability_at_1000_routers(void **state) {
  (void)state;
  const struct {
    tc_net_family f;
    int64_t routers, endpoints, radix;
    const char *name;
  } want[] = {
      {TC_NET_2DFC100, 1024, 16384, 78, "2dfc 32x32, T=16"},
      {TC_NET_2DFC50, 1024, 32768, 94, "2dfc 32x32, T=32"},
      {TC_NET_2DFC25, 1024, 65536, 126, "2dfc 32x32, T=64"},
      {TC_NET_DRAGONFLY, 876, 5256, 23, "dragonfly p=6 (a=12, h=6, g=73)"},
      {TC_NET_SLIMFLY, 1058, 19044, 53, "slimfly q=23 (k'=35, p=18)"},
      {TC_NET_TORUS3D, 1000, 1000, 7, "torus 10^3, p=1"},
      {TC_NET_TORUS5D, 1024, 1024, 11, "torus 4^5, p=1"},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    tc_net_config c;
    tc_error err;
    assert_int_equal(tc_net_for_routers(want[i].f, 1000, &c, &err), TC_OK);
    assert_string_equal(c.name, want[i].name);
    assert_int_equal(c.routers, want[i].routers);
    assert_int_equal(c.endpoints, want[i].endpoints);
    assert_int_equal(c.radix, want[i].radix);
  }
  /* the balanced Dragonfly's bisection (N + 2p^2 - 1)/(2N) */
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_dragonfly(6, &c, &err), TC_OK);
  assert_near(c.bisection, (5256.0 + 72 - 1) / (2 * 5256.0), 1e-15, "dragonfly bisection");
}

/* Fig. 4.19's 2dfc classes at 100000 endpoints, relative to 2dfc25 per endpoint. */
static void relative_price_at_100000(void **state) {
  (void)state;
  tc_net_config c[3];
  tc_error err;
  const tc_net_family f[3] = {TC_NET_2DFC25, TC_NET_2DFC50, TC_NET_2DFC100};
  const int64_t endpoints[3] = {101306, 103823, 108000};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(tc_net_for_endpoints(f[i], 100000, &c[i], &err), TC_OK);
    assert_int_equal(c[i].endpoints, endpoints[i]);
  }
  double base = c[0].total / (double)c[0].endpoints;
  assert_near(base, 1419.32, 0.005, "2dfc25 per endpoint");
  assert_near(c[1].total / (double)c[1].endpoints / base, 1.600, 0.0005, "2dfc50 / 2dfc25");
  assert_near(c[2].total / (double)c[2].endpoints / base, 2.807, 0.0005, "2dfc100 / 2dfc25");
}

static void refusals(void **state) {
  (void)state;
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_2dfc(1, 4, 2, &c, &err), TC_EINPUT);
  assert_string_equal(err.msg, "2dfc: needs m2, m1 >= 2 and T >= 1 (got 1x4, T=2)");
  assert_int_equal(tc_net_slimfly(6, &c, &err), TC_EINPUT);
  assert_string_equal(err.msg, "slimfly: q must be a prime power 4w + delta, delta in {-1, 0, 1}, q >= 3 (got 6)");
  assert_int_equal(tc_net_slimfly(15, &c, &err), TC_EINPUT);
  assert_int_equal(tc_net_2dfc(INT64_C(1) << 31, INT64_C(1) << 31, 2, &c, &err), TC_ERANGE);
  assert_string_equal(err.msg, "2dfc: more than 2^62 endpoints");
  assert_int_equal(tc_net_for_endpoints(TC_NET_SLIMFLY, 0, &c, &err), TC_EINPUT);
  assert_string_equal(err.msg, "endpoints must be in 1..2^62 (got 0)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fits_reproduce_listing), cmocka_unit_test(twodfc_price),
      cmocka_unit_test(scalability_at_1000_routers), cmocka_unit_test(relative_price_at_100000),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
