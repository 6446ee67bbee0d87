/*
** test_netcost.c — network sizes and the 2dfc price model (netcost.h; paper 002 §4.4).
**
** Exact: the fits recomputed from Listing 4.1 round to the printed f_el, f_op, f_switch
** (§12 item 10); Fig. 4.16's node counts at about 1000 routers for the families whose
** sizing the text defines (2dfc100/50/25 on 32x32: 16384, 32768, 65536 — the text reads
** 16000, 37000, "over 65000"; Slim Fly q = 23: 19044, printed "190000"; 3D torus 10^3:
** 1000); Eqs. 4.10-4.13 and 2.13 on hand-computed small cases. Measured and compared with
** Fig. 4.19 (docs/reproduction.md says why they differ): the 2dfc classes at 100000 endpoints
** cost 1.600 and 2.807 times 2dfc25 per endpoint, where the figure reads 1.43 and 2.23;
** Dragonfly, Slim Fly, 3D and 5D torus on our layouts 2.059, 1.493, 8.690 and 10.111 (the
** figure: 2.31, 1.81, 12.15, 14.21).
**
** Every family's price on its layout (netcost.h) is checked against a brute force that builds
** the network link by link (Dragonfly's global links by the usual round-robin, Slim Fly's
** MMS graph from its generator sets over Z_q, the torus's neighbours), places every router in
** its rack on the grid, and sums f_el or f_op of every cable, f_switch of every router's
** counted ports.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  assert_int_equal(c.racks, 6);
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
  /* the other families on their layouts (the figure: 2.31, 1.81, 12.15, 14.21) */
  const struct {
    tc_net_family f;
    int64_t endpoints, racks;
    double relative;
  } other[] = {
      {TC_NET_DRAGONFLY, 114582, 339, 2.059},
      {TC_NET_SLIMFLY, 104222, 41, 1.493},
      {TC_NET_TORUS3D, 103823, 2209, 8.690},
      {TC_NET_TORUS5D, 100000, 10000, 10.111},
  };
  for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
    tc_net_config o;
    assert_int_equal(tc_net_for_endpoints(other[i].f, 100000, &o, &err), TC_OK);
    assert_int_equal(o.endpoints, other[i].endpoints);
    assert_int_equal(o.racks, other[i].racks);
    assert_near(o.total / (double)o.endpoints / base, other[i].relative, 0.0005, tc_net_family_name(other[i].f));
  }
}

/* ---- brute force: every cable with its racks' coordinates ---- */

#define F_EL(x) (22.76 * (x) + 111.41)
#define F_OP(x) (6.76 * (x) + 624.68)
#define F_SW(x) (414.25 * (x) + 8806.20)

typedef struct tally {
  int racks, width; /* racks on a grid `width` columns wide, row by row */
  int ports[4096];  /* per router */
  double optical, electrical;
} tally;

static void tally_init(tally *t, int racks) {
  memset(t, 0, sizeof *t);
  t->racks = racks;
  while (t->width * t->width < racks) t->width++;
}

/* One cable between routers u and v in racks ru, rv: 1 m electrical inside a rack, else
   optical of the Manhattan distance plus 1 m (or electrical of `fixed` metres if > 0). */
static void cable(tally *t, int u, int v, int ru, int rv, double fixed) {
  t->ports[u]++, t->ports[v]++;
  int dx = abs(ru % t->width - rv % t->width), dy = abs(ru / t->width - rv / t->width);
  if (ru == rv) t->electrical += F_EL(1.0);
  else if (fixed > 0) t->electrical += F_EL(fixed);
  else t->optical += F_OP(dx + dy + 1.0);
}

/* Adds the endpoint cables and switches, compares with the library's configuration. */
static void tally_check(tally *t, int routers, int p, const tc_net_config *c) {
  double switches = 0;
  for (int r = 0; r < routers; r++) {
    t->ports[r] += p;
    t->electrical += p * F_EL(1.0);
    switches += F_SW(t->ports[r]);
    if (t->ports[r] != c->radix) fail_msg("router %d has %d ports, the model %lld", r, t->ports[r], (long long)c->radix);
  }
  assert_int_equal(c->routers, routers);
  assert_int_equal(c->endpoints, (int64_t)routers * p);
  assert_int_equal(c->racks, t->racks);
  assert_near(c->optical, t->optical, 1e-9 * t->optical + 1e-9, "optical");
  assert_near(c->electrical, t->electrical, 1e-9 * t->electrical, "electrical");
  assert_near(c->switches, switches, 1e-9 * switches, "switches");
  assert_near(c->total, t->optical + t->electrical + switches, 1e-9 * c->total, "total");
}

/* 2dfc m2 x m1: router (i, j) in rack i m1 + j of an m2 x m1 grid (width m1). */
static void brute_2dfc(int m2, int m1, int T) {
  tally t;
  tally_init(&t, m2 * m1);
  t.width = m1;
  for (int u = 0; u < m2 * m1; u++)
    for (int v = u + 1; v < m2 * m1; v++)
      if (u / m1 == v / m1 || u % m1 == v % m1) cable(&t, u, v, u, v, 0);
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_2dfc(m2, m1, T, &c, &err), TC_OK);
  tally_check(&t, m2 * m1, T, &c);
}

/* Balanced Dragonfly p: group G's global link l (router l / h) goes to group G + l + 1 mod g;
   each group one rack. */
static void brute_dragonfly(int p) {
  int a = 2 * p, h = p, g = a * h + 1;
  tally t;
  tally_init(&t, g);
  for (int G = 0; G < g; G++) {
    for (int i = 0; i < a; i++)
      for (int j = i + 1; j < a; j++) cable(&t, G * a + i, G * a + j, G, G, 0);
    for (int l = 0; l < a * h; l++) {
      int H = (G + l + 1) % g, back = ((G - H - 1) % g + g) % g; /* H's link back to G */
      if (G < H) cable(&t, G * a + l / h, H * a + back / h, G, H, 0);
    }
  }
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_dragonfly(p, &c, &err), TC_OK);
  tally_check(&t, a * g, p, &c);
}

/* Slim Fly MMS over Z_q (q prime): routers (s, x, y) numbered s q^2 + x q + y; rack x holds
   (0, x, .) and (1, x, .). X and X' are the MMS generator sets built from a primitive
   element xi of Z_q (given by the caller with how they were derived). */
static void brute_slimfly(int q, const int *X, const int *Xp, int nx, int kprime, int p) {
  int in_x[64] = {0}, in_xp[64] = {0};
  for (int i = 0; i < nx; i++) in_x[X[i]] = in_xp[Xp[i]] = 1;
  tally t;
  tally_init(&t, q);
  int n = 2 * q * q;
  for (int u = 0; u < n; u++)
    for (int v = u + 1; v < n; v++) {
      int su = u / (q * q), xu = u / q % q, yu = u % q, sv = v / (q * q), xv = v / q % q, yv = v % q;
      int adjacent;
      if (su == 0 && sv == 0) adjacent = xu == xv && in_x[((yu - yv) % q + q) % q];
      else if (su == 1 && sv == 1) adjacent = xu == xv && in_xp[((yu - yv) % q + q) % q];
      else adjacent = yu == (xv * xu + yv) % q; /* u = (0, x, y), v = (1, m, c): y = m x + c */
      if (adjacent) cable(&t, u, v, xu, xv, 0);
    }
  for (int r = 0; r < n; r++)
    if (t.ports[r] != kprime) fail_msg("MMS q=%d: router %d has degree %d, not %d", q, r, t.ports[r], kprime);
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_slimfly(q, &c, &err), TC_OK);
  tally_check(&t, n, p, &c);
}

/* Folded k^D torus: rack = coordinates 1..D-1; links between racks electrical of 3 m. */
static void brute_torus(int dims, int k, int p) {
  int n = 1;
  for (int d = 0; d < dims; d++) n *= k;
  tally t;
  tally_init(&t, n / k);
  for (int u = 0; u < n; u++)
    for (int d = 0, stride = 1; d < dims; d++, stride *= k) {
      int digit = u / stride % k, v = u - digit * stride + (digit + 1) % k * stride;
      cable(&t, u, v, u / k, v / k, 3.0);
    }
  tc_net_config c;
  tc_error err;
  assert_int_equal(tc_net_torus(dims, k, p, &c, &err), TC_OK);
  tally_check(&t, n, p, &c);
}

static void layouts_by_brute_force(void **state) {
  (void)state;
  brute_2dfc(3, 2, 2);
  brute_2dfc(4, 5, 3);
  brute_dragonfly(1); /* g = 3: one row of 2 columns and one rack below */
  brute_dragonfly(2); /* g = 9: a full 3 x 3 grid */
  brute_dragonfly(3); /* g = 19: 5 wide, the last row holds 4 */
  brute_dragonfly(4); /* g = 33: 6 wide, the last row holds 3 */
  /* q = 5 = 4 + 1: xi = 2, X = even powers {1, 4}, X' = odd powers {2, 3}; k' = 7, p = 4 */
  brute_slimfly(5, (const int[]){1, 4}, (const int[]){2, 3}, 2, 7, 4);
  /* q = 7 = 8 - 1 (w = 2): xi = 3, X = {1, xi^2} u {xi^3, xi^5} = {1, 2, 6, 5},
     X' = {xi, xi^3} u {xi^4, xi^6} = {3, 6, 4, 1}; k' = 11, p = 6 */
  brute_slimfly(7, (const int[]){1, 2, 6, 5}, (const int[]){3, 6, 4, 1}, 4, 11, 6);
  /* q = 13 = 12 + 1: xi = 2, X = even powers {1, 4, 3, 12, 9, 10}, X' = odd {2, 8, 6, 11, 5, 7} */
  brute_slimfly(13, (const int[]){1, 4, 3, 12, 9, 10}, (const int[]){2, 8, 6, 11, 5, 7}, 6, 19, 10);
  brute_torus(3, 3, 1);
  brute_torus(3, 4, 2);
  brute_torus(5, 3, 1);
  brute_torus(1, 5, 2);
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
      cmocka_unit_test(layouts_by_brute_force), cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
