/*
** test_kautz_p2p.c — multi-path point-to-point on K(d,2) (paper 002 §3.3; kautz.h,
** kautz_common.h). Paper 002's K(d,2) is our kautz(d,1).
**
** Checked for d = 2, 3, 4, 8, 16, every source and destination:
**   - the type counts per source (§3.3.2): d^2 - 1 of type 1, one of type 2, d - 1 of type 3;
**   - the paths: d of them for types 1 and 2, d - 1 for type 3 (one on K(2,2)), the shortest
**     first (2 hops for type 1, 1 otherwise), the others 3 hops, every hop an arc of the
**     graph, each path from s to t, distinct first hops and pairwise arc-disjoint;
**   - the schedules (kautz-mp, kautz-sp through tc_collective_build, so verified): their
**     measured steps and β coefficients per type (§3.3.2: 3(α + (M/d)β) for types 1 and 2,
**     3(α + M/(d-1)β) for type 3; single path t(α + Mβ)); summed over every destination of a
**     source and divided by d(d+1) they are exactly Eqs. 3.7 and 3.8, and the ratio of the
**     β terms is Eq. 3.9's limit (2d^2+d-2)/(3(d+1)): 526/51 = 10.31 at d = 16.
*/
#include <stdio.h>

#include "synth/kautz_common.h"
#include "tc_test.h"
#include "topocoll/cost.h"
#include "topocoll/kautz.h"

static const int32_t DS[] = {2, 3, 4, 8, 16};
#define NDS 5

static void paths_and_types(void **state) {
  (void)state;
  for (int i = 0; i < NDS; i++) {
    int32_t d = DS[i], n = d * (d + 1);
    char spec[32];
    snprintf(spec, sizeof spec, "kautz(%d,1)", d);
    tc_graph *g = tc_test_spec(spec);
    int32_t(*path)[4] = malloc((size_t)d * sizeof *path);
    int32_t *len = malloc((size_t)d * sizeof *len);
    int64_t *used = malloc((size_t)g->m * sizeof *used); /* arc -> last (pair, path) that used it */
    for (int64_t a = 0; a < g->m; a++) used[a] = -1;
    for (int32_t s = 0; s < n; s++) {
      int32_t types[4] = {0, 0, 0, 0};
      for (int32_t t = 0; t < n; t++) {
        if (t == s) continue;
        int type = tci_kautz2_p2p_type(d, s, t);
        assert_true(type >= 1 && type <= 3);
        types[type]++;
        int32_t p = tci_kautz2_p2p_paths(d, s, t, 1, path, len);
        assert_int_equal(p, type == 3 ? d - 1 : d);
        assert_int_equal(len[0], type == 1 ? 2 : 1);
        assert_int_equal(tci_kautz2_p2p_paths(d, s, t, 0, path, len), 1);
        p = tci_kautz2_p2p_paths(d, s, t, 1, path, len);
        int64_t pair = (int64_t)s * n + t;
        for (int32_t j = 0; j < p; j++) {
          if (j) assert_int_equal(len[j], 3);
          assert_int_equal(path[j][0], s);
          assert_int_equal(path[j][len[j]], t);
          for (int32_t h = 0; h < len[j]; h++) {
            int32_t u = path[j][h], v = path[j][h + 1];
            assert_int_equal(tc_graph_arc_multiplicity(g, u, v), 1);
            int32_t vx, vy;
            tci_kautz2_letters(d, v, &vx, &vy);
            int64_t a = tci_kautz2_arc(g, d, u, vy);
            assert_int_equal(g->dst[a], v);
            /* arc-disjoint within the pair: no earlier path of this pair used a */
            if (used[a] >= pair * d) fail_msg("K(%d,2) %d -> %d: paths %lld and %d share arc %lld", d, s, t,
                                              (long long)(used[a] - pair * d), j, (long long)a);
            used[a] = pair * d + j;
          }
        }
      }
      assert_int_equal(types[1], d * d - 1);
      assert_int_equal(types[2], 1);
      assert_int_equal(types[3], d - 1);
    }
    free(path);
    free(len);
    free(used);
    tc_graph_destroy(g);
  }
}

static tc_rat rat(int64_t num, int64_t den) {
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_make(num, den, &r, &err), TC_OK);
  return r;
}
static tc_rat add(tc_rat a, tc_rat b) {
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_add(a, b, &r, &err), TC_OK);
  return r;
}
static void assert_rat(tc_rat got, tc_rat want, const char *what) {
  char g[64], w[64];
  tc_rat_format(got, g, sizeof g);
  tc_rat_format(want, w, sizeof w);
  if (tc_rat_cmp(got, want)) fail_msg("%s: %s, expected %s", what, g, w);
}

/* The verified, costed p2p s -> t by algo; steps into *steps, the β coefficient (T_B in
   units of Mβ: tau / d, the buffer being one shard) returned. */
static tc_rat p2p_cost(const tc_graph *g, const char *algo, int32_t s, int32_t t, int32_t d, int32_t *steps) {
  tc_schedule sc;
  tc_cost c;
  tc_error err;
  tc_collective_opts o = {.root = s, .dst = t};
  if (tc_collective_build(g, algo, TC_COLL_P2P, &o, &sc, &c, &err)) fail_msg("%s %d -> %d: %s", algo, s, t, err.msg);
  tc_rat coef;
  assert_int_equal(tc_rat_mul(c.tau, rat(1, d), &coef, &err), TC_OK);
  *steps = c.steps;
  tc_schedule_destroy(&sc);
  tc_cost_destroy(&c);
  return coef;
}

static void p2p_costs(void **state) {
  (void)state;
  const int32_t ds[] = {2, 3, 4, 8, 16};
  for (int i = 0; i < 5; i++) {
    int32_t d = ds[i], n = d * (d + 1);
    char spec[32], what[96];
    snprintf(spec, sizeof spec, "kautz(%d,1)", d);
    tc_graph *g = tc_test_spec(spec);
    for (int32_t s = 0; s < n; s += (d <= 4 ? 1 : n / 3)) { /* every source on the small graphs */
      tc_rat sp_a = rat(0, 1), sp_b = rat(0, 1), mp_a = rat(0, 1), mp_b = rat(0, 1);
      for (int32_t t = 0; t < n; t++) {
        if (t == s) continue;
        int type = tci_kautz2_p2p_type(d, s, t);
        int32_t steps;
        snprintf(what, sizeof what, "K(%d,2) %d -> %d type %d", d, s, t, type);
        tc_rat b = p2p_cost(g, "kautz-sp", s, t, d, &steps);
        int32_t hops = type == 1 ? 2 : 1;
        assert_int_equal(steps, hops);
        assert_rat(b, rat(hops, 1), what);
        sp_a = add(sp_a, rat(steps, 1));
        sp_b = add(sp_b, b);
        b = p2p_cost(g, "kautz-mp", s, t, d, &steps);
        if (type == 3 && d == 2) { /* no alternative of <= 3 hops: the direct arc alone */
          assert_int_equal(steps, 1);
          assert_rat(b, rat(1, 1), what);
        } else {
          assert_int_equal(steps, 3);
          assert_rat(b, rat(3, type == 3 ? d - 1 : d), what);
        }
        mp_a = add(mp_a, rat(steps, 1));
        mp_b = add(mp_b, b);
      }
      if (d == 2) continue; /* Eq. 3.8 assumes type 3 has its d - 1 paths */
      int64_t nn = n, q = 2 * (int64_t)d * d + d - 2;
      snprintf(what, sizeof what, "K(%d,2) source %d: Eq. 3.7 / 3.8", d, s);
      assert_rat(sp_a, rat(q, 1), what); /* n T_uc^avg: (2d^2+d-2) α + (2d^2+d-2) Mβ */
      assert_rat(sp_b, rat(q, 1), what);
      assert_rat(mp_a, rat(3 * (nn - 1), 1), what); /* n T_uc,mp^avg: 3(n-1) α + 3(n/d) Mβ */
      assert_rat(mp_b, rat(3 * nn, d), what);
      tc_rat limit;
      tc_error err;
      assert_int_equal(tc_rat_div(sp_b, mp_b, &limit, &err), TC_OK);
      assert_rat(limit, rat(q, 3 * (int64_t)(d + 1)), what); /* Eq. 3.9 */
      if (d == 16) {
        assert_rat(limit, rat(526, 51), what);
        char text[16];
        snprintf(text, sizeof text, "%.2f", (double)limit.num / (double)limit.den);
        assert_string_equal(text, "10.31");
      }
    }
    tc_graph_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(paths_and_types),
      cmocka_unit_test(p2p_costs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
