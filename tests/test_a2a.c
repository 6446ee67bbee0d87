/*
** test_a2a.c — all-to-all as a certified maximum concurrent MCF (a2a.h, src/a2a/).
**
** What is checked:
**   - the exact values of paper 003 and its §6 table, every one certified exact (lower bound
**     == upper bound as rationals) and reproduced by the per-commodity flows of the child
**     LPs: Q3 1/4, K4,4 2/5, the 3x3x3 torus 1/9 and, with host cap 4, 2/27, and
**     genkautz(4,32) 4/85 (exact only through the least-flow master at F = upper); GenKautz
**     (N,d) = (8,2) 1/9, (12,2) 3/43, (16,2) 3/77, (8,3) 1/4, (12,3) 5/33, (16,3) 1/12,
**     (10,4) 2/7, (12,4) 2/13, (16,4) 7/53 — our genkautz family keeps its loops and the
**     paper's table drops them: a loop carries nothing, so both give the same F (checked
**     for (12,4) with loops=drop too); both engines on every GenKautz row;
**   - master LP (6)-(9) = full link MCF (1)-(5) on 50 random strongly connected digraphs
**     (seeded; 3-6 nodes, capacities 1-3, loops and parallel arcs), both certified exact, the
**     engines agreeing, the children's flows certifying the same F; one run with the
**     children on a team of 2 threads;
**   - the certifier catches mutations of a correct Q3 flow: one shard more on an arc (load
**     2, lower bound 1/8, the arc named), the flow on 0 -> 1 removed (conservation broken at
**     node 1: named, its surplus subtracted, the bound 0), a commodity emptied (that commodity named, 0);
**   - the upper bound for any lengths: unit lengths give |E|/Σdist (Q3 1/4, torus 1/9), all
**     zero lengths give no bound (one line);
**   - path decomposition keeps only s-to-t paths (a cycle and a stray branch dropped);
**   - refusals, one line each: switch nodes, one node, an unreachable node, a negative host
**     cap, the full MCF above its size.
*/
#include <stdio.h>

#include "tc_test.h"
#include "a2a/a2a_internal.h"
#include "core/rng.h"
#include "topocoll/a2a.h"

static tc_a2a_result solve(const tc_graph *g, tc_a2a_method method, tc_a2a_engine engine, int64_t host) {
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.method = method, o.engine = engine, o.host_cap.num = host, o.host_cap.den = 1;
  tc_a2a_result r;
  tc_error err;
  if (tc_a2a_solve(g, &o, &r, &err)) fail_msg("solve: %s", err.msg);
  return r;
}

static void expect_exact(const char *spec, int64_t host, tc_a2a_engine engine, int64_t p, int64_t q) {
  tc_graph *g = tc_test_spec(spec);
  tc_a2a_result r = solve(g, TC_A2A_LP, engine, host);
  char a[48], b[48];
  tc_rat_format(r.lower_exact, a, sizeof a);
  tc_rat_format(r.upper_exact, b, sizeof b);
  if (!r.exact || r.f_exact.num != p || r.f_exact.den != q)
    fail_msg("%s host %lld %s: lower %s upper %s exact %d, expected %lld/%lld", spec, (long long)host,
             tc_a2a_engine_name(engine), a, b, r.exact, (long long)p, (long long)q);
  assert_non_null(r.commodity_flow);
  assert_int_equal(tc_rat_cmp(r.commodity_lower, r.f_exact), 0);
  assert_true(r.gap == 0);
  tc_a2a_result_destroy(&r);
  tc_graph_destroy(g);
}

static void test_paper_values(void **state) {
  (void)state;
  expect_exact("hypercube(3)", 0, TC_A2A_CLP, 1, 4);
  expect_exact("hypercube(3)", 0, TC_A2A_GLPK, 1, 4);
  expect_exact("bipartite(4)", 0, TC_A2A_CLP, 2, 5);
  expect_exact("bipartite(4)", 0, TC_A2A_GLPK, 2, 5);
  expect_exact("torus(3,3,3)", 0, TC_A2A_GLPK, 1, 9);
  expect_exact("torus(3,3,3)", 4, TC_A2A_CLP, 2, 27);
  expect_exact("torus(3,3,3)", 4, TC_A2A_GLPK, 2, 27);
  /* exact through the least-flow master (the first vertex's fractions are not recovered) */
  expect_exact("genkautz(4,32)", 0, TC_A2A_CLP, 4, 85);
  expect_exact("genkautz(4,32)", 0, TC_A2A_GLPK, 4, 85);
}

static void test_genkautz_table(void **state) {
  (void)state;
  static const struct { const char *spec; int64_t p, q; } rows[] = {
      {"genkautz(2,8)", 1, 9},  {"genkautz(2,12)", 3, 43}, {"genkautz(2,16)", 3, 77}, {"genkautz(3,8)", 1, 4},
      {"genkautz(3,12)", 5, 33}, {"genkautz(3,16)", 1, 12}, {"genkautz(4,10)", 2, 7},  {"genkautz(4,12)", 2, 13},
      {"genkautz(4,16)", 7, 53}, {"genkautz(4,12,loops=drop)", 2, 13},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    for (int e = 0; e < 2; e++) expect_exact(rows[i].spec, 0, (tc_a2a_engine)e, rows[i].p, rows[i].q);
}

/* A random strongly connected digraph: a cycle through all nodes, then extra arcs (loops and
   parallel arcs allowed), capacities 1..3. */
static tc_graph *random_graph(tc_rng *rng) {
  int n = 3 + (int)tci_rng_below(rng, 4);
  tc_graph_builder b;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int u = 0; u < n; u++)
    assert_int_equal(tc_graph_builder_add_arc(&b, u, (u + 1) % n, 1 + (int64_t)tci_rng_below(rng, 3), &err), TC_OK);
  int extra = (int)tci_rng_below(rng, (uint64_t)(2 * n));
  for (int k = 0; k < extra; k++)
    assert_int_equal(tc_graph_builder_add_arc(&b, (int64_t)tci_rng_below(rng, (uint64_t)n),
                                              (int64_t)tci_rng_below(rng, (uint64_t)n), 1 + (int64_t)tci_rng_below(rng, 3),
                                              &err),
                     TC_OK);
  tc_graph *g;
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

static void test_master_equals_full(void **state) {
  (void)state;
  tc_rng rng;
  tci_rng_seed(&rng, 2024);
  for (int i = 0; i < 50; i++) {
    tc_graph *g = random_graph(&rng);
    int64_t host = i % 5 == 4 ? 2 : 0;
    tc_a2a_result full = solve(g, TC_A2A_FULL, TC_A2A_GLPK, host);
    tc_a2a_result clp = solve(g, TC_A2A_LP, TC_A2A_CLP, host);
    tc_a2a_result glpk = solve(g, TC_A2A_LP, TC_A2A_GLPK, host);
    char a[48], b[48], c[48];
    tc_rat_format(full.upper_exact, a, sizeof a);
    tc_rat_format(clp.lower_exact, b, sizeof b);
    tc_rat_format(glpk.upper_exact, c, sizeof c);
    if (!full.exact || !clp.exact || !glpk.exact || tc_rat_cmp(full.f_exact, clp.f_exact) ||
        tc_rat_cmp(full.f_exact, glpk.f_exact))
      fail_msg("graph %d (n %d, m %lld, host %lld): full %s (%d), master clp %s (%d), master glpk %s (%d)", i, g->n,
               (long long)g->m, (long long)host, a, full.exact, b, clp.exact, c, glpk.exact);
    assert_int_equal(tc_rat_cmp(clp.commodity_lower, clp.f_exact), 0);
    assert_int_equal(tc_rat_cmp(glpk.commodity_lower, glpk.f_exact), 0);
    assert_int_equal(tc_rat_cmp(full.commodity_lower, full.f_exact), 0);
    tc_a2a_result_destroy(&full);
    tc_a2a_result_destroy(&clp);
    tc_a2a_result_destroy(&glpk);
    tc_graph_destroy(g);
  }
}

static void test_children_threads(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("genkautz(3,16)");
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.threads = 2;
  tc_a2a_result r;
  tc_error err;
  assert_int_equal(tc_a2a_solve(g, &o, &r, &err), TC_OK);
  assert_true(r.exact);
  assert_int_equal(r.f_exact.num, 1);
  assert_int_equal(r.f_exact.den, 12);
  assert_int_equal(tc_rat_cmp(r.commodity_lower, r.f_exact), 0);
  tc_a2a_result_destroy(&r);
  tc_graph_destroy(g);
}

static tci_a2a_lower certify_sources(const tc_graph *g, const int64_t *units, int64_t den) {
  int32_t src[64], dst[64];
  for (int32_t s = 0; s < g->n; s++) src[s] = s, dst[s] = -1;
  tci_a2a_lower lo;
  tc_error err;
  tc_rat none = {0, 1};
  if (tci_a2a_certify_lower(g, none, g->n, src, dst, units, den, &lo, &err)) fail_msg("certify: %s", err.msg);
  return lo;
}

static void test_certifier_mutations(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("hypercube(3)");
  tc_a2a_result r = solve(g, TC_A2A_LP, TC_A2A_CLP, 0);
  const int64_t m = g->m, n = g->n;
  int64_t *x = malloc(sizeof *x * (size_t)(n * m));
  memcpy(x, r.source_flow, sizeof *x * (size_t)(n * m));
  tci_a2a_lower lo = certify_sources(g, x, r.den);
  assert_int_equal(lo.value.num, 1);
  assert_int_equal(lo.value.den, 4);
  assert_int_equal(lo.deficit, 0);
  assert_int_equal(lo.worst_arc, -1);
  /* one shard more from source 0 on its first arc: every arc was saturated, now that one
     carries 2 */
  int64_t a0 = g->out_off[0];
  x[a0] += r.den;
  lo = certify_sources(g, x, r.den);
  assert_int_equal(lo.worst_arc, a0);
  assert_int_equal(lo.load.num, 2);
  assert_int_equal(lo.load.den, 1);
  assert_int_equal(lo.value.num, 1);
  assert_int_equal(lo.value.den, 8);
  assert_int_equal(lo.deficit, 0);
  x[a0] -= r.den;
  /* source 0's flow on 0 -> 1 removed: node 1 now forwards to 3 and 5 what it never got */
  int64_t removed = x[a0];
  assert_int_equal(g->dst[a0], 1);
  x[a0] = 0;
  lo = certify_sources(g, x, r.den);
  assert_int_equal(lo.deficit_flow, 0);
  assert_int_equal(lo.deficit_node, 1);
  assert_true(lo.deficit > 0);
  /* node 1 keeps 1/4 and forwards the rest: its deficit is what 0 -> 1 carried less 1/4,
     subtracted from every sink of source 0, and node 1 itself receives nothing */
  assert_int_equal(lo.delivered.num, 0);
  assert_int_equal(lo.value.num, 0);
  x[a0] = removed;
  /* commodity (0,7) emptied: the per-commodity certificate names it and gives 0 */
  int32_t src[56], dst[56];
  int64_t *c = malloc(sizeof *c * 56 * (size_t)m);
  int k = 0;
  for (int32_t s = 0; s < n; s++)
    for (int32_t t = 0; t < n; t++)
      if (s != t) {
        src[k] = s, dst[k] = t;
        memcpy(c + (int64_t)k * m, r.commodity_flow + ((int64_t)s * n + t) * m, sizeof *c * (size_t)m);
        if (s == 0 && t == 7) memset(c + (int64_t)k * m, 0, sizeof *c * (size_t)m);
        k++;
      }
  tci_a2a_lower cl;
  tc_error err;
  tc_rat none = {0, 1};
  assert_int_equal(tci_a2a_certify_lower(g, none, k, src, dst, c, r.commodity_den, &cl, &err), TC_OK);
  assert_int_equal(cl.short_src, 0);
  assert_int_equal(cl.short_dst, 7);
  assert_int_equal(cl.value.num, 0);
  assert_int_equal(cl.deficit, 0);
  free(c);
  free(x);
  tc_a2a_result_destroy(&r);
  tc_graph_destroy(g);
}

static void test_upper_any_lengths(void **state) {
  (void)state;
  const char *specs[] = {"hypercube(3)", "torus(3,3,3)"};
  const int64_t want_den[] = {4, 9};
  for (int i = 0; i < 2; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    int64_t *len = malloc(sizeof *len * (size_t)g->m);
    for (int64_t a = 0; a < g->m; a++) len[a] = 7;
    tc_rat up, none = {0, 1};
    tc_error err;
    assert_int_equal(tci_a2a_certify_upper(g, none, len, NULL, &up, &err), TC_OK);
    assert_int_equal(up.num, 1);
    assert_int_equal(up.den, want_den[i]);
    for (int64_t a = 0; a < g->m; a++) len[a] = 0;
    assert_int_equal(tci_a2a_certify_upper(g, none, len, NULL, &up, &err), TC_EFAIL);
    assert_string_equal(err.msg, "a2a certify: all distances are 0 under these lengths: no upper bound");
    free(len);
    tc_graph_destroy(g);
  }
}

static void test_decompose(void **state) {
  (void)state;
  static const int arcs[][2] = {{0, 1}, {1, 2}, {2, 1}, {2, 3}, {2, 4}};
  tc_graph *g = tc_test_from_arcs(5, arcs, 5);
  int64_t x[5] = {3, 4, 1, 2, 1};
  assert_int_equal(tci_a2a_decompose(g, 0, 3, x), 2);
  int64_t want[5] = {2, 2, 0, 2, 0};
  for (int a = 0; a < 5; a++) assert_int_equal(x[a], want[a]);
  tc_graph_destroy(g);
}

static void expect_refused(const tc_graph *g, tc_a2a_method method, int64_t host, int code, const char *msg) {
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  o.method = method;
  o.host_cap.num = host;
  tc_a2a_result r;
  tc_error err;
  assert_int_equal(tc_a2a_solve(g, &o, &r, &err), code);
  assert_string_equal(err.msg, msg);
  assert_null(r.source_flow);
  tc_a2a_result_destroy(&r);
}

static void test_refusals(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("fattree(2)");
  expect_refused(g, TC_A2A_LP, 0, TC_EINPUT,
                 "all-to-all needs a graph of compute nodes only: node 2 is a switch (5 switches)");
  tc_graph_destroy(g);
  static const int one[][2] = {{0, 0}};
  g = tc_test_from_arcs(1, one, 1);
  expect_refused(g, TC_A2A_LP, 0, TC_EINPUT, "all-to-all needs at least 2 nodes, the graph has 1");
  tc_graph_destroy(g);
  static const int path[][2] = {{0, 1}, {1, 2}, {2, 1}};
  g = tc_test_from_arcs(3, path, 3);
  expect_refused(g, TC_A2A_LP, 0, TC_EINPUT, "all-to-all needs every node to reach every other: node 1 cannot reach node 0");
  expect_refused(g, TC_A2A_LP, -1, TC_EINPUT, "the host cap must be positive");
  tc_graph_destroy(g);
  g = tc_test_spec("torus(4,4,4)");
  expect_refused(g, TC_A2A_FULL, 0, TC_ERANGE,
                 "the full link MCF takes at most 400000 variables, this graph needs 1548288 (use --method lp)");
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_paper_values),      cmocka_unit_test(test_genkautz_table),
      cmocka_unit_test(test_master_equals_full), cmocka_unit_test(test_children_threads),
      cmocka_unit_test(test_certifier_mutations), cmocka_unit_test(test_upper_any_lengths),
      cmocka_unit_test(test_decompose),         cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
