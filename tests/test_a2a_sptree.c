/*
** test_a2a_sptree.c — shortest-path trees under real lengths (a2a/sptree.h) against brute
** force on random small multigraphs (parallel arcs, loops, switches, zero lengths, ties):
**   - dist equals Floyd–Warshall's exact integer distances (lengths 0..3) and INFINITY
**     exactly where no path exists; every tree arc is tight (dist[v] = dist[u] + len) and
**     the settle order is nondecreasing with parents first;
**   - loads equal the arc counts of walking every compute sink's tree path to the root;
**     arcs above switches only are left out;
**   - cost equals Σ dist over compute sinks (INFINITY when one is unreached);
**   - the threading threshold: a round of 1600 trees on torus(40,40) is parallel, one of 64
**     trees on genkautz(4,64) is not, and the torus's trees under unit lengths cost the
**     hop-distance sum 32000 from every source;
**   - a hand example: the 4-cycle with one long arc, exact tree, loads and cost.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "a2a/sptree.h"
#include "core/rng.h"
#include "tc_test.h"

/* A random multigraph of n nodes with ~3n arcs (some loops and parallel arcs), nodes with
   id % 5 == 4 switches when `switches`. */
static tc_graph *random_graph(tc_rng *r, int n, int switches) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  int m = 3 * n;
  for (int i = 0; i < m; i++) {
    int u = (int)tci_rng_below(r, (uint64_t)n), v = (int)tci_rng_below(r, (uint64_t)n);
    assert_int_equal(tc_graph_builder_add_arc(&b, u, v, 1 + (int)tci_rng_below(r, 2), &err), TC_OK);
  }
  if (switches)
    for (int u = 4; u < n; u += 5) assert_int_equal(tc_graph_builder_set_kind(&b, u, TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* Floyd–Warshall over lengths (INFINITY: no path). */
static double *floyd(const tc_graph *g, const double *len) {
  int n = g->n;
  double *d = malloc((size_t)n * n * sizeof *d);
  assert_non_null(d);
  for (int i = 0; i < n * n; i++) d[i] = INFINITY;
  for (int u = 0; u < n; u++) d[u * n + u] = 0;
  for (int64_t a = 0; a < g->m; a++) {
    double *x = &d[g->src[a] * n + g->dst[a]];
    if (len[a] < *x) *x = len[a];
  }
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (d[i * n + k] + d[k * n + j] < d[i * n + j]) d[i * n + j] = d[i * n + k] + d[k * n + j];
  return d;
}

static void check_tree(const tc_graph *g, const double *len, const double *fw, tci_sptree *t, int32_t root) {
  int n = g->n;
  tci_sptree_build(t, g, len, root);
  int reached = 0;
  double cost = 0;
  for (int v = 0; v < n; v++) {
    assert_true(t->dist[v] == fw[root * n + v]);
    if (v != root && g->kind[v] == TC_NODE_COMPUTE) cost += t->dist[v]; /* INFINITY when unreached */
    if (isinf(t->dist[v])) {
      assert_int_equal(t->parent[v], -1);
      continue;
    }
    reached++;
    if (v == root) {
      assert_int_equal(t->parent[v], -1);
    } else {
      int64_t a = t->parent[v];
      assert_int_equal(g->dst[a], v);
      assert_true(t->dist[v] == t->dist[g->src[a]] + len[a]);
    }
  }
  assert_int_equal(t->reached, reached);
  assert_int_equal(t->order[0], root);
  int *pos = calloc((size_t)n, sizeof *pos);
  for (int i = 0; i < t->reached; i++) {
    pos[t->order[i]] = i;
    if (i) assert_true(t->dist[t->order[i - 1]] <= t->dist[t->order[i]]);
  }
  for (int i = 1; i < t->reached; i++) {
    int v = t->order[i];
    assert_true(pos[g->src[t->parent[v]]] < i);
  }
  /* loads against walking every compute sink up to the root */
  int64_t *brute = calloc((size_t)g->m, sizeof *brute);
  for (int v = 0; v < n; v++) {
    if (v == root || isinf(t->dist[v]) || g->kind[v] != TC_NODE_COMPUTE) continue;
    for (int x = v; x != root; x = g->src[t->parent[x]]) brute[t->parent[x]]++;
  }
  int32_t *arc = malloc((size_t)n * sizeof *arc), *load = malloc((size_t)n * sizeof *load);
  int32_t k = tci_sptree_loads(t, g, arc, load);
  int64_t listed = 0;
  for (int32_t i = 0; i < k; i++) {
    assert_true(load[i] >= 1);
    assert_int_equal(load[i], brute[arc[i]]);
    brute[arc[i]] = -1; /* each arc listed once */
  }
  for (int64_t a = 0; a < g->m; a++) listed += brute[a] > 0;
  assert_int_equal(listed, 0);
  assert_true(tci_sptree_cost(t, g) == cost);
  free(arc);
  free(load);
  free(brute);
  free(pos);
}

static void test_random_against_floyd(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 2024);
  for (int trial = 0; trial < 60; trial++) {
    int n = 2 + (int)tci_rng_below(&r, 13);
    tc_graph *g = random_graph(&r, n, trial % 3 == 0);
    double *len = malloc((size_t)g->m * sizeof *len);
    for (int64_t a = 0; a < g->m; a++) len[a] = (double)tci_rng_below(&r, 4); /* zeros and ties */
    double *fw = floyd(g, len);
    tci_sptree t;
    tc_error err;
    assert_int_equal(tci_sptree_init(&t, n, &err), TC_OK);
    for (int s = 0; s < n; s++) check_tree(g, len, fw, &t, s);
    tci_sptree_destroy(&t);
    free(fw);
    free(len);
    tc_graph_destroy(g);
  }
}

/* The 4-cycle 0->1->2->3->0 plus a chord 0->2 of length 5: from 0 the ring path to 2 (length
   2) wins; loads 3, 2, 1 on 0->1, 1->2, 2->3; cost 1 + 2 + 3 = 6. */
static void test_hand_example(void **state) {
  (void)state;
  static const int arcs[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}};
  tc_graph *g = tc_test_from_arcs(4, arcs, 5);
  double len[5];
  for (int64_t a = 0; a < g->m; a++) len[a] = g->src[a] == 0 && g->dst[a] == 2 ? 5 : 1;
  tci_sptree t;
  tc_error err;
  assert_int_equal(tci_sptree_init(&t, 4, &err), TC_OK);
  tci_sptree_build(&t, g, len, 0);
  int32_t arc[3], load[3];
  assert_int_equal(tci_sptree_loads(&t, g, arc, load), 3);
  assert_int_equal(arc[0], tc_test_arc_id(g, 0, 1));
  assert_int_equal(load[0], 3);
  assert_int_equal(arc[1], tc_test_arc_id(g, 1, 2));
  assert_int_equal(load[1], 2);
  assert_int_equal(arc[2], tc_test_arc_id(g, 2, 3));
  assert_int_equal(load[2], 1);
  assert_true(tci_sptree_cost(&t, g) == 6.0);
  tci_sptree_destroy(&t);
  tc_graph_destroy(g);
}

/* The threshold of tci_sptree_parallel, and trees on the torus: by symmetry and unit lengths
   every source's sum is the hop-distance sum, 2·40·(2·(1+..+19) + 20) = 32000. */
static void test_threshold_and_torus(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(40,40)"), *small = tc_test_spec("genkautz(4,64)");
  assert_true(tci_sptree_parallel(g, g->n));
  assert_false(tci_sptree_parallel(small, small->n));
  double *len = malloc((size_t)g->m * sizeof *len);
  for (int64_t a = 0; a < g->m; a++) len[a] = 1;
  tci_sptree t;
  tc_error err;
  assert_int_equal(tci_sptree_init(&t, g->n, &err), TC_OK);
  for (int32_t s = 0; s < g->n; s += 37) {
    tci_sptree_build(&t, g, len, s);
    assert_true(tci_sptree_cost(&t, g) == 32000.0);
  }
  tci_sptree_destroy(&t);
  free(len);
  tc_graph_destroy(small);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_against_floyd),
      cmocka_unit_test(test_hand_example),
      cmocka_unit_test(test_threshold_and_torus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
