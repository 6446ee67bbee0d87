/*
** test_topo_random.c — the seeded random families: Jellyfish (random d-regular simple
** graph) and Xpander (random lift of K_{d+1}).
**
** What must hold for every seed (jellyfish.c / xpander.c contracts; Singla et al. and
** Valadarsky et al. as used in paper 003 §5.4): exact node and arc counts, d-regular, no
** self-loops, no parallel links, stored as opposite arc pairs, connected; Xpander is
** moreover a lift of K_{d+1} (every node has exactly one neighbour among the copies of each
** other base vertex). The same seed must give byte-identical arc arrays; different seeds
** must give different graphs where the family has many members, and the same graph where
** it has exactly one (K_n, a 1-lift).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/topo.h"

static tc_graph *jellyfish(int64_t n, int64_t d, uint64_t seed) {
  tc_graph *g = NULL;
  tc_error err;
  int rc = tc_topo_jellyfish(n, d, seed, &g, &err);
  if (rc) fail_msg("jellyfish(%lld,%lld,%llu): %s", (long long)n, (long long)d, (unsigned long long)seed, err.msg);
  return g;
}

static tc_graph *xpander(int64_t d, int64_t lift, uint64_t seed) {
  tc_graph *g = NULL;
  tc_error err;
  int rc = tc_topo_xpander(d, lift, seed, &g, &err);
  if (rc) fail_msg("xpander(%lld,%lld,%llu): %s", (long long)d, (long long)lift, (unsigned long long)seed, err.msg);
  return g;
}

/* Simple, d-regular, bidirectional, connected, unit capacities. */
static void assert_simple_regular_connected(const tc_graph *g, int64_t n, int64_t d) {
  assert_int_equal(g->n, n);
  assert_int_equal(g->m, n * d);
  assert_int_equal(tc_graph_out_regular(g), d);
  assert_int_equal(tc_graph_in_regular(g), d);
  assert_int_equal(tc_graph_count_self_loops(g), 0);
  assert_int_equal(tc_graph_count_multi_arcs(g), 0);
  assert_true(g->bidirectional);
  assert_true(tc_graph_unit_capacity(g));
  assert_true(tc_graph_is_strongly_connected(g));
}

static int same_arcs(const tc_graph *a, const tc_graph *b) {
  return a->n == b->n && a->m == b->m && memcmp(a->src, b->src, (size_t)a->m * sizeof *a->src) == 0 &&
         memcmp(a->dst, b->dst, (size_t)a->m * sizeof *a->dst) == 0;
}

/* Covers every regime of jellyfish.c: complete (d = n-1), dense complement (2d >= n),
   the d = 2 cycle, the sparse pairing-and-switch path, and a half-dense sparse case
   (n = 64, d = 31) where switches are hardest to find. */
static void jellyfish_is_simple_regular_connected(void **state) {
  (void)state;
  const int64_t cases[][2] = {{2, 1},  {3, 2},   {4, 2},    {4, 3},   {5, 4},    {6, 2},   {7, 2},  {10, 3},
                              {10, 5}, {9, 6},   {12, 4},   {16, 3},  {64, 31},  {100, 3}, {101, 4}, {500, 7},
                              {200, 20}, {1000, 2}, {3000, 5}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (uint64_t seed = 1; seed <= 5; seed++) {
      tc_graph *g = jellyfish(cases[i][0], cases[i][1], seed);
      assert_simple_regular_connected(g, cases[i][0], cases[i][1]);
      tc_graph_destroy(g);
    }
}

/* d = n-1 leaves no choice: K_n for every seed. */
static void jellyfish_complete_when_forced(void **state) {
  (void)state;
  for (int64_t n = 2; n <= 9; n++)
    for (uint64_t seed = 0; seed < 4; seed++) {
      tc_graph *g = jellyfish(n, n - 1, seed);
      for (int32_t u = 0; u < n; u++)
        for (int32_t v = 0; v < n; v++) assert_int_equal(tc_graph_arc_multiplicity(g, u, v), u != v);
      tc_graph_destroy(g);
    }
}

/* Same seed -> identical arc arrays (one case per regime); different seeds -> different
   graphs on 1000 nodes (there are astronomically many 4-regular graphs on 1000 labelled
   nodes, and the outcome for these fixed seeds is deterministic). */
static void jellyfish_seed_determinism(void **state) {
  (void)state;
  const int64_t cases[][2] = {{1000, 4}, {1000, 2}, {20, 15}, {64, 31}};
  for (int i = 0; i < 4; i++) {
    tc_graph *a = jellyfish(cases[i][0], cases[i][1], 42), *b = jellyfish(cases[i][0], cases[i][1], 42);
    tc_graph *c = jellyfish(cases[i][0], cases[i][1], 43);
    assert_true(same_arcs(a, b));
    assert_false(same_arcs(a, c));
    tc_graph_destroy(a);
    tc_graph_destroy(b);
    tc_graph_destroy(c);
  }
}

/* Node (v,i) = v*lift + i: no link inside a base vertex's copies, and exactly one link
   from each node to the copies of every other base vertex (a lift of K_{d+1}). */
static void assert_lift_of_complete(const tc_graph *g, int64_t d, int64_t lift) {
  int64_t *seen = calloc((size_t)(d + 1), sizeof *seen);
  for (int32_t u = 0; u < g->n; u++) {
    memset(seen, 0, (size_t)(d + 1) * sizeof *seen);
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) seen[g->dst[a] / lift]++;
    for (int64_t v = 0; v <= d; v++) assert_int_equal(seen[v], v == u / lift ? 0 : 1);
  }
  free(seen);
}

static void xpander_is_connected_lift(void **state) {
  (void)state;
  const int64_t cases[][2] = {{1, 1}, {2, 1}, {2, 2}, {2, 7}, {2, 1000}, {3, 1}, {3, 2},
                              {3, 50}, {4, 100}, {5, 30}, {7, 16}, {10, 3}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (uint64_t seed = 1; seed <= 5; seed++) {
      int64_t d = cases[i][0], lift = cases[i][1];
      tc_graph *g = xpander(d, lift, seed);
      assert_simple_regular_connected(g, (d + 1) * lift, d);
      assert_lift_of_complete(g, d, lift);
      tc_graph_destroy(g);
    }
  /* A 1-lift is K_{d+1} itself. */
  tc_graph *g = xpander(6, 1, 9);
  for (int32_t u = 0; u < 7; u++)
    for (int32_t v = 0; v < 7; v++) assert_int_equal(tc_graph_arc_multiplicity(g, u, v), u != v);
  tc_graph_destroy(g);
}

static void xpander_seed_determinism(void **state) {
  (void)state;
  const int64_t cases[][2] = {{4, 100}, {2, 500}, {3, 2}};
  for (int i = 0; i < 3; i++) {
    tc_graph *a = xpander(cases[i][0], cases[i][1], 7), *b = xpander(cases[i][0], cases[i][1], 7);
    assert_true(same_arcs(a, b));
    tc_graph_destroy(a);
    tc_graph_destroy(b);
  }
  for (int i = 0; i < 2; i++) { /* many lifts: 8 seeds, 8 distinct graphs */
    tc_graph *g[8];
    for (int s = 0; s < 8; s++) g[s] = xpander(cases[i][0], cases[i][1], (uint64_t)s);
    for (int s = 0; s < 8; s++)
      for (int t = s + 1; t < 8; t++) assert_false(same_arcs(g[s], g[t]));
    for (int s = 0; s < 8; s++) tc_graph_destroy(g[s]);
  }
}

static void expect_error(int rc, tc_graph *g, const tc_error *err, int code, const char *fragment) {
  assert_int_equal(rc, code);
  assert_null(g);
  if (!strstr(err->msg, fragment)) fail_msg("message \"%s\" lacks \"%s\"", err->msg, fragment);
  assert_null(strchr(err->msg, '\n'));
}

static void bad_parameters(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  int rc;
  rc = tc_topo_jellyfish(10, 0, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "jellyfish: d must be >= 1 (got 0)");
  rc = tc_topo_jellyfish(5, 3, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "n*d must be even (got n = 5, d = 3)");
  rc = tc_topo_jellyfish(4, 4, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "d must be < n (got d = 4, n = 4)");
  rc = tc_topo_jellyfish(3, 7, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "d must be < n");
  rc = tc_topo_jellyfish(-2, 1, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "d must be < n");
  rc = tc_topo_jellyfish(6, 1, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "connected only for n = 2");
  rc = tc_topo_jellyfish((int64_t)TC_MAX_NODES + 2, 4, 1, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "node limit");
  assert_true(8000000 <= TC_MAX_NODES && INT64_C(8000000) * 20 > TC_MAX_ARCS);
  rc = tc_topo_jellyfish(8000000, 20, 1, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "arc limit");
  rc = tc_topo_jellyfish(INT64_MAX, INT64_MAX - 1, 1, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "node limit");

  rc = tc_topo_xpander(0, 5, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "xpander: d must be >= 1 (got 0)");
  rc = tc_topo_xpander(4, 0, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "xpander: lift must be >= 1 (got 0)");
  rc = tc_topo_xpander(1, 3, 1, &g, &err);
  expect_error(rc, g, &err, TC_EINPUT, "connected only for lift = 1");
  assert_true(INT64_C(5) * 20000000 > TC_MAX_NODES);
  rc = tc_topo_xpander(4, 20000000, 1, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "node limit");
  rc = tc_topo_xpander(INT64_MAX, INT64_MAX, 1, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "node limit");
  assert_true(INT64_C(101) * 100000 <= TC_MAX_NODES && INT64_C(101) * 100000 * 100 > TC_MAX_ARCS);
  rc = tc_topo_xpander(100, 100000, 1, &g, &err);
  expect_error(rc, g, &err, TC_ERANGE, "arc limit");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(jellyfish_is_simple_regular_connected),
      cmocka_unit_test(jellyfish_complete_when_forced),
      cmocka_unit_test(jellyfish_seed_determinism),
      cmocka_unit_test(xpander_is_connected_lift),
      cmocka_unit_test(xpander_seed_determinism),
      cmocka_unit_test(bad_parameters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
