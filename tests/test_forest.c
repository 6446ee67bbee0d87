/*
** test_forest.c — the ForestColl pipeline (forest.h): trees built, mapped onto the fabric
** and verified, against the paper's numbers and brute force, and the verifier against
** mutations.
**
** Oracles:
**   - paper 001 §5.1 / §5.3 / §5.4 with trees, not only the search: the measured algbw of the
**     verified forests (from the per-link loads) on A100 n = 1..4, MI250 n = 1, 2 and 8+8, the
**     Fig. 2 toy (8 batches of one tree: k = 1, N = 8), allreduce = N·x* / 2 (173.33 on A100
**     2x8), reduce-scatter = allgather on these symmetric fabrics, fixed k (MI250 2x16 k = 2:
**     341.33; A100 2x8 k = 1..10);
**   - brute force: on random small fabrics with switches (bidirectional and Eulerian
**     digraphs), the verified algbw of all three collectives equals N / max over all cuts of
**     |S ∩ V_c| / B⁺(S) (allreduce: T_RS + T_AG), with the greedy removal and with Algorithm 4
**     forced, and every arc's load is re-added here from the routes;
**   - weighted roots: the same brute force with random weights 0..3 (algbw = W / max over cuts
**     of w(S ∩ V_c) / B⁺(S)), k·w_v trees counted at every root, and weights all 1 building
**     the unweighted forest exactly (the same batches and routes, no weights kept);
**   - the verifier: each mutation of a valid forest (a broken route, two parents, missing
**     units, a root with more than k trees, an overloaded arc, a cut that does not re-add, a
**     promise the trees miss, the wrong tree direction; with weights: a tree too many or too
**     few for k·w, a weight on a switch, a negative weight, all weights 0) is refused with its
**     exact message;
**   - progress (topocoll/progress.h): on dgx_a100(2) the phases in order, each counted one
**     from 0 to its total one step at a time (20 switches, 16 roots), and the same forest
**     with and without reports.
*/
#include <stdio.h>

#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/forest.h"

static tc_rat rat(int64_t n, int64_t d) {
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_make(n, d, &r, &err), TC_OK);
  return r;
}

static void build_w(const tc_graph *g, tc_collective coll, int64_t k, int exact, const int64_t *w, tc_forest *f) {
  tc_error err;
  tc_forest_options o = {.coll = coll, .k = k, .exact_split = exact, .weights = w};
  if (tc_forest_build(g, &o, f, &err)) fail_msg("forest: %s", err.msg);
  assert_int_equal(f->verified, 1);
}

static void build(const tc_graph *g, tc_collective coll, int64_t k, int exact, tc_forest *f) {
  build_w(g, coll, k, exact, NULL, f);
}

static void assert_algbw(const tc_forest *f, int64_t num, int64_t den) {
  if (tc_rat_cmp(f->algbw, rat(num, den)) != 0)
    fail_msg("algbw %lld/%lld, want %lld/%lld", (long long)f->algbw.num, (long long)f->algbw.den, (long long)num,
             (long long)den);
}

static void test_paper(void **state) {
  (void)state;
  struct {
    const char *spec;
    int64_t num, den;
  } rows[] = {{"dgx_a100(1)", 2400, 7}, {"dgx_a100(2)", 1040, 3}, {"dgx_a100(3)", 300, 1}, {"dgx_a100(4)", 800, 3},
              {"mi250(1)", 2400, 7},    {"mi250(2)", 5312, 15},  {"mi250(2,8)", 208, 1},  {"fig2toy(3)", 24, 1}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    tc_graph *g = tc_test_spec(rows[i].spec);
    tc_forest f;
    build(g, TC_COLL_ALLGATHER, 0, 0, &f);
    assert_algbw(&f, rows[i].num, rows[i].den);
    tc_forest_destroy(&f);
    tc_graph_destroy(g);
  }
  /* the toy: k = 1, one tree per compute node, no batch split */
  tc_graph *g = tc_test_spec("fig2toy()");
  tc_forest f;
  build(g, TC_COLL_ALLGATHER, 0, 0, &f);
  assert_int_equal(f.part[0].opt.k, 1);
  assert_int_equal(f.part[0].nbatches, 8);
  for (int i = 0; i < 8; i++) assert_int_equal(f.part[0].batch[i].mult, 1);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
  /* allreduce N·x* / 2 and reduce-scatter = allgather on A100 2x8 */
  g = tc_test_spec("dgx_a100(2)");
  build(g, TC_COLL_ALLREDUCE, 0, 0, &f);
  assert_algbw(&f, 520, 3);
  assert_int_equal(f.nparts, 2);
  assert_int_equal(f.part[0].in_trees, 1);
  assert_int_equal(f.part[1].in_trees, 0);
  tc_forest_destroy(&f);
  build(g, TC_COLL_REDUCE_SCATTER, 0, 0, &f);
  assert_algbw(&f, 1040, 3);
  tc_forest_destroy(&f);
  /* fixed k on A100 2x8: §5.1's U* row with trees, algbw = 16·k/U* */
  static const int64_t a100[10][2] = {{7, 150},  {14, 150}, {21, 150}, {28, 150}, {35, 150},
                                      {42, 150}, {97, 300}, {37, 100}, {5, 12},   {139, 300}};
  for (int64_t k = 1; k <= 10; k++) {
    build(g, TC_COLL_ALLGATHER, k, 0, &f);
    tc_rat want;
    tc_error err;
    assert_int_equal(tc_rat_div(rat(16 * k, 1), rat(a100[k - 1][0], a100[k - 1][1]), &want, &err), TC_OK);
    assert_algbw(&f, want.num, want.den);
    assert_int_equal(f.part[0].opt.optimal, 0);
    tc_forest_destroy(&f);
  }
  tc_graph_destroy(g);
  g = tc_test_spec("mi250(2)");
  build(g, TC_COLL_ALLGATHER, 2, 0, &f);
  assert_algbw(&f, 1024, 3); /* 341.33 */
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
}

/* ---- brute force ---------------------------------------------------------------------- */

static tc_graph *random_fabric(tc_rng *r, int n, int directed) {
  tc_graph_builder gb;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&gb, n, &err), TC_OK);
  int ns = (int)tci_rng_below(r, (uint64_t)(n - 1));
  for (int w = n - ns; w < n; w++) assert_int_equal(tc_graph_builder_set_kind(&gb, w, TC_NODE_SWITCH, &err), TC_OK);
  if (!directed) {
    int links = n + (int)tci_rng_below(r, (uint64_t)(2 * n));
    for (int i = 0; i < links; i++) {
      int u = (int)tci_rng_below(r, (uint64_t)n), v = (int)tci_rng_below(r, (uint64_t)n);
      if (u != v) assert_int_equal(tc_graph_builder_add_edge(&gb, u, v, 1 + (int64_t)tci_rng_below(r, 6), &err), TC_OK);
    }
  } else {
    int cycles = 1 + (int)tci_rng_below(r, 5);
    for (int c = 0; c < cycles; c++) {
      int len = 2 + (int)tci_rng_below(r, (uint64_t)(n - 1)), node[16];
      for (int i = 0; i < len; i++) node[i] = (int)tci_rng_below(r, (uint64_t)n);
      int64_t cap = 1 + (int64_t)tci_rng_below(r, 5);
      for (int i = 0; i < len; i++)
        if (node[i] != node[(i + 1) % len])
          assert_int_equal(tc_graph_builder_add_arc(&gb, node[i], node[(i + 1) % len], cap, &err), TC_OK);
    }
  }
  assert_int_equal(tc_graph_builder_finish(&gb, &g, &err), TC_OK);
  return g;
}

/* W / max_S w(S ∩ V_c) / B⁺(S) over every cut S ⊉ V_c (of g, or of g^T when `reverse`);
   w NULL: N / max |S ∩ V_c| / B⁺(S). */
static tc_rat brute_algbw_w(const tc_graph *g, int reverse, const int64_t *w) {
  tc_rat best = {0, 1};
  int64_t total = 0;
  for (int v = 0; v < g->n; v++) total += g->kind[v] == TC_NODE_COMPUTE ? (w ? w[v] : 1) : 0;
  for (uint32_t s = 1; s < (1u << g->n); s++) {
    int64_t comp = 0, ex = 0;
    int misses = 0;
    for (int v = 0; v < g->n; v++)
      if (g->kind[v] == TC_NODE_COMPUTE) {
        if ((s >> v) & 1) comp += w ? w[v] : 1;
        else misses = 1;
      }
    if (comp == 0 || !misses) continue;
    for (int64_t a = 0; a < g->m; a++) {
      int x = reverse ? g->dst[a] : g->src[a], y = reverse ? g->src[a] : g->dst[a];
      ex += ((s >> x) & 1) && !((s >> y) & 1) ? g->cap[a] : 0;
    }
    tc_rat r = rat(comp, ex);
    if (tc_rat_cmp(r, best) > 0) best = r;
  }
  tc_rat out;
  tc_error err;
  assert_int_equal(tc_rat_div(rat(total, 1), best, &out, &err), TC_OK);
  return out;
}

static tc_rat brute_algbw(const tc_graph *g, int reverse) { return brute_algbw_w(g, reverse, NULL); }

/* The trees rooted at each node, counted from the batches: k·w_v (k when w is NULL). */
static void check_roots(const tc_graph *g, const tc_forest_part *p, const int64_t *w) {
  int64_t per_root[16] = {0};
  for (int64_t b = 0; b < p->nbatches; b++) per_root[p->batch[b].root] += p->batch[b].mult;
  for (int v = 0; v < g->n; v++)
    assert_int_equal(per_root[v], g->kind[v] == TC_NODE_COMPUTE ? p->opt.k * (w ? w[v] : 1) : 0);
}

/* Two forests with the same batches, edges and routes. */
static void assert_same_forest(const tc_forest *a, const tc_forest *b) {
  assert_int_equal(a->nparts, b->nparts);
  assert_int_equal(tc_rat_cmp(a->algbw, b->algbw), 0);
  for (int i = 0; i < a->nparts; i++) {
    const tc_forest_part *p = &a->part[i], *q = &b->part[i];
    assert_int_equal(p->opt.k, q->opt.k);
    assert_int_equal(p->nbatches, q->nbatches);
    assert_int_equal(p->opt.iterations, q->opt.iterations);
    assert_int_equal(p->pack_maxflows, q->pack_maxflows);
    for (int64_t j = 0; j < p->nbatches; j++) {
      const tc_forest_batch *x = &p->batch[j], *y = &q->batch[j];
      assert_int_equal(x->root, y->root);
      assert_int_equal(x->mult, y->mult);
      assert_int_equal(x->nedges, y->nedges);
      assert_int_equal(x->nroutes, y->nroutes);
      assert_memory_equal(x->from, y->from, (size_t)x->nedges * sizeof *x->from);
      assert_memory_equal(x->to, y->to, (size_t)x->nedges * sizeof *x->to);
      assert_memory_equal(x->route_units, y->route_units, (size_t)x->nroutes * sizeof *x->route_units);
      assert_memory_equal(x->hop_arc, y->hop_arc, (size_t)x->hop_off[x->nroutes] * sizeof *x->hop_arc);
    }
  }
}

/* The loads re-added from the routes: within U·b_e, and the max load / b_e the algbw says. */
static void check_loads(const tc_graph *g, const tc_forest_part *p) {
  int64_t *load = calloc((size_t)g->m, sizeof *load);
  for (int64_t b = 0; b < p->nbatches; b++)
    for (int64_t r = 0; r < p->batch[b].nroutes; r++)
      for (int64_t h = p->batch[b].hop_off[r]; h < p->batch[b].hop_off[r + 1]; h++)
        load[p->batch[b].hop_arc[h]] += p->batch[b].route_units[r];
  for (int64_t a = 0; a < g->m; a++)
    assert_true((__int128)load[a] * p->opt.U.den <= (__int128)p->opt.U.num * g->cap[a]);
  free(load);
}

static void test_brute_force(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 11);
  int checked = 0;
  for (int iter = 0; iter < 240; iter++) {
    int n = 3 + (int)tci_rng_below(&r, 6);
    tc_graph *g = random_fabric(&r, n, iter & 1);
    tc_error err;
    if (tc_forest_check_fabric(g, 1, &err) != TC_OK) {
      tc_graph_destroy(g);
      continue;
    }
    checked++;
    tc_rat ag = brute_algbw(g, 0), rs = brute_algbw(g, 1);
    for (int exact = 0; exact < 2; exact++) {
      tc_forest f;
      build(g, TC_COLL_ALLGATHER, 0, exact, &f);
      assert_int_equal(tc_rat_cmp(f.algbw, ag), 0);
      check_loads(g, &f.part[0]);
      tc_forest_destroy(&f);
      build(g, TC_COLL_REDUCE_SCATTER, 0, exact, &f);
      assert_int_equal(tc_rat_cmp(f.algbw, rs), 0);
      tc_forest_destroy(&f);
      build(g, TC_COLL_ALLREDUCE, 0, exact, &f);
      tc_rat prod, sum, ar;
      assert_int_equal(tc_rat_mul(ag, rs, &prod, &err), TC_OK);
      assert_int_equal(tc_rat_add(ag, rs, &sum, &err), TC_OK);
      assert_int_equal(tc_rat_div(prod, sum, &ar, &err), TC_OK);
      assert_int_equal(tc_rat_cmp(f.algbw, ar), 0);
      tc_forest_destroy(&f);
    }
    tc_graph_destroy(g);
  }
  assert_true(checked >= 120);
}

/* Weighted roots on random fabrics with switches: the three collectives reach W over the
   weighted cut maximum (greedy and exact switch removal), every root has k·w_v trees, and
   weights all 1 give the unweighted forest itself. */
static void test_weighted_brute_force(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20261125);
  int checked = 0, zeros = 0;
  for (int iter = 0; iter < 160; iter++) {
    int n = 3 + (int)tci_rng_below(&r, 6);
    tc_graph *g = random_fabric(&r, n, iter & 1);
    tc_error err;
    if (tc_forest_check_fabric(g, 1, &err) != TC_OK) {
      tc_graph_destroy(g);
      continue;
    }
    int64_t w[16] = {0}, one[16] = {0}, W = 0;
    while (W == 0)
      for (int v = 0; v < n; v++)
        if (g->kind[v] == TC_NODE_COMPUTE) {
          W += w[v] = (int64_t)tci_rng_below(&r, 4);
          one[v] = 1;
        }
    for (int v = 0; v < n; v++) zeros += g->kind[v] == TC_NODE_COMPUTE && w[v] == 0;
    checked++;
    tc_rat ag = brute_algbw_w(g, 0, w), rs = brute_algbw_w(g, 1, w);
    for (int exact = 0; exact < 2; exact++) {
      tc_forest f, u;
      build_w(g, TC_COLL_ALLREDUCE, 0, exact, w, &f);
      assert_int_equal(tc_rat_cmp(f.part[0].algbw, rs), 0);
      assert_int_equal(tc_rat_cmp(f.part[1].algbw, ag), 0);
      assert_int_equal(f.weight_total, W);
      int unit = 1;
      for (int v = 0; v < n; v++) unit &= w[v] == one[v];
      if (unit) assert_null(f.weights);
      else assert_memory_equal(f.weights, w, (size_t)n * sizeof *w);
      for (int i = 0; i < 2; i++) {
        check_roots(g, &f.part[i], w);
        check_loads(g, &f.part[i]);
      }
      tc_forest_destroy(&f);
      build_w(g, TC_COLL_ALLGATHER, 0, exact, one, &f);
      build(g, TC_COLL_ALLGATHER, 0, exact, &u);
      assert_null(f.weights);
      assert_same_forest(&f, &u);
      tc_forest_destroy(&f);
      tc_forest_destroy(&u);
    }
    tc_graph_destroy(g);
  }
  assert_true(checked >= 80);
  assert_true(zeros >= 40);
}

/* Weights all 1 on the paper's fabrics: the same forest as without weights, trees and routes. */
static void test_unit_weights_are_unweighted(void **state) {
  (void)state;
  const char *specs[] = {"fig2toy()", "dgx_a100(2)", "hypercube(4)"};
  for (int i = 0; i < 3; i++) {
    tc_graph *g = tc_test_spec(specs[i]);
    int64_t *one = calloc((size_t)g->n, sizeof *one);
    for (int32_t v = 0; v < g->n; v++) one[v] = g->kind[v] == TC_NODE_COMPUTE;
    tc_forest f, u;
    build_w(g, TC_COLL_ALLREDUCE, 0, 0, one, &f);
    build(g, TC_COLL_ALLREDUCE, 0, 0, &u);
    assert_null(f.weights);
    assert_int_equal(f.weight_total, tc_graph_count_kind(g, TC_NODE_COMPUTE));
    assert_same_forest(&f, &u);
    tc_forest_destroy(&f);
    tc_forest_destroy(&u);
    free(one);
    tc_graph_destroy(g);
  }
}

/* ---- the verifier against mutations --------------------------------------------------- */

typedef void (*mutation)(tc_graph *g, tc_forest *f);

/* The first route of the first edge of batch 0 with at least 2 hops (through a switch). */
static int64_t route_through_switch(const tc_forest_batch *b) {
  for (int64_t r = 0; r < b->nroutes; r++)
    if (b->hop_off[r + 1] - b->hop_off[r] >= 2) return r;
  return -1;
}

static void m_break_route(tc_graph *g, tc_forest *f) {
  (void)g;
  tc_forest_batch *b = &f->part[0].batch[0];
  int64_t r = route_through_switch(b);
  b->hop_arc[b->hop_off[r + 1] - 1] = b->hop_arc[b->hop_off[r]]; /* last hop := first hop */
}
static void m_two_parents(tc_graph *g, tc_forest *f) {
  (void)g;
  tc_forest_batch *b = &f->part[0].batch[0];
  b->to[1] = b->to[0];
}
static void m_units(tc_graph *g, tc_forest *f) {
  (void)g;
  f->part[0].batch[0].route_units[0] += 1;
}
static void m_short_root(tc_graph *g, tc_forest *f) {
  (void)g;
  f->part[0].batch[0].mult += 1;
  for (int32_t i = 0; i < f->part[0].batch[0].nedges; i++)
    f->part[0].batch[0].route_units[f->part[0].batch[0].route_off[i]] += 1;
}
static void m_cut(tc_graph *g, tc_forest *f) {
  (void)g;
  f->part[0].opt.cut[0] = f->part[0].opt.cut[0] == 0 ? 1 : 0;
}
/* A consistent but weaker cut, V − {node 0} (7 compute nodes, 10b + b leaving): the trees
   beat the bound it claims to be tight, so the claim is wrong. */
static void m_promise(tc_graph *g, tc_forest *f) {
  tc_forest_optimum *o = &f->part[0].opt;
  o->cut = realloc(o->cut, (size_t)g->n * sizeof *o->cut);
  o->cut_len = 0;
  for (int32_t v = 1; v < g->n; v++) o->cut[o->cut_len++] = v;
  o->cut_compute = 7;
  o->cut_exit = 11;
  o->inv_x = rat(7, 11);
}
static void m_direction(tc_graph *g, tc_forest *f) {
  (void)g;
  f->part[0].in_trees = 1;
}

static int64_t find_arc(const tc_graph *g, int32_t u, int32_t v) {
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v) return a;
  fail_msg("no arc %d -> %d", u, v);
  return -1;
}

/* fig2toy(): reroute batch 0's first intra-cluster route c -> w_i -> c' over the global switch
   w0 = 8, whose unit links the other trees already fill. */
static void m_overload(tc_graph *g, tc_forest *f) {
  tc_forest_batch *b = &f->part[0].batch[0];
  for (int64_t r = 0; r < b->nroutes; r++) {
    int64_t h = b->hop_off[r];
    if (b->hop_off[r + 1] - h == 2 && g->dst[b->hop_arc[h]] != 8) {
      int32_t from = g->src[b->hop_arc[h]], to = g->dst[b->hop_arc[h + 1]];
      b->hop_arc[h] = find_arc(g, from, 8);
      b->hop_arc[h + 1] = find_arc(g, 8, to);
      return;
    }
  }
  fail_msg("batch 0 has no intra-cluster route");
}

/* Weighted fig2toy() (weights 2,1,1,1,0,1,1,1 on GPUs 0-7: k = 4, so 8 trees at GPU 0 and
   none at GPU 4). */
static const int64_t toy_w[11] = {2, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0};
static void m_w_extra_tree(tc_graph *g, tc_forest *f) { /* one more tree at root 0 */
  m_short_root(g, f);
}
static void m_w_zero_root(tc_graph *g, tc_forest *f) { /* GPU 4 claims a share it has no tree for */
  (void)g;
  f->weights[4] = 1;
}
static void m_w_switch(tc_graph *g, tc_forest *f) {
  (void)g;
  f->weights[9] = 1;
}
static void m_w_negative(tc_graph *g, tc_forest *f) {
  (void)g;
  f->weights[1] = -1;
}
static void m_w_all_zero(tc_graph *g, tc_forest *f) {
  for (int32_t v = 0; v < g->n; v++) f->weights[v] = 0;
}

static void mutate_w(const char *spec, int64_t k, const int64_t *w, mutation m, const char *want) {
  tc_graph *g = tc_test_spec(spec);
  tc_forest f;
  build_w(g, TC_COLL_ALLGATHER, k, 0, w, &f);
  m(g, &f);
  tc_error err;
  assert_int_equal(tc_forest_verify(g, &f, &err), TC_EFAIL);
  if (strcmp(err.msg, want)) fail_msg("got  %s\nwant %s", err.msg, want);
  assert_int_equal(f.verified, 0);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
}

static void mutate(const char *spec, int64_t k, mutation m, const char *want) { mutate_w(spec, k, NULL, m, want); }

static void test_mutations(void **state) {
  (void)state;
  /* fig2toy(): 8 GPUs (0-7), w0 = 8, w1 = 9, w2 = 10, k = 1 */
  tc_graph *g = tc_test_spec("fig2toy()");
  tc_forest f;
  build(g, TC_COLL_ALLGATHER, 0, 0, &f);
  const tc_forest_batch *b0 = &f.part[0].batch[0];
  int64_t r = route_through_switch(b0);
  assert_true(r >= 0);
  int32_t e = 0;
  while (b0->route_off[e + 1] <= r) e++;
  char want[256];
  snprintf(want, sizeof want, "forestcoll: verifier: part 0 batch 0: a route of edge %d -> %d breaks off at node %d",
           b0->from[e], b0->to[e], g->dst[b0->hop_arc[b0->hop_off[r + 1] - 2]]);
  int32_t to0 = b0->to[0], from1 = b0->from[1];
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
  mutate("fig2toy()", 0, m_break_route, want);
  snprintf(want, sizeof want, "forestcoll: verifier: part 0 batch 0: node %d has two parents (%d)", to0, from1);
  mutate("fig2toy()", 0, m_two_parents, want);
  g = tc_test_spec("dgx_a100(2)");
  build(g, TC_COLL_ALLGATHER, 0, 0, &f);
  b0 = &f.part[0].batch[0];
  snprintf(want, sizeof want,
           "forestcoll: verifier: part 0 batch 0: the routes of edge %d -> %d carry %lld trees, the batch has %lld",
           b0->from[0], b0->to[0], (long long)b0->mult + 1, (long long)b0->mult);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
  mutate("dgx_a100(2)", 0, m_units, want);
  mutate("fig2toy()", 0, m_short_root, "forestcoll: verifier: part 0: root 0 has 2 trees, not k = 1");
  mutate("fig2toy()", 0, m_cut,
         "forestcoll: verifier: part 0: the bottleneck cut re-adds to 3/13, not the claimed 1/x* = 1/1");
  mutate("fig2toy()", 0, m_promise, "forestcoll: verifier: part 0: the trees reach 8/1, the search promised 88/7");
  mutate("fig2toy()", 0, m_direction, "forestcoll: verifier: part 0 has the wrong tree direction");
  /* the overloaded arc: the first arc (in id order) whose re-added load passes its capacity */
  g = tc_test_spec("fig2toy()");
  build(g, TC_COLL_ALLGATHER, 0, 0, &f);
  m_overload(g, &f);
  int64_t *load = calloc((size_t)g->m, sizeof *load);
  for (int64_t bb = 0; bb < f.part[0].nbatches; bb++)
    for (int64_t rr = 0; rr < f.part[0].batch[bb].nroutes; rr++)
      for (int64_t h = f.part[0].batch[bb].hop_off[rr]; h < f.part[0].batch[bb].hop_off[rr + 1]; h++)
        load[f.part[0].batch[bb].hop_arc[h]] += f.part[0].batch[bb].route_units[rr];
  int64_t over = 0;
  while (over < g->m && load[over] <= g->cap[over]) over++;
  assert_true(over < g->m);
  snprintf(want, sizeof want,
           "forestcoll: verifier: part 0: arc %d -> %d carries %lld trees, more than U·b = 1/1·%lld", g->src[over],
           g->dst[over], (long long)load[over], (long long)g->cap[over]);
  free(load);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
  mutate("fig2toy()", 0, m_overload, want);
  /* weighted roots: the weighted forest passes as built, then each mutation is refused */
  g = tc_test_spec("fig2toy()");
  build_w(g, TC_COLL_ALLGATHER, 0, 0, toy_w, &f);
  assert_int_equal(f.part[0].opt.k, 4);
  assert_int_equal(f.weight_total, 8);
  check_roots(g, &f.part[0], toy_w);
  tc_forest_destroy(&f);
  tc_graph_destroy(g);
  mutate_w("fig2toy()", 0, toy_w, m_w_extra_tree, "forestcoll: verifier: part 0: root 0 has 9 trees, not k·w = 4·2");
  mutate_w("fig2toy()", 0, toy_w, m_w_zero_root, "forestcoll: verifier: part 0: root 4 has 0 trees, not k·w = 4·1");
  mutate_w("fig2toy()", 0, toy_w, m_w_switch, "forestcoll: verifier: switch 9 has weight 1");
  mutate_w("fig2toy()", 0, toy_w, m_w_negative, "forestcoll: verifier: node 1 has weight -1 < 0");
  mutate_w("fig2toy()", 0, toy_w, m_w_all_zero, "forestcoll: verifier: every weight is 0");
}

/* The reports of one build, folded: a phase's name is recorded when it changes, with the
   last done and total seen; counted phases must go 0, 1, ..., total. */
typedef struct phase_log {
  int count;
  char name[16][64];
  double last_done[16], total[16];
} phase_log;

static void record_phase(void *ctx, const char *phase, double done, double total) {
  phase_log *log = ctx;
  int i = log->count - 1;
  if (i < 0 || strcmp(log->name[i], phase)) {
    assert_true(log->count < 16);
    i = log->count++;
    snprintf(log->name[i], sizeof log->name[i], "%s", phase);
    assert_true(done == 0); /* a phase begins at 0 */
  } else {
    assert_true(total > 0 && done == log->last_done[i] + 1 && total == log->total[i]);
  }
  log->last_done[i] = done;
  log->total[i] = total;
}

static void test_progress(void **state) {
  (void)state;
  static const struct {
    const char *name;
    double total;
  } want[] = {{"forest: optimality search", 0}, {"forest: removing switches", 20},
              {"forest: packing trees, roots done", 16}, {"forest: mapping trees to paths", 0},
              {"forest: verifying the trees", 0}};
  tc_graph *g = tc_test_spec("dgx_a100(2)");
  phase_log log = {0};
  tc_forest_options o = {.coll = TC_COLL_ALLGATHER, .progress = record_phase, .progress_ctx = &log};
  tc_forest f, plain;
  tc_error err;
  if (tc_forest_build(g, &o, &f, &err)) fail_msg("dgx_a100(2): %s", err.msg);
  assert_int_equal(log.count, 5);
  for (int i = 0; i < 5; i++) {
    assert_string_equal(log.name[i], want[i].name);
    assert_true(log.total[i] == want[i].total && log.last_done[i] == want[i].total); /* ended at its total */
  }
  o.progress = NULL;
  if (tc_forest_build(g, &o, &plain, &err)) fail_msg("dgx_a100(2) without progress: %s", err.msg);
  assert_int_equal(plain.part[0].opt.k, f.part[0].opt.k);
  assert_int_equal(tc_rat_cmp(plain.algbw, f.algbw), 0);
  assert_int_equal(plain.part[0].nbatches, f.part[0].nbatches);
  assert_int_equal(plain.part[0].logical_arcs, f.part[0].logical_arcs);
  tc_forest_destroy(&f);
  tc_forest_destroy(&plain);
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_paper),
      cmocka_unit_test(test_brute_force),
      cmocka_unit_test(test_weighted_brute_force),
      cmocka_unit_test(test_unit_weights_are_unweighted),
      cmocka_unit_test(test_mutations),
      cmocka_unit_test(test_progress),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
