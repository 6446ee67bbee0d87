/*
** test_a2a_flows.c — the flow-based all-to-all generators (a2a_flows.h): tsMCF, pMCF,
** MCF-extP and the ILP baselines.
**
** Oracles: paper 003's worked values (our reproduction, docs/alltoall.md): the tsMCF optimum
** Σ_t U_t = 4 on Q3 (per-step loads 7/3, 4/3, 1/3) and 9 on the 3x3x3 torus (26/6, 20/6,
** 8/6), both equal to 1/F of the link MCF; the lower bound Σ_t U_t >= 1/F (a tsMCF schedule
** is a routing at rate 1/Σ U_t); the cost model's tau = (d/N)·Σ_t step_load for an alltoall
** (cost.h: a shard is M/N bytes and T_B = (M/B)·tau) measured on the verified schedule;
** pMCF over disjoint paths reaching the MCF optimum F on Q3, K4,4 and the torus; extracted
** rates non-increasing and summing to F; the single-path optimum of K4,4 (max load 3, the
** average 80/32 = 2.5 rounded up) against the MCF's 2/5.
*/
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/a2a_flows.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

static int rat_is(tc_rat r, int64_t num, int64_t den) { return r.num == num && r.den == den; }

static void expect_rat(const char *what, tc_rat r, int64_t num, int64_t den) {
  if (!rat_is(r, num, den))
    fail_msg("%s: %lld/%lld, expected %lld/%lld", what, (long long)r.num, (long long)r.den, (long long)num,
             (long long)den);
}

/* The exact MCF value of g (certified). */
static tc_rat mcf_value(const tc_graph *g) {
  tc_a2a_result r;
  tc_error err;
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.children = 0;
  if (tc_a2a_solve(g, &o, &r, &err)) fail_msg("a2a: %s", err.msg);
  assert_true(r.exact);
  tc_rat f = r.f_exact;
  tc_a2a_result_destroy(&r);
  return f;
}

/* tsMCF on spec: verified, per-step loads as given, measured cost = Σ U_t, Σ U_t >= 1/F. */
static void expect_tsmcf(const char *spec, int steps, const tc_rat *U, tc_rat total, int registry) {
  tc_graph *g = tc_test_spec(spec);
  tc_schedule s;
  tc_a2a_tsmcf info;
  tc_cost c;
  tc_error err;
  if (tc_a2a_tsmcf_schedule(g, NULL, &s, &info, &err)) fail_msg("tsmcf %s: %s", spec, err.msg);
  if (tc_schedule_verify(g, &s, &err)) fail_msg("tsmcf %s failed verification: %s", spec, err.msg);
  assert_int_equal(info.steps, steps);
  expect_rat("total", info.total, total.num, total.den);
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, steps);
  assert_int_equal(s.units, info.units);
  tc_rat sum = {0, 1};
  for (int t = 0; t < steps; t++) {
    char what[64];
    snprintf(what, sizeof what, "%s U_%d", spec, t + 1);
    expect_rat(what, info.step_load[t], U[t].num, U[t].den);
    expect_rat(what, c.step_load[t], U[t].num, U[t].den); /* measured on the schedule */
    assert_int_equal(tc_rat_add(sum, c.step_load[t], &sum, &err), TC_OK);
  }
  /* tau = (d / N) · Σ_t step_load */
  tc_rat tau;
  assert_int_equal(tc_rat_mul(sum, (tc_rat){c.degree, g->n}, &tau, &err), TC_OK);
  assert_int_equal(tc_rat_cmp(c.tau, tau), 0);
  /* Σ U_t >= 1/F */
  tc_rat F = mcf_value(g), inv = {F.den, F.num};
  assert_true(tc_rat_cmp(info.total, inv) >= 0);
  /* the registry builds, verifies and costs the same (once: the torus's LP takes a second) */
  if (registry) {
  tc_schedule b;
  tc_cost bc;
  tc_collective_opts opts = {.root = -1};
  assert_int_equal(tc_collective_build(g, "mcf", TC_COLL_ALLTOALL, &opts, &b, &bc, &err), TC_OK);
  assert_int_equal(tc_rat_cmp(bc.tau, tau), 0);
  tc_cost_destroy(&bc);
  tc_schedule_destroy(&b);
  }
  tc_cost_destroy(&c);
  tc_a2a_tsmcf_destroy(&info);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void tsmcf_paper(void **state) {
  (void)state;
  /* Q3: 1/F = 4 = 7/3 + 4/3 + 1/3; tau = (3/8)·4 = 3/2 */
  const tc_rat q3[] = {{7, 3}, {4, 3}, {1, 3}};
  expect_tsmcf("hypercube(3)", 3, q3, (tc_rat){4, 1}, 1);
  /* 3x3x3 torus: 1/F = 9 = 26/6 + 20/6 + 8/6 */
  const tc_rat torus[] = {{13, 3}, {10, 3}, {4, 3}};
  expect_tsmcf("torus(3,3,3)", 3, torus, (tc_rat){9, 1}, 0);
}

/* More steps than the diameter can only help (the same flows fit, one step idle). */
static void tsmcf_more_steps(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("hypercube(3)");
  tc_a2a_flow_options o;
  tc_a2a_flow_options_default(&o);
  o.lmax = 4;
  tc_schedule s;
  tc_a2a_tsmcf info;
  tc_error err;
  assert_int_equal(tc_a2a_tsmcf_schedule(g, &o, &s, &info, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  assert_int_equal(info.steps, 4);
  expect_rat("Q3 with 4 steps", info.total, 4, 1);
  tc_a2a_tsmcf_destroy(&info);
  tc_schedule_destroy(&s);
  o.lmax = 2;
  assert_int_equal(tc_a2a_tsmcf_schedule(g, &o, &s, &info, &err), TC_EINPUT);
  assert_string_equal(err.msg, "mcf: 2 steps are fewer than the diameter 3 (some pair needs 3 hops)");
  assert_int_equal(s.count, 0);
  tc_graph_destroy(g);
}

/* A directed graph where relaying is needed: the unidirectional ring of 4 (load 1 + 2 + 3
   hops = 6 per arc... each arc carries 6 shard-hops over 3 steps). */
static void tsmcf_ring(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,4)");
  tc_schedule s;
  tc_a2a_tsmcf info;
  tc_error err;
  assert_int_equal(tc_a2a_tsmcf_schedule(g, NULL, &s, &info, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  /* each arc must carry 1 + 2 + 3 = 6 shard-hops and a step moves at most U_t per arc; step
     3 only the distance-3 shards (1 per arc), step 2 distances 2, 3 (2 per arc) */
  expect_rat("ring U_1", info.step_load[0], 3, 1);
  expect_rat("ring U_2", info.step_load[1], 2, 1);
  expect_rat("ring U_3", info.step_load[2], 1, 1);
  expect_rat("ring total", info.total, 6, 1);
  tc_a2a_tsmcf_destroy(&info);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void tsmcf_refusals(void **state) {
  (void)state;
  tc_schedule s;
  tc_error err;
  const int one_way[][2] = {{0, 1}, {1, 2}};
  tc_graph *g = tc_test_from_arcs(3, one_way, 2);
  assert_int_equal(tc_a2a_tsmcf_schedule(g, NULL, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "mcf: all-to-all needs every node to reach every other: node 1 cannot reach node 0");
  assert_int_equal(s.count, 0);
  tc_graph_destroy(g);
  const int sw[][3] = {{0, 2, 1}, {2, 0, 1}, {1, 2, 1}, {2, 1, 1}};
  const int switches[] = {2};
  g = tc_test_graph(3, sw, 4, switches, 1);
  assert_int_equal(tc_a2a_tsmcf_schedule(g, NULL, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "mcf: all-to-all needs a graph of compute nodes only: node 2 is a switch (1 switches)");
  tc_graph_destroy(g);
  g = tc_test_spec("hypercube(3)");
  tc_a2a_flow_options o;
  tc_a2a_flow_options_default(&o);
  o.lmax = 5000;
  assert_int_equal(tc_a2a_tsmcf_schedule(g, &o, &s, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "mcf: at most 4096 steps (got 5000)");
  tc_graph_destroy(g);
}


/* The fluid rate of a routing, after checking it lowers to a verified schedule. */
static tc_rat routing_rate(const tc_graph *g, const tc_a2a_routing *r) {
  tc_a2a_load l;
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_a2a_routing_load(g, r, &l, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_lower(g, r, &s, &err), TC_OK);
  if (tc_schedule_verify(g, &s, &err)) fail_msg("%s: %s", r->algorithm, err.msg);
  tc_schedule_destroy(&s);
  tc_rat f = l.rate;
  tc_a2a_load_destroy(&l);
  return f;
}

/* pMCF over disjoint paths reaches the link MCF's F on the paper's testbed graphs and the
   torus (paper 003 §5.3, Fig. 8: pMCF over disjoint paths is near optimal). */
static void pmcf_disjoint(void **state) {
  (void)state;
  const char *specs[] = {"hypercube(3)", "bipartite(4)", "torus(3,3,3)"};
  const int64_t den[] = {4, 5, 9}, num[] = {1, 2, 1};
  for (int i = 0; i < 3; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_a2a_routing r;
    tc_error err;
    if (tc_a2a_route_pmcf(g, NULL, &r, &err)) fail_msg("pmcf %s: %s", specs[i], err.msg);
    expect_rat(specs[i], routing_rate(g, &r), num[i], den[i]);
    tc_a2a_routing_destroy(&r);
    tc_graph_destroy(g);
  }
}

/* Shortest paths only: enough on Q3 (F = 1/4), not on GenKautz(8,3) where the link MCF
   (1/4) needs longer paths; paths of <= 3 hops get there. */
static void pmcf_sets(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("hypercube(3)");
  tc_a2a_flow_options o;
  tc_a2a_flow_options_default(&o);
  tc_a2a_routing r;
  tc_error err;
  o.paths = TC_A2A_PATHS_SHORTEST;
  assert_int_equal(tc_a2a_route_pmcf(g, &o, &r, &err), TC_OK);
  expect_rat("Q3 shortest", routing_rate(g, &r), 1, 4);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  g = tc_test_spec("genkautz(3,8)");
  tc_rat F = mcf_value(g);
  expect_rat("genkautz(3,8) MCF", F, 1, 4);
  assert_int_equal(tc_a2a_route_pmcf(g, &o, &r, &err), TC_OK);
  assert_true(tc_rat_cmp(routing_rate(g, &r), F) < 0);
  tc_a2a_routing_destroy(&r);
  o.paths = TC_A2A_PATHS_LMAX;
  o.lmax = 3;
  assert_int_equal(tc_a2a_route_pmcf(g, &o, &r, &err), TC_OK);
  expect_rat("genkautz(3,8) lmax 3", routing_rate(g, &r), 1, 4);
  tc_a2a_routing_destroy(&r);
  o.lmax = 1;
  assert_int_equal(tc_a2a_route_pmcf(g, &o, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "pmcf: paths of at most 1 hops cannot join every pair (the diameter is 2)");
  tc_graph_destroy(g);
}

/* MCF-extP: per commodity, rates non-increasing and summing to F exactly. */
static void extract_rates(void **state) {
  (void)state;
  const char *specs[] = {"bipartite(4)", "genkautz(3,12)"};
  for (int i = 0; i < 2; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_a2a_result mcf;
    tc_a2a_routing r;
    tc_error err;
    assert_int_equal(tc_a2a_solve(g, NULL, &mcf, &err), TC_OK);
    assert_true(mcf.exact);
    assert_int_equal(tc_a2a_route_extract(g, &mcf, &r, &err), TC_OK);
    for (int64_t k = 0; k < (int64_t)g->n * g->n; k++) {
      if (r.first[k + 1] == r.first[k]) continue;
      int64_t sum = 0, prev = INT64_MAX;
      for (int64_t p = r.first[k]; p < r.first[k + 1]; p++) {
        /* the rate in units of 1/commodity_den: weight × the commodity's total */
        const int64_t *flow = mcf.commodity_flow + k * g->m;
        int64_t in = 0;
        for (int64_t a = 0; a < g->m; a++) in += g->dst[a] == k % g->n ? flow[a] : 0;
        assert_int_equal(in % r.weight[p].den, 0);
        int64_t rate = r.weight[p].num * (in / r.weight[p].den);
        assert_true(rate <= prev);
        prev = rate;
        sum += rate;
      }
      /* Σ rates = F: sum / commodity_den == f_exact */
      assert_int_equal((__int128)sum * mcf.f_exact.den, (__int128)mcf.f_exact.num * mcf.commodity_den);
    }
    expect_rat(specs[i], routing_rate(g, &r), mcf.f_exact.num, mcf.f_exact.den);
    tc_a2a_routing_destroy(&r);
    tc_a2a_result_destroy(&mcf);
    tc_graph_destroy(g);
  }
}

/* K4,4: the best single path per pair has max load 3 (F = 1/3) against the MCF's 2/5; on Q3
   single disjoint paths reach 1/4. */
static void ilp(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(4)");
  tc_a2a_routing r;
  tc_error err;
  int optimal = 0;
  assert_int_equal(tc_a2a_route_ilp(g, TC_A2A_PATHS_DISJOINT, 0, &r, &optimal, &err), TC_OK);
  assert_true(optimal);
  expect_rat("K4,4 ilp-disjoint", routing_rate(g, &r), 1, 3);
  assert_int_equal(r.npaths, 56);
  tc_a2a_routing_destroy(&r);
  assert_int_equal(tc_a2a_route_ilp(g, TC_A2A_PATHS_SHORTEST, 0, &r, &optimal, &err), TC_OK);
  expect_rat("K4,4 ilp-shortest", routing_rate(g, &r), 1, 3);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  g = tc_test_spec("hypercube(3)");
  assert_int_equal(tc_a2a_route_ilp(g, TC_A2A_PATHS_DISJOINT, 0, &r, &optimal, &err), TC_OK);
  assert_true(optimal);
  expect_rat("Q3 ilp-disjoint", routing_rate(g, &r), 1, 4);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  g = tc_test_spec("hypercube(7)");
  assert_int_equal(tc_a2a_route_ilp(g, TC_A2A_PATHS_DISJOINT, 0, &r, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "ilp-disjoint: at most 64 nodes (the graph has 128): the single-path ILP is NP-hard");
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tsmcf_paper),
      cmocka_unit_test(tsmcf_more_steps),
      cmocka_unit_test(tsmcf_ring),
      cmocka_unit_test(tsmcf_refusals),
      cmocka_unit_test(pmcf_disjoint),
      cmocka_unit_test(pmcf_sets),
      cmocka_unit_test(extract_rates),
      cmocka_unit_test(ilp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
