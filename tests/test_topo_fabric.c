/*
** test_topo_fabric.c — the switch fabrics of topo.h (paper 001): dgx_a100, mi250, fattree
** and fig2toy, through their generators and through the spec language.
**
** The oracle is independent of the generators' loops: it reads each node's label ("gpu1.3",
** "nic1.3", "ib1", "gcd0.5", "edge2.1", ...) and decides from the family's definition alone
** (digest-001 §4.1–4.3, Al-Fares' wiring) what capacity joins two nodes, 0 for none. Every
** ordered pair of nodes is compared with the graph, so the labels, the numbering and every
** link are checked at once; the MI250 matrix is written here again as a 16 x 16 table of
** link counts, not as the generator's list of pairs. Then the counts the paper and the
** digest state: nodes, arcs, links per GCD, bundles, ingress per GPU (325, 366), and that
** every fabric is bidirectional and Eulerian.
*/
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/topo.h"

/* ------------------------------------------------------------ checks ---- */

/* Capacity of the link between u and v by the family's definition, from the labels: each
   link is stated from one end (host to edge switch, GPU to NIC, ...), 0 otherwise. */
typedef int64_t (*cap_oracle)(const char *u, const char *v, const void *ctx);

/* The graph has exactly the oracle's links, each an arc both ways: one arc per linked
   ordered pair, none other, no parallel arcs; returns the sum of capacities. */
static int64_t assert_matches_oracle(const tc_graph *g, cap_oracle oracle, const void *ctx) {
  int64_t expected_arcs = 0, total = 0;
  for (int32_t u = 0; u < g->n; u++) {
    assert_non_null(tc_graph_label(g, u));
    for (int32_t v = 0; v < g->n; v++) {
      int64_t want = oracle(g->label[u], g->label[v], ctx);
      if (!want) want = oracle(g->label[v], g->label[u], ctx);
      int64_t mult = tc_graph_arc_multiplicity(g, u, v);
      if (mult != (want > 0))
        fail_msg("%s -> %s: %lld arcs, expected %d", g->label[u], g->label[v], (long long)mult, want > 0);
      if (want > 0 && g->cap[tc_test_arc_id(g, u, v)] != want)
        fail_msg("%s -> %s: capacity %lld, expected %lld", g->label[u], g->label[v],
                 (long long)g->cap[tc_test_arc_id(g, u, v)], (long long)want);
      expected_arcs += want > 0;
      total += want;
    }
  }
  assert_int_equal(g->m, expected_arcs);
  return total;
}

static int64_t in_capacity(const tc_graph *g, int32_t v) {
  int64_t sum = 0;
  for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) sum += g->cap[g->in_arc[i]];
  return sum;
}

static int64_t out_capacity(const tc_graph *g, int32_t u) {
  int64_t sum = 0;
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) sum += g->cap[a];
  return sum;
}

/* Bidirectional and Eulerian (ForestColl's input assumption, digest-001 §1.2); compute
   nodes first (0..compute-1), switches after; degrees sum to the arc count both ways. */
static void assert_fabric_shape(const tc_graph *g, int32_t compute) {
  assert_true(g->bidirectional);
  int64_t out_sum = 0, in_sum = 0;
  for (int32_t u = 0; u < g->n; u++) {
    assert_int_equal(g->kind[u], u < compute ? TC_NODE_COMPUTE : TC_NODE_SWITCH);
    assert_int_equal(in_capacity(g, u), out_capacity(g, u));
    out_sum += tc_graph_out_degree(g, u);
    in_sum += tc_graph_in_degree(g, u);
  }
  assert_int_equal(out_sum, g->m);
  assert_int_equal(in_sum, g->m);
  assert_int_equal(tc_graph_count_kind(g, TC_NODE_COMPUTE), compute);
  assert_int_equal(tc_graph_count_self_loops(g), 0);
  assert_int_equal(tc_graph_count_multi_arcs(g), 0);
}

/* Parse "prefix<a>.<b>" (b optional when two is 0): 1 if label has that form. */
static int parse2(const char *label, const char *prefix, int two, long *a, long *b) {
  size_t len = strlen(prefix);
  if (strncmp(label, prefix, len)) return 0;
  char tail;
  if (two) return sscanf(label + len, "%ld.%ld%c", a, b, &tail) == 2;
  return sscanf(label + len, "%ld%c", a, &tail) == 1;
}

/* --------------------------------------------------------- dgx_a100 ---- */

/* digest-001 §4.3: gpuA.B -- nvswitchA at 300; gpuA.B -- nicA.B at 25; nicA.B -- ib(B mod 2)
   at 25. */
static int64_t a100_oracle(const char *u, const char *v, const void *ctx) {
  (void)ctx;
  long a, b, c, d;
  if (!parse2(u, "gpu", 1, &a, &b)) {
    if (parse2(u, "nic", 1, &a, &b) && parse2(v, "ib", 0, &c, &d)) return c == b % 2 ? 25 : 0;
    return 0;
  }
  if (parse2(v, "nvswitch", 0, &c, &d)) return c == a ? 300 : 0;
  if (parse2(v, "nic", 1, &c, &d)) return c == a && d == b ? 25 : 0;
  return 0;
}

static void dgx_a100_counts_and_links(void **state) {
  (void)state;
  tc_error err;
  for (int64_t n = 1; n <= 4; n++) {
    tc_graph *g = NULL;
    assert_int_equal(tc_topo_dgx_a100(n, &g, &err), TC_OK);
    int64_t nodes = n == 1 ? 9 : 17 * n + 2, arcs = n == 1 ? 16 : 48 * n;
    assert_int_equal(g->n, nodes);
    assert_int_equal(g->m, arcs);
    assert_fabric_shape(g, (int32_t)(8 * n));
    int64_t total = assert_matches_oracle(g, a100_oracle, NULL);
    /* 8n GPU links of 300 both ways, and for n >= 2 16n of 25 (GPU-NIC, NIC-IB) */
    assert_int_equal(total, n == 1 ? 2 * 8 * 300 : 2 * 8 * n * 300 + 2 * 16 * n * 25);
    /* The bottleneck of §5.3: a GPU's ingress is 300 + 25 (300 alone in one box). */
    for (int32_t u = 0; u < 8 * n; u++) assert_int_equal(in_capacity(g, u), n == 1 ? 300 : 325);
    /* Each NVSwitch serves its 8 GPUs; each IB rail 4 NICs per cluster. */
    for (int64_t a = 0; a < n; a++) assert_int_equal(tc_graph_out_degree(g, (int32_t)(8 * n + a)), 8);
    if (n >= 2) {
      assert_int_equal(tc_graph_out_degree(g, (int32_t)(17 * n)), 4 * n);
      assert_int_equal(tc_graph_out_degree(g, (int32_t)(17 * n + 1)), 4 * n);
    }
    tc_graph_destroy(g);
  }
  /* The numbering of digest-001 §4.3, spelt out for n = 2. */
  tc_graph *g = tc_test_spec("dgx_a100(2)");
  const char *want[][2] = {{"0", "gpu0.0"}, {"11", "gpu1.3"}, {"16", "nvswitch0"}, {"17", "nvswitch1"},
                           {"18", "nic0.0"}, {"29", "nic1.3"}, {"34", "ib0"}, {"35", "ib1"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) assert_string_equal(g->label[atoi(want[i][0])], want[i][1]);
  assert_int_equal(g->cap[tc_test_arc_id(g, 11, 17)], 300);
  assert_int_equal(g->cap[tc_test_arc_id(g, 11, 29)], 25);
  assert_int_equal(g->cap[tc_test_arc_id(g, 29, 35)], 25);
  tc_graph_destroy(g);
}

/* ------------------------------------------------------------ mi250 ---- */

/* digest-001 §4.2, as a matrix of parallel 50 GB/s links (symmetric, 0 on the diagonal). */
static const int mi250_matrix[16][16] = {
    /*        0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 */
    /*  0 */ {0, 4, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0},
    /*  1 */ {4, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0},
    /*  2 */ {0, 0, 0, 4, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0},
    /*  3 */ {0, 0, 4, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0},
    /*  4 */ {2, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /*  5 */ {0, 1, 0, 0, 4, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
    /*  6 */ {0, 0, 1, 0, 1, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0},
    /*  7 */ {0, 0, 0, 2, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /*  8 */ {1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 2, 0, 0, 0},
    /*  9 */ {0, 1, 1, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 0},
    /* 10 */ {0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 1, 0},
    /* 11 */ {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 2},
    /* 12 */ {0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 1, 0},
    /* 13 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0, 1, 1},
    /* 14 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 4},
    /* 15 */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 4, 0},
};

/* gcdC.G -- gcdC.H at matrix[G][H] x 50 (both < gcds); gcdC.G -- ib at 16. */
static int64_t mi250_oracle(const char *u, const char *v, const void *ctx) {
  long gcds = *(const long *)ctx, c, g, d, h;
  if (!parse2(u, "gcd", 1, &c, &g)) return 0;
  assert_true(g < gcds);
  if (!strcmp(v, "ib")) return 16;
  if (parse2(v, "gcd", 1, &d, &h)) return c == d ? 50 * mi250_matrix[g][h] : 0;
  return 0;
}

static void mi250_matrix_is_the_papers(void **state) {
  (void)state;
  /* §5.2: each GCD has 7 Infinity Fabric links to three or four other GCDs; 56 links in a
     cluster, in 28 bundles (GCD pairs). */
  int links = 0, bundles = 0;
  for (int g = 0; g < 16; g++) {
    int mine = 0, neighbours = 0;
    for (int h = 0; h < 16; h++) {
      assert_int_equal(mi250_matrix[g][h], mi250_matrix[h][g]);
      mine += mi250_matrix[g][h];
      neighbours += mi250_matrix[g][h] > 0;
      bundles += h > g && mi250_matrix[g][h] > 0;
    }
    assert_int_equal(mine, 7);
    assert_true(neighbours == 3 || neighbours == 4);
    links += mine;
  }
  assert_int_equal(links / 2, 56);
  assert_int_equal(bundles, 28);
}

static void mi250_counts_and_links(void **state) {
  (void)state;
  tc_error err;
  for (long gcds = 8; gcds <= 16; gcds += 8)
    for (int64_t n = 1; n <= 3; n++) {
      tc_graph *g = NULL;
      assert_int_equal(tc_topo_mi250(n, gcds, &g, &err), TC_OK);
      /* per cluster: 56 (gcds 16) or 22 (the 11 pairs among GCDs 0-7) arcs, and 2 IB arcs
         per GCD when there is an IB switch */
      int64_t intra = gcds == 16 ? 56 : 22, ib = n >= 2;
      assert_int_equal(g->n, n * gcds + ib);
      assert_int_equal(g->m, n * (intra + ib * 2 * gcds));
      assert_fabric_shape(g, (int32_t)(n * gcds));
      int64_t total = assert_matches_oracle(g, mi250_oracle, &gcds);
      /* 56 (resp. 25) links of 50 each way per cluster, plus 16 each way per GCD */
      assert_int_equal(total, n * (2 * 50 * (gcds == 16 ? 56 : 25) + ib * 2 * 16 * gcds));
      /* gcds 16: a GCD's ingress is 7 x 50 (+ 16), min B^-(v) = 366 of digest §4.2 */
      if (gcds == 16)
        for (int32_t u = 0; u < n * gcds; u++) assert_int_equal(in_capacity(g, u), 350 + 16 * ib);
      if (ib) assert_string_equal(g->label[n * gcds], "ib");
      tc_graph_destroy(g);
    }
}

/* mi250(n,8) is the subgraph of mi250(n,16) induced by GCDs 0-7 of each cluster and the IB
   switch (the paper's 8+8 setting, §5.2). */
static void mi250_eight_is_induced(void **state) {
  (void)state;
  tc_graph *full = tc_test_spec("mi250(2)"), *half = tc_test_spec("mi250(2,gcds=8)");
  assert_int_equal(half->n, 17);
  int32_t map[17]; /* node of half -> node of full */
  for (int32_t u = 0; u < 16; u++) map[u] = (u / 8) * 16 + u % 8;
  map[16] = 32;
  int64_t kept = 0;
  for (int32_t u = 0; u < 17; u++) {
    assert_string_equal(half->label[u], full->label[map[u]]);
    for (int32_t v = 0; v < 17; v++) {
      assert_int_equal(tc_graph_arc_multiplicity(half, u, v), tc_graph_arc_multiplicity(full, map[u], map[v]));
      if (tc_graph_arc_multiplicity(half, u, v))
        assert_int_equal(half->cap[tc_test_arc_id(half, u, v)], full->cap[tc_test_arc_id(full, map[u], map[v])]);
      kept += tc_graph_arc_multiplicity(half, u, v);
    }
  }
  assert_int_equal(kept, half->m);
  assert_int_equal(half->m, 2 * 22 + 2 * 16);
  /* digest §4.2's 8+8 bottleneck pair {0,1}: from outside, GCD 0 has 100 + 16, GCD 1 50 + 16 */
  assert_int_equal(in_capacity(half, 0) - 200, 116);
  assert_int_equal(in_capacity(half, 1) - 200, 66);
  tc_graph_destroy(full);
  tc_graph_destroy(half);
}

/* ---------------------------------------------------------- fattree ---- */

typedef struct fattree_ctx {
  long half, bw;
} fattree_ctx;

/* Al-Fares: hostP.E.H -- edgeP.E; edgeP.E -- aggP.I (every I); aggP.I -- coreJ iff
   J / (k/2) == I. */
static int64_t fattree_oracle(const char *u, const char *v, const void *ctx) {
  const fattree_ctx *f = ctx;
  long p, e, h, i, j, q;
  char tail;
  if (sscanf(u, "host%ld.%ld.%ld%c", &p, &e, &h, &tail) == 3)
    return parse2(v, "edge", 1, &q, &i) && q == p && i == e ? f->bw : 0;
  if (parse2(u, "edge", 1, &p, &e)) return parse2(v, "agg", 1, &q, &i) && q == p ? f->bw : 0;
  if (parse2(u, "agg", 1, &p, &i)) return parse2(v, "core", 0, &j, &q) && j / f->half == i ? f->bw : 0;
  return 0;
}

static void fattree_counts_and_links(void **state) {
  (void)state;
  const struct { int64_t k, nodes, arcs, hosts; } cases[] = {{2, 7, 12, 2}, {4, 36, 96, 16}, {6, 99, 324, 54}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (long bw = 1; bw <= 3; bw += 2) {
      tc_graph *g = NULL;
      tc_error err;
      assert_int_equal(tc_topo_fattree(cases[c].k, bw, &g, &err), TC_OK);
      assert_int_equal(g->n, cases[c].nodes);
      assert_int_equal(g->m, cases[c].arcs);
      assert_fabric_shape(g, (int32_t)cases[c].hosts);
      fattree_ctx f = {(long)cases[c].k / 2, bw};
      assert_int_equal(assert_matches_oracle(g, fattree_oracle, &f), cases[c].arcs * bw);
      /* hosts have one port, every switch k */
      for (int32_t u = 0; u < g->n; u++)
        assert_int_equal(tc_graph_out_degree(g, u), u < cases[c].hosts ? 1 : cases[c].k);
      tc_graph_destroy(g);
    }
  tc_graph *g = tc_test_spec("fattree(4)");
  const char *want[][2] = {{"0", "host0.0.0"}, {"7", "host1.1.1"}, {"16", "edge0.0"}, {"19", "edge1.1"},
                           {"24", "agg0.0"}, {"27", "agg1.1"}, {"32", "core0"}, {"35", "core3"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) assert_string_equal(g->label[atoi(want[i][0])], want[i][1]);
  tc_graph_destroy(g);
}

/* ---------------------------------------------------------- fig2toy ---- */

/* Paper 001 Fig. 2(a), every link written out: c(i,j) = 4(i-1) + (j-1), w0, w1, w2 = 8,
   9, 10; c(1,*) -- w1 and c(2,*) -- w2 at 10b, every c -- w0 at b. */
static void fig2toy_arcs(void **state) {
  (void)state;
  for (int64_t b = 1; b <= 3; b += 2) {
    tc_graph *g = NULL;
    tc_error err;
    assert_int_equal(tc_topo_fig2toy(b, &g, &err), TC_OK);
    assert_int_equal(g->n, 11);
    assert_int_equal(g->m, 32);
    assert_fabric_shape(g, 8);
    const int links[][3] = {{0, 9, 10}, {1, 9, 10}, {2, 9, 10}, {3, 9, 10}, {4, 10, 10}, {5, 10, 10},
                            {6, 10, 10}, {7, 10, 10}, {0, 8, 1},  {1, 8, 1},  {2, 8, 1},  {3, 8, 1},
                            {4, 8, 1},  {5, 8, 1},  {6, 8, 1},  {7, 8, 1}};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
      assert_int_equal(tc_graph_arc_multiplicity(g, links[i][0], links[i][1]), 1);
      assert_int_equal(tc_graph_arc_multiplicity(g, links[i][1], links[i][0]), 1);
      assert_int_equal(g->cap[tc_test_arc_id(g, links[i][0], links[i][1])], links[i][2] * b);
      assert_int_equal(g->cap[tc_test_arc_id(g, links[i][1], links[i][0])], links[i][2] * b);
    }
    const char *labels[] = {"c1.1", "c1.2", "c1.3", "c1.4", "c2.1", "c2.2", "c2.3", "c2.4", "w0", "w1", "w2"};
    for (int32_t u = 0; u < 11; u++) assert_string_equal(g->label[u], labels[u]);
    /* the cut S* = {c(1,*), w1} of §3 leaves through 4b */
    int64_t leaving = 0;
    for (int64_t a = 0; a < g->m; a++) {
      int in_s = g->src[a] < 4 || g->src[a] == 9, to_s = g->dst[a] < 4 || g->dst[a] == 9;
      if (in_s && !to_s) leaving += g->cap[a];
    }
    assert_int_equal(leaving, 4 * b);
    tc_graph_destroy(g);
  }
}

/* ----------------------------------------------------------- errors ---- */

static void expect_refusal(int rc, tc_graph *g, int code, const tc_error *err, const char *msg) {
  assert_int_equal(rc, code);
  assert_null(g);
  assert_string_equal(err->msg, msg);
}

static void expect_spec_refusal(const char *spec, int code, const char *msg) {
  tc_graph *g = NULL;
  tc_error err;
  char full[256];
  snprintf(full, sizeof full, "bad spec \"%s\": column 1: %s", spec, msg);
  expect_refusal(tc_spec_build(spec, &g, &err), g, code, &err, full);
}

static void bad_arguments(void **state) {
  (void)state;
  tc_graph *g = (tc_graph *)1;
  tc_error err;
#define REFUSE(call, code, msg)          \
  do {                                   \
    g = (tc_graph *)1;                   \
    int rc_ = (call);                    \
    expect_refusal(rc_, g, code, &err, msg); \
  } while (0)
  REFUSE(tc_topo_dgx_a100(0, &g, &err), TC_EINPUT, "dgx_a100: n must be >= 1 (got 0)");
  REFUSE(tc_topo_dgx_a100(INT64_MAX, &g, &err), TC_ERANGE,
         "dgx_a100: 9223372036854775807 clusters of 8 GPUs exceed 16777216 nodes");
  REFUSE(tc_topo_mi250(0, 16, &g, &err), TC_EINPUT, "mi250: n must be >= 1 (got 0)");
  REFUSE(tc_topo_mi250(2, 12, &g, &err), TC_EINPUT, "mi250: gcds must be 8 or 16 (got 12)");
  REFUSE(tc_topo_mi250(1048576, 16, &g, &err), TC_ERANGE, "mi250: 1048576 clusters of 16 GCDs exceed 16777216 nodes");
  REFUSE(tc_topo_fattree(3, 1, &g, &err), TC_EINPUT, "fattree: k must be even and >= 2 (got 3)");
  REFUSE(tc_topo_fattree(0, 1, &g, &err), TC_EINPUT, "fattree: k must be even and >= 2 (got 0)");
  REFUSE(tc_topo_fattree(4, 0, &g, &err), TC_EINPUT, "fattree: bw must be >= 1 (got 0)");
  REFUSE(tc_topo_fattree(406, 1, &g, &err), TC_ERANGE, "fattree: k = 406 has more than 16777216 nodes");
  REFUSE(tc_topo_fattree(INT64_MAX - 1, 1, &g, &err), TC_ERANGE,
         "fattree: k = 9223372036854775806 has more than 16777216 nodes");
  REFUSE(tc_topo_fig2toy(0, &g, &err), TC_EINPUT, "fig2toy: b must be >= 1 (got 0)");
  REFUSE(tc_topo_fig2toy(INT64_MAX / 10 + 1, &g, &err), TC_ERANGE,
         "fig2toy: b = 922337203685477581 makes the cluster links (10b) exceed 2^63-1");
#undef REFUSE
  assert_int_equal(tc_topo_mi250(1, 16, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "mi250: output pointer is NULL");
  /* Through the spec language: the constraints column checks what it can read ("even k >=
     2"), the generator the prose ("gcds 8 or 16"). */
  expect_spec_refusal("mi250(2,12)", TC_EINPUT, "mi250: gcds must be 8 or 16 (got 12)");
  expect_spec_refusal("fattree(3)", TC_EINPUT, "fattree: k must be even (got 3)");
  expect_spec_refusal("fattree(0)", TC_EINPUT, "fattree: k must be >= 2 (got 0)");
  expect_spec_refusal("dgx_a100(0)", TC_EINPUT, "dgx_a100: n must be >= 1 (got 0)");
  expect_spec_refusal("fig2toy(b=0)", TC_EINPUT, "fig2toy: b must be >= 1 (got 0)");
  expect_spec_refusal("dgx_a100(1000000)", TC_ERANGE, "dgx_a100: 1000000 clusters of 8 GPUs exceed 16777216 nodes");
}

/* The defaults of the registry rows: mi250(n) = mi250(n,16), fattree(k) = fattree(k,1),
   fig2toy() = fig2toy(1). */
static void spec_defaults(void **state) {
  (void)state;
  const char *pairs[][2] = {
      {"mi250(2)", "mi250(2,16)"}, {"fattree(4)", "fattree(k=4,bw=1)"}, {"fig2toy()", "fig2toy(1)"}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    tc_graph *a = tc_test_spec(pairs[i][0]), *b = tc_test_spec(pairs[i][1]);
    assert_int_equal(a->m, b->m);
    for (int64_t x = 0; x < a->m; x++) {
      assert_int_equal(a->src[x], b->src[x]);
      assert_int_equal(a->dst[x], b->dst[x]);
      assert_int_equal(a->cap[x], b->cap[x]);
    }
    tc_graph_destroy(a);
    tc_graph_destroy(b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dgx_a100_counts_and_links), cmocka_unit_test(mi250_matrix_is_the_papers),
      cmocka_unit_test(mi250_counts_and_links),    cmocka_unit_test(mi250_eight_is_induced),
      cmocka_unit_test(fattree_counts_and_links),  cmocka_unit_test(fig2toy_arcs),
      cmocka_unit_test(bad_arguments),             cmocka_unit_test(spec_defaults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
