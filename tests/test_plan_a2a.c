/*
** test_plan_a2a.c — a plan whose workload has all-to-alls (plan.h: tc_plan.a2a, alltoall,
** tc_plan_alltoall_time; the workload's checks).
**
** Oracles: N = 16, d = 4, M = 1 MiB, α = 10 µs, b = 25 Gbps. The members' certified MCF
** (7/53, 1/8; test_find_a2a.c) make circulant(16,3,4) the choice at weight 1 and
** debruijn(4,2) at weight 4. On circulant(16,3,4) tsMCF's Σ_t U_t equals 1/f = 8, so its
** T_B is (d/N)·8 = 2 M/B in 3 steps; EwSP ties it (3 steps, 2) and SSSP has 4 steps and
** 17/4 — each the cost model's tc_schedule_cost of a verified schedule, checked by hand in
** cli_plan_a2a.sh's summary. The first of equal times (the registry order mcf, ewsp, sssp)
** is kept.
*/
#include <math.h>
#include <string.h>

#include "tc_test.h"
#include "topocoll/plan.h"

#define LINK_BW (25e9 / 8)
#define MIB 1048576.0

static tc_workload workload(double a2a_weight) {
  tc_workload w;
  memset(&w, 0, sizeof w);
  w.count = 1;
  w.bytes[0] = MIB;
  w.weight[0] = 1;
  w.alpha_s = 10e-6;
  w.link_bw = LINK_BW;
  w.a2a_bytes = MIB;
  w.a2a_weight = a2a_weight;
  return w;
}

static void plan16(void **state) {
  (void)state;
  tc_find_options o = {.nodes = 16, .degree = 4};
  tc_workload w = workload(1);
  tc_plan p;
  tc_error err;
  if (tc_plan_make(&o, &w, NULL, NULL, &p, &err)) fail_msg("plan: %s", err.msg);
  assert_string_equal(p.spec, "circulant(16,3,4)");
  assert_int_equal(p.frontier.member[0].a2a, 1); /* every member certified, not only the choice */
  assert_int_equal(p.frontier.member[1].a2a_exact, 1);
  assert_int_equal(p.has_a2a, 1);
  assert_int_equal(p.na2a, 3);
  static const char *names[] = {"mcf", "ewsp", "sssp"};
  static const int32_t steps[] = {3, 3, 4};
  static const int64_t num[] = {2, 2, 17}, den[] = {1, 1, 4};
  for (int i = 0; i < 3; i++) {
    assert_string_equal(p.a2a[i].name, names[i]);
    assert_int_equal(p.a2a[i].available, 1);
    assert_int_equal(p.a2a[i].steps, steps[i]);
    assert_true(p.a2a[i].tau.num == num[i] && p.a2a[i].tau.den == den[i]);
    assert_int_equal(p.a2a[i].degree, 4);
  }
  assert_int_equal(p.a2a_chosen, 0);
  assert_int_equal(p.alltoall.coll, TC_COLL_ALLTOALL);
  assert_int_equal(p.alltoall_cost.steps, 3);
  assert_true(p.alltoall_cost.tau.num == 2 && p.alltoall_cost.tau.den == 1);
  assert_int_equal(p.has_a2a_routing, 0);
  /* 3α + 2·M/(4b) */
  assert_true(fabs(tc_plan_alltoall_time(&p, MIB) - (30e-6 + 2 * MIB / (4 * LINK_BW))) <= 1e-15);
  tc_plan_destroy(&p);
  assert_true(tc_plan_alltoall_time(&p, MIB) == -1);
}

static void weight_turns_choice(void **state) {
  (void)state;
  tc_find_options o = {.nodes = 16, .degree = 4};
  tc_workload w = workload(4);
  w.a2a_time_limit = 30;
  tc_plan p;
  tc_error err;
  if (tc_plan_make(&o, &w, NULL, NULL, &p, &err)) fail_msg("plan: %s", err.msg);
  assert_string_equal(p.spec, "debruijn(4,2)");
  assert_int_equal(p.has_a2a, 1);
  tc_plan_destroy(&p);
}

static void workload_refusals(void **state) {
  (void)state;
  tc_find_options o = {.nodes = 16, .degree = 4};
  tc_plan p;
  tc_error err;
  tc_workload w = workload(0);
  assert_int_equal(tc_plan_make(&o, &w, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "all-to-alls of 1048576 bytes need a positive weight");
  w = workload(1);
  w.a2a_time_limit = -1;
  assert_int_equal(tc_plan_make(&o, &w, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the all-to-all size, weight and time limit must be finite and >= 0");
  w = workload(1);
  w.a2a_bytes = INFINITY;
  assert_int_equal(tc_plan_make(&o, &w, NULL, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the all-to-all size, weight and time limit must be finite and >= 0");
  assert_int_equal(p.has_a2a, 0); /* left empty */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(plan16),
      cmocka_unit_test(weight_turns_choice),
      cmocka_unit_test(workload_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
