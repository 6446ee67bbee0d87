/*
** test_collective.c — the algorithm registry and tc_collective_build (collective.h): every
** result verified and costed exactly as the theorems say, one allgather behind all three
** collectives of a set, Theorem 2 vs Corollary 1.1 chosen by reverse symmetry, --chunks by
** algorithm kind, the plan's baseline topologies, and every refusal's message.
*/
#include <stdio.h>

#include "tc_test.h"

#include "topocoll/construct.h"
#include "topocoll/verify.h"

/* tc_collective_build of (spec, algo, coll) with chunks P; its steps and tau must be the
   expected ones (tau = num/den). The schedule is returned for further checks. */
static void expect_cost(const char *spec, const char *algo, tc_collective coll, int64_t P, int32_t steps,
                        int64_t num, int64_t den, tc_schedule *out) {
  tc_graph *g = tc_test_spec(spec);
  tc_spec *s = NULL;
  tc_error err;
  assert_int_equal(tc_spec_parse(spec, &s, &err), TC_OK);
  tc_collective_opts opts = {.chunks = P, .spec = s};
  tc_schedule sched;
  tc_cost c;
  if (tc_collective_build(g, algo, coll, &opts, &sched, &c, &err))
    fail_msg("%s %s on %s: %s", algo, tc_collective_name(coll), spec, err.msg);
  if (c.steps != steps || c.tau.num != num || c.tau.den != den)
    fail_msg("%s %s on %s: steps %d tau %lld/%lld, expected %d and %lld/%lld", algo, tc_collective_name(coll), spec,
             c.steps, (long long)c.tau.num, (long long)c.tau.den, steps, (long long)num, (long long)den);
  assert_int_equal(tc_schedule_verify(g, &sched, &err), TC_OK); /* independently again */
  if (out) *out = sched;
  else tc_schedule_destroy(&sched);
  tc_cost_destroy(&c);
  tc_spec_destroy(s);
  tc_graph_destroy(g);
}

/* BFB on K_5: every shard to every neighbour in one step, tau = (N-1)/N; reduce-scatter by
   Theorem 2 costs the same; allreduce adds them (paper 000 §3.2, Table 4). */
static void bfb_on_complete(void **state) {
  (void)state;
  expect_cost("complete(5)", "bfb", TC_COLL_ALLGATHER, 0, 1, 4, 5, NULL);
  expect_cost("complete(5)", "bfb", TC_COLL_REDUCE_SCATTER, 0, 1, 4, 5, NULL);
  expect_cost("complete(5)", "bfb", TC_COLL_ALLREDUCE, 0, 2, 8, 5, NULL);
}

/* expand follows the construction: L(K_3) by Definition 1 has T_L = 1 + 1 and, by Theorem
   10, tau = 2/3 + 1/3 = 1 (the base's tau plus 1/N of the base); Diamond's stored schedule
   is BW-optimal (7/8, paper 000 Table 9) where BFB is not (tau 1); its Cartesian square by
   Theorem 12 has 2·3 steps and tau = 7/8 · 8/7 · 63/64 = 63/64. */
static void expand_follows_the_construction(void **state) {
  (void)state;
  expect_cost("line(complete(3))", "expand", TC_COLL_ALLGATHER, 0, 2, 1, 1, NULL);
  expect_cost("line(complete(3))", "expand", TC_COLL_ALLREDUCE, 0, 4, 2, 1, NULL);
  expect_cost("diamond()", "expand", TC_COLL_ALLGATHER, 0, 3, 7, 8, NULL);
  expect_cost("diamond()", "bfb", TC_COLL_ALLGATHER, 0, 3, 1, 1, NULL);
  expect_cost("power(diamond(),2)", "expand", TC_COLL_ALLGATHER, 0, 6, 63, 64, NULL);
  /* the same schedule tc_schedule_construct gives, transfer for transfer (after sorting) */
  tc_schedule built, direct;
  expect_cost("power(diamond(),2)", "expand", TC_COLL_ALLGATHER, 0, 6, 63, 64, &built);
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_schedule_construct_text("power(diamond(),2)", &g, &direct, &err), TC_OK);
  tc_schedule_sort(&direct);
  assert_int_equal(built.count, direct.count);
  assert_int_equal(built.units, direct.units);
  for (int64_t i = 0; i < built.count; i++)
    assert_memory_equal(&built.xfer[i], &direct.xfer[i], sizeof built.xfer[i]);
  tc_schedule_destroy(&built);
  tc_schedule_destroy(&direct);
  tc_graph_destroy(g);
}

/* A set: one allgather behind all three; Theorem 2 on the reverse-symmetric K(2,2) (it is
   Π_{2,12}), Corollary 1.1 on Π_{2,10}, which is not reverse-symmetric. The allreduce is
   the reduce-scatter then the allgather: steps and tau add. */
static void sets(void **state) {
  (void)state;
  const struct {
    const char *spec;
    int symmetric;
  } cases[] = {{"kautz(2,2)", 1}, {"genkautz(2,10)", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_collective_set set;
    tc_error err;
    if (tc_collective_build_set(g, "bfb", NULL, &set, &err)) fail_msg("%s: %s", cases[i].spec, err.msg);
    assert_int_equal(set.reverse_symmetric, cases[i].symmetric);
    assert_int_equal(set.allgather.coll, TC_COLL_ALLGATHER);
    assert_int_equal(set.reduce_scatter.coll, TC_COLL_REDUCE_SCATTER);
    assert_int_equal(set.allreduce.coll, TC_COLL_ALLREDUCE);
    assert_int_equal(set.allreduce_cost.steps, set.allgather_cost.steps + set.reduce_scatter_cost.steps);
    tc_rat sum;
    assert_int_equal(tc_rat_add(set.allgather_cost.tau, set.reduce_scatter_cost.tau, &sum, &err), TC_OK);
    assert_int_equal(tc_rat_cmp(set.allreduce_cost.tau, sum), 0);
    assert_int_equal(set.allreduce.rs_steps, set.reduce_scatter_cost.steps);
    /* the standalone builds agree with the set */
    tc_schedule s;
    tc_cost c;
    assert_int_equal(tc_collective_build(g, "bfb", TC_COLL_REDUCE_SCATTER, NULL, &s, &c, &err), TC_OK);
    assert_int_equal(c.steps, set.reduce_scatter_cost.steps);
    assert_int_equal(tc_rat_cmp(c.tau, set.reduce_scatter_cost.tau), 0);
    tc_schedule_destroy(&s);
    tc_cost_destroy(&c);
    tc_collective_set_destroy(&set);
    tc_graph_destroy(g);
  }
  /* a direct builder's set: three separate schedules, no theorem to report */
  tc_graph *g = tc_test_spec("uniring(1,6)");
  tc_collective_set set;
  tc_error err;
  assert_int_equal(tc_collective_build_set(g, "ring", NULL, &set, &err), TC_OK);
  assert_int_equal(set.reverse_symmetric, -1);
  assert_int_equal(set.allgather_cost.steps, 5);
  assert_int_equal(set.allreduce_cost.steps, 10);
  tc_collective_set_destroy(&set);
  /* dbt builds no allgather, so it has no set */
  assert_int_equal(tc_collective_build_set(g, "dbt", NULL, &set, &err), TC_EINPUT);
  char list[1024], want[1200];
  snprintf(want, sizeof want, "dbt builds allreduce, broadcast and reduce, not allgather (use --algo %s)",
           tc_test_algos(TC_COLL_ALLGATHER, " or ", list, sizeof list));
  assert_string_equal(err.msg, want);
  tc_graph_destroy(g);
}

/* --chunks: an allgather generator rounds to exactly P chunks per shard (App. E.2) before
   any transform, so all three collectives have units P; a direct builder is refined to P
   when P is a multiple of its own chunking, and refused otherwise; dbt pipelines P. */
static void chunks(void **state) {
  (void)state;
  /* Rounded to P = 4, BFB on K(2,2) (N = 12, d = 2, D = 3) cannot beat the BW bound
     (N-1)/N = 11/12 (Theorem 4) and stays within Theorem 20's d(d^D - 1)/((d - 1) P N) =
     2·7/(4·12) = 7/24 of the fractional schedule's tau. */
  tc_schedule s;
  tc_graph *k22 = tc_test_spec("kautz(2,2)");
  tc_spec *spec = NULL;
  tc_error err;
  tc_cost frac;
  assert_int_equal(tc_collective_build(k22, "bfb", TC_COLL_ALLGATHER, NULL, &s, &frac, &err), TC_OK);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_spec_parse("kautz(2,2)", &spec, &err), TC_OK);
  tc_collective_opts four = {.chunks = 4, .spec = spec};
  tc_collective_set set;
  assert_int_equal(tc_collective_build_set(k22, "bfb", &four, &set, &err), TC_OK);
  assert_int_equal(set.allgather.units, 4);
  assert_int_equal(set.reduce_scatter.units, 4);
  assert_int_equal(set.allreduce.units, 4);
  assert_int_equal(set.allgather_cost.steps, 3);
  tc_rat low = {11, 12}, slack = {7, 24}, high;
  assert_int_equal(tc_rat_add(frac.tau, slack, &high, &err), TC_OK);
  tc_cost_destroy(&frac);
  assert_true(tc_rat_cmp(set.allgather_cost.tau, low) >= 0);
  assert_true(tc_rat_cmp(set.allgather_cost.tau, high) <= 0);
  assert_int_equal(tc_rat_cmp(set.reduce_scatter_cost.tau, set.allgather_cost.tau), 0); /* Theorem 2 */
  tc_collective_set_destroy(&set);
  tc_spec_destroy(spec);
  tc_graph_destroy(k22);
  expect_cost("biring(2,8)", "biring", TC_COLL_ALLGATHER, 6, 7, 7, 8, &s);
  assert_int_equal(s.units, 6);
  tc_schedule_destroy(&s);
  /* DBT allreduce on K_7, K = floor(log2 7) = 2: T_L = 2(K+P-1), tau = d(K+P-1)/P, d = 6 */
  expect_cost("complete(7)", "dbt", TC_COLL_ALLREDUCE, 4, 10, 15, 2, NULL);
  tc_graph *g = tc_test_spec("biring(2,8)");
  tc_collective_opts opts = {.chunks = 3};
  assert_int_equal(tc_collective_build(g, "biring", TC_COLL_ALLGATHER, &opts, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "--chunks 3: the biring schedule on this graph cuts shards into 2 equal chunks, so "
                               "P must be a multiple of 2");
  assert_int_equal(s.count, 0);
  tc_graph_destroy(g);
}

/* Every refusal: unknown algorithm, unsupported collective, a root outside the graph, an
   algorithm that needs the spec, and a spec that is not the graph's. */
static void refusals(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(4)");
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_collective_build(g, "nope", TC_COLL_ALLGATHER, NULL, &s, NULL, &err), TC_EINPUT);
  char list[1024], want[1200];
  snprintf(want, sizeof want, "unknown algorithm 'nope' (%s)", tc_test_algos(-1, ", ", list, sizeof list));
  assert_string_equal(err.msg, want);
  assert_int_equal(tc_collective_build(g, "bfb", TC_COLL_BROADCAST, NULL, &s, NULL, &err), TC_EINPUT);
  snprintf(want, sizeof want, "bfb builds allgather, reduce-scatter and allreduce, not broadcast (use --algo %s)",
           tc_test_algos(TC_COLL_BROADCAST, " or ", list, sizeof list));
  assert_string_equal(err.msg, want);
  tc_collective_opts root9 = {.root = 9};
  assert_int_equal(tc_collective_build(g, "dbt", TC_COLL_BROADCAST, &root9, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "root 9 is not a node (0..3)");
  assert_int_equal(tc_collective_build(g, "expand", TC_COLL_ALLGATHER, NULL, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "expand needs the topology's spec to follow its construction");
  assert_int_equal(tc_collective_build(g, "torus-dor", TC_COLL_ALLGATHER, NULL, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "torus-dor needs SPEC written as torus(l1,...,lk) to know the dimensions");
  tc_spec *other = NULL;
  assert_int_equal(tc_spec_parse("complete(5)", &other, &err), TC_OK);
  tc_collective_opts wrong = {.spec = other};
  assert_int_equal(tc_collective_build(g, "expand", TC_COLL_ALLGATHER, &wrong, &s, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "expand: the graph is not the one complete(5) builds");
  assert_int_equal(s.count, 0);
  tc_spec_destroy(other);
  tc_graph_destroy(g);
}

/* The registry's texts, and the plan's baseline topologies (tc_algorithm_home). */
static void registry_and_homes(void **state) {
  (void)state;
  char buf[128];
  tc_algorithm_collectives_text(TC_COLL_BIT(TC_COLL_BROADCAST), buf, sizeof buf);
  assert_string_equal(buf, "broadcast");
  tc_algorithm_collectives_text(TC_COLL_BIT(TC_COLL_ALLREDUCE) | TC_COLL_BIT(TC_COLL_REDUCE), buf, sizeof buf);
  assert_string_equal(buf, "allreduce and reduce");
  tc_algorithm_names(buf, 16); /* truncated, still terminated */
  assert_string_equal(buf, "bfb, expand, fo");
  assert_string_equal(tc_algorithm_find("dbt")->title, "double binary tree");
  assert_true(tc_algorithm_pipelined(tc_algorithm_find("dbt")));
  assert_false(tc_algorithm_pipelined(tc_algorithm_find("ring")));
  assert_true(tc_algorithm_pipelined(tc_algorithm_find("forestcoll")));

  tc_graph *g = NULL;
  char desc[64];
  tc_error err;
  /* unidirectional cluster: the ring on uniring(d,N); no bidirectional ring */
  assert_int_equal(tc_algorithm_home(tc_algorithm_find("ring"), 16, 4, 0, &g, desc, sizeof desc, &err), TC_OK);
  assert_string_equal(desc, "uniring(4,16)");
  assert_int_equal(g->n, 16);
  assert_int_equal(g->m, 64);
  tc_graph_destroy(g);
  assert_int_equal(tc_algorithm_home(tc_algorithm_find("biring"), 16, 4, 0, &g, desc, sizeof desc, &err),
                   TC_ALGO_NO_HOME);
  assert_int_equal(tc_algorithm_home(tc_algorithm_find("ring"), 16, 4, 1, &g, desc, sizeof desc, &err),
                   TC_ALGO_NO_HOME);
  /* odd d: no bidirectional ring, with the reason */
  assert_int_equal(tc_algorithm_home(tc_algorithm_find("bfbring"), 16, 3, 0, &g, desc, sizeof desc, &err),
                   TC_EINPUT);
  assert_null(g);
  assert_string_equal(err.msg, "a bidirectional ring takes an even number of ports, d/2 links to each neighbour; "
                               "d = 3");
  assert_int_equal(tc_algorithm_home(tc_algorithm_find("dbt"), 16, 4, 0, &g, desc, sizeof desc, &err), TC_OK);
  assert_string_equal(desc, "its own topology (two trees)");
  assert_int_equal(g->n, 16);
  tc_graph_destroy(g);
  assert_int_equal(tc_algorithm_home(tc_algorithm_find("bfb"), 16, 4, 0, &g, desc, sizeof desc, &err),
                   TC_ALGO_NO_HOME);
}

/* The pipeline's progress reports (collective.h, topocoll/progress.h): its steps in order,
   phases without a count; Corollary 1.1 generates the allgather again, on g^T. */
typedef struct report_log {
  int count;
  char line[16][96];
} report_log;

static void record_report(void *ctx, const char *phase, double done, double total) {
  report_log *log = ctx;
  assert_true(done == 0 && total == 0);
  assert_true(log->count < 16);
  snprintf(log->line[log->count++], sizeof log->line[0], "%s", phase);
}

static void progress_reports(void **state) {
  (void)state;
  static const char *const set_want[] = {
      "bfb: generating the allgather", "bfb allgather: verifying", "bfb allgather: costing",
      "bfb: deriving the reduce-scatter (Corollary 1.1)", "bfb: generating the allgather",
      "bfb reduce-scatter: verifying", "bfb reduce-scatter: costing", "bfb: composing the allreduce",
      "bfb allreduce: verifying", "bfb allreduce: costing"};
  static const char *const ar_want[] = {"bfb: generating the allgather", "bfb: deriving the reduce-scatter (Theorem 2)",
                                        "bfb: composing the allreduce", "bfb allreduce: verifying",
                                        "bfb allreduce: costing"};
  tc_error err;
  report_log log = {0};
  tc_collective_opts opts = {.progress = record_report, .progress_ctx = &log};
  tc_graph *g = tc_test_spec("genkautz(2,10)");
  tc_collective_set set;
  if (tc_collective_build_set(g, "bfb", &opts, &set, &err)) fail_msg("set: %s", err.msg);
  assert_int_equal(log.count, 10);
  for (int i = 0; i < 10; i++) assert_string_equal(log.line[i], set_want[i]);
  tc_collective_set_destroy(&set);
  tc_graph_destroy(g);
  g = tc_test_spec("kautz(2,2)");
  log.count = 0;
  tc_schedule s;
  tc_cost c;
  if (tc_collective_build(g, "bfb", TC_COLL_ALLREDUCE, &opts, &s, &c, &err)) fail_msg("allreduce: %s", err.msg);
  assert_int_equal(log.count, 5);
  for (int i = 0; i < 5; i++) assert_string_equal(log.line[i], ar_want[i]);
  /* the same schedule without reports */
  tc_schedule s2;
  tc_cost c2;
  assert_int_equal(tc_collective_build(g, "bfb", TC_COLL_ALLREDUCE, NULL, &s2, &c2, &err), TC_OK);
  assert_int_equal(c2.steps, c.steps);
  assert_int_equal(tc_rat_cmp(c2.tau, c.tau), 0);
  assert_int_equal(s2.count, s.count);
  tc_schedule_destroy(&s);
  tc_schedule_destroy(&s2);
  tc_cost_destroy(&c);
  tc_cost_destroy(&c2);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bfb_on_complete),
      cmocka_unit_test(expand_follows_the_construction),
      cmocka_unit_test(sets),
      cmocka_unit_test(chunks),
      cmocka_unit_test(refusals),
      cmocka_unit_test(registry_and_homes),
      cmocka_unit_test(progress_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
