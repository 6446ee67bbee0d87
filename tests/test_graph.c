/*
** test_graph.c — the graph core: builder invariants, CSR order, bidirectional pairing,
** degrees, transpose, strong connectivity.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "topocoll/graph.h"

static tc_graph *build(int n, const int (*arcs)[2], int m) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++) assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

static void csr_sorted_and_in_lists(void **state) {
  (void)state;
  const int arcs[][2] = {{2, 0}, {0, 2}, {0, 1}, {1, 2}, {0, 1}, {2, 2}};
  tc_graph *g = build(3, arcs, 6);
  assert_int_equal(g->m, 6);
  /* out-arcs of 0 sorted by destination: 1,1,2 */
  assert_int_equal(g->out_off[0], 0);
  assert_int_equal(g->out_off[1], 3);
  assert_int_equal(g->dst[0], 1);
  assert_int_equal(g->dst[1], 1);
  assert_int_equal(g->dst[2], 2);
  assert_int_equal(tc_graph_out_degree(g, 0), 3);
  assert_int_equal(tc_graph_in_degree(g, 2), 3);
  assert_int_equal(tc_graph_count_self_loops(g), 1);
  assert_int_equal(tc_graph_count_multi_arcs(g), 1);
  assert_int_equal(tc_graph_arc_multiplicity(g, 0, 1), 2);
  assert_int_equal(tc_graph_arc_multiplicity(g, 1, 0), 0);
  assert_int_equal(tc_graph_out_regular(g), -1);
  assert_false(g->bidirectional);
  /* in-list of 2 ordered by source: 0, 1, 2 */
  int64_t base = g->in_off[2];
  assert_int_equal(g->src[g->in_arc[base]], 0);
  assert_int_equal(g->src[g->in_arc[base + 1]], 1);
  assert_int_equal(g->src[g->in_arc[base + 2]], 2);
  assert_true(tc_graph_is_strongly_connected(g));
  tc_graph_destroy(g);
}

static void bidirectional_pairing(void **state) {
  (void)state;
  const int arcs[][2] = {{0, 1}, {1, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 2}};
  tc_graph *g = build(3, arcs, 7);
  assert_true(g->bidirectional);
  for (int64_t a = 0; a < g->m; a++) {
    assert_int_equal(g->rev[g->rev[a]], a);
    assert_int_equal(g->src[g->rev[a]], g->dst[a]);
    assert_int_equal(g->dst[g->rev[a]], g->src[a]);
  }
  tc_graph_destroy(g);
  const int uneven[][2] = {{0, 1}, {1, 0}, {0, 1}};
  g = build(2, uneven, 3);
  assert_false(g->bidirectional);
  assert_null(g->rev);
  tc_graph_destroy(g);
}

/* A node of more arcs than the insertion sort takes (graph.c sorts those by qsort), given
   in reverse order with mixed capacities and parallel arcs, and its opposite arcs: the
   order is (dst, cap) and the k-th arc u->v pairs with the k-th arc v->u. The fuzzer found
   that both steps were quadratic in such a node's degree (fuzz/regressions/spec). */
static void high_degree_node_sorted_and_paired(void **state) {
  (void)state;
  enum { LEAVES = 40, CAPS = 3 };
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, LEAVES + 1, &err), TC_OK);
  for (int v = LEAVES; v >= 1; v--)
    for (int c = CAPS; c >= 1; c--) {
      assert_int_equal(tc_graph_builder_add_arc(&b, 0, v, c, &err), TC_OK);
      assert_int_equal(tc_graph_builder_add_arc(&b, v, 0, c, &err), TC_OK);
    }
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  assert_int_equal(tc_graph_out_degree(g, 0), LEAVES * CAPS);
  for (int64_t a = 0; a < LEAVES * CAPS; a++) {
    assert_int_equal(g->src[a], 0);
    assert_int_equal(g->dst[a], 1 + a / CAPS);
    assert_int_equal(g->cap[a], 1 + a % CAPS);
  }
  assert_true(g->bidirectional);
  for (int64_t a = 0; a < LEAVES * CAPS; a++) {
    int64_t r = g->rev[a];
    assert_int_equal(g->src[r], g->dst[a]);
    assert_int_equal(g->dst[r], 0);
    assert_int_equal(g->cap[r], g->cap[a]);
    assert_int_equal(r - g->out_off[g->dst[a]], a % CAPS); /* the k-th with the k-th */
    assert_int_equal(g->rev[r], a);
  }
  tc_graph_destroy(g);
}

static void transpose_reverses_every_arc(void **state) {
  (void)state;
  const int arcs[][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 2}};
  tc_graph *g = build(3, arcs, 4), *t = NULL;
  tc_error err;
  assert_int_equal(tc_graph_transpose(g, &t, &err), TC_OK);
  assert_int_equal(t->m, 4);
  for (int u = 0; u < 3; u++)
    for (int v = 0; v < 3; v++)
      assert_int_equal(tc_graph_arc_multiplicity(g, u, v), tc_graph_arc_multiplicity(t, v, u));
  tc_graph_destroy(g);
  tc_graph_destroy(t);
}

static void connectivity_and_errors(void **state) {
  (void)state;
  const int arcs[][2] = {{0, 1}, {1, 2}};
  tc_graph *g = build(3, arcs, 2);
  assert_false(tc_graph_is_strongly_connected(g));
  tc_graph_destroy(g);
  tc_graph_builder b;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&b, 0, 2, 1, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "outside"));
  assert_int_equal(tc_graph_builder_add_arc(&b, 0, 1, 0, &err), TC_EINPUT);
  tc_graph_builder_destroy(&b);
  assert_int_equal(tc_graph_builder_init(&b, -1, &err), TC_ERANGE);
  assert_int_equal(tc_graph_builder_init(&b, (int64_t)TC_MAX_NODES + 1, &err), TC_ERANGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(csr_sorted_and_in_lists),
      cmocka_unit_test(bidirectional_pairing),
      cmocka_unit_test(high_degree_node_sorted_and_paired),
      cmocka_unit_test(transpose_reverses_every_arc),
      cmocka_unit_test(connectivity_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
