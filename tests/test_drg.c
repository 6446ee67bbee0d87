/*
** test_drg.c — the distance-regular graphs of paper 000 Table 8 (App. F.3).
**
** For every row: N, 4-regular, bidirectional, simple, unit capacity, diameter == T_L,
** and distance-regularity checked by an independent BFS-based checker written here (for
** every ordered pair (x,y) at distance h, the numbers c_h, a_h, b_h of neighbours of y at
** distance h-1, h, h+1 from x must depend on h only), with the resulting intersection
** array compared to the standard one (Brouwer–Cohen–Neumaier, "Distance-Regular Graphs";
** the values follow from the constructions: e.g. an incidence graph of a generalized
** n-gon of order (s,t) has c_i = 1 below the diameter). The T_L* and T_L** columns of
** Table 8 are checked through tc_moore_diameter_directed / _undirected. The checker
** itself is exercised on a known positive (C(10,{1,3}) = K_{5,5} - I) and a known
** negative (C(12,{1,2})).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/graph.h"
#include "topocoll/metrics.h"
#include "topocoll/topo.h"

#define MAX_DIAM 8

/* One row of Table 8 plus the graph's intersection array {b_0..b_{D-1}; c_1..c_D}. */
typedef struct drg_row {
  const char *name;
  int n, tl, tl_dir, tl_undir; /* N, T_L, T_L*, T_L** (Table 8) */
  int b[MAX_DIAM], c[MAX_DIAM + 1]; /* c[0] unused */
} drg_row;

static const drg_row table8[] = {
    {"octahedron", 6, 2, 2, 2, {4, 1}, {0, 1, 4}},
    {"paley9", 9, 2, 2, 2, {4, 2}, {0, 1, 2}},
    {"k55-i", 10, 3, 2, 2, {4, 3, 1}, {0, 1, 3, 4}},
    {"heawood-dist3", 14, 3, 2, 2, {4, 3, 2}, {0, 1, 2, 4}},
    {"petersen-line", 15, 3, 2, 2, {4, 2, 1}, {0, 1, 1, 4}},
    {"q4", 16, 4, 2, 2, {4, 3, 2, 1}, {0, 1, 2, 3, 4}},
    {"heawood-line", 21, 3, 2, 3, {4, 2, 2}, {0, 1, 1, 2}},
    {"pg23", 26, 3, 3, 3, {4, 3, 3}, {0, 1, 1, 4}},
    {"ag24-minus", 32, 4, 3, 3, {4, 3, 3, 1}, {0, 1, 1, 3, 4}},
    {"odd4", 35, 3, 3, 3, {4, 3, 3}, {0, 1, 1, 2}},
    {"tutte8-line", 45, 4, 3, 3, {4, 2, 2, 2}, {0, 1, 1, 1, 2}},
    {"doubled-odd4", 70, 7, 3, 4, {4, 3, 3, 2, 2, 1, 1}, {0, 1, 1, 2, 2, 3, 3, 4}},
    {"gq33", 80, 4, 3, 4, {4, 3, 3, 3}, {0, 1, 1, 1, 4}},
    {"tutte12-line", 189, 6, 4, 5, {4, 2, 2, 2, 2, 2}, {0, 1, 1, 1, 1, 1, 2}},
    {"gh33", 728, 6, 5, 6, {4, 3, 3, 3, 3, 3}, {0, 1, 1, 1, 1, 1, 4}},
};
#define NROWS ((int)(sizeof table8 / sizeof table8[0]))

/* Table 8's difference columns T_L - T_L* and T_L - T_L**, in row order. */
static const int gap_dir[NROWS] = {0, 0, 1, 1, 1, 2, 1, 0, 1, 0, 1, 4, 1, 2, 1};
static const int gap_undir[NROWS] = {0, 0, 1, 1, 1, 2, 0, 0, 1, 0, 1, 3, 0, 1, 0};

/* ---------------------------------------------------------------------------------- */
/* Independent checker.                                                                 */

/* Hop distances from s over out-arcs (-1 = unreachable); returns the eccentricity. */
static int bfs(const tc_graph *g, int32_t s, int32_t *dist, int32_t *queue) {
  for (int32_t x = 0; x < g->n; x++) dist[x] = -1;
  int32_t head = 0, tail = 0, ecc = 0;
  dist[s] = 0;
  queue[tail++] = s;
  while (head < tail) {
    int32_t x = queue[head++];
    if (dist[x] > ecc) ecc = dist[x];
    for (int64_t a = g->out_off[x]; a < g->out_off[x + 1]; a++)
      if (dist[g->dst[a]] < 0) {
        dist[g->dst[a]] = dist[x] + 1;
        queue[tail++] = g->dst[a];
      }
  }
  return tail == g->n ? ecc : -1;
}

/* Intersection numbers found by the checker: b[h], a[h], c[h] for h = 0..diam. */
typedef struct intersection {
  int diam;
  int b[MAX_DIAM + 2], a[MAX_DIAM + 2], c[MAX_DIAM + 2];
} intersection;

/* 1 iff g is connected, of diameter <= MAX_DIAM, and distance-regular; fills *ia. For
   every source x and every y, the neighbours z of y split by d(x,z) - d(x,y) into -1,
   0, +1; the three counts must depend on d(x,y) only. O(N·m). */
static int check_distance_regular(const tc_graph *g, intersection *ia) {
  int32_t *dist = malloc((size_t)g->n * sizeof *dist), *queue = malloc((size_t)g->n * sizeof *queue);
  int seen[MAX_DIAM + 2] = {0}, ok = 1;
  memset(ia, 0, sizeof *ia);
  for (int32_t x = 0; ok && x < g->n; x++) {
    int ecc = bfs(g, x, dist, queue);
    if (ecc < 0 || ecc > MAX_DIAM) { ok = 0; break; }
    if (ecc > ia->diam) ia->diam = ecc;
    for (int32_t y = 0; ok && y < g->n; y++) {
      int h = dist[y], cnt[3] = {0, 0, 0};
      for (int64_t a = g->out_off[y]; a < g->out_off[y + 1]; a++) cnt[dist[g->dst[a]] - h + 1]++;
      if (!seen[h]) {
        seen[h] = 1;
        ia->c[h] = cnt[0];
        ia->a[h] = cnt[1];
        ia->b[h] = cnt[2];
      } else if (ia->c[h] != cnt[0] || ia->a[h] != cnt[1] || ia->b[h] != cnt[2]) {
        ok = 0;
      }
    }
  }
  free(dist);
  free(queue);
  return ok;
}

/* ---------------------------------------------------------------------------------- */
/* Per-row test.                                                                        */

static void check_moore_columns(int row) {
  const drg_row *r = &table8[row];
  assert_int_equal(tc_moore_diameter_directed(r->n, 4), r->tl_dir);
  assert_int_equal(tc_moore_diameter_undirected(r->n, 4), r->tl_undir);
  assert_int_equal(r->tl - r->tl_dir, gap_dir[row]);
  assert_int_equal(r->tl - r->tl_undir, gap_undir[row]);
}

static void check_shape(const tc_graph *g, const drg_row *r) {
  assert_int_equal(g->n, r->n);
  assert_int_equal(g->m, 4 * (int64_t)r->n);
  assert_int_equal(tc_graph_out_regular(g), 4);
  assert_int_equal(tc_graph_in_regular(g), 4);
  assert_true(g->bidirectional);
  assert_int_equal(tc_graph_count_self_loops(g), 0);
  assert_int_equal(tc_graph_count_multi_arcs(g), 0);
  assert_true(tc_graph_unit_capacity(g));
}

static void table8_row(void **state) {
  int row = (int)(intptr_t)*state;
  const drg_row *r = &table8[row];
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_topo_drg(r->name, &g, &err), TC_OK);
  check_shape(g, r);

  int32_t diam = -1;
  assert_int_equal(tc_graph_diameter(g, &diam, &err), TC_OK);
  assert_int_equal(diam, r->tl);

  intersection ia;
  assert_true(check_distance_regular(g, &ia));
  assert_int_equal(ia.diam, r->tl);
  for (int h = 0; h < r->tl; h++) assert_int_equal(ia.b[h], r->b[h]);
  for (int h = 1; h <= r->tl; h++) assert_int_equal(ia.c[h], r->c[h]);
  for (int h = 0; h <= r->tl; h++) assert_int_equal(ia.a[h] + ia.b[h] + ia.c[h], 4);
  assert_int_equal(ia.b[r->tl], 0);
  check_moore_columns(row);
  tc_graph_destroy(g);
}

/* ---------------------------------------------------------------------------------- */
/* The checker on known cases.                                                          */

static tc_graph *circulant(int n, int s1, int s2) {
  tc_graph_builder b;
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < n; i++) {
    assert_int_equal(tc_graph_builder_add_edge(&b, i, (i + s1) % n, 1, &err), TC_OK);
    assert_int_equal(tc_graph_builder_add_edge(&b, i, (i + s2) % n, 1, &err), TC_OK);
  }
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

static void checker_accepts_and_rejects(void **state) {
  (void)state;
  intersection ia;
  /* C(10,{1,3}): i ~ j iff j - i is odd and != 5, i.e. K_{5,5} minus a matching. */
  tc_graph *g = circulant(10, 1, 3);
  assert_true(check_distance_regular(g, &ia));
  assert_int_equal(ia.diam, 3);
  assert_int_equal(ia.b[0], 4);
  assert_int_equal(ia.b[1], 3);
  assert_int_equal(ia.b[2], 1);
  assert_int_equal(ia.c[1], 1);
  assert_int_equal(ia.c[2], 3);
  assert_int_equal(ia.c[3], 4);
  tc_graph_destroy(g);
  /* C(12,{1,2}): 3 and 4 both lie at distance 2 from 0, but 3 has two neighbours (1, 2)
     adjacent to 0 and 4 only one (2), so c_2 is not well defined. */
  g = circulant(12, 1, 2);
  assert_false(check_distance_regular(g, &ia));
  tc_graph_destroy(g);
}

/* ---------------------------------------------------------------------------------- */
/* Names, aliases, errors, labels.                                                      */

static void names_in_table_order(void **state) {
  (void)state;
  const char *const *names = tc_topo_drg_names();
  int k = 0;
  while (names[k]) {
    assert_true(k < NROWS);
    assert_string_equal(names[k], table8[k].name);
    k++;
  }
  assert_int_equal(k, NROWS);
}

static void unknown_and_null_names(void **state) {
  (void)state;
  tc_graph *g = (tc_graph *)&g; /* must be reset to NULL */
  tc_error err;
  assert_int_equal(tc_topo_drg("dodecahedron", &g, &err), TC_EINPUT);
  assert_null(g);
  assert_non_null(strstr(err.msg, "dodecahedron"));
  for (int k = 0; k < NROWS; k++) assert_non_null(strstr(err.msg, table8[k].name));
  assert_null(strchr(err.msg, '\n'));
  assert_int_equal(tc_topo_drg(NULL, &g, &err), TC_EINPUT);
  assert_null(g);
  assert_int_equal(tc_topo_drg("", &g, &err), TC_EINPUT);
}

static void aliases_resolve(void **state) {
  (void)state;
  const struct { const char *alias; int n; } cases[] = {
      {"J(4,2)", 6}, {"P9", 9}, {"h(2,3)", 9}, {"K5,5-I", 10}, {"Q4", 16}, {"PG(2,3)", 26},
      {"O4", 35}, {"D(O4)", 70}, {"GQ(3,3)", 80}, {"W(3)", 80}, {"gh(3,3)", 728}, {"OCTAHEDRON", 6}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_drg(cases[i].alias, &g, &err), TC_OK);
    assert_int_equal(g->n, cases[i].n);
    tc_graph_destroy(g);
  }
}

/* Parse a "{a,b,c}" label into a bit mask. */
static unsigned subset_of(const char *label) {
  unsigned mask = 0;
  assert_int_equal(label[0], '{');
  for (const char *p = label + 1; *p && *p != '}'; p++)
    if (*p >= '0' && *p <= '9') mask |= 1u << (*p - '0');
  return mask;
}

static int popcount(unsigned x) {
  int c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}

/* Brute-force oracle: adjacency of a subset graph equals its defining relation on the
   labels, for every pair. */
static void subset_graph_matches(const char *name, int relation) {
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_topo_drg(name, &g, &err), TC_OK);
  for (int32_t x = 0; x < g->n; x++)
    for (int32_t y = 0; y < g->n; y++) {
      unsigned a = subset_of(tc_graph_label(g, x)), b = subset_of(tc_graph_label(g, y));
      int want = relation == 0   ? (a & b) == 0 && a != b
                 : relation == 1 ? popcount(a & b) == 1
                                 : (a != b) && ((a & b) == a || (a & b) == b);
      assert_int_equal(tc_graph_arc_multiplicity(g, x, y), want);
    }
  tc_graph_destroy(g);
}

static void subset_labels_define_adjacency(void **state) {
  (void)state;
  subset_graph_matches("odd4", 0);
  subset_graph_matches("octahedron", 1);
  subset_graph_matches("doubled-odd4", 2);
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_topo_drg("odd4", &g, &err), TC_OK);
  assert_string_equal(tc_graph_label(g, 0), "{0,1,2}");
  tc_graph_destroy(g);
}

/* Every point of the GH(3,3) incidence graph (nodes 0..363, labelled by coordinates)
   lies on Q(6,3): x0 x4 + x1 x5 + x2 x6 = x3^2, and the 364 points are distinct. */
static void gh33_points_on_the_quadric(void **state) {
  (void)state;
  tc_graph *g = NULL;
  tc_error err;
  assert_int_equal(tc_topo_drg("gh33", &g, &err), TC_OK);
  for (int32_t p = 0; p < 364; p++) {
    int x[7];
    const char *l = tc_graph_label(g, p);
    assert_int_equal(sscanf(l, "(%d,%d,%d,%d,%d,%d,%d)", &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6]), 7);
    assert_int_equal((x[0] * x[4] + x[1] * x[5] + x[2] * x[6] - x[3] * x[3] + 27) % 3, 0);
    for (int32_t q = 0; q < p; q++) assert_string_not_equal(tc_graph_label(g, q), l);
    /* a point is adjacent to lines only */
    for (int64_t a = g->out_off[p]; a < g->out_off[p + 1]; a++) assert_true(g->dst[a] >= 364);
  }
  tc_graph_destroy(g);
}

int main(void) {
  struct CMUnitTest tests[NROWS + 6];
  for (int k = 0; k < NROWS; k++) {
    tests[k] = (struct CMUnitTest){table8[k].name, table8_row, NULL, NULL, (void *)(intptr_t)k};
  }
  tests[NROWS + 0] = (struct CMUnitTest)cmocka_unit_test(checker_accepts_and_rejects);
  tests[NROWS + 1] = (struct CMUnitTest)cmocka_unit_test(names_in_table_order);
  tests[NROWS + 2] = (struct CMUnitTest)cmocka_unit_test(unknown_and_null_names);
  tests[NROWS + 3] = (struct CMUnitTest)cmocka_unit_test(aliases_resolve);
  tests[NROWS + 4] = (struct CMUnitTest)cmocka_unit_test(subset_labels_define_adjacency);
  tests[NROWS + 5] = (struct CMUnitTest)cmocka_unit_test(gh33_points_on_the_quadric);
  return _cmocka_run_group_tests("test_drg", tests, NROWS + 6, NULL, NULL);
}
