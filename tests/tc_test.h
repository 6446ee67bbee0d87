/*
** tc_test.h — helpers shared by the cmocka test programs: building graphs from arc lists
** or specs with assertion on success, and an independent all-pairs distance oracle
** (Floyd–Warshall on an adjacency matrix) for small graphs.
*/
#ifndef TC_TEST_H
#define TC_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "topocoll/graph.h"
#include "topocoll/collective.h"
#include "topocoll/spec.h"

static inline tc_graph *tc_test_from_arcs(int n, const int (*arcs)[2], int m) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++) assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

static inline tc_graph *tc_test_spec(const char *spec) {
  tc_error err;
  tc_graph *g = NULL;
  int rc = tc_spec_build(spec, &g, &err);
  if (rc) fail_msg("spec %s: %s", spec, err.msg);
  return g;
}

/* The collective `coll` by registry algorithm `algo` on g, built from `spec` (which the
   algorithm may read, as torus-dor does), unverified: tc_algorithm_generate's result. */
static inline int tc_test_generate(const char *algo, const char *spec, const tc_graph *g, tc_collective coll,
                                   int32_t root, int64_t chunks, tc_schedule *s, tc_error *err) {
  tc_spec *parsed = NULL;
  if (spec && tc_spec_parse(spec, &parsed, err)) fail_msg("spec %s: %s", spec, err->msg);
  tc_collective_opts opts = {.root = root, .chunks = chunks, .spec = parsed};
  int rc = tc_algorithm_generate(g, algo, coll, &opts, s, err);
  tc_spec_destroy(parsed);
  return rc;
}

/* A graph of n nodes with arcs[i] = {src, dst, cap} (i < m), nodes switches[0..nswitches-1]
   marked TC_NODE_SWITCH (switches may be NULL when nswitches is 0). */
static inline tc_graph *tc_test_graph(int n, const int (*arcs)[3], int m, const int *switches, int nswitches) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, n, &err), TC_OK);
  for (int i = 0; i < m; i++)
    assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], arcs[i][2], &err), TC_OK);
  for (int i = 0; i < nswitches; i++)
    assert_int_equal(tc_graph_builder_set_kind(&b, switches[i], TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* The first arc u -> v of g (fails the test when there is none). */
static inline int64_t tc_test_arc_id(const tc_graph *g, int u, int v) {
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v) return a;
  fail_msg("no arc %d -> %d", u, v);
  return -1;
}

/* Paper 000 Fig. 1: the allgather on K_{2,2} with parts {0,1}, {2,3}, units = 2 (halves): in
   step 1 every node sends its shard to both nodes of the other part, in step 2 each of those
   forwards one half to the sender's twin. T_L = 2, tau = (d/N)(1 + 1/2) = (2/4)(3/2) = 3/4. */
static inline void tc_test_fig1_allgather(const tc_graph *g, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLGATHER, 4, 2, "fig1", &err), TC_OK);
  for (int v = 0; v < 4; v++) {
    int side = v < 2 ? 0 : 2, other = v < 2 ? 2 : 0, twin = side + (1 - (v - side));
    assert_int_equal(tc_schedule_add(s, v, tc_test_arc_id(g, v, other), 1, 0, 2, &err), TC_OK);
    assert_int_equal(tc_schedule_add(s, v, tc_test_arc_id(g, v, other + 1), 1, 0, 2, &err), TC_OK);
    assert_int_equal(tc_schedule_add(s, v, tc_test_arc_id(g, other, twin), 2, 0, 1, &err), TC_OK);
    assert_int_equal(tc_schedule_add(s, v, tc_test_arc_id(g, other + 1, twin), 2, 1, 2, &err), TC_OK);
  }
}

/* dist[u*n+v] = hops u -> v, -1 if unreachable; caller frees. O(n^3): small graphs only. */
static inline int *tc_test_floyd(const tc_graph *g) {
  int n = g->n;
  int *d = malloc((size_t)n * n * sizeof *d);
  assert_non_null(d);
  for (int i = 0; i < n * n; i++) d[i] = -1;
  for (int u = 0; u < n; u++) d[u * n + u] = 0;
  for (int64_t a = 0; a < g->m; a++)
    if (g->src[a] != g->dst[a]) d[g->src[a] * n + g->dst[a]] = 1;
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      if (d[i * n + k] >= 0)
        for (int j = 0; j < n; j++)
          if (d[k * n + j] >= 0 && (d[i * n + j] < 0 || d[i * n + k] + d[k * n + j] < d[i * n + j]))
            d[i * n + j] = d[i * n + k] + d[k * n + j];
  return d;
}

/* Diameter by the oracle (-1 if not strongly connected). */
static inline int tc_test_floyd_diameter(const tc_graph *g) {
  int *d = tc_test_floyd(g), best = 0;
  for (int i = 0; i < g->n * g->n; i++) {
    if (d[i] < 0) { best = -1; break; }
    if (d[i] > best) best = d[i];
  }
  free(d);
  return best;
}

/* The registry's names joined by sep into buf — every one (coll < 0), or those that build
   coll, in listing order: what "unknown algorithm 'x' (...)" and "(use --algo ...)" list.
   Tests derive those lists here, so a new registry row touches only algorithms.c and its
   own tests; test_baselines' `names` pins the whole list once. */
static inline const char *tc_test_algos(int coll, const char *sep, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < tc_algorithm_count(); i++) {
    const tc_algorithm_info *a = tc_algorithm_at(i);
    if (coll >= 0 && !(a->collectives & TC_COLL_BIT(coll))) continue;
    int w = snprintf(buf + used, size - used, "%s%s", used ? sep : "", a->name);
    if (w < 0 || (size_t)w >= size - used) fail_msg("tc_test_algos: %zu bytes are too few", size);
    used += (size_t)w;
  }
  return buf;
}

#endif
