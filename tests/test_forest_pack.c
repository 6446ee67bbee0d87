/*
** test_forest_pack.c — Algorithm 5, spanning out-tree packing in batches (forest/pack.h).
**
** The oracle shares no code with pack.c: Theorem 10's condition by enumerating every set S
** (the largest k with c(S, V-S) >= |S|·k for all proper S), and μ by its definition,
** formula (4) of paper 001 App. C.3, by enumerating every S at every step the packer takes.
** The probe of tci_pack_trees_probed hands the oracle the packer's state before each step,
** so every μ — those from a max-flow on D-bar (Theorem 12), on its quotient by recorded
** tight sets, and those its shortcuts settle without one (a singleton batch, a recorded
** tight set, an epoch's certificate) — is compared with the definition. Random digraphs on
** 3..8 nodes with small and large capacities (large ones let certificates and splits
** happen) and clustered ones (tight clusters: recorded, blocking, contracted), packed with
** the largest k and smaller ones; every output is checked against pack.h's contract; one
** more tree per root than the precondition allows must fail with TC_EFAIL. Two small cases
** are worked by hand, and a 96-node one grows the batch list while splits copy from it.
** Weighted roots: random weights 0..3 per node, k·w_v trees at v (none at weight 0), the
** largest k with c(S, V−S) >= k·w(S) for every proper S, the same formula (4) check at every
** step, and one more tree per unit of weight refused.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "forest/pack.h"

#define MAX_N 8

/* ---------------------------------------------------------------------------------
** The oracle.
*/

/* Capacity from the vertex set S (bitmask) to its complement, with capacities cap[u][v]. */
static int64_t cut_out(int n, const int64_t cap[MAX_N][MAX_N], unsigned S) {
  int64_t c = 0;
  for (int u = 0; u < n; u++)
    for (int v = 0; v < n; v++)
      if ((S >> u & 1) && !(S >> v & 1)) c += cap[u][v];
  return c;
}

/* Theorem 10: the largest k with c(S, V-S) >= |S|·k for every proper nonempty S. */
static int64_t oracle_max_k(int n, const int64_t cap[MAX_N][MAX_N]) {
  int64_t best = INT64_MAX;
  for (unsigned S = 1; S + 1 < (1u << n); S++) {
    int64_t q = cut_out(n, cap, S) / __builtin_popcount(S);
    if (q < best) best = q;
  }
  return best;
}

static unsigned batch_set(const tci_batch *b) {
  unsigned R = 1u << b->root;
  for (int32_t e = 0; e < b->nedges; e++) R |= 1u << b->to[e];
  return R;
}

typedef struct oracle_ctx {
  int evaluations, positive, zero, splits;
  int64_t k;
} oracle_ctx;

/* Formula (4) by enumeration, and condition (3) of Theorem 9 on the state: the packing can
   still be completed, so every slack is >= 0. */
static void oracle_probe(void *vctx, const tci_pack_view *v, int32_t x, int32_t y, int64_t mu) {
  oracle_ctx *ctx = vctx;
  int n = v->n;
  int64_t g[MAX_N][MAX_N] = {{0}};
  int64_t gxy = -1;
  for (int64_t a = 0; a < v->narcs; a++) {
    assert_true(v->g[a] >= 0);
    g[v->src[a]][v->dst[a]] = v->g[a];
    if (v->src[a] == x && v->dst[a] == y) gxy = v->g[a];
  }
  assert_true(gxy > 0); /* Algorithm 5 only picks edges of D* with g > 0 */
  const tci_packing *p = v->packing;
  unsigned R1 = batch_set(&p->batch[v->grown]);
  int64_t m1 = p->batch[v->grown].mult;
  assert_true(R1 >> x & 1);
  assert_false(R1 >> y & 1);
  int64_t want = gxy < m1 ? gxy : m1;
  for (unsigned S = 0; S + 1 < (1u << n); S++) {
    int64_t pS = 0;
    for (int64_t i = 0; i < p->count; i++) {
      unsigned R = batch_set(&p->batch[i]);
      if ((R & S) == R) pS += p->batch[i].mult;
    }
    int64_t slack = cut_out(n, g, S) - pS;
    assert_true(slack >= 0); /* condition (3) */
    if ((S >> x & 1) && !(S >> y & 1) && (R1 & S) != R1 && slack < want) want = slack;
  }
  if (mu != want) fail_msg("mu(%d,%d) = %lld, formula (4) gives %lld", x, y, (long long)mu, (long long)want);
  ctx->evaluations++;
  if (mu == 0) ctx->zero++;
  else ctx->positive++;
  if (mu > 0 && mu < m1) ctx->splits++;
}

/* Weighted Theorem 10: the largest k with c(S, V-S) >= k·w(S) for every proper S with w(S) > 0. */
static int64_t oracle_max_k_weighted(int n, const int64_t cap[MAX_N][MAX_N], const int64_t *w) {
  int64_t best = INT64_MAX;
  for (unsigned S = 1; S + 1 < (1u << n); S++) {
    int64_t ws = 0;
    for (int v = 0; v < n; v++) ws += (S >> v & 1) ? w[v] : 0;
    if (ws > 0 && cut_out(n, cap, S) / ws < best) best = cut_out(n, cap, S) / ws;
  }
  return best;
}

static void check_packing_weighted(int n, const int64_t cap[MAX_N][MAX_N], int64_t k, const int64_t *w,
                                   const tci_packing *p);

/* Every promise of pack.h, on capacities cap. */
static void check_packing(int n, const int64_t cap[MAX_N][MAX_N], int64_t k, const tci_packing *p) {
  check_packing_weighted(n, cap, k, NULL, p);
}

static void check_packing_weighted(int n, const int64_t cap[MAX_N][MAX_N], int64_t k, const int64_t *w,
                                   const tci_packing *p) {
  int64_t per_root[MAX_N] = {0}, load[MAX_N][MAX_N] = {{0}};
  for (int64_t i = 0; i < p->count; i++) {
    const tci_batch *b = &p->batch[i];
    assert_true(b->root >= 0 && b->root < n);
    assert_true(b->mult >= 1);
    assert_int_equal(b->nedges, n - 1);
    unsigned in = 1u << b->root;
    for (int32_t e = 0; e < b->nedges; e++) {
      int32_t u = b->from[e], w = b->to[e];
      assert_true(u >= 0 && u < n && w >= 0 && w < n);
      assert_true(in >> u & 1);    /* the parent was already in the tree */
      assert_false(in >> w & 1);   /* the child was not */
      assert_true(cap[u][w] > 0);  /* an edge of D* */
      in |= 1u << w;
      load[u][w] += b->mult;
    }
    per_root[b->root] += b->mult;
  }
  for (int u = 0; u < n; u++) {
    assert_int_equal(per_root[u], k * (w ? w[u] : 1)); /* k·w_u trees at u: none at weight 0 */
    for (int v = 0; v < n; v++) assert_true(load[u][v] <= cap[u][v]);
  }
}

static void to_capgraph(int n, const int64_t cap[MAX_N][MAX_N], tci_capgraph *d) {
  tc_error err;
  assert_int_equal(tci_capgraph_init(d, n, &err), TC_OK);
  for (int u = 0; u < n; u++)
    for (int w = 0; w < n; w++)
      if (u != w && cap[u][w]) assert_int_equal(tci_capgraph_add(d, u, w, cap[u][w], &err), TC_OK);
}

static int same_packing(const tci_packing *a, const tci_packing *b) {
  if (a->count != b->count || a->maxflows != b->maxflows) return 0;
  for (int64_t i = 0; i < a->count; i++) {
    const tci_batch *x = &a->batch[i], *y = &b->batch[i];
    if (x->root != y->root || x->mult != y->mult || x->nedges != y->nedges) return 0;
    if (memcmp(x->from, y->from, (size_t)x->nedges * sizeof *x->from) ||
        memcmp(x->to, y->to, (size_t)x->nedges * sizeof *x->to))
      return 0;
  }
  return 1;
}

/* ---------------------------------------------------------------------------------
** Tests.
*/

/* K_3, capacity 1, k = 1: every tree must be the star of its root (a root's two out-arcs
   are the only way to reach both others once the other roots' stars are taken), found
   in this order. */
static void k3_unit_capacity_gives_the_stars(void **state) {
  (void)state;
  int64_t cap[MAX_N][MAX_N] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
  tci_capgraph d;
  to_capgraph(3, cap, &d);
  tci_packing p;
  tc_error err;
  oracle_ctx ctx = {0};
  assert_int_equal(tci_pack_trees_probed(&d, 1, NULL, oracle_probe, &ctx, &p, &err), TC_OK);
  assert_int_equal(p.count, 3);
  const int32_t from[3][2] = {{0, 0}, {1, 1}, {2, 2}}, to[3][2] = {{1, 2}, {0, 2}, {0, 1}};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(p.batch[i].root, i);
    assert_int_equal(p.batch[i].mult, 1);
    assert_int_equal(p.batch[i].nedges, 2);
    for (int e = 0; e < 2; e++) {
      assert_int_equal(p.batch[i].from[e], from[i][e]);
      assert_int_equal(p.batch[i].to[e], to[i][e]);
    }
  }
  assert_int_equal(ctx.evaluations, 6); /* no edge was passed over */
  check_packing(3, cap, 1, &p);
  tci_packing_destroy(&p);
  tci_packing_destroy(&p); /* destroying an empty packing is a no-op */
  tci_capgraph_destroy(&d);
}

/* A split, by hand. n = 3, k = 2, c(0,1) = 1, c(0,2) = 2, c(1,0) = 2, c(1,2) = 2,
   c(2,0) = 2, c(2,1) = 3: every 2-set's out-cut is exactly 4 = 2k. Root 0 takes (0,1) with
   μ = min(g = 1, m = 2) = 1 — a split: batch 3 = copy {0}, m = 1. Then (0,2): the only set
   at risk is T = {1,2}, slack = in-capacity (0 + 2) - need (the copy, disjoint from T: 1)
   = 1, so μ = 1. The copy {0} takes (0,2) (μ = 1, singleton), then (2,1) (T = {0,1}:
   in-capacity 5 - need 2 (root 2's {2}) = 3, μ = 1). Root 1 takes (1,0) (μ = 2) and (1,2)
   (T = {0,2}: 2 - 0, μ = 2); root 2 likewise (2,0), (2,1) with μ = 2. */
static void split_by_hand(void **state) {
  (void)state;
  int64_t cap[MAX_N][MAX_N] = {{0, 1, 2}, {2, 0, 2}, {2, 3, 0}};
  tci_capgraph d;
  to_capgraph(3, cap, &d);
  tci_packing p, again;
  tc_error err;
  oracle_ctx ctx = {0};
  assert_int_equal(tci_pack_trees_probed(&d, 2, NULL, oracle_probe, &ctx, &p, &err), TC_OK);
  assert_int_equal(p.count, 4);
  const int32_t root[4] = {0, 1, 2, 0}, from[4][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 2}},
                to[4][2] = {{1, 2}, {0, 2}, {0, 1}, {2, 1}};
  const int64_t mult[4] = {1, 2, 2, 1};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(p.batch[i].root, root[i]);
    assert_int_equal(p.batch[i].mult, mult[i]);
    assert_int_equal(p.batch[i].nedges, 2);
    for (int e = 0; e < 2; e++) {
      assert_int_equal(p.batch[i].from[e], from[i][e]);
      assert_int_equal(p.batch[i].to[e], to[i][e]);
    }
  }
  assert_int_equal(ctx.evaluations, 8);
  assert_int_equal(ctx.splits, 1);
  check_packing(3, cap, 2, &p);
  assert_int_equal(tci_pack_trees(&d, 2, NULL, &again, &err), TC_OK);
  assert_true(same_packing(&p, &again));
  tci_packing_destroy(&p);
  tci_packing_destroy(&again);
  tci_capgraph_destroy(&d);
}

/* Random digraphs: μ = formula (4) at every step, the contract holds for the largest k and
   smaller ones, one more tree per root fails, and a second run gives the same output. */
static void random_digraphs_match_the_definition(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20240209);
  oracle_ctx total = {0};
  int packed = 0, refused = 0;
  for (int iter = 0; iter < 160; iter++) {
    int n = 3 + (int)tci_rng_below(&r, MAX_N - 2);
    int64_t top = iter % 2 ? 30 : 3; /* large capacities: epochs with certificates, splits */
    int density = 40 + (int)tci_rng_below(&r, 61);
    int64_t cap[MAX_N][MAX_N] = {{0}};
    for (int u = 0; u < n; u++)
      for (int w = 0; w < n; w++)
        if (u != w && (int)tci_rng_below(&r, 100) < density) cap[u][w] = 1 + (int64_t)tci_rng_below(&r, (uint64_t)top);
    tci_capgraph d;
    to_capgraph(n, cap, &d);
    tc_error err;
    int64_t kmax;
    assert_int_equal(tci_pack_max_k(&d, &kmax, &err), TC_OK);
    assert_int_equal(kmax, oracle_max_k(n, cap));
    int64_t ks[3] = {kmax, kmax / 2, 1};
    for (int j = 0; j < 3 && kmax >= 1; j++) {
      if (ks[j] < 1 || (j >= 1 && ks[j] == ks[0]) || (j == 2 && ks[2] == ks[1])) continue;
      int ok;
      assert_int_equal(tci_pack_feasible(&d, ks[j], NULL, &ok, &err), TC_OK);
      assert_int_equal(ok, 1);
      tci_packing p, again;
      oracle_ctx ctx = {0};
      if (tci_pack_trees_probed(&d, ks[j], NULL, oracle_probe, &ctx, &p, &err))
        fail_msg("n=%d k=%lld: %s", n, (long long)ks[j], err.msg);
      check_packing(n, cap, ks[j], &p);
      assert_int_equal(tci_pack_trees(&d, ks[j], NULL, &again, &err), TC_OK);
      assert_true(same_packing(&p, &again));
      tci_packing_destroy(&p);
      tci_packing_destroy(&again);
      total.evaluations += ctx.evaluations;
      total.zero += ctx.zero;
      total.splits += ctx.splits;
      packed++;
    }
    /* One more tree per root violates the precondition: no completion exists (any would be
       a valid packing), so the packer must stop with TC_EFAIL and an empty result. */
    int ok;
    assert_int_equal(tci_pack_feasible(&d, kmax + 1, NULL, &ok, &err), TC_OK);
    assert_int_equal(ok, 0);
    tci_packing p;
    assert_int_equal(tci_pack_trees(&d, kmax + 1, NULL, &p, &err), TC_EFAIL);
    assert_non_null(strstr(err.msg, "pack: no edge can grow batch "));
    assert_null(p.batch);
    assert_int_equal(p.count, 0);
    refused++;
    tci_capgraph_destroy(&d);
  }
  /* The sample reaches every kind of step. */
  assert_true(packed > 150);
  assert_true(refused == 160);
  assert_true(total.zero > 0);
  assert_true(total.splits > 0);
}

/* Weighted roots: k·w_v trees at v for random weights 0..3 (not all 0), k the largest the
   weighted condition allows and a smaller one; μ is formula (4) at every step (the oracle
   reads the batches, whatever their roots' counts), and k + 1 is refused. */
static void weighted_roots_match_the_definition(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 20261125);
  oracle_ctx total = {0};
  int packed = 0, zero_roots = 0, unequal = 0, hopeless = 0;
  for (int iter = 0; iter < 160; iter++) {
    int n = 3 + (int)tci_rng_below(&r, MAX_N - 2);
    int64_t top = iter % 2 ? 30 : 4;
    int64_t cap[MAX_N][MAX_N] = {{0}}, w[MAX_N] = {0}, W = 0;
    for (int u = 0; u < n; u++)
      for (int v = 0; v < n; v++)
        if (u != v && (int)tci_rng_below(&r, 100) < 70) cap[u][v] = 1 + (int64_t)tci_rng_below(&r, (uint64_t)top);
    while (W == 0)
      for (int v = 0; v < n; v++) W += w[v] = (int64_t)tci_rng_below(&r, 4);
    tci_capgraph d;
    to_capgraph(n, cap, &d);
    tc_error err;
    int64_t kmax = oracle_max_k_weighted(n, cap, w);
    if (kmax < 1) { /* some set cannot send its weight out even once */
      int ok;
      tci_packing p;
      assert_int_equal(tci_pack_feasible(&d, 1, w, &ok, &err), TC_OK);
      assert_int_equal(ok, 0);
      assert_int_equal(tci_pack_trees(&d, 1, w, &p, &err), TC_EFAIL);
      assert_non_null(strstr(err.msg, "D* violates min_v F(s, v; D*_k) >= W*k (weighted roots) for k = "));
      tci_capgraph_destroy(&d);
      hopeless++;
      continue;
    }
    int64_t ks[2] = {kmax, (kmax + 1) / 2};
    for (int j = 0; j < 2; j++) {
      if (j == 1 && ks[1] == ks[0]) continue;
      int ok;
      assert_int_equal(tci_pack_feasible(&d, ks[j], w, &ok, &err), TC_OK);
      assert_int_equal(ok, 1);
      tci_packing p, again;
      oracle_ctx ctx = {0};
      if (tci_pack_trees_probed(&d, ks[j], w, oracle_probe, &ctx, &p, &err))
        fail_msg("n=%d k=%lld: %s", n, (long long)ks[j], err.msg);
      check_packing_weighted(n, cap, ks[j], w, &p);
      assert_int_equal(tci_pack_trees(&d, ks[j], w, &again, &err), TC_OK);
      assert_true(same_packing(&p, &again));
      tci_packing_destroy(&p);
      tci_packing_destroy(&again);
      total.evaluations += ctx.evaluations;
      total.splits += ctx.splits;
      packed++;
    }
    for (int v = 0; v < n; v++) zero_roots += w[v] == 0;
    for (int v = 1; v < n; v++) unequal += w[v] != w[0] && w[v] > 0 && w[0] > 0;
    int ok;
    tci_packing p;
    assert_int_equal(tci_pack_feasible(&d, kmax + 1, w, &ok, &err), TC_OK);
    assert_int_equal(ok, 0);
    assert_int_equal(tci_pack_trees(&d, kmax + 1, w, &p, &err), TC_EFAIL);
    assert_null(p.batch);
    tci_capgraph_destroy(&d);
  }
  assert_true(packed > 120 && hopeless > 10);
  assert_true(zero_roots > 50 && unequal > 50);
  assert_true(total.splits > 0);
}

/* Two or four clusters of complete digraphs (capacity 3..12) joined by a random permutation
   of unit arcs between clusters: with k = 1 every cluster's in-cut is tight, so trees must
   enter each cluster once — the case of dgx_a100 after switch removal, where the packer
   records the clusters as tight sets, blocks re-entries by them, contracts them in its
   max-flows and certifies the arcs inside clusters for whole epochs. μ is checked at every
   step as above. */
static void clustered_digraphs_match_the_definition(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 77);
  oracle_ctx total = {0};
  int packed = 0;
  for (int iter = 0; iter < 40; iter++) {
    int clusters = iter % 2 ? 2 : 4, size = MAX_N / clusters, n = MAX_N;
    int64_t cap[MAX_N][MAX_N] = {{0}}, intra = 4 + (int64_t)tci_rng_below(&r, 9);
    for (int u = 0; u < n; u++)
      for (int w = 0; w < n; w++)
        if (u != w && u / size == w / size) cap[u][w] = intra;
    int perm[MAX_N];
    for (;;) { /* a permutation sending no node into its own cluster */
      for (int i = 0; i < n; i++) perm[i] = i;
      for (int i = n - 1; i > 0; i--) {
        int j = (int)tci_rng_below(&r, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      int ok = 1;
      for (int i = 0; i < n; i++) ok &= perm[i] / size != i / size;
      if (ok) break;
    }
    for (int i = 0; i < n; i++) cap[i][perm[i]] += (n - size) / size; /* the cluster cut: n - size */
    tci_capgraph d;
    to_capgraph(n, cap, &d);
    tc_error err;
    int64_t kmax;
    assert_int_equal(tci_pack_max_k(&d, &kmax, &err), TC_OK);
    assert_int_equal(kmax, oracle_max_k(n, cap));
    if (kmax < 1) { /* a permutation that closes a union of clusters on itself */
      tci_capgraph_destroy(&d);
      continue;
    }
    tci_packing p;
    oracle_ctx ctx = {0};
    packed++;
    if (tci_pack_trees_probed(&d, 1, NULL, oracle_probe, &ctx, &p, &err)) fail_msg("%s", err.msg);
    check_packing(n, cap, 1, &p);
    tci_packing_destroy(&p);
    total.evaluations += ctx.evaluations;
    total.zero += ctx.zero;
    tci_capgraph_destroy(&d);
  }
  assert_true(packed >= 30);
  assert_true(total.zero > 0); /* re-entries were refused */
}

/* A larger instance, checked by the contract alone: 96 nodes on a union of five random
   Hamiltonian cycles with capacities 40..80, the largest k — more than 128 batches, so the
   batch list (room 64, doubling) grows while a split copies a batch out of it. */
static void larger_instance_keeps_the_contract(void **state) {
  (void)state;
  enum { N = 96 };
  tc_rng r;
  tci_rng_seed(&r, 5);
  tci_capgraph d;
  tc_error err;
  assert_int_equal(tci_capgraph_init(&d, N, &err), TC_OK);
  int perm[N];
  for (int c = 0; c < 5; c++) {
    for (int i = 0; i < N; i++) perm[i] = i;
    for (int i = N - 1; i > 0; i--) {
      int j = (int)tci_rng_below(&r, (uint64_t)i + 1), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    int64_t w = 40 + (int64_t)tci_rng_below(&r, 41);
    for (int i = 0; i < N; i++) assert_int_equal(tci_capgraph_add(&d, perm[i], perm[(i + 1) % N], w, &err), TC_OK);
  }
  int64_t k;
  assert_int_equal(tci_pack_max_k(&d, &k, &err), TC_OK);
  assert_true(k >= 2);
  tci_packing p;
  assert_int_equal(tci_pack_trees(&d, k, NULL, &p, &err), TC_OK);
  assert_true(p.count > 128); /* splits past the second growth of the batch list */
  int64_t per_root[N] = {0};
  tci_capgraph load;
  assert_int_equal(tci_capgraph_init(&load, N, &err), TC_OK);
  for (int64_t i = 0; i < p.count; i++) {
    const tci_batch *b = &p.batch[i];
    uint8_t in[N] = {0};
    in[b->root] = 1;
    assert_int_equal(b->nedges, N - 1);
    for (int32_t e = 0; e < b->nedges; e++) {
      assert_true(in[b->from[e]] && !in[b->to[e]]);
      in[b->to[e]] = 1;
      assert_int_equal(tci_capgraph_add(&load, b->from[e], b->to[e], b->mult, &err), TC_OK);
    }
    per_root[b->root] += b->mult;
  }
  for (int v = 0; v < N; v++) assert_int_equal(per_root[v], k);
  for (int64_t a = 0; a < load.narcs; a++)
    assert_true(load.cap[a] <= tci_capgraph_cap(&d, load.src[a], load.dst[a]));
  tci_capgraph_destroy(&load);
  tci_packing_destroy(&p);
  tci_capgraph_destroy(&d);
}

/* The exact failure line, on the smallest violation: 0 -> 1 only, k = 1. Root 0 reaches 1;
   root 1 has no arc at all. */
static void precondition_violation_is_efail(void **state) {
  (void)state;
  int64_t cap[MAX_N][MAX_N] = {{0, 1}, {0, 0}};
  tci_capgraph d;
  to_capgraph(2, cap, &d);
  tci_packing p;
  tc_error err;
  assert_int_equal(tci_pack_trees(&d, 1, NULL, &p, &err), TC_EFAIL);
  assert_string_equal(err.msg, "pack: no edge can grow batch 1 (root 1, m = 1, 1 of 2 nodes reached): D* violates "
                               "min_v F(s, v; D*_k) >= n*k for k = 1");
  assert_null(p.batch);
  int64_t k;
  assert_int_equal(tci_pack_max_k(&d, &k, &err), TC_OK);
  assert_int_equal(k, 0);
  tci_capgraph_destroy(&d);
}

static void bad_arguments(void **state) {
  (void)state;
  int64_t cap[MAX_N][MAX_N] = {{0, 5}, {5, 0}};
  tci_capgraph d;
  to_capgraph(2, cap, &d);
  tci_packing p;
  tc_error err;
  assert_int_equal(tci_pack_trees(&d, 0, NULL, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "pack: k must be >= 1 (got 0)");
  assert_int_equal(tci_pack_trees(&d, INT64_MAX / 2, NULL, &p, &err), TC_ERANGE);
  assert_string_equal(err.msg, "pack: capacities of D* (with k = 4611686018427387903 on 2 nodes) overflow 64 bits");
  assert_null(p.batch);
  tci_capgraph_destroy(&d);
  /* One node: its k trees are the node alone. */
  assert_int_equal(tci_capgraph_init(&d, 1, &err), TC_OK);
  assert_int_equal(tci_pack_trees(&d, 7, NULL, &p, &err), TC_OK);
  assert_int_equal(p.count, 1);
  assert_int_equal(p.batch[0].root, 0);
  assert_int_equal(p.batch[0].mult, 7);
  assert_int_equal(p.batch[0].nedges, 0);
  tci_packing_destroy(&p);
  int64_t k;
  assert_int_equal(tci_pack_max_k(&d, &k, &err), TC_EINPUT);
  assert_string_equal(err.msg, "pack: D* has 1 node(s): every k packs");
  tci_capgraph_destroy(&d);
  /* weights: negative, all 0 */
  to_capgraph(2, cap, &d);
  int64_t neg[2] = {1, -1}, zero[2] = {0, 0};
  assert_int_equal(tci_pack_trees(&d, 1, neg, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "pack: node 1 has weight -1 < 0");
  assert_int_equal(tci_pack_trees(&d, 1, zero, &p, &err), TC_EINPUT);
  assert_string_equal(err.msg, "pack: every weight is 0: there is no tree to pack");
  assert_null(p.batch);
  tci_capgraph_destroy(&d);
}

/* K_3, capacity 1, weights (1, 0, 1), k = 1: node 1 roots nothing, so root 0's batch is batch
   0 and root 2's batch 1 — each its star (the cut {0, 2} -> {1} has exactly the 2 arcs the
   two trees need). */
static void weighted_k3_skips_the_zero_root(void **state) {
  (void)state;
  int64_t cap[MAX_N][MAX_N] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, w[3] = {1, 0, 1};
  tci_capgraph d;
  to_capgraph(3, cap, &d);
  tci_packing p;
  tc_error err;
  oracle_ctx ctx = {0};
  assert_int_equal(oracle_max_k_weighted(3, cap, w), 1);
  assert_int_equal(tci_pack_trees_probed(&d, 1, w, oracle_probe, &ctx, &p, &err), TC_OK);
  assert_int_equal(p.count, 2);
  const int32_t root[2] = {0, 2}, from[2][2] = {{0, 0}, {2, 2}}, to[2][2] = {{1, 2}, {0, 1}};
  for (int i = 0; i < 2; i++) {
    assert_int_equal(p.batch[i].root, root[i]);
    assert_int_equal(p.batch[i].mult, 1);
    for (int e = 0; e < 2; e++) {
      assert_int_equal(p.batch[i].from[e], from[i][e]);
      assert_int_equal(p.batch[i].to[e], to[i][e]);
    }
  }
  check_packing_weighted(3, cap, 1, w, &p);
  tci_packing_destroy(&p);
  /* weight 2 at node 0 asks for 3 trees through the 2 arcs into {1}: refused */
  int64_t heavy[3] = {2, 0, 1};
  assert_int_equal(oracle_max_k_weighted(3, cap, heavy), 0);
  assert_int_equal(tci_pack_trees(&d, 1, heavy, &p, &err), TC_EFAIL);
  tci_capgraph_destroy(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(k3_unit_capacity_gives_the_stars),
      cmocka_unit_test(split_by_hand),
      cmocka_unit_test(random_digraphs_match_the_definition),
      cmocka_unit_test(clustered_digraphs_match_the_definition),
      cmocka_unit_test(larger_instance_keeps_the_contract),
      cmocka_unit_test(weighted_roots_match_the_definition),
      cmocka_unit_test(weighted_k3_skips_the_zero_root),
      cmocka_unit_test(precondition_violation_is_efail),
      cmocka_unit_test(bad_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
