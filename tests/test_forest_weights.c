/*
** test_forest_weights.c — weighted roots (forest.h): the water-filling allreduce weights,
** weighted forests as step schedules, and the case that motivates them, genkautz(4,64).
**
** Oracles:
**   - water-filling by hand: s_t = max(0, 1 − c(t)·T) with Σ s_t = 1 and c(t) the harmonic
**     combination of t's link capacities. On the triangle 0-1 (1), 1-2 (1), 0-2 (2), c =
**     (3/2, 1, 3/2): with all three active T = 2/(3/2 + 1 + 3/2) = 1/2, s = (1/4, 1/2, 1/4),
**     weights (1, 2, 1). On a star of GPUs with links 1, 2, 3 to one switch, c = (1/2, 1,
**     3/2): the two thinnest give T = 1/(3/2) = 2/3, and the third has c·T = 1 exactly, so
**     s = (2/3, 1/3, 0): weights (2, 1, 0), 0 on the switch;
**   - every compute node alike (hypercube(4), torus(4,4), dgx_a100(2)): weights all 1, uniform;
**   - genkautz(4,64), derived here: 4 nodes have a self-loop, so 3 links each way to others
**     (c = 3/2), the other 60 have 4 (c = 2). With the four thin nodes active T = 3/(4·3/2)
**     = 1/2, and c·T = 1 for the others: s = 1/4 on each thin node, 0 elsewhere — weights 1 on
**     the looped nodes. With W = 4 every cut S ⊉ V_c has w(S) ≤ 4 and, if it holds all four,
**     misses a node with 4 links in, or misses a looped node (w(S) = 3, 3 links in): no cut
**     beats 1, and V − {0} reaches it, so 1/x* = 1, k = 1: one tree per looped node per half,
**     each spanning 64 nodes over 63 arcs — 4·63 = 252, every arc between two different
**     nodes used by exactly one tree per half (checked), algbw 4 per half, 2 for the
**     allreduce (capacity units). A tree of 64 nodes from a root with 3 links out and
**     4 links out per node after it needs depth 3 (1 + 3 + 12 = 16 < 64 = 16 + 48), and the
**     trees have exactly that depth (checked): lowered at P chunks each half takes 3 + P − 1
**     steps and every step loads the busiest link with one chunk, 1/P of a shard (M/4), so
**     tau(P) = 2·(P + 2)/P (B = 4 links): 6, 4, 3, 5/2, 9/4, 17/8, 33/16 at P = 1 .. 64. The
**     cost model's allreduce bound there is 2 (max(d/c_in, d/c_out) = 4/3 for the looped
**     nodes, 2(N−1)d/Σc_out = 2·63·4/252 = 2), so at P = 64 the schedule is 33/32 of the
**     bound — within the 1.1 the plan promises; the equal-share forest's is 1347/512 = 2.63;
**   - the lowered layout of a weighted forest: W shards, w_v consecutive ones owned by v, a
**     run cut at shard boundaries (fig2toy(), weights 2,1,1,1,0,1,1,1: node 0's 8 trees come
**     in batches of 5 and 3, so with k = 4 units per shard the first batch's run [0,5) is
**     shard 0's [0,4) and shard 1's [0,1)); every lowered schedule passes the verifier;
**   - too many shares for a step schedule, and weights changed after verification, are
**     refused with their lines.
*/
#include <inttypes.h>
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/cost.h"
#include "topocoll/forest.h"

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

static void auto_weights(const tc_graph *g, int64_t *w, int *uniform) {
  tc_error err;
  if (tc_forest_allreduce_weights(g, w, uniform, &err)) fail_msg("weights: %s", err.msg);
}

static void test_water_filling_by_hand(void **state) {
  (void)state;
  int tri[][3] = {{0, 1, 1}, {1, 0, 1}, {1, 2, 1}, {2, 1, 1}, {0, 2, 2}, {2, 0, 2}};
  tc_graph *g = tc_test_graph(3, tri, 6, NULL, 0);
  int64_t w[4];
  int uniform = -1;
  auto_weights(g, w, &uniform);
  assert_int_equal(uniform, 0);
  assert_int_equal(w[0], 1);
  assert_int_equal(w[1], 2);
  assert_int_equal(w[2], 1);
  tc_graph_destroy(g);
  int star[][3] = {{0, 3, 1}, {3, 0, 1}, {1, 3, 2}, {3, 1, 2}, {2, 3, 3}, {3, 2, 3}};
  int sw[] = {3};
  g = tc_test_graph(4, star, 6, sw, 1);
  auto_weights(g, w, &uniform);
  assert_int_equal(uniform, 0);
  const int64_t want[4] = {2, 1, 0, 0};
  assert_memory_equal(w, want, sizeof want);
  tc_graph_destroy(g);
}

static void test_alike_nodes_get_one_each(void **state) {
  (void)state;
  const char *specs[] = {"hypercube(4)", "torus(4,4)", "dgx_a100(2)"};
  for (int i = 0; i < 3; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    int64_t *w = malloc((size_t)g->n * sizeof *w);
    int uniform = 0;
    auto_weights(g, w, &uniform);
    assert_int_equal(uniform, 1);
    for (int32_t v = 0; v < g->n; v++) assert_int_equal(w[v], g->kind[v] == TC_NODE_COMPUTE);
    free(w);
    tc_graph_destroy(g);
  }
}

static int has_loop(const tc_graph *g, int32_t v) {
  for (int64_t a = g->out_off[v]; a < g->out_off[v + 1]; a++)
    if (g->dst[a] == v) return 1;
  return 0;
}

/* Depth of an out-tree (or in-tree) batch in hops: every edge is one arc here (no switch). */
static int32_t tree_depth(const tc_forest_part *p, const tc_forest_batch *b, int32_t n) {
  int32_t level[64] = {0}, depth = 0;
  assert_true(n <= 64);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int32_t e = 0; e < b->nedges; e++) {
      int32_t par = p->in_trees ? b->to[e] : b->from[e], child = p->in_trees ? b->from[e] : b->to[e];
      if (level[par] + 1 > level[child] && child != b->root) {
        level[child] = level[par] + 1;
        changed = 1;
      }
    }
  }
  for (int32_t v = 0; v < n; v++) depth = level[v] > depth ? level[v] : depth;
  return depth;
}

static void test_genkautz_4_64(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("genkautz(4,64)");
  int64_t w[64];
  int uniform = 1, looped = 0;
  auto_weights(g, w, &uniform);
  assert_int_equal(uniform, 0);
  for (int32_t v = 0; v < 64; v++) {
    looped += has_loop(g, v);
    assert_int_equal(w[v], has_loop(g, v));
  }
  assert_int_equal(looped, 4);
  tc_forest f;
  tc_error err;
  tc_forest_options fo = {.coll = TC_COLL_ALLREDUCE, .weights = w};
  assert_int_equal(tc_forest_build(g, &fo, &f, &err), TC_OK);
  assert_int_equal(f.weight_total, 4);
  assert_rat(f.algbw, rat(2, 1), "allreduce algbw");
  for (int i = 0; i < 2; i++) {
    const tc_forest_part *p = &f.part[i];
    assert_rat(p->opt.inv_x, rat(1, 1), "1/x*");
    assert_int_equal(p->opt.k, 1);
    assert_rat(p->algbw, rat(4, 1), "part algbw");
    int64_t load[256] = {0};
    assert_true(g->m == 256);
    for (int64_t b = 0; b < p->nbatches; b++) {
      const tc_forest_batch *bt = &p->batch[b];
      assert_int_equal(bt->mult, 1);
      assert_int_equal(w[bt->root], 1);
      assert_int_equal(tree_depth(p, bt, 64), 3);
      for (int64_t h = 0; h < bt->hop_off[bt->nroutes]; h++) load[bt->hop_arc[h]]++;
    }
    assert_int_equal(p->nbatches, 4);
    for (int64_t a = 0; a < g->m; a++) assert_int_equal(load[a], g->src[a] != g->dst[a]);
  }
  for (int64_t P = 1; P <= 64; P *= 2) {
    tc_schedule s;
    tc_cost c;
    assert_int_equal(tc_forest_lower(g, &f, P, &s, &err), TC_OK);
    assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
    assert_int_equal(s.nshards, 4);
    assert_int_equal(c.steps, 2 * (P + 2));
    assert_rat(c.tau, rat(2 * (P + 2), P), "tau(P)");
    assert_rat(c.tau_optimal, rat(2, 1), "the cost model's allreduce bound");
    if (P == 64) { /* within 1.1 of the bound: 33/32 */
      tc_rat ratio;
      assert_int_equal(tc_rat_div(c.tau, c.tau_optimal, &ratio, &err), TC_OK);
      assert_rat(ratio, rat(33, 32), "tau / tau*");
    }
    tc_cost_destroy(&c);
    tc_schedule_destroy(&s);
  }
  tc_forest_destroy(&f);
  /* equal shares, for comparison: the cut of 63 nodes with 3 links in, 21/16 per half */
  fo.weights = NULL;
  assert_int_equal(tc_forest_build(g, &fo, &f, &err), TC_OK);
  assert_rat(f.part[1].opt.inv_x, rat(21, 1), "equal shares' 1/x*");
  tc_schedule s;
  tc_cost c;
  assert_int_equal(tc_forest_lower(g, &f, 64, &s, &err), TC_OK);
  assert_int_equal(tc_schedule_cost(g, &s, &c, &err), TC_OK);
  assert_rat(c.tau, rat(1347, 512), "equal shares' tau(64)");
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
}

static void test_weighted_layout(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("fig2toy()");
  const int64_t w[11] = {2, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0};
  const int32_t owner[8] = {0, 0, 1, 2, 3, 5, 6, 7};
  tc_error err;
  for (int coll = TC_COLL_ALLGATHER; coll <= TC_COLL_ALLREDUCE; coll++) {
    tc_forest f;
    tc_forest_options fo = {.coll = (tc_collective)coll, .weights = w};
    assert_int_equal(tc_forest_build(g, &fo, &f, &err), TC_OK);
    for (int64_t P = 1; P <= 3; P += 2) {
      tc_schedule s;
      if (tc_forest_lower(g, &f, P, &s, &err)) fail_msg("%s P = %" PRId64 ": %s", tc_collective_name(coll), P, err.msg);
      assert_int_equal(s.nshards, 8);
      assert_memory_equal(s.owner, owner, sizeof owner);
      assert_int_equal(s.units, 4 * P); /* k = 4 in both parts */
      tc_schedule_destroy(&s);
    }
    if (coll == TC_COLL_ALLGATHER) {
      /* root 0's first batch (5 trees) runs over its two shards: [0,4) of shard 0, [0,1) of shard 1 */
      const tc_forest_batch *b0 = &f.part[0].batch[0];
      assert_int_equal(b0->root, 0);
      assert_int_equal(b0->mult, 5);
      tc_schedule s;
      assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_OK);
      int64_t arc = b0->hop_arc[0];
      int whole = 0, rest = 0;
      for (int64_t i = 0; i < s.count; i++) {
        const tc_transfer *t = &s.xfer[i];
        if (t->arc != arc || t->step != 1) continue;
        whole += t->shard == 0 && t->lo == 0 && t->hi == 4;
        rest += t->shard == 1 && t->lo == 0 && t->hi == 1;
      }
      assert_int_equal(b0->route_units[0], 5); /* one route carries the whole batch */
      assert_int_equal(whole, 1);
      assert_int_equal(rest, 1);
      tc_schedule_destroy(&s);
    }
    tc_forest_destroy(&f);
  }
  tc_graph_destroy(g);
}

static void test_too_many_shares(void **state) {
  (void)state;
  int two[][3] = {{0, 1, 1}, {1, 0, 1}};
  tc_graph *g = tc_test_graph(2, two, 2, NULL, 0);
  const int64_t w[2] = {1, TC_FOREST_MAX_SHARDS};
  tc_forest f;
  tc_error err;
  tc_forest_options fo = {.coll = TC_COLL_ALLGATHER, .weights = w};
  assert_int_equal(tc_forest_build(g, &fo, &f, &err), TC_OK);
  assert_int_equal(f.weight_total, TC_FOREST_MAX_SHARDS + 1);
  tc_schedule s;
  assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_ERANGE);
  assert_string_equal(err.msg, "forestcoll: the weights add up to 1048577 shares; a step schedule holds at most "
                               "1048576 shards (divide the weights by a common factor, or use smaller ones)");
  assert_int_equal(s.count, 0);
  /* weights changed after verification are caught before anything is laid out */
  f.weights[1] = -1;
  assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: the forest gives node 1 weight -1, not a number of shares");
  f.weights[0] = f.weights[1] = 0;
  assert_int_equal(tc_forest_lower(g, &f, 1, &s, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: the forest's weights are all 0");
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_water_filling_by_hand),
      cmocka_unit_test(test_alike_nodes_get_one_each),
      cmocka_unit_test(test_genkautz_4_64),
      cmocka_unit_test(test_weighted_layout),
      cmocka_unit_test(test_too_many_shares),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
