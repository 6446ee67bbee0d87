/*
** test_a2a_route.c — all-to-all routings (a2a_route.h): the baselines of paper 003, their
** fluid loads, their lowered schedules, route files and virtual-channel layers.
**
** Oracles: (1) exact values on paper 003's test graphs (§5.2, Fig. 4: Q3, K4,4, the 3x3x3
** torus; each derived exactly, by an exact LP and the distance bound): EwSP reaches F = 1/4
** on Q3, 2/5 on K4,4, 1/9 on the 3x3x3 torus and only 1/5, 1/7 on GenKautz(8,3), (12,3); DOR
** puts exactly 9 shards on every one of the torus's 162 arcs; the distance histograms; (2) closed
** forms of the lowered schedules' per-step loads, derived in the comments, against
** tc_schedule_cost; (3) a brute force on tiny graphs — every simple path enumerated, the
** shortest ones kept — for EwSP's loads, direct's tie-break and the lowered T_B; (4) an
** independent CDG check of the layers (Kahn's algorithm per layer) and of their greedy
** order; (5) hand-built routings and route files with exact refusals.
*/
#include <math.h>
#include <stdio.h>

#include "tc_test.h"
#include "tc_files.h"
#include "topocoll/a2a_route.h"
#include "topocoll/cost.h"
#include "topocoll/metrics.h"
#include "topocoll/verify.h"

static int rat_is(tc_rat r, int64_t num, int64_t den) { return r.num == num && r.den == den; }

static void route(const char *algo, const char *spec, const tc_graph *g, tc_a2a_routing *r) {
  tc_spec *parsed = NULL;
  tc_error err;
  if (tc_spec_parse(spec, &parsed, &err)) fail_msg("spec %s: %s", spec, err.msg);
  tc_collective_opts opts = {.root = -1, .chunks = 0, .spec = parsed};
  int rc = tc_algorithm_routing(g, algo, &opts, r, &err);
  tc_spec_destroy(parsed);
  if (rc) fail_msg("%s on %s: %s", algo, spec, err.msg);
}

/* The fluid rate of algo on spec. */
static tc_rat rate_of(const char *algo, const char *spec) {
  tc_graph *g = tc_test_spec(spec);
  tc_a2a_routing r;
  tc_a2a_load l;
  tc_error err;
  route(algo, spec, g, &r);
  assert_int_equal(tc_a2a_routing_load(g, &r, &l, &err), TC_OK);
  tc_rat f = l.rate;
  tc_a2a_load_destroy(&l);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  return f;
}

/* Lower, verify, cost; per-step loads and tau must be the given closed forms. */
static void expect_lowered(const char *algo, const char *spec, int steps, const tc_rat *step_load, tc_rat tau) {
  tc_graph *g = tc_test_spec(spec);
  tc_a2a_routing r;
  tc_schedule s;
  tc_cost c;
  tc_error err;
  route(algo, spec, g, &r);
  assert_int_equal(tc_a2a_routing_lower(g, &r, &s, &err), TC_OK);
  if (tc_schedule_verify(g, &s, &err)) fail_msg("%s on %s: %s", algo, spec, err.msg);
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.steps, steps);
  for (int t = 0; t < steps; t++)
    if (tc_rat_cmp(c.step_load[t], step_load[t]))
      fail_msg("%s on %s: step %d loads %lld/%lld, expected %lld/%lld", algo, spec, t + 1, (long long)c.step_load[t].num,
               (long long)c.step_load[t].den, (long long)step_load[t].num, (long long)step_load[t].den);
  if (tc_rat_cmp(c.tau, tau)) fail_msg("%s on %s: tau %lld/%lld", algo, spec, (long long)c.tau.num, (long long)c.tau.den);
  /* the registry's pipeline builds the same schedule */
  tc_schedule built;
  tc_cost bc;
  tc_spec *parsed = NULL;
  assert_int_equal(tc_spec_parse(spec, &parsed, &err), TC_OK);
  tc_collective_opts opts = {.root = -1, .chunks = 0, .spec = parsed};
  assert_int_equal(tc_collective_build(g, algo, TC_COLL_ALLTOALL, &opts, &built, &bc, &err), TC_OK);
  assert_int_equal(tc_rat_cmp(bc.tau, tau), 0);
  assert_int_equal(built.count, s.count);
  tc_spec_destroy(parsed);
  tc_cost_destroy(&bc);
  tc_schedule_destroy(&built);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
}

/* EwSP (paper 003 §5.3: optimal on the testbed graphs, poor on GenKautz). Lowered, hop h in step h: by the symmetry of these graphs the
   EwSP load of a step is the same on every arc, the number of paths' h-th hops per source
   over the out-degree. Q3: a target at distance k has k! paths, 1/k of them start along
   each of its k differing dimensions, so step 1 carries Σ_k C(2,k-1)/k = 1 + 1 + 1/3 =
   7/3 per arc, step 2 the 3 + 1 second hops of a source over 3 arcs = 4/3, step 3 1/3;
   tau = (d/C) * 4 = (3/8) * 4 = 3/2. K4,4: step 1 = 1 + 3/4 (the other side, and a
   quarter of each of 3 same-side targets), step 2 = 3/4; tau = (4/8)(5/2) = 5/4. The
   3x3x3 torus: 26, 20 and 8 hops per source at hops 1, 2, 3 over 6 arcs; tau = (6/27) 9
   = 2. */
static void ewsp(void **state) {
  (void)state;
  assert_true(rat_is(rate_of("ewsp", "hypercube(3)"), 1, 4));
  assert_true(rat_is(rate_of("ewsp", "bipartite(4)"), 2, 5));
  assert_true(rat_is(rate_of("ewsp", "torus(3,3,3)"), 1, 9));
  assert_true(rat_is(rate_of("ewsp", "genkautz(3,8)"), 1, 5));
  assert_true(rat_is(rate_of("ewsp", "genkautz(3,12)"), 1, 7));
  const tc_rat q3[3] = {{7, 3}, {4, 3}, {1, 3}}, k44[2] = {{7, 4}, {3, 4}}, t333[3] = {{13, 3}, {10, 3}, {4, 3}};
  expect_lowered("ewsp", "hypercube(3)", 3, q3, (tc_rat){3, 2});
  expect_lowered("ewsp", "bipartite(4)", 2, k44, (tc_rat){5, 4});
  expect_lowered("ewsp", "torus(3,3,3)", 3, t333, (tc_rat){2, 1});
}

/* DOR on the 3x3x3 torus: every arc carries exactly 9 (F = 1/9, the distance bound: paper 003 §5.2's DOR baseline). Lowered:
   each dimension is off by one step at most, so a path's h-th hop is along its h-th
   differing dimension. Step 1: an x arc carries its source's 9 targets with dx = +1, a
   y arc the 3 with dx = 0, dy = +1, a z arc 1: max 9. Step 2: a y+ arc carries the pairs
   with dx != 0, dy = +1 (27 * 6 over 27 arcs = 6), a z+ arc those whose second differing
   dimension is z (27 * 4 / 27 = 4): max 6. Step 3: z+ arcs, the 4 targets differing in
   all three with dz = +1: 4. tau = (6/27)(9 + 6 + 4) = 38/9. */
static void dor(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("torus(3,3,3)");
  tc_a2a_routing r;
  tc_a2a_load l;
  tc_error err;
  route("dor", "torus(3,3,3)", g, &r);
  assert_int_equal(r.npaths, 27 * 26);
  assert_int_equal(tc_a2a_routing_load(g, &r, &l, &err), TC_OK);
  assert_int_equal(g->m, 162);
  assert_int_equal(l.denom, 1);
  for (int64_t a = 0; a < g->m; a++) assert_int_equal(l.units[a], 9);
  assert_true(rat_is(l.rate, 1, 9));
  tc_a2a_load_destroy(&l);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  const tc_rat steps[3] = {{9, 1}, {6, 1}, {4, 1}};
  expect_lowered("dor", "torus(3,3,3)", 3, steps, (tc_rat){38, 9});
  /* torus(2,2,2) is Q3 (a length-2 dimension is one link): DOR is e-cube routing there */
  g = tc_test_spec("hypercube(3)");
  const int64_t d222[3] = {2, 2, 2}, d8[1] = {8}, d33[2] = {3, 3};
  assert_int_equal(tc_a2a_route_dor(g, d222, 3, &r, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_load(g, &r, &l, &err), TC_OK);
  assert_true(rat_is(l.rate, 1, 4));
  tc_a2a_load_destroy(&l);
  tc_a2a_routing_destroy(&r);
  assert_int_equal(tc_a2a_route_dor(g, d8, 1, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "dor: the graph is not the torus of those dimensions (DOR routes tori only)");
  assert_int_equal(tc_a2a_route_dor(g, d33, 2, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "dor: the graph is not the torus of those dimensions (DOR routes tori only)");
  tc_graph_destroy(g);
  /* through the registry, a spec that is not torus(...) is refused */
  g = tc_test_spec("hypercube(3)");
  tc_spec *spec = NULL;
  assert_int_equal(tc_spec_parse("hypercube(3)", &spec, &err), TC_OK);
  tc_collective_opts opts = {.root = -1, .chunks = 0, .spec = spec};
  assert_int_equal(tc_algorithm_routing(g, "dor", &opts, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "dor needs SPEC written as torus(l1,...,lk) to know the dimensions (DOR routes tori only)");
  assert_int_equal(tc_algorithm_routing(g, "ring", &opts, &r, &err), TC_EINPUT);
  char list[1024], want[1200];
  snprintf(want, sizeof want, "ring builds allgather, reduce-scatter and allreduce, not alltoall (use --algo %s)",
           tc_test_algos(TC_COLL_ALLTOALL, " or ", list, sizeof list));
  assert_string_equal(err.msg, want);
  tc_spec_destroy(spec);
  tc_graph_destroy(g);
}

static void distance_histograms(void **state) {
  (void)state;
  static const struct {
    const char *spec;
    int n, diameter;
    int64_t hist[4];
  } cases[] = {{"hypercube(3)", 8, 3, {0, 24, 24, 8}},
               {"bipartite(4)", 8, 2, {0, 32, 24, 0}},
               {"torus(3,3,3)", 27, 3, {0, 162, 324, 216}}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_distance_stats st;
    tc_error err;
    assert_int_equal(tc_graph_distance_stats(g, &st, &err), TC_OK);
    assert_int_equal(g->n, cases[i].n); /* distance 0: the n pairs (u,u) */
    assert_int_equal(st.diameter, cases[i].diameter);
    for (int t = 1; t <= st.diameter; t++) assert_int_equal(st.histogram[t], cases[i].hist[t]);
    tc_distance_stats_destroy(&st);
    tc_graph_destroy(g);
  }
}

/* ---- brute force on tiny graphs ---- */

#define BF_MAX_PATHS 4096
#define BF_MAX_LEN 8

typedef struct bf_paths {
  int count, len[BF_MAX_PATHS];
  int64_t arc[BF_MAX_PATHS][BF_MAX_LEN];
} bf_paths;

/* Every simple path from u to t, extending the prefix path[0..len). */
static void all_simple(const tc_graph *g, int u, int t, int64_t *path, int len, int *on, bf_paths *out) {
  if (u == t) {
    assert_true(out->count < BF_MAX_PATHS);
    out->len[out->count] = len;
    memcpy(out->arc[out->count++], path, (size_t)len * sizeof *path);
    return;
  }
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
    int v = g->dst[a];
    if (on[v] || len == BF_MAX_LEN) continue;
    on[v] = 1;
    path[len] = a;
    all_simple(g, v, t, path, len + 1, on, out);
    on[v] = 0;
  }
}

/* The shortest simple paths s -> t, in lexicographic order of their arc ids. */
static void shortest(const tc_graph *g, int s, int t, bf_paths *out) {
  static bf_paths all;
  int on[64] = {0};
  int64_t path[BF_MAX_LEN];
  all.count = 0;
  on[s] = 1;
  all_simple(g, s, t, path, 0, on, &all);
  int best = BF_MAX_LEN + 1;
  for (int i = 0; i < all.count; i++)
    if (all.len[i] < best) best = all.len[i];
  out->count = 0;
  for (int i = 0; i < all.count; i++)
    if (all.len[i] == best) {
      out->len[out->count] = best;
      memcpy(out->arc[out->count++], all.arc[i], sizeof all.arc[i]);
    }
  for (int i = 1; i < out->count; i++) /* insertion sort, lexicographic */
    for (int j = i; j > 0 && memcmp(out->arc[j - 1], out->arc[j], (size_t)best * sizeof(int64_t)) > 0; j--) {
      int64_t tmp[BF_MAX_LEN];
      memcpy(tmp, out->arc[j], sizeof tmp);
      memcpy(out->arc[j], out->arc[j - 1], sizeof tmp);
      memcpy(out->arc[j - 1], tmp, sizeof tmp);
    }
}

/* Lexicographic order of the arcs of two paths, as big-endian digits (equal length). */
static int lex_cmp(const int64_t *a, const int64_t *b, int len) {
  for (int i = 0; i < len; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* EwSP's paths are exactly the brute-force shortest paths (as sets, each 1/count), its
   loads their sums, direct takes the lexicographically least one, and the lowered T_B is
   Σ_h max_a (h-th hops on a)/cap(a) times d / C. Loads in doubles: tiny graphs, exact
   enough to compare with the exact rationals' values. */
static void brute_force(void **state) {
  (void)state;
  static const char *const specs[] = {"bipartite(2)", "hypercube(2)", "uniring(1,5)", "genkautz(2,5)",
                                      "circulant(6,1,2)", "torus(2,3)", "genkautz(3,7)", "kautz(2,1)"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    tc_a2a_routing ew, di;
    tc_a2a_load l;
    tc_error err;
    route("ewsp", specs[i], g, &ew);
    route("direct", specs[i], g, &di);
    assert_int_equal(tc_a2a_routing_load(g, &ew, &l, &err), TC_OK);
    double *load = calloc((size_t)g->m, sizeof *load), step[BF_MAX_LEN][256] = {{0}};
    assert_true(g->m <= 256);
    static bf_paths sp;
    for (int s = 0; s < g->n; s++)
      for (int t = 0; t < g->n; t++) {
        if (s == t) continue;
        int64_t k = (int64_t)s * g->n + t;
        shortest(g, s, t, &sp);
        assert_int_equal(ew.first[k + 1] - ew.first[k], sp.count);
        for (int j = 0; j < sp.count; j++) { /* EwSP lists them in the same order */
          int64_t p = ew.first[k] + j;
          assert_int_equal(ew.hop_off[p + 1] - ew.hop_off[p], sp.len[j]);
          assert_int_equal(lex_cmp(ew.arc + ew.hop_off[p], sp.arc[j], sp.len[j]), 0);
          assert_true(rat_is(ew.weight[p], 1, sp.count));
          for (int h = 0; h < sp.len[j]; h++) {
            load[sp.arc[j][h]] += 1.0 / sp.count;
            step[h][sp.arc[j][h]] += 1.0 / sp.count;
          }
        }
        int64_t p = di.first[k];
        assert_int_equal(di.first[k + 1] - p, 1);
        assert_int_equal(lex_cmp(di.arc + di.hop_off[p], sp.arc[0], sp.len[0]), 0);
      }
    for (int64_t a = 0; a < g->m; a++) {
      double exact = (double)l.units[a] / (double)l.denom / (double)g->cap[a];
      if (fabs(exact - load[a] / (double)g->cap[a]) > 1e-9) fail_msg("%s arc %lld", specs[i], (long long)a);
    }
    tc_schedule s;
    tc_cost c;
    assert_int_equal(tc_a2a_routing_lower(g, &ew, &s, &err), TC_OK);
    assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
    assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
    double sum = 0;
    for (int h = 0; h < BF_MAX_LEN; h++) {
      double mx = 0;
      for (int64_t a = 0; a < g->m; a++)
        if (step[h][a] / (double)g->cap[a] > mx) mx = step[h][a] / (double)g->cap[a];
      sum += mx;
    }
    double tau = sum * (double)c.degree / g->n;
    if (fabs(tau - tc_rat_to_double(c.tau)) > 1e-9) fail_msg("%s: tau %g, brute force %g", specs[i], tc_rat_to_double(c.tau), tau);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
    free(load);
    tc_a2a_load_destroy(&l);
    tc_a2a_routing_destroy(&ew);
    tc_a2a_routing_destroy(&di);
    tc_graph_destroy(g);
  }
}

/* SSSP on the bidirectional 4-cycle 0-1-2-3-0 by hand. Destination 0: 1 and 3 go
   direct; 2 ties between 2->1->0 and 2->3->0 and takes the lower arc, 2->1. The weights
   become 3 on 1->0, 2 on 3->0 and 2->1. Destination 1: 0 direct (1), 2 direct (2), and 3
   ties between 3->0->1 and 3->2->1 (both 3) and takes the lower arc, 3->0. */
static void sssp(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("circulant(4,1)");
  tc_a2a_routing r;
  tc_error err;
  assert_int_equal(tc_a2a_route_sssp(g, &r, &err), TC_OK);
  assert_int_equal(r.npaths, 12);
  int64_t p = r.first[2 * 4 + 0];
  assert_int_equal(r.hop_off[p + 1] - r.hop_off[p], 2);
  assert_int_equal(r.arc[r.hop_off[p]], tc_test_arc_id(g, 2, 1));
  p = r.first[3 * 4 + 1];
  assert_int_equal(r.hop_off[p + 1] - r.hop_off[p], 2);
  assert_int_equal(r.arc[r.hop_off[p]], tc_test_arc_id(g, 3, 0));
  assert_int_equal(r.arc[r.hop_off[p] + 1], tc_test_arc_id(g, 0, 1));
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  /* single paths everywhere, and the first destination's are shortest */
  g = tc_test_spec("torus(3,3,3)");
  assert_int_equal(tc_a2a_route_sssp(g, &r, &err), TC_OK);
  int32_t dist[27];
  assert_int_equal(tc_graph_bfs(g, 0, TC_IN, dist, &err), TC_OK);
  for (int s = 0; s < 27; s++)
    for (int t = 0; t < 27; t++) {
      if (s == t) continue;
      int64_t k = s * 27 + t;
      assert_int_equal(r.first[k + 1] - r.first[k], 1);
      if (t == 0) assert_int_equal(r.hop_off[r.first[k] + 1] - r.hop_off[r.first[k]], dist[s]);
    }
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
}

/* ---- virtual-channel layers ---- */

/* Kahn's algorithm on the CDG of the paths of one layer (edges of consecutive arcs), plus
   optionally one more path: 1 if acyclic. */
static int layer_acyclic(const tc_graph *g, const tc_a2a_routing *r, const int32_t *layer, int32_t y, int64_t extra) {
  int64_t m = g->m;
  uint8_t *edge = calloc((size_t)(m * m), 1);
  int64_t *indeg = calloc((size_t)m, sizeof *indeg), *queue = malloc((size_t)m * sizeof *queue);
  for (int64_t p = 0; p < r->npaths; p++) {
    if (layer[p] != y && p != extra) continue;
    for (int64_t h = r->hop_off[p]; h + 1 < r->hop_off[p + 1]; h++) {
      uint8_t *e = &edge[r->arc[h] * m + r->arc[h + 1]];
      if (!*e) indeg[r->arc[h + 1]]++;
      *e = 1;
    }
  }
  int64_t head = 0, tail = 0;
  for (int64_t a = 0; a < m; a++)
    if (!indeg[a]) queue[tail++] = a;
  while (head < tail) {
    int64_t a = queue[head++];
    for (int64_t b = 0; b < m; b++)
      if (edge[a * m + b] && !--indeg[b]) queue[tail++] = b;
  }
  free(edge);
  free(indeg);
  free(queue);
  return tail == m;
}

static void expect_layers(const char *algo, const char *spec, int32_t want) {
  tc_graph *g = tc_test_spec(spec);
  tc_a2a_routing r;
  tc_error err;
  route(algo, spec, g, &r);
  int32_t *layer = malloc((size_t)r.npaths * sizeof *layer), n = -1;
  assert_int_equal(tc_a2a_routing_layers(g, &r, layer, &n, &err), TC_OK);
  if (n != want) fail_msg("%s on %s: %d layers, expected %d", algo, spec, n, want);
  for (int32_t y = 0; y < n; y++) assert_true(layer_acyclic(g, &r, layer, y, -1));
  /* greedy: a path in layer y closes a cycle in every earlier layer (even in its final
     CDG, which only grew after the path was placed) */
  for (int64_t p = 0; p < r.npaths; p++) {
    assert_true(layer[p] >= 0 && layer[p] < n);
    for (int32_t y = 0; y < layer[p]; y++) assert_false(layer_acyclic(g, &r, layer, y, p));
  }
  free(layer);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
}

/* The counts are this implementation's (paper 003 §5.5 reports at most 4 everywhere);
   acyclicity and greediness are checked independently. DOR on the 3-ary torus needs one:
   each ring is crossed at most one hop, and dimensions go in order. */
static void layers(void **state) {
  (void)state;
  expect_layers("dor", "torus(3,3,3)", 1);
  expect_layers("ewsp", "torus(3,3,3)", 3);
  expect_layers("ewsp", "hypercube(3)", 2);
  expect_layers("ewsp", "bipartite(4)", 2);
  expect_layers("ewsp", "genkautz(3,12)", 2);
  expect_layers("sssp", "torus(3,3,3)", 2);
  /* a unidirectional ring: every layer must break the ring; the greedy pass in routing
     order needs 3 layers where a dateline scheme needs 2 — greedy is not minimal */
  expect_layers("direct", "uniring(1,5)", 3);
}

/* ---- hand-built routings: checks, overflow, files ---- */

/* Two nodes with two parallel arcs each way: arcs 0, 1 = 0 -> 1, arcs 2, 3 = 1 -> 0. */
static tc_graph *doubled_pair(void) {
  static const int arcs[4][2] = {{0, 1}, {0, 1}, {1, 0}, {1, 0}};
  return tc_test_from_arcs(2, arcs, 4);
}

static void expect_finish_error(const tc_graph *g, tc_a2a_routing *r, const char *msg) {
  tc_error err;
  assert_int_equal(tc_a2a_routing_finish(g, r, &err), TC_EINPUT);
  assert_string_equal(err.msg, msg);
  assert_null(r->first); /* emptied */
  assert_int_equal(r->npaths, 0);
}

static void finish_checks(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("uniring(1,3)"); /* 0 -> 1 -> 2 -> 0: arc u is u -> u+1 */
  tc_a2a_routing r;
  tc_error err;
  const int64_t a01[1] = {0}, a12[1] = {1}, a20[1] = {2}, a012[2] = {0, 1}, a120[2] = {1, 2}, a201[2] = {2, 0};
  /* a full, valid routing, added out of order */
#define ALL_BUT(skip)                                                                                   \
  do {                                                                                                  \
    assert_int_equal(tc_a2a_routing_init(&r, 3, "hand", &err), TC_OK);                                  \
    if (skip != 0) assert_int_equal(tc_a2a_routing_add(&r, 2, 1, a201, 2, (tc_rat){1, 1}, &err), TC_OK); \
    if (skip != 1) assert_int_equal(tc_a2a_routing_add(&r, 0, 1, a01, 1, (tc_rat){1, 1}, &err), TC_OK);  \
    if (skip != 2) assert_int_equal(tc_a2a_routing_add(&r, 0, 2, a012, 2, (tc_rat){1, 1}, &err), TC_OK); \
    if (skip != 3) assert_int_equal(tc_a2a_routing_add(&r, 1, 2, a12, 1, (tc_rat){1, 1}, &err), TC_OK);  \
    if (skip != 4) assert_int_equal(tc_a2a_routing_add(&r, 1, 0, a120, 2, (tc_rat){1, 1}, &err), TC_OK); \
    if (skip != 5) assert_int_equal(tc_a2a_routing_add(&r, 2, 0, a20, 1, (tc_rat){1, 1}, &err), TC_OK);  \
  } while (0)
  ALL_BUT(-1);
  assert_int_equal(tc_a2a_routing_finish(g, &r, &err), TC_OK);
  assert_int_equal(r.first[0 * 3 + 2], 1); /* commodity (0,1) first, then (0,2) */
  assert_int_equal(r.commodity[1], 2);
  assert_int_equal(r.arc[r.hop_off[1] + 1], 1);
  assert_int_equal(tc_a2a_routing_add(&r, 0, 1, a01, 1, (tc_rat){1, 1}, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the routing is finished: no path can be added");
  tc_a2a_routing_destroy(&r);

  ALL_BUT(3);
  expect_finish_error(g, &r, "commodity (1,2) has no path");
  ALL_BUT(3);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 2, a120, 2, (tc_rat){1, 1}, &err), TC_OK);
  expect_finish_error(g, &r, "path 0 of commodity (1,2) ends at node 0");
  ALL_BUT(3);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 2, a20, 1, (tc_rat){1, 1}, &err), TC_OK);
  expect_finish_error(g, &r, "path 0 of commodity (1,2) is broken: arc 2 leaves node 2, not 1");
  ALL_BUT(3);
  const int64_t loop[4] = {1, 2, 0, 1};
  assert_int_equal(tc_a2a_routing_add(&r, 1, 2, loop, 4, (tc_rat){1, 1}, &err), TC_OK);
  expect_finish_error(g, &r, "path 0 of commodity (1,2) visits node 1 twice");
  ALL_BUT(3);
  const int64_t bad[1] = {7};
  assert_int_equal(tc_a2a_routing_add(&r, 1, 2, bad, 1, (tc_rat){1, 1}, &err), TC_OK);
  expect_finish_error(g, &r, "path 0 of commodity (1,2) uses arc 7, not an arc of the graph");
  ALL_BUT(3);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 2, a12, 1, (tc_rat){1, 2}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 2, a12, 1, (tc_rat){1, 3}, &err), TC_OK);
  expect_finish_error(g, &r, "the weights of commodity (1,2) sum to 5/6, not 1");
  ALL_BUT(-1);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 1, a12, 1, (tc_rat){1, 1}, &err), TC_OK);
  expect_finish_error(g, &r, "commodity (1,1) has 1 path but a node sends itself nothing");
#undef ALL_BUT
  assert_int_equal(tc_a2a_routing_init(&r, 3, "hand", &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 0, 3, a01, 1, (tc_rat){1, 1}, &err), TC_EINPUT);
  assert_string_equal(err.msg, "commodity (0,3) is not a pair of nodes 0..2");
  assert_int_equal(tc_a2a_routing_add(&r, 0, 1, a01, 1, (tc_rat){0, 1}, &err), TC_EINPUT);
  assert_string_equal(err.msg, "a path of commodity (0,1) has weight 0/1 (must be > 0)");
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);

  /* refusals of the baselines */
  static const int star[2][3] = {{0, 1, 1}, {1, 0, 1}};
  static const int sw[1] = {1};
  g = tc_test_graph(2, star, 2, sw, 1); /* a compute node and a switch */
  assert_int_equal(tc_a2a_route_ewsp(g, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "ewsp: alltoall needs at least 2 compute nodes (the graph has 1)");
  tc_graph_destroy(g);
  static const int oneway[1][2] = {{0, 1}};
  g = tc_test_from_arcs(2, oneway, 1);
  assert_int_equal(tc_a2a_route_direct(g, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "direct: node 1 cannot reach node 0: the graph is not strongly connected");
  tc_graph_destroy(g);
  g = tc_test_spec("hypercube(12)"); /* 4096 * 4095 pairs, k! paths at distance k */
  assert_int_equal(tc_a2a_route_ewsp(g, &r, &err), TC_ERANGE);
  assert_non_null(strstr(err.msg, "ewsp: the graph has more than 16777216 shortest paths between its pairs of nodes"));
  tc_graph_destroy(g);
}

/* Commodity (0,1) split 1/P1 : (P1-1)/P1 over the two arcs 0 -> 1, (1,0) 1/P2 : (P2-1)/P2:
   the common denominator P1 P2 > 2^62 cannot be a unit count. */
static void denominator_overflow(void **state) {
  (void)state;
  tc_graph *g = doubled_pair();
  const int64_t P1 = 4294967291LL, P2 = 4294967279LL, arc0[1] = {0}, arc1[1] = {1}, arc2[1] = {2}, arc3[1] = {3};
  tc_a2a_routing r;
  tc_error err;
  assert_int_equal(tc_a2a_routing_init(&r, 2, "primes", &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 0, 1, arc0, 1, (tc_rat){1, P1}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 0, 1, arc1, 1, (tc_rat){P1 - 1, P1}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 0, arc2, 1, (tc_rat){1, P2}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 0, arc3, 1, (tc_rat){P2 - 1, P2}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_finish(g, &r, &err), TC_OK);
  const char *msg = "the weights' common denominator exceeds 2^62 (path 2 has weight 1/4294967279): the shard "
                    "cannot be cut into that many units";
  tc_a2a_load l;
  tc_schedule s;
  assert_int_equal(tc_a2a_routing_load(g, &r, &l, &err), TC_ERANGE);
  assert_string_equal(err.msg, msg);
  assert_int_equal(tc_a2a_routing_lower(g, &r, &s, &err), TC_ERANGE);
  assert_string_equal(err.msg, msg);
  assert_int_equal(s.count, 0);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
}

/* ---- route files ---- */

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-a2a-route"); }

static void expect_same(const tc_a2a_routing *a, const tc_a2a_routing *b) {
  assert_int_equal(a->npaths, b->npaths);
  assert_memory_equal(a->commodity, b->commodity, (size_t)a->npaths * sizeof *a->commodity);
  assert_memory_equal(a->weight, b->weight, (size_t)a->npaths * sizeof *a->weight);
  assert_memory_equal(a->hop_off, b->hop_off, (size_t)(a->npaths + 1) * sizeof *a->hop_off);
  assert_memory_equal(a->arc, b->arc, (size_t)a->hop_off[a->npaths] * sizeof *a->arc);
  assert_string_equal(a->algorithm, b->algorithm);
}

static void expect_file_error(const tc_tmpdir *f, const tc_graph *g, const char *text, const char *msg) {
  char path[PATH_MAX], want[PATH_MAX + 256];
  tc_tmpdir_path(f, "bad.routes", path, sizeof path);
  tc_files_spill(path, text, strlen(text));
  tc_a2a_routing r;
  tc_error err;
  assert_int_equal(tc_a2a_routing_read(path, g, &r, &err), TC_EINPUT);
  snprintf(want, sizeof want, "%s%s", path, msg);
  assert_string_equal(err.msg, want);
  assert_int_equal(r.npaths, 0);
}

static void route_files(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_error err;
  tc_a2a_routing r, back;
  /* EwSP on Q3 round trips */
  tc_graph *g = tc_test_spec("hypercube(3)");
  route("ewsp", "hypercube(3)", g, &r);
  tc_tmpdir_path(f, "q3.routes", path, sizeof path);
  assert_int_equal(tc_a2a_routing_write(g, "hypercube(3)", &r, path, &err), TC_OK);
  assert_int_equal(tc_files_count(f->dir), 1); /* no temporary left behind */
  assert_int_equal(tc_a2a_routing_read(path, g, &back, &err), TC_OK);
  expect_same(&r, &back);
  tc_a2a_routing_destroy(&back);
  tc_a2a_routing_destroy(&r);
  tc_graph_destroy(g);
  /* parallel arcs: the second arc is named ":1" */
  g = doubled_pair();
  const int64_t arc1[1] = {1}, arc2[1] = {2}, arc3[1] = {3};
  assert_int_equal(tc_a2a_routing_init(&r, 2, "pair", &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 0, 1, arc1, 1, (tc_rat){1, 1}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 0, arc2, 1, (tc_rat){1, 3}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_add(&r, 1, 0, arc3, 1, (tc_rat){2, 3}, &err), TC_OK);
  assert_int_equal(tc_a2a_routing_finish(g, &r, &err), TC_OK);
  tc_tmpdir_path(f, "pair.routes", path, sizeof path);
  assert_int_equal(tc_a2a_routing_write(g, NULL, &r, path, &err), TC_OK);
  char *text = tc_files_slurp(path);
  assert_string_equal(text, "topocoll-routes 1\nnodes 2\nalgorithm pair\n# weight, then the nodes of the path from "
                      "its source to its destination\n1 0 1:1\n1/3 1 0\n2/3 1 0:1\n");
  free(text);
  assert_int_equal(tc_a2a_routing_read(path, g, &back, &err), TC_OK);
  expect_same(&r, &back);
  tc_a2a_routing_destroy(&back);
  tc_a2a_routing_destroy(&r);
  /* every refusal names the file and the line */
  const char *head = "topocoll-routes 1\nnodes 2\nalgorithm x\n";
  char bad[512];
  expect_file_error(f, g, "topocoll-routes 2\n", ":1: unsupported version \"2\" (expected 1)");
  expect_file_error(f, g, "routes 1\n", ":1: expected \"topocoll-routes ...\", found \"routes\"");
  expect_file_error(f, g, "topocoll-routes 1\nnodes 3\n", ":2: nodes \"3\", but the graph has 2");
  expect_file_error(f, g, "topocoll-routes 1\n# only a comment\n", ":2: ends before the line \"nodes ...\"");
  expect_file_error(f, g, "topocoll-routes 1\nnodes 2\nalgorithm a\001b\n",
                    ":3: algorithm \"a?b\" is not one word of at most 31 visible bytes");
  snprintf(bad, sizeof bad, "%s1 0 1\n3/2 1 0\n", head);
  expect_file_error(f, g, bad, ":5: weight \"3/2\" is more than 1");
  snprintf(bad, sizeof bad, "%s1 0 1\n0 1 0\n", head);
  expect_file_error(f, g, bad, ":5: weight \"0\" is not a positive integer or fraction p/q");
  snprintf(bad, sizeof bad, "%s1 0 1:2\n", head);
  expect_file_error(f, g, bad, ":4: hop \"1:2\": the graph has no such arc from the previous node");
  snprintf(bad, sizeof bad, "%s1 0 x\n", head);
  expect_file_error(f, g, bad, ":4: hop \"x\" does not name a node of the graph");
  snprintf(bad, sizeof bad, "%s1 2 0\n", head);
  expect_file_error(f, g, bad, ":4: source \"2\" is not a node of the graph");
  snprintf(bad, sizeof bad, "%s1 0\n", head);
  expect_file_error(f, g, bad, ":4: a path needs a destination after its source \"1 0\"");
  snprintf(bad, sizeof bad, "%s1 0 1\n1/2 1 0\n", head);
  expect_file_error(f, g, bad, ": the weights of commodity (1,0) sum to 1/2, not 1");
  snprintf(bad, sizeof bad, "%s1 0 1\n", head);
  expect_file_error(f, g, bad, ": commodity (1,0) has no path");
  tc_tmpdir_path(f, "missing.routes", path, sizeof path);
  assert_int_equal(tc_a2a_routing_read(path, g, &r, &err), TC_EIO);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ewsp),
      cmocka_unit_test(dor),
      cmocka_unit_test(distance_histograms),
      cmocka_unit_test(brute_force),
      cmocka_unit_test(sssp),
      cmocka_unit_test(layers),
      cmocka_unit_test(finish_checks),
      cmocka_unit_test(denominator_overflow),
      cmocka_unit_test_setup_teardown(route_files, make_tmpdir, tc_tmpdir_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
