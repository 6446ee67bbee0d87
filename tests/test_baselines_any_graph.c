/*
** test_baselines_any_graph.c — paper 002's baselines (§2.2.3, Table 4.3) on graphs that are
** not their home: every (algorithm, collective) on complete(7), hyperx(4,4), kautz(2,1),
** torus(4,4) and jellyfish(12,3), built through tc_collective_build (so verified and
** costed), against a table of what each must do:
**   o  build: a verified schedule with at least one step;
**   R  refuse, because a reduction's partial would be relayed through a compute node: the
**      message names two nodes and their distance, which the Floyd–Warshall oracle confirms
**      (more than one hop);
**   T  refuse, because the double binary tree needs an arc for every tree link (it is not
**      routed): the pair named has no arc.
** complete(7) is every baseline's home: all build.
*/
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/collective.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

static const struct {
  const char *algo;
  tc_collective coll;
} cells[] = {
    {"pairwise", TC_COLL_ALLGATHER},       {"pairwise", TC_COLL_ALLTOALL},   {"bruck", TC_COLL_ALLGATHER},
    {"bruck", TC_COLL_ALLTOALL},           {"ring", TC_COLL_ALLGATHER},      {"ring", TC_COLL_REDUCE_SCATTER},
    {"ring", TC_COLL_ALLREDUCE},           {"rhd", TC_COLL_ALLGATHER},       {"rhd", TC_COLL_REDUCE_SCATTER},
    {"rhd", TC_COLL_ALLREDUCE},            {"binomial", TC_COLL_BROADCAST},  {"binomial", TC_COLL_REDUCE},
    {"binomial", TC_COLL_SCATTER},         {"binomial", TC_COLL_GATHER},     {"dbt", TC_COLL_ALLREDUCE},
    {"dbt", TC_COLL_BROADCAST},            {"dbt", TC_COLL_REDUCE},          {"fc-direct", TC_COLL_ALLGATHER},
    {"fc-direct", TC_COLL_REDUCE_SCATTER}, {"fc-direct", TC_COLL_ALLREDUCE}, {"fc-direct", TC_COLL_BROADCAST},
    {"fc-direct", TC_COLL_REDUCE},         {"fc-direct", TC_COLL_ALLTOALL},  {"fc-direct", TC_COLL_SCATTER},
    {"fc-direct", TC_COLL_GATHER},         {"fc-direct", TC_COLL_P2P},
};
#define CELLS ((int)(sizeof cells / sizeof cells[0]))

/* One character per cell, in the order above. */
static const struct {
  const char *spec, *want;
} graphs[] = {
    {"complete(7)", "oooooooooooooooooooooooooo"},
    {"hyperx(4,4)", "oooooooooooRooTTToRRoRoooo"},
    {"kautz(2,1)", "ooooooooRRoRooTTToRRoRoooo"},
    {"torus(4,4)", "ooooooooRRoRooTTToRRoRoooo"},
    {"jellyfish(12,3)", "ooooooooRRoRooTTToRRoRoooo"},
};

static void check_cell(const tc_graph *g, const int *dist, const char *spec, int i, char want) {
  tc_collective_opts o = {.root = 1, .dst = 5};
  tc_schedule s;
  tc_cost c;
  tc_error err;
  int rc = tc_collective_build(g, cells[i].algo, cells[i].coll, &o, &s, &c, &err);
  const char *coll = tc_collective_name(cells[i].coll);
  if (want == 'o') {
    if (rc) fail_msg("%s %s on %s: %s", cells[i].algo, coll, spec, err.msg);
    assert_true(c.steps >= 1);
    assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
    return;
  }
  if (rc != TC_EINPUT) fail_msg("%s %s on %s: expected a refusal (%c), got %d", cells[i].algo, coll, spec, want, rc);
  char prefix[64], tail[256];
  int a = -1, b = -1, round = -1;
  long long hops = -1;
  snprintf(prefix, sizeof prefix, "%s %s: ", cells[i].algo, coll);
  if (want == 'R') {
    snprintf(tail, sizeof tail, "%snode %%d is %%lld hops from node %%d, and a partial cannot be relayed through a "
             "compute node (it would add its own)%%n", prefix);
    int end = 0;
    if (sscanf(err.msg, tail, &a, &hops, &b, &end) != 3 || err.msg[end])
      fail_msg("%s %s on %s: %s", cells[i].algo, coll, spec, err.msg);
    assert_int_equal(dist[b * g->n + a], hops);
    assert_true(hops > 1);
  } else {
    int end = 0, u = -1, v = -1;
    if (sscanf(err.msg, "dbt: needs a link between %d and %d for tree %d (the graph has no arc %d -> %d)%n", &a, &b,
               &round, &u, &v, &end) != 5 || err.msg[end])
      fail_msg("dbt %s on %s: %s", coll, spec, err.msg);
    assert_true((u == a && v == b) || (u == b && v == a));
    assert_int_equal(tc_graph_arc_multiplicity(g, u, v), 0);
  }
  assert_int_equal(s.count, 0);
}

static void every_baseline_everywhere(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof graphs / sizeof graphs[0]; k++) {
    assert_int_equal((int)strlen(graphs[k].want), CELLS);
    tc_graph *g = tc_test_spec(graphs[k].spec);
    int *dist = tc_test_floyd(g);
    for (int i = 0; i < CELLS; i++) check_cell(g, dist, graphs[k].spec, i, graphs[k].want[i]);
    free(dist);
    tc_graph_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_baseline_everywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
