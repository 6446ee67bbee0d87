/*
** test_forest_search.c — ForestColl's optimality search (paper 001 Algorithms 1 and 3,
** Prop. 3, the bottleneck cut) and its fabric checks.
**
** Oracles:
**   - the paper's Fig. 2 toy (built here link by link): 1/x* = 1/b, k = 1, y = b, S* =
**     cluster 1 + w1, and Algorithm 1's iteration count ⌈log2((N−1)(X−1)X)⌉ = 10;
**   - brute force: on hundreds of random small fabrics with switches (bidirectional ones and
**     Eulerian digraphs made of random weighted cycles), the maximum over every cut S ⊉ V_c
**     of |S ∩ V_c| / B⁺(S) equals 1/x* from both searches, and the reported cut has that
**     ratio when its capacities are re-added here;
**   - Prop. 3 against trying k = 1, 2, ... until every U·b_e is an integer;
**   - Algorithm 3 against brute force: U* = max over cuts of the least U with
**     Σ_{e leaving S} ⌊U·b_e⌋ ≥ k·|S ∩ V_c|, for k = 1..4, Newton and bisection alike;
**   - Thm 15: U* / k ≤ 1/x* + 1/(k·min b_e) for every fixed k;
**   - weighted roots, the same brute force with random weights 0..4 on the compute nodes:
**     1/x* = max over cuts S ⊉ V_c of w(S ∩ V_c) / B⁺(S), the cut re-added, Prop. 3, and
**     Algorithm 3 with Σ ⌊U·b_e⌋ ≥ k·w(S ∩ V_c); all weights 1 is the unweighted search;
**   - the fabric refusals and the weights' refusals, message by message.
*/
#include <stdio.h>

#include "tc_test.h"
#include "core/rng.h"
#include "forest/forest_internal.h"
#include "topocoll/forest.h"

static tc_rat rat(int64_t n, int64_t d) {
  tc_rat r;
  tc_error err;
  assert_int_equal(tc_rat_make(n, d, &r, &err), TC_OK);
  return r;
}

static void assert_rat(tc_rat got, int64_t n, int64_t d) {
  tc_rat want = rat(n, d);
  if (tc_rat_cmp(got, want) != 0)
    fail_msg("got %lld/%lld, want %lld/%lld", (long long)got.num, (long long)got.den, (long long)want.num,
             (long long)want.den);
}

/* Fig. 2: c(i,j) = 4(i-1) + (j-1) for i = 1, 2, j = 1..4; w1 = 8, w2 = 9, w0 = 10. */
static tc_graph *toy(int b) {
  tc_graph_builder gb;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&gb, 11, &err), TC_OK);
  for (int c = 0; c < 8; c++) {
    assert_int_equal(tc_graph_builder_add_edge(&gb, c, 8 + c / 4, 10 * b, &err), TC_OK);
    assert_int_equal(tc_graph_builder_add_edge(&gb, c, 10, b, &err), TC_OK);
  }
  for (int w = 8; w < 11; w++) assert_int_equal(tc_graph_builder_set_kind(&gb, w, TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&gb, &g, &err), TC_OK);
  return g;
}

static void test_toy(void **state) {
  (void)state;
  tc_error err;
  for (int search = 0; search < 2; search++) {
    tc_graph *g = toy(3);
    tc_forest_optimum o;
    assert_int_equal(tc_forest_search_optimum(g, 0, search, &o, &err), TC_OK);
    assert_int_equal(o.optimal, 1);
    assert_rat(o.inv_x, 1, 3); /* 1/x* = 1/b */
    assert_int_equal(o.k, 1);
    assert_rat(o.U, 1, 3);
    assert_rat(o.y, 3, 1);
    /* S* = {c(1,1..4), w1}: B⁺ = 4b */
    assert_int_equal(o.cut_len, 5);
    int32_t want[5] = {0, 1, 2, 3, 8};
    for (int i = 0; i < 5; i++) assert_int_equal(o.cut[i], want[i]);
    assert_int_equal(o.cut_compute, 4);
    assert_int_equal(o.cut_exit, 12);
    /* Algorithm 1 as printed halves ⌈log2((N−1)(X−1)X)⌉ times; with b = 1, X = 11 that is
       ⌈log2(7·10·11)⌉ = 10 (digest of paper 001, §7 item 3). */
    if (search == TC_FOREST_BISECT) {
      tc_forest_optimum o1;
      tc_graph *g1 = toy(1);
      assert_int_equal(tc_forest_search_optimum(g1, 0, TC_FOREST_BISECT, &o1, &err), TC_OK);
      assert_int_equal(o1.iterations, 10);
      assert_rat(o1.inv_x, 1, 1);
      tc_forest_optimum_destroy(&o1);
      tc_graph_destroy(g1);
    }
    tc_forest_optimum_destroy(&o);
    tc_graph_destroy(g);
  }
}

/* ---- brute force -------------------------------------------------------------------------- */

typedef struct fabric_case {
  tc_graph *g;
} fabric_case;

static tc_graph *random_fabric(tc_rng *r, int n, int directed) {
  tc_graph_builder gb;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&gb, n, &err), TC_OK);
  int ns = (int)tci_rng_below(r, (uint64_t)(n - 1)); /* keep >= 2 compute nodes */
  for (int w = n - ns; w < n; w++) assert_int_equal(tc_graph_builder_set_kind(&gb, w, TC_NODE_SWITCH, &err), TC_OK);
  if (!directed) {
    int links = n + (int)tci_rng_below(r, (uint64_t)(2 * n));
    for (int i = 0; i < links; i++) {
      int u = (int)tci_rng_below(r, (uint64_t)n), v = (int)tci_rng_below(r, (uint64_t)n);
      if (u != v)
        assert_int_equal(tc_graph_builder_add_edge(&gb, u, v, 1 + (int64_t)tci_rng_below(r, 12), &err), TC_OK);
    }
  } else { /* Eulerian: a sum of random directed cycles */
    int cycles = 1 + (int)tci_rng_below(r, 5);
    for (int c = 0; c < cycles; c++) {
      int len = 2 + (int)tci_rng_below(r, (uint64_t)(n - 1)), node[16];
      for (int i = 0; i < len; i++) node[i] = (int)tci_rng_below(r, (uint64_t)n);
      int64_t cap = 1 + (int64_t)tci_rng_below(r, 9);
      for (int i = 0; i < len; i++)
        if (node[i] != node[(i + 1) % len])
          assert_int_equal(tc_graph_builder_add_arc(&gb, node[i], node[(i + 1) % len], cap, &err), TC_OK);
    }
  }
  assert_int_equal(tc_graph_builder_finish(&gb, &g, &err), TC_OK);
  return g;
}

/* w(S ∩ V_c) and whether S misses a compute node, for the node set s (w NULL: 1 each). */
static int64_t weight_in(const tc_graph *g, uint32_t s, const int64_t *w, int *misses) {
  int64_t comp = 0;
  *misses = 0;
  for (int v = 0; v < g->n; v++)
    if (g->kind[v] == TC_NODE_COMPUTE) {
      if ((s >> v) & 1) comp += w ? w[v] : 1;
      else *misses = 1;
    }
  return comp;
}

/* max over S ⊉ V_c, w(S ∩ V_c) > 0 of w(S ∩ V_c) / B⁺(S) (w NULL: |S ∩ V_c|). */
static tc_rat brute_inv_x(const tc_graph *g, const int64_t *w) {
  tc_rat best = {0, 1};
  for (uint32_t s = 1; s < (1u << g->n); s++) {
    int misses;
    int64_t comp = weight_in(g, s, w, &misses), ex = 0;
    if (comp == 0 || !misses) continue;
    for (int64_t a = 0; a < g->m; a++) ex += ((s >> g->src[a]) & 1) && !((s >> g->dst[a]) & 1) ? g->cap[a] : 0;
    assert_true(ex > 0); /* the fabric check passed: compute nodes reach out */
    tc_rat r = rat(comp, ex);
    if (tc_rat_cmp(r, best) > 0) best = r;
  }
  return best;
}

/* Least U with Σ_{e leaving S} floor(U b_e) ≥ T, over the candidates j/b_e. */
static tc_rat brute_least_u(const tc_graph *g, uint32_t s, int64_t T) {
  tc_rat best = {-1, 1};
  int64_t nd = 0;
  for (int64_t a = 0; a < g->m; a++) nd += ((s >> g->src[a]) & 1) && !((s >> g->dst[a]) & 1);
  for (int64_t a = 0; a < g->m; a++) {
    if (!(((s >> g->src[a]) & 1) && !((s >> g->dst[a]) & 1))) continue;
    for (int64_t j = 1; j <= T + nd; j++) {
      tc_rat c = rat(j, g->cap[a]);
      if (best.num >= 0 && tc_rat_cmp(c, best) >= 0) break;
      int64_t sum = 0;
      for (int64_t e = 0; e < g->m; e++)
        if (((s >> g->src[e]) & 1) && !((s >> g->dst[e]) & 1)) sum += (int64_t)((__int128)c.num * g->cap[e] / c.den);
      if (sum >= T) best = c;
    }
  }
  return best;
}

static tc_rat brute_fixed_u(const tc_graph *g, int64_t k, const int64_t *w) {
  tc_rat best = {0, 1};
  for (uint32_t s = 1; s < (1u << g->n); s++) {
    int misses;
    int64_t comp = weight_in(g, s, w, &misses);
    if (comp == 0 || !misses) continue;
    tc_rat u = brute_least_u(g, s, k * comp);
    if (tc_rat_cmp(u, best) > 0) best = u;
  }
  return best;
}

static int64_t cut_exit(const tc_graph *g, const tc_forest_optimum *o, const int64_t *w, int64_t *compute) {
  uint8_t in[64] = {0};
  for (int i = 0; i < o->cut_len; i++) in[o->cut[i]] = 1;
  int64_t ex = 0;
  *compute = 0;
  for (int v = 0; v < g->n; v++) *compute += in[v] && g->kind[v] == TC_NODE_COMPUTE ? (w ? w[v] : 1) : 0;
  for (int64_t a = 0; a < g->m; a++) ex += in[g->src[a]] && !in[g->dst[a]] ? g->cap[a] : 0;
  return ex;
}

static void test_brute_force(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20241125);
  int checked = 0;
  for (int iter = 0; iter < 600; iter++) {
    int n = 3 + (int)tci_rng_below(&r, 7), directed = iter & 1;
    tc_graph *g = random_fabric(&r, n, directed);
    tc_error err;
    if (tc_forest_check_fabric(g, 1, &err) != TC_OK) {
      tc_graph_destroy(g);
      continue;
    }
    checked++;
    tc_rat want = brute_inv_x(g, NULL);
    for (int search = 0; search < 2; search++) {
      tc_forest_optimum o;
      assert_int_equal(tc_forest_search_optimum(g, 0, search, &o, &err), TC_OK);
      if (tc_rat_cmp(o.inv_x, want) != 0)
        fail_msg("case %d (n=%d %s, search %d): 1/x* = %lld/%lld, brute force %lld/%lld", iter, n,
                 directed ? "directed" : "bidirectional", search, (long long)o.inv_x.num, (long long)o.inv_x.den,
                 (long long)want.num, (long long)want.den);
      int64_t comp, ex = cut_exit(g, &o, NULL, &comp);
      assert_int_equal(ex, o.cut_exit);
      assert_int_equal(comp, o.cut_compute);
      assert_int_equal(tc_rat_cmp(rat(comp, ex), want), 0);
      /* Prop. 3: the least k with every (k·1/x*)·b_e integral */
      int64_t k = 1;
      for (;; k++) {
        tc_rat U;
        assert_int_equal(tc_rat_mul(rat(k, 1), want, &U, &err), TC_OK);
        int ok = 1;
        for (int64_t a = 0; a < g->m; a++) ok &= (U.num * g->cap[a]) % U.den == 0;
        if (ok) break;
      }
      assert_int_equal(o.k, k);
      tc_rat U;
      assert_int_equal(tc_rat_mul(rat(k, 1), want, &U, &err), TC_OK);
      assert_int_equal(tc_rat_cmp(o.U, U), 0);
      tc_forest_optimum_destroy(&o);
      if (iter % 4 < 2)
        for (int64_t kk = 1; kk <= 4; kk++) {
          tc_rat uw = brute_fixed_u(g, kk, NULL);
          tc_forest_optimum f;
          assert_int_equal(tc_forest_search_optimum(g, kk, search, &f, &err), TC_OK);
          if (tc_rat_cmp(f.U, uw) != 0)
            fail_msg("case %d k=%lld search %d: U* = %lld/%lld, brute force %lld/%lld", iter, (long long)kk, search,
                     (long long)f.U.num, (long long)f.U.den, (long long)uw.num, (long long)uw.den);
          /* Thm 15: U* / k ≤ 1/x* + 1/(k·min b) */
          int64_t minb = INT64_MAX;
          for (int64_t a = 0; a < g->m; a++) minb = g->cap[a] < minb ? g->cap[a] : minb;
          tc_rat lhs, rhs;
          assert_int_equal(tc_rat_div(f.U, rat(kk, 1), &lhs, &err), TC_OK);
          assert_int_equal(tc_rat_add(want, rat(1, kk * minb), &rhs, &err), TC_OK);
          assert_true(tc_rat_cmp(lhs, rhs) <= 0);
          assert_true(tc_rat_cmp(lhs, want) >= 0);
          assert_int_equal(f.optimal, 0);
          tc_forest_optimum_destroy(&f);
        }
    }
    tc_graph_destroy(g);
  }
  assert_true(checked >= 300);
}

/* Weighted roots: random weights 0..4 on the compute nodes (not all 0) of random fabrics;
   the search against the brute-force maximum of w(S ∩ V_c)/B⁺(S), Prop. 3 and Algorithm 3
   against theirs, and weights all 1 against the unweighted search. */
static void test_weighted_brute_force(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20261125);
  int checked = 0, zeros = 0, beyond = 0;
  for (int iter = 0; iter < 400; iter++) {
    int n = 3 + (int)tci_rng_below(&r, 7), directed = iter & 1;
    tc_graph *g = random_fabric(&r, n, directed);
    tc_error err;
    if (tc_forest_check_fabric(g, 1, &err) != TC_OK) {
      tc_graph_destroy(g);
      continue;
    }
    int64_t w[16] = {0}, W = 0, one[16] = {0};
    while (W == 0)
      for (int v = 0; v < n; v++)
        if (g->kind[v] == TC_NODE_COMPUTE) {
          w[v] = (int64_t)tci_rng_below(&r, 5);
          W += w[v];
          one[v] = 1;
        }
    for (int v = 0; v < n; v++) zeros += g->kind[v] == TC_NODE_COMPUTE && w[v] == 0;
    checked++;
    tc_rat want = brute_inv_x(g, w), plain = brute_inv_x(g, NULL);
    beyond += tc_rat_cmp(want, rat(W, 1)) != 0 && tc_rat_cmp(want, plain) != 0;
    for (int search = 0; search < 2; search++) {
      tc_forest_optimum o, u, o1;
      assert_int_equal(tc_forest_search_optimum_weighted(g, w, 0, search, &o, &err), TC_OK);
      if (tc_rat_cmp(o.inv_x, want) != 0)
        fail_msg("case %d (n=%d, search %d): weighted 1/x* = %lld/%lld, brute force %lld/%lld", iter, n, search,
                 (long long)o.inv_x.num, (long long)o.inv_x.den, (long long)want.num, (long long)want.den);
      int64_t comp, ex = cut_exit(g, &o, w, &comp);
      assert_int_equal(ex, o.cut_exit);
      assert_int_equal(comp, o.cut_compute);
      assert_int_equal(tc_rat_cmp(rat(comp, ex), want), 0);
      int64_t k = 1; /* Prop. 3: the least k with every (k·1/x*)·b_e integral */
      for (;; k++) {
        tc_rat U;
        assert_int_equal(tc_rat_mul(rat(k, 1), want, &U, &err), TC_OK);
        int ok = 1;
        for (int64_t a = 0; a < g->m; a++) ok &= (U.num * g->cap[a]) % U.den == 0;
        if (ok) break;
      }
      assert_int_equal(o.k, k);
      /* all weights 1: the unweighted search, cut and counters alike */
      assert_int_equal(tc_forest_search_optimum(g, 0, search, &u, &err), TC_OK);
      assert_int_equal(tc_forest_search_optimum_weighted(g, one, 0, search, &o1, &err), TC_OK);
      assert_int_equal(tc_rat_cmp(u.inv_x, o1.inv_x), 0);
      assert_int_equal(u.cut_len, o1.cut_len);
      assert_memory_equal(u.cut, o1.cut, (size_t)u.cut_len * sizeof *u.cut);
      assert_int_equal(u.iterations, o1.iterations);
      assert_int_equal(u.maxflows, o1.maxflows);
      tc_forest_optimum_destroy(&o);
      tc_forest_optimum_destroy(&u);
      tc_forest_optimum_destroy(&o1);
      if (iter % 4 < 2)
        for (int64_t kk = 1; kk <= 3; kk++) {
          tc_rat uw = brute_fixed_u(g, kk, w);
          tc_forest_optimum f;
          assert_int_equal(tc_forest_search_optimum_weighted(g, w, kk, search, &f, &err), TC_OK);
          if (tc_rat_cmp(f.U, uw) != 0)
            fail_msg("case %d k=%lld search %d: weighted U* = %lld/%lld, brute force %lld/%lld", iter, (long long)kk,
                     search, (long long)f.U.num, (long long)f.U.den, (long long)uw.num, (long long)uw.den);
          tc_forest_optimum_destroy(&f);
        }
    }
    tc_graph_destroy(g);
  }
  /* the cases exercise what weights change: zero weights, and optima of neither the plain
     count nor the trivial W */
  assert_true(checked >= 200);
  assert_true(zeros >= 100);
  assert_true(beyond >= 100);
}

static void test_simplest(void **state) {
  (void)state;
  assert_rat(tci_simplest_between(rat(1, 3), rat(1, 2)), 1, 2);
  assert_rat(tci_simplest_between(rat(3, 10), rat(4, 10)), 1, 3);
  assert_rat(tci_simplest_between(rat(15, 166), rat(15, 166)), 15, 166);
  assert_rat(tci_simplest_between(rat(7, 5), rat(3, 2)), 3, 2);
  assert_rat(tci_simplest_between(rat(301, 100), rat(302, 100)), 151, 50);
}

/* algbw = N / (1/x*) of the spec's allgather, exactly. */
static tc_rat algbw_of(const char *spec, int64_t k, int search, tc_forest_optimum *o) {
  tc_error err;
  tc_graph *g = tc_test_spec(spec);
  if (tc_forest_search_optimum(g, k, search, o, &err)) fail_msg("%s: %s", spec, err.msg);
  int32_t n = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  tc_graph_destroy(g);
  tc_rat bw;
  if (k == 0) assert_int_equal(tc_rat_div(rat(n, 1), o->inv_x, &bw, &err), TC_OK);
  else assert_int_equal(tc_rat_div(rat(n * k, 1), o->U, &bw, &err), TC_OK);
  return bw;
}

/* Paper 001 §5.1 and the multi-cluster optima (§5.4): the exact fractions behind the
   printed two decimals — 342.86 = 2400/7, 346.67 = 1040/3, 266.67 = 800/3, 228.57 = 1600/7,
   213.33 = 640/3, 354.13 = 32·166/15 = 5312/15, 346.43 = 48·166/23 = 7968/23,
   341.33 = 1024/3, 208. */
static void test_paper_optima(void **state) {
  (void)state;
  struct {
    const char *spec;
    int64_t num, den, k, ix_num, ix_den;
  } rows[] = {
      {"dgx_a100(1)", 2400, 7, 1, 7, 300},     {"dgx_a100(2)", 1040, 3, 13, 3, 65}, {"dgx_a100(3)", 300, 1, 1, 2, 25},
      {"dgx_a100(4)", 800, 3, 1, 3, 25},       {"dgx_a100(8)", 1600, 7, 1, 7, 25},  {"dgx_a100(16)", 640, 3, 1, 3, 5},
      {"mi250(1)", 2400, 7, 3, 7, 150},        {"mi250(2)", 5312, 15, 83, 15, 166}, {"mi250(3)", 7968, 23, 83, 23, 166},
      {"mi250(4)", 1024, 3, 8, 3, 16},         {"mi250(2,8)", 208, 1, 13, 1, 13},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    for (int search = 0; search < 2; search++) {
      tc_forest_optimum o;
      tc_rat bw = algbw_of(rows[i].spec, 0, search, &o);
      if (tc_rat_cmp(bw, rat(rows[i].num, rows[i].den)) != 0)
        fail_msg("%s: algbw %lld/%lld, want %lld/%lld", rows[i].spec, (long long)bw.num, (long long)bw.den,
                 (long long)rows[i].num, (long long)rows[i].den);
      assert_int_equal(o.k, rows[i].k);
      assert_rat(o.inv_x, rows[i].ix_num, rows[i].ix_den);
      tc_forest_optimum_destroy(&o);
    }
  /* A100 2x8: y = 5/3 GB/s per tree; Algorithm 1 halves 21 times; MI250 2x16: y = 2/15, 22 */
  tc_forest_optimum o;
  algbw_of("dgx_a100(2)", 0, TC_FOREST_BISECT, &o);
  assert_rat(o.y, 5, 3);
  assert_int_equal(o.iterations, 21);
  assert_int_equal(o.cut_compute, 15); /* one GPU's ingress, 300 + 25 */
  assert_int_equal(o.cut_exit, 325);
  tc_forest_optimum_destroy(&o);
  algbw_of("mi250(2)", 0, TC_FOREST_BISECT, &o);
  assert_rat(o.y, 2, 15);
  assert_int_equal(o.iterations, 22);
  assert_int_equal(o.cut_compute, 30); /* all but one same-package pair: 2·(3·50 + 16) */
  assert_int_equal(o.cut_exit, 332);
  tc_forest_optimum_destroy(&o);
  /* the Fig. 2 toy family: S* = cluster 1 + w1 (w0 = 8, w1 = 9, w2 = 10) */
  algbw_of("fig2toy()", 0, TC_FOREST_NEWTON, &o);
  assert_rat(o.inv_x, 1, 1);
  assert_int_equal(o.k, 1);
  assert_int_equal(o.cut_len, 5);
  int32_t want[5] = {0, 1, 2, 3, 9};
  for (int i = 0; i < 5; i++) assert_int_equal(o.cut[i], want[i]);
  tc_forest_optimum_destroy(&o);
}

/* §5.1's fixed-k tables: U* for k = 1..10 on MI250 2x16, A100 2x8 and MI250 8+8. */
static void test_paper_fixed_k(void **state) {
  (void)state;
  static const int64_t mi250[10][2] = {{1, 10},  {3, 16},  {7, 25},  {3, 8},   {23, 50},
                                       {14, 25}, {16, 25}, {37, 50}, {41, 50}, {23, 25}};
  static const int64_t a100[10][2] = {{7, 150},  {14, 150}, {21, 150}, {28, 150}, {35, 150},
                                      {42, 150}, {97, 300}, {37, 100}, {5, 12},   {139, 300}};
  /* MI250 8+8 algbw: 200 (k = 1..3), 204.80, 205.13, 204.26, 203.64, 204.80, 205.71, 205.13 */
  static const int64_t m88[10][2] = {{200, 1},   {200, 1},    {200, 1},   {1024, 5},  {8000, 39},
                                     {9600, 47}, {2240, 11}, {1024, 5}, {1440, 7}, {8000, 39}};
  for (int64_t k = 1; k <= 10; k++)
    for (int search = 0; search < 2; search++) {
      tc_forest_optimum o;
      algbw_of("mi250(2)", k, search, &o);
      assert_rat(o.U, mi250[k - 1][0], mi250[k - 1][1]);
      assert_int_equal(o.optimal, 0);
      tc_forest_optimum_destroy(&o);
      algbw_of("dgx_a100(2)", k, search, &o);
      assert_rat(o.U, a100[k - 1][0], a100[k - 1][1]);
      tc_forest_optimum_destroy(&o);
      tc_rat bw = algbw_of("mi250(2,8)", k, search, &o);
      assert_rat(bw, m88[k - 1][0], m88[k - 1][1]);
      tc_forest_optimum_destroy(&o);
    }
}

/* The closed forms derived from the cuts (digest of paper 001, §4.4): A100 n clusters,
   min(325·N/(N−1), 200·n/(n−1)); MI250, min(332·N/(N−2), 366·N/(N−1), 256·n/(n−1)). */
static void test_closed_forms(void **state) {
  (void)state;
  for (int64_t n = 2; n <= 12; n++) {
    char spec[32];
    tc_forest_optimum o;
    int64_t N = 8 * n;
    snprintf(spec, sizeof spec, "dgx_a100(%lld)", (long long)n);
    tc_rat bw = algbw_of(spec, 0, TC_FOREST_NEWTON, &o), a = rat(325 * N, N - 1), b = rat(200 * n, n - 1);
    assert_int_equal(tc_rat_cmp(bw, tc_rat_cmp(a, b) < 0 ? a : b), 0);
    tc_forest_optimum_destroy(&o);
    if (n > 6) continue;
    N = 16 * n;
    snprintf(spec, sizeof spec, "mi250(%lld)", (long long)n);
    bw = algbw_of(spec, 0, TC_FOREST_NEWTON, &o);
    tc_rat c = rat(332 * N, N - 2), d = rat(366 * N, N - 1), e = rat(256 * n, n - 1), m = c;
    if (tc_rat_cmp(d, m) < 0) m = d;
    if (tc_rat_cmp(e, m) < 0) m = e;
    assert_int_equal(tc_rat_cmp(bw, m), 0);
    tc_forest_optimum_destroy(&o);
  }
  /* predicted, not run in the paper: MI250 n = 8 gives 292.57 = 2048/7 */
  tc_forest_optimum o;
  assert_rat(algbw_of("mi250(8)", 0, TC_FOREST_NEWTON, &o), 2048, 7);
  tc_forest_optimum_destroy(&o);
}

static void test_refusals(void **state) {
  (void)state;
  tc_error err;
  int arcs_sw[][3] = {{0, 1, 1}, {1, 0, 1}};
  int sw01[] = {0, 1};
  tc_graph *g = tc_test_graph(2, arcs_sw, 2, sw01, 2);
  assert_int_equal(tc_forest_check_fabric(g, 1, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: the fabric has no compute node");
  tc_graph_destroy(g);
  int sw1[] = {1};
  g = tc_test_graph(2, arcs_sw, 2, sw1, 1);
  assert_int_equal(tc_forest_check_fabric(g, 1, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: the fabric has one compute node only: nothing to exchange");
  tc_graph_destroy(g);
  int arcs_one_way[][3] = {{0, 1, 1}, {1, 2, 1}, {2, 1, 1}};
  g = tc_test_graph(3, arcs_one_way, 3, NULL, 0);
  assert_int_equal(tc_forest_check_fabric(g, 0, &err), TC_EINPUT);
  assert_string_equal(err.msg, "forestcoll: compute node 1 cannot reach compute node 0");
  tc_graph_destroy(g);
  int arcs_uneven[][3] = {{0, 2, 2}, {2, 0, 1}, {1, 2, 1}, {2, 1, 1}};
  int sw2[] = {2};
  g = tc_test_graph(3, arcs_uneven, 4, sw2, 1);
  assert_int_equal(tc_forest_check_fabric(g, 0, &err), TC_OK);
  assert_int_equal(tc_forest_check_fabric(g, 1, &err), TC_EINPUT);
  assert_string_equal(err.msg,
                      "forestcoll: node 0 has ingress 1 but egress 2: removing switches needs them equal at every node "
                      "(paper 001 §3.1)");
  tc_graph_destroy(g);
  /* weights: one line each, before any work, from the search and the whole pipeline alike */
  int arcs_sw3[][3] = {{0, 2, 1}, {2, 0, 1}, {1, 2, 1}, {2, 1, 1}};
  g = tc_test_graph(3, arcs_sw3, 4, sw2, 1);
  int64_t neg[] = {1, -2, 0}, on_switch[] = {1, 1, 3}, none[] = {0, 0, 0};
  const char *want[] = {"forestcoll: node 1 has weight -2; a weight is a number of shares, >= 0",
                        "forestcoll: node 2 is a switch and cannot own shares (weight 3); give switches 0",
                        "forestcoll: every weight is 0: at least one compute node must own a share of the buffer"};
  const int64_t *bad[] = {neg, on_switch, none};
  for (int i = 0; i < 3; i++) {
    tc_forest_optimum o;
    tc_forest f;
    tc_forest_options fo = {.coll = TC_COLL_ALLREDUCE, .weights = bad[i]};
    assert_int_equal(tc_forest_search_optimum_weighted(g, bad[i], 0, TC_FOREST_NEWTON, &o, &err), TC_EINPUT);
    assert_string_equal(err.msg, want[i]);
    assert_int_equal(tc_forest_build(g, &fo, &f, &err), TC_EINPUT);
    assert_string_equal(err.msg, want[i]);
    assert_null(f.weights);
    assert_int_equal(f.nparts, 0);
  }
  tc_graph_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_toy),
      cmocka_unit_test(test_simplest),
      cmocka_unit_test(test_brute_force),
      cmocka_unit_test(test_weighted_brute_force),
      cmocka_unit_test(test_paper_optima),
      cmocka_unit_test(test_paper_fixed_k),
      cmocka_unit_test(test_closed_forms),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
