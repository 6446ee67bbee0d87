/*
** test_forest_lower.c — ForestColl's trees as pipelined step schedules (tc_forest_lower,
** forest.h) and the registry's forestcoll row.
**
** Oracles:
**   - the verifier (tc_schedule_verify) on allgather, reduce-scatter and allreduce of
**     fig2toy(), dgx_a100(2), mi250(2,8), genkautz(4,64) and hypercube(4), with several P;
**   - the layout and step counts re-derived here from the forest alone: K·P units, shards
**     owned by the compute nodes in id order, one transfer per route hop and chunk, and
**     D + P − 1 steps per part, D the deepest tree in hops (levels found here by relaxing
**     every edge until nothing changes, not by the lowering's breadth-first pass);
**   - T_B: the per-step link loads re-counted from the forest and the timing rule of
**     forest.h (chunk j on hop i of an edge u -> v at step level(u) + j + i), with their own
**     exact arithmetic, equal to tc_schedule_cost's step by step; and the bounds
**     d/algbw <= tau(P) <= (D + P − 1)/P · d/algbw per part (tau* of the fluid forest is
**     d/algbw: T_B = (M/B)·tau with B = d·b, T = M/algbw);
**   - closed forms: on uniring(1,N) the chains take N + P − 2 steps at tau = (N−1)/N for
**     every P; on the ring whose every link passes a switch (c_i -> s_i -> c_{i+1}) they
**     take 2N + P − 3 steps, and each link carries ceil(t/2) chunks at step t while the
**     pipeline fills, N − 1 at most, so Σ_t max load = (N−1)(P+1) chunks when P >= 2N−3
**     and 2N − 2 when P = 1: tau = (N−1)/N · (P+1)/P in both cases;
**   - refusals with their exact lines: P < 1, an unverified forest, a forest of another
**     graph (or one whose root or arcs are not this graph's), steps beyond 2^31-1, the
**     memory limit; forestcoll refuses broadcast and a graph ForestColl cannot handle.
*/
#include <inttypes.h>
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/budget.h"
#include "topocoll/cost.h"
#include "topocoll/forest.h"
#include "topocoll/verify.h"

static tc_rat rat(int64_t n, int64_t d) {
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_make(n, d, &r, &err), TC_OK);
  return r;
}

static void assert_rat(tc_rat got, tc_rat want, const char *what) {
  if (tc_rat_cmp(got, want) != 0)
    fail_msg("%s: %" PRId64 "/%" PRId64 ", want %" PRId64 "/%" PRId64, what, got.num, got.den, want.num, want.den);
}

static void build(const tc_graph *g, tc_collective coll, tc_forest *f) {
  tc_error err;
  tc_forest_options o = {.coll = coll};
  if (tc_forest_build(g, &o, f, &err)) fail_msg("forest: %s", err.msg);
}

static void lower(const tc_graph *g, const tc_forest *f, int64_t P, tc_schedule *s) {
  tc_error err;
  if (tc_forest_lower(g, f, P, s, &err)) fail_msg("lower P = %" PRId64 ": %s", P, err.msg);
}

/* ---- the forest's own numbers, re-derived ---- */

/* Levels of batch b: d (out-trees) or h (in-trees) by relaxing every edge until nothing
   changes; returns the depth (deepest d, or h of the root). span[e]: longest route. */
static int64_t levels(const tc_graph *g, const tc_forest_part *p, const tc_forest_batch *b, int64_t *level,
                      int64_t *span) {
  for (int32_t v = 0; v < g->n; v++) level[v] = 0;
  for (int32_t e = 0; e < b->nedges; e++) {
    span[e] = 0;
    for (int64_t r = b->route_off[e]; r < b->route_off[e + 1]; r++)
      if (b->hop_off[r + 1] - b->hop_off[r] > span[e]) span[e] = b->hop_off[r + 1] - b->hop_off[r];
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int32_t e = 0; e < b->nedges; e++) {
      int64_t want = level[b->from[e]] + span[e];
      if (want > level[b->to[e]] && (p->in_trees || b->to[e] != b->root)) {
        level[b->to[e]] = want;
        changed = 1;
      }
    }
  }
  int64_t depth = 0;
  for (int32_t v = 0; v < g->n; v++)
    if (level[v] > depth) depth = level[v];
  return p->in_trees ? level[b->root] : depth;
}

static int64_t lcm(int64_t a, int64_t b) {
  int64_t x = a, y = b;
  while (y) {
    int64_t t = x % y;
    x = y;
    y = t;
  }
  return a / x * b;
}

static int64_t node_bandwidth(const tc_graph *g) {
  int64_t best = 0;
  for (int32_t u = 0; u < g->n; u++) {
    int64_t sum = 0;
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) sum += g->cap[a];
    if (sum > best) best = sum;
  }
  return best;
}

/* Everything the lowering promises, checked against the forest: verified, layout, counts,
   steps, the per-step loads of the cost model re-counted, and the bounds on tau. */
static void check_lowering(const tc_graph *g, const tc_forest *f, int64_t P, const char *what) {
  tc_schedule s;
  tc_error err;
  lower(g, f, P, &s);
  if (tc_schedule_verify(g, &s, &err)) fail_msg("%s P = %" PRId64 ": %s", what, P, err.msg);
  assert_string_equal(s.algorithm, "forestcoll");
  assert_int_equal(s.coll, f->coll);
  assert_int_equal(s.nodes, g->n);
  /* shards: the compute nodes in id order */
  int32_t nc = 0;
  for (int32_t v = 0; v < g->n; v++)
    if (g->kind[v] == TC_NODE_COMPUTE) {
      assert_true(nc < s.nshards);
      assert_int_equal(tc_schedule_owner(&s, nc), v);
      nc++;
    }
  assert_int_equal(s.nshards, nc);
  assert_int_equal(s.owner == NULL, nc == g->n);
  int64_t K = f->nparts == 2 ? lcm(f->part[0].opt.k, f->part[1].opt.k) : f->part[0].opt.k;
  assert_int_equal(s.units, K * P);

  /* steps and transfers per part, and the loads each step puts on each arc */
  int64_t *level = malloc((size_t)g->n * sizeof *level), *span = malloc((size_t)g->n * sizeof *span);
  int64_t *load = calloc((size_t)s.steps * (size_t)g->m, sizeof *load);
  assert_non_null(level);
  assert_non_null(span);
  assert_non_null(load);
  int64_t offset = 0, transfers = 0, d = node_bandwidth(g);
  tc_rat bound = rat(0, 1), fluid = rat(0, 1);
  for (int p = 0; p < f->nparts; p++) {
    const tc_forest_part *part = &f->part[p];
    int64_t D = 0;
    for (int64_t bi = 0; bi < part->nbatches; bi++) {
      const tc_forest_batch *b = &part->batch[bi];
      int64_t depth = levels(g, part, b, level, span);
      if (depth > D) D = depth;
      for (int32_t e = 0; e < b->nedges; e++)
        for (int64_t r = b->route_off[e]; r < b->route_off[e + 1]; r++)
          for (int64_t h = b->hop_off[r]; h < b->hop_off[r + 1]; h++)
            for (int64_t j = 1; j <= P; j++) {
              int64_t t = offset + level[b->from[e]] + j + (h - b->hop_off[r]);
              assert_true(t >= 1 && t <= s.steps);
              load[(t - 1) * g->m + b->hop_arc[h]] += b->route_units[r] * (K / part->opt.k);
              transfers++;
            }
    }
    if (f->coll == TC_COLL_ALLREDUCE && p == 0) assert_int_equal(s.rs_steps, D + P - 1);
    offset += D + P - 1;
    /* per part: tau* = d·N/(N·algbw) of the part, and its pipelined bound (D+P−1)/P times that */
    tc_rat star, scaled;
    assert_int_equal(tc_rat_div(rat(d, 1), part->algbw, &star, &err), TC_OK);
    assert_int_equal(tc_rat_add(fluid, star, &fluid, &err), TC_OK);
    assert_int_equal(tc_rat_mul(star, rat(D + P - 1, P), &scaled, &err), TC_OK);
    assert_int_equal(tc_rat_add(bound, scaled, &bound, &err), TC_OK);
  }
  assert_int_equal(s.steps, offset);
  if (f->coll != TC_COLL_ALLREDUCE) assert_int_equal(s.rs_steps, 0);
  assert_int_equal(s.count, transfers);

  tc_cost c;
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_int_equal(c.degree, d);
  tc_rat sum = rat(0, 1);
  for (int32_t t = 0; t < s.steps; t++) {
    int64_t best_load = 0, best_cap = 1;
    for (int64_t a = 0; a < g->m; a++) {
      int64_t l = load[t * g->m + a];
      if ((__int128)l * best_cap > (__int128)best_load * g->cap[a]) best_load = l, best_cap = g->cap[a];
    }
    tc_rat step = rat(best_load, best_cap * s.units); /* shards per unit capacity */
    assert_rat(c.step_load[t], step, what);
    assert_int_equal(tc_rat_add(sum, step, &sum, &err), TC_OK);
  }
  tc_rat tau;
  assert_int_equal(tc_rat_mul(sum, rat(d, s.nshards), &tau, &err), TC_OK);
  assert_rat(c.tau, tau, what);
  if (tc_rat_cmp(c.tau, fluid) < 0 || tc_rat_cmp(c.tau, bound) > 0)
    fail_msg("%s P = %" PRId64 ": tau %g outside [%g, %g]", what, P, tc_rat_to_double(c.tau), tc_rat_to_double(fluid),
             tc_rat_to_double(bound));
  tc_cost_destroy(&c);
  free(level);
  free(span);
  free(load);
  tc_schedule_destroy(&s);
}

static void lowered_and_verified(void **state) {
  (void)state;
  static const char *const specs[] = {"fig2toy()", "dgx_a100(2)", "mi250(2,8)", "genkautz(4,64)", "hypercube(4)"};
  static const int64_t chunks[] = {1, 2, 5};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_ALLREDUCE; c++) {
      tc_forest f;
      build(g, (tc_collective)c, &f);
      char what[96];
      snprintf(what, sizeof what, "%s %s", specs[i], tc_collective_name((tc_collective)c));
      for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) check_lowering(g, &f, chunks[k], what);
      tc_forest_destroy(&f);
    }
    tc_graph_destroy(g);
  }
}

/* ---- closed forms ---- */

static void expect_cost(const tc_graph *g, tc_collective coll, int64_t P, int32_t steps, tc_rat tau) {
  tc_forest f;
  tc_schedule s;
  tc_cost c;
  tc_error err;
  build(g, coll, &f);
  lower(g, &f, P, &s);
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  if (s.steps != steps || tc_rat_cmp(c.tau, tau) != 0)
    fail_msg("%s on %d nodes, P = %" PRId64 ": %d steps, tau %" PRId64 "/%" PRId64 "; want %d, %" PRId64 "/%" PRId64,
             tc_collective_name(coll), g->n, P, s.steps, c.tau.num, c.tau.den, steps, tau.num, tau.den);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_forest_destroy(&f);
}

/* uniring(1,N): each root's only tree is the chain around the ring; every arc carries one
   chunk of each of N−1 shards in consecutive steps, so tau = (N−1)/N whatever P. */
static void closed_form_ring(void **state) {
  (void)state;
  for (int32_t n = 3; n <= 6; n++) {
    char spec[32];
    snprintf(spec, sizeof spec, "uniring(1,%d)", n);
    tc_graph *g = tc_test_spec(spec);
    for (int64_t P = 1; P <= 8; P *= 2) {
      expect_cost(g, TC_COLL_ALLGATHER, P, (int32_t)(n + P - 2), rat(n - 1, n));
      expect_cost(g, TC_COLL_REDUCE_SCATTER, P, (int32_t)(n + P - 2), rat(n - 1, n));
      expect_cost(g, TC_COLL_ALLREDUCE, P, (int32_t)(2 * (n + P - 2)), rat(2 * (n - 1), n));
    }
    tc_graph_destroy(g);
  }
}

/* The ring through switches: c_i -> s_i -> c_{i+1}, capacity 1 (compute nodes 0..N-1,
   switch s_i = N + i). Two hops per tree edge: 2N + P − 3 steps, tau = (N−1)/N · (P+1)/P
   for P = 1 and P >= 2N − 3 (file comment). */
static void closed_form_switched_ring(void **state) {
  (void)state;
  for (int n = 3; n <= 5; n++) {
    int arcs[10][3], sw[5];
    for (int i = 0; i < n; i++) {
      arcs[2 * i][0] = i, arcs[2 * i][1] = n + i, arcs[2 * i][2] = 1;
      arcs[2 * i + 1][0] = n + i, arcs[2 * i + 1][1] = (i + 1) % n, arcs[2 * i + 1][2] = 1;
      sw[i] = n + i;
    }
    tc_graph *g = tc_test_graph(2 * n, (const int(*)[3])arcs, 2 * n, sw, n);
    int64_t ps[] = {1, 2 * n - 3, 2 * n, 17};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      int64_t P = ps[k];
      int32_t steps = (int32_t)(2 * n + P - 3);
      tc_rat tau = rat((int64_t)(n - 1) * (P + 1), (int64_t)n * P);
      expect_cost(g, TC_COLL_ALLGATHER, P, steps, tau);
      expect_cost(g, TC_COLL_REDUCE_SCATTER, P, steps, tau);
      expect_cost(g, TC_COLL_ALLREDUCE, P, 2 * steps, rat(2 * tau.num, tau.den));
    }
    tc_graph_destroy(g);
  }
}

/* ---- the registry row ---- */

static void registry_row(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("fig2toy()");
  tc_schedule s, direct;
  tc_cost c;
  tc_error err;
  const tc_algorithm_info *a = tc_algorithm_find("forestcoll");
  assert_non_null(a);
  assert_int_equal(a->collectives, TC_COLL_BIT(TC_COLL_ALLGATHER) | TC_COLL_BIT(TC_COLL_REDUCE_SCATTER) |
                                       TC_COLL_BIT(TC_COLL_ALLREDUCE));
  assert_true(tc_algorithm_pipelined(a));
  /* --chunks P is the pipelining depth; 0 means 1; the pipeline's schedule is the lowering's */
  for (int64_t P = 0; P <= 3; P += 3) {
    tc_collective_opts o = {.chunks = P};
    assert_int_equal(tc_collective_build(g, "forestcoll", TC_COLL_ALLREDUCE, &o, &s, &c, &err), TC_OK);
    tc_forest f;
    build(g, TC_COLL_ALLREDUCE, &f);
    lower(g, &f, P ? P : 1, &direct);
    assert_int_equal(s.count, direct.count);
    assert_int_equal(s.steps, direct.steps);
    assert_int_equal(s.units, direct.units);
    assert_memory_equal(s.xfer, direct.xfer, (size_t)s.count * sizeof *s.xfer);
    tc_schedule_destroy(&direct);
    tc_forest_destroy(&f);
    tc_schedule_destroy(&s);
    tc_cost_destroy(&c);
  }
  tc_collective_opts o = {.chunks = 0};
  assert_int_equal(tc_collective_build(g, "forestcoll", TC_COLL_BROADCAST, &o, &s, &c, &err), TC_EINPUT);
  char list[1024], want[1200];
  snprintf(want, sizeof want, "forestcoll builds allgather, reduce-scatter and allreduce, not broadcast (use --algo "
           "%s)", tc_test_algos(TC_COLL_BROADCAST, " or ", list, sizeof list));
  assert_string_equal(err.msg, want);
  tc_graph_destroy(g);
  /* a graph ForestColl refuses: compute node 1 of the path 0 -> 1 -> 2 reaches nothing back */
  static const int path[][2] = {{0, 1}, {1, 2}};
  g = tc_test_from_arcs(3, path, 2);
  assert_int_equal(tc_collective_build(g, "forestcoll", TC_COLL_ALLGATHER, &o, &s, &c, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: compute node 1 cannot reach compute node 0");
  tc_graph_destroy(g);
}

/* ---- refusals ---- */

static void refusals(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("fig2toy()"), *other = tc_test_spec("hypercube(4)");
  tc_forest f;
  tc_schedule s;
  tc_error err;
  build(g, TC_COLL_ALLGATHER, &f);
  assert_int_equal(tc_forest_lower(g, &f, 0, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: P = 0 chunks per tree; it must be >= 1");
  assert_int_equal(s.count, 0);
  assert_null(s.xfer);
  assert_int_equal(tc_forest_lower(other, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: the forest spans 8 compute nodes, the graph has 16");
  assert_int_equal(tc_forest_lower(NULL, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: no graph to lower");
  /* a forest that claims to be verified but is not this graph's: refused, never followed */
  int32_t root = f.part[0].batch[0].root;
  f.part[0].batch[0].root = 8; /* a switch */
  assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: batch 0 is not a spanning tree of this graph's 8 compute nodes");
  f.part[0].batch[0].root = root;
  int64_t arc = f.part[0].batch[0].hop_arc[0];
  f.part[0].batch[0].hop_arc[0] = g->m;
  assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: batch 0 routes over arc 32, which this graph does not have");
  f.part[0].batch[0].hop_arc[0] = arc;
  assert_null(s.xfer);
  /* on uniring(1,3) the only trees are the chains of two arcs: 2 hops deep, 6 hops in all */
  tc_graph *ring = tc_test_spec("uniring(1,3)");
  tc_forest chains;
  build(ring, TC_COLL_ALLGATHER, &chains);
  assert_int_equal(tc_forest_lower(ring, &chains, INT32_MAX, &s, &err), TC_ERANGE);
  assert_string_equal(err.msg, "forestcoll: P = 2147483647 chunks per tree make more than 2^31-1 steps (trees 2 "
                               "hops deep)");
  /* 6 hops x 8192 chunks = 49152 transfers of 32 bytes: 1.6 MB */
  tc_memory_limit_set(1000000, NULL);
  int rc = tc_forest_lower(ring, &chains, 8192, &s, &err);
  tc_memory_limit_set(0, NULL);
  assert_int_equal(rc, TC_ERANGE);
  assert_string_equal(err.msg, "the forestcoll allgather schedule with P = 8192 needs about 1.6 MB (49 K transfers) "
                               "but the memory limit is 1.0 MB; raise the limit with tc_memory_limit_set");
  assert_null(s.xfer);
  lower(ring, &chains, 8192, &s); /* within the default limit */
  assert_int_equal(s.count, 49152);
  tc_schedule_destroy(&s);
  tc_forest_destroy(&chains);
  tc_graph_destroy(ring);
  f.verified = 0;
  assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: the forest has not passed tc_forest_verify; only a verified forest is "
                               "lowered");
  tc_forest_destroy(&f);
  tc_graph_destroy(other);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lowered_and_verified), cmocka_unit_test(closed_form_ring),
      cmocka_unit_test(closed_form_switched_ring), cmocka_unit_test(registry_row), cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
