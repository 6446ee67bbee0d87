/*
** test_metrics.c — distances and Moore bounds.
**
** Oracles: Floyd–Warshall (tests/tc_test.h) on random multigraphs with loops for the
** bit-parallel all-pairs BFS and the BFS layers; paper 000 Def. 9 (M_{d,k} = Σ_i d^i,
** evaluated by hand) and Table 8 (T_L*, T_L** columns) for the Moore bounds; paper 003
** Theorem 1's closed form Σ_{i<k} i·d^i = (d^{k+1}(k-1) - k·d^k + d)/(d-1)^2 for full trees
** and the greedy level sums S_min(N,d) worked out by hand for the rest.
*/
#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/metrics.h"

static tc_graph *random_graph(tc_rng *r, int n, int m) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++)
    assert_int_equal(tc_graph_builder_add_arc(&b, (int64_t)tci_rng_below(r, n), (int64_t)tci_rng_below(r, n), 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* Sizes straddle the 256-source batch so partial batches and several batches are hit. */
static void all_pairs_matches_floyd(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 7);
  const int sizes[] = {1, 2, 5, 17, 64, 255, 256, 257, 300};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int rep = 0; rep < 3; rep++) {
      int n = sizes[s], m = n * (1 + rep) + (int)tci_rng_below(&r, 4);
      tc_graph *g = random_graph(&r, n, m);
      int *d = tc_test_floyd(g);
      int64_t hist[512] = {0}, unreachable = 0, sum = 0, pairs = 0;
      int diam = 0;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          if (i == j) continue;
          int x = d[i * n + j];
          if (x < 0) { unreachable++; continue; }
          hist[x]++;
          sum += x;
          pairs++;
          if (x > diam) diam = x;
        }
      tc_distance_stats st;
      tc_error err;
      assert_int_equal(tc_graph_distance_stats(g, &st, &err), TC_OK);
      assert_int_equal(st.diameter, diam);
      assert_int_equal(st.unreachable, unreachable);
      assert_int_equal(st.strongly_connected, unreachable == 0);
      assert_int_equal(st.pairs, pairs);
      assert_int_equal(st.distance_sum, sum);
      for (int t = 0; t <= diam; t++) assert_int_equal(st.histogram[t], hist[t]);
      int32_t dm;
      assert_int_equal(tc_graph_diameter(g, &dm, &err), TC_OK);
      assert_int_equal(dm, unreachable ? -1 : diam);
      /* single-source BFS and layers in both directions agree with the matrix */
      int32_t *dist = malloc((size_t)n * sizeof *dist);
      for (int u = 0; u < n; u += 1 + n / 7) {
        assert_int_equal(tc_graph_bfs(g, u, TC_OUT, dist, &err), TC_OK);
        for (int v = 0; v < n; v++) assert_int_equal(dist[v], d[u * n + v]);
        assert_int_equal(tc_graph_bfs(g, u, TC_IN, dist, &err), TC_OK);
        for (int v = 0; v < n; v++) assert_int_equal(dist[v], d[v * n + u]);
        tc_layers L;
        assert_int_equal(tc_graph_layers(g, u, TC_IN, &L, &err), TC_OK);
        assert_int_equal(L.order[0], u);
        for (int t = 0; t <= L.depth; t++)
          for (int64_t i = L.layer_off[t]; i < L.layer_off[t + 1]; i++) assert_int_equal(d[L.order[i] * n + u], t);
        int reached = 0;
        for (int v = 0; v < n; v++) reached += d[v * n + u] >= 0;
        assert_int_equal(L.reached, reached);
        tc_layers_destroy(&L);
      }
      free(dist);
      free(d);
      tc_distance_stats_destroy(&st);
      tc_graph_destroy(g);
    }
}

static void bfs_rejects_bad_node(void **state) {
  (void)state;
  const int arcs[][2] = {{0, 1}, {1, 0}};
  tc_graph *g = tc_test_from_arcs(2, arcs, 2);
  int32_t dist[2];
  tc_error err;
  assert_int_equal(tc_graph_bfs(g, 2, TC_OUT, dist, &err), TC_EINPUT);
  assert_int_equal(tc_graph_bfs(g, -1, TC_OUT, dist, &err), TC_EINPUT);
  tc_graph_destroy(g);
}

/* Paper 000 Def. 9 (App. C.1), M_{d,k} = Σ_{i<=k} d^i by hand: M_{2,k}, M_{3,k}, M_{4,k}. */
static void moore_bound_values(void **state) {
  (void)state;
  const int64_t m2[] = {1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047};
  const int64_t m3[] = {1, 4, 13, 40, 121, 364, 1093};
  const int64_t m4[] = {1, 5, 21, 85, 341, 1365, 5461};
  for (int k = 0; k < 11; k++) assert_int_equal(tc_moore_directed(2, k), m2[k]);
  for (int k = 0; k < 7; k++) assert_int_equal(tc_moore_directed(3, k), m3[k]);
  for (int k = 0; k < 7; k++) assert_int_equal(tc_moore_directed(4, k), m4[k]);
  /* d = 4 undirected, 1 + 4 Σ_{i<k} 3^i (paper 002 Eq. 2.1; Table 8's T_L** column):
     5, 17, 53, 161, 485, 1457 for k = 1..6 */
  const int64_t u4[] = {1, 5, 17, 53, 161, 485, 1457};
  for (int k = 0; k < 7; k++) assert_int_equal(tc_moore_undirected(4, k), u4[k]);
  /* paper 002 Eq. 2.1: d = 2 gives 2k+1 */
  for (int k = 0; k < 20; k++) assert_int_equal(tc_moore_undirected(2, k), 2 * k + 1);
  assert_int_equal(tc_moore_directed(1, 9), 10);
  assert_int_equal(tc_moore_directed(1000, 10), INT64_MAX); /* saturates */
  assert_int_equal(tc_moore_undirected(1000, 10), INT64_MAX);
}

/* T_L* thresholds for d = 4 (paper 000 Def. 10) and Table 8's T_L*, T_L** columns. */
static void moore_diameters(void **state) {
  (void)state;
  for (int n = 2; n <= 5461; n++) {
    int want = n <= 5 ? 1 : n <= 21 ? 2 : n <= 85 ? 3 : n <= 341 ? 4 : n <= 1365 ? 5 : 6;
    assert_int_equal(tc_moore_diameter_directed(n, 4), want);
  }
  const struct { int n, star, star2; } table8[] = {
      {6, 2, 2},   {9, 2, 2},   {10, 2, 2},  {14, 2, 2},  {15, 2, 2},  {16, 2, 2},  {21, 2, 3},  {26, 3, 3},
      {32, 3, 3},  {35, 3, 3},  {45, 3, 3},  {70, 3, 4},  {80, 3, 4},  {189, 4, 5}, {728, 5, 6},
  };
  for (size_t i = 0; i < sizeof table8 / sizeof table8[0]; i++) {
    assert_int_equal(tc_moore_diameter_directed(table8[i].n, 4), table8[i].star);
    assert_int_equal(tc_moore_diameter_undirected(table8[i].n, 4), table8[i].star2);
  }
  assert_int_equal(tc_moore_diameter_directed(1, 3), 0);
  assert_int_equal(tc_moore_diameter_directed(1000000, 1), 999999); /* ring: N-1 */
  assert_int_equal(tc_moore_diameter_undirected(1000001, 2), 500000); /* 2k+1 >= N */
  assert_int_equal(tc_moore_diameter_directed(5, 0), -1);
  assert_int_equal(tc_moore_diameter_undirected(3, 1), -1); /* a matching never reaches 3 nodes */
}

/* S_min(N,d): levels of d, d^2, ... filled greedily, e.g. (27,6): 6 at distance 1, the other
   20 at distance 2, 6 + 40 = 46; (1000,4): 4 + 2·16 + 3·64 + 4·256 + 5·659 = 4547. */
static void moore_depth_sums(void **state) {
  (void)state;
  const struct { int64_t n, d, s; } table[] = {
      {8, 3, 11},   {8, 4, 10},    {16, 4, 26},   {21, 4, 36},     {27, 6, 46},
      {64, 4, 165}, {100, 4, 288}, {256, 4, 912}, {1000, 4, 4547},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    assert_int_equal(tc_moore_depth_sum(table[i].n, table[i].d), table[i].s);
  /* full k-layer trees: N = (d^k - 1)/(d - 1) nodes, the closed form of Theorem 1 */
  for (int64_t d = 2; d <= 6; d++)
    for (int64_t k = 1, dk = d; k <= 6; k++, dk *= d) {
      int64_t n = (dk - 1) / (d - 1), closed = (dk * d * (k - 1) - k * dk + d) / ((d - 1) * (d - 1));
      assert_int_equal(tc_moore_depth_sum(n, d), closed);
    }
  assert_int_equal(tc_moore_depth_sum(1, 4), 0);
  assert_int_equal(tc_moore_depth_sum(5, 1), 10); /* a path: 1 + 2 + 3 + 4 */
  assert_int_equal(tc_moore_depth_sum(2, 0), -1);
  assert_int_equal(tc_moore_depth_sum(INT64_MAX, 1), INT64_MAX); /* saturates */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(moore_depth_sums),
      cmocka_unit_test(all_pairs_matches_floyd),
      cmocka_unit_test(bfs_rejects_bad_node),
      cmocka_unit_test(moore_bound_values),
      cmocka_unit_test(moore_diameters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
