/*
** verify.c — the independent checker of ForestColl forests (contract of tc_forest_verify in
** forest.h). It reads only the graph and the forest — nothing of the search, the splitting
** or the packing — and re-derives everything it reports:
**   - each batch: a compute root, m ≥ 1, N−1 edges between compute nodes forming a spanning
**     arborescence towards (in-trees) or away from (out-trees) the root;
**   - each edge: routes whose units sum to m, each a walk along arcs of g from the edge's
**     sender to its receiver whose inner nodes are all switches;
**   - per root, multiplicities summing to k (weighted roots: k·w_v, and no tree at all at a
**     node of weight 0; the weights themselves non-negative, 0 on switches, not all 0);
**   - per arc, load (trees crossing it, counted per crossing) ≤ U·b_e, i.e. within the
**     capacity the time (M/(W·k))·U allows (W = N unweighted, Σ w weighted);
**   - the bottleneck cut, re-added from g: it misses a compute node, and its ratio
**     w(S ∩ V_c)/B⁺(S) is the claimed 1/x*;
**   - the bandwidth measured from the loads, W·k / max_e (load_e / b_e), equals the claim
**     (W / (1/x*) when optimal, W·k / U* at a fixed k) — the trees meet the bound the cut
**     proves, so they are optimal.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "forest/forest_internal.h"

__attribute__((format(printf, 4, 5))) static int fail(tc_error *err, int part, int64_t b, const char *fmt, ...) {
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d batch %lld: %s", part, (long long)b, what);
}

static int check_batch(const tc_graph *g, const tc_forest_part *p, int part, int64_t bi, int32_t nc, int32_t *parent,
                       int32_t *state, int64_t *load, tc_error *err) {
  const tc_forest_batch *b = &p->batch[bi];
  if (b->root < 0 || b->root >= g->n || g->kind[b->root] != TC_NODE_COMPUTE)
    return fail(err, part, bi, "root %lld is not a compute node", (long long)b->root);
  if (b->mult < 1) return fail(err, part, bi, "multiplicity %lld < 1", (long long)b->mult);
  if (b->nedges != nc - 1) return fail(err, part, bi, "%d edges, a spanning tree has %d", b->nedges, nc - 1);
  for (int32_t v = 0; v < g->n; v++) parent[v] = -1;
  for (int32_t i = 0; i < b->nedges; i++) {
    int32_t from = b->from[i], to = b->to[i];
    if (from < 0 || from >= g->n || to < 0 || to >= g->n || g->kind[from] != TC_NODE_COMPUTE ||
        g->kind[to] != TC_NODE_COMPUTE || from == to)
      return fail(err, part, bi, "edge %d -> %d is not between two compute nodes", from, to);
    /* out-tree: the receiver's parent is the sender; in-tree: the sender's parent is the receiver */
    int32_t child = p->in_trees ? from : to, par = p->in_trees ? to : from;
    if (child == b->root) return fail(err, part, bi, "the root %d has a parent (%d)", child, par);
    if (parent[child] >= 0) return fail(err, part, bi, "node %d has two parents (%d)", child, par);
    parent[child] = par;
    /* routes */
    int64_t sum = 0;
    for (int64_t r = b->route_off[i]; r < b->route_off[i + 1]; r++) {
      if (b->route_units[r] < 1) return fail(err, part, bi, "edge %d -> %d has an empty route", from, to);
      sum += b->route_units[r];
      int64_t h0 = b->hop_off[r], h1 = b->hop_off[r + 1];
      if (h1 <= h0) return fail(err, part, bi, "edge %d -> %d has a route without arcs", from, to);
      int32_t at = from;
      for (int64_t h = h0; h < h1; h++) {
        int64_t a = b->hop_arc[h];
        if (a < 0 || a >= g->m || g->src[a] != at)
          return fail(err, part, bi, "a route of edge %d -> %d breaks off at node %d", from, to, at);
        at = g->dst[a];
        if (h + 1 < h1 && g->kind[at] != TC_NODE_SWITCH)
          return fail(err, part, bi, "a route of edge %d -> %d passes through compute node %d", from, to, at);
        load[a] += b->route_units[r];
      }
      if (at != to) return fail(err, part, bi, "a route of edge %d -> %d ends at %d", from, to, at);
    }
    if (sum != b->mult)
      return fail(err, part, bi, "the routes of edge %d -> %d carry %lld trees, the batch has %lld", from, to, (long long)sum, (long long)b->mult);
  }
  /* every compute node but the root reaches the root along parents, without a cycle */
  for (int32_t v = 0; v < g->n; v++) state[v] = 0;
  state[b->root] = 2;
  for (int32_t v = 0; v < g->n; v++) {
    if (g->kind[v] != TC_NODE_COMPUTE || state[v] == 2) continue;
    int32_t x = v;
    while (state[x] == 0) {
      if (parent[x] < 0) return fail(err, part, bi, "node %d is not in the tree", x);
      state[x] = 1;
      x = parent[x];
    }
    if (state[x] == 1) return fail(err, part, bi, "the tree has a cycle through node %d", x);
    for (x = v; state[x] == 1; x = parent[x]) state[x] = 2;
  }
  return TC_OK;
}

/* Capacity B⁺(S) of the cut on the graph the part was built on (g, or g^T for in-trees),
   and w(S ∩ V_c) with the weights w (per node). */
static int check_cut(const tc_graph *g, const tc_forest_part *p, int part, const int64_t *w, tc_error *err) {
  const tc_forest_optimum *o = &p->opt;
  uint8_t *in = calloc((size_t)g->n, 1);
  if (!in) return tc_error_set(err, TC_ENOMEM, "forestcoll: verifier: out of memory");
  int64_t comp = 0, ex = 0, missed = 0;
  for (int32_t i = 0; i < o->cut_len; i++)
    if (o->cut[i] >= 0 && o->cut[i] < g->n) in[o->cut[i]] = 1;
  for (int32_t v = 0; v < g->n; v++) {
    comp += in[v] ? w[v] : 0;
    missed += !in[v] && g->kind[v] == TC_NODE_COMPUTE;
  }
  for (int64_t a = 0; a < g->m; a++) {
    int32_t x = p->in_trees ? g->dst[a] : g->src[a], y = p->in_trees ? g->src[a] : g->dst[a];
    if (in[x] && !in[y]) ex += g->cap[a];
  }
  free(in);
  tc_rat r;
  if (comp == 0 || missed == 0 || ex == 0 || tc_rat_make(comp, ex, &r, err) || tc_rat_cmp(r, o->inv_x) != 0 ||
      comp != o->cut_compute || ex != o->cut_exit)
    return tc_error_set(err, TC_EFAIL,
                        "forestcoll: verifier: part %d: the bottleneck cut re-adds to %lld/%lld, not the claimed 1/x* = "
                        "%lld/%lld",
                        part, (long long)comp, (long long)ex, (long long)o->inv_x.num, (long long)o->inv_x.den);
  return TC_OK;
}

static int check_part(const tc_graph *g, tc_forest_part *p, int part, const int64_t *w, int64_t W, int weighted,
                      tc_error *err) {
  const tc_forest_optimum *o = &p->opt;
  int32_t *parent = malloc((size_t)g->n * sizeof *parent), *state = malloc((size_t)g->n * sizeof *state);
  int64_t *load = calloc((size_t)(g->m ? g->m : 1), sizeof *load), *per_root = calloc((size_t)g->n, sizeof *per_root);
  int rc = TC_OK;
  if (!parent || !state || !load || !per_root) rc = tc_error_set(err, TC_ENOMEM, "forestcoll: verifier: out of memory");
  if (!rc && (o->k < 1 || o->U.num < 1 || o->U.den < 1))
    rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d: k or U is not positive", part);
  int32_t nc = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  for (int64_t b = 0; !rc && b < p->nbatches; b++) {
    rc = check_batch(g, p, part, b, nc, parent, state, load, err);
    if (!rc && tci_add64(per_root[p->batch[b].root], p->batch[b].mult, &per_root[p->batch[b].root]))
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d: root %d's trees overflow 64 bits", part,
                        p->batch[b].root);
  }
  for (int32_t v = 0; !rc && v < g->n; v++) {
    int64_t want;
    if (g->kind[v] != TC_NODE_COMPUTE) continue;
    if (tci_mul64(o->k, w[v], &want))
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d: k·w overflows 64 bits at node %d", part, v);
    else if (per_root[v] != want && weighted)
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d: root %d has %lld trees, not k·w = %lld·%lld",
                        part, v, (long long)per_root[v], (long long)o->k, (long long)w[v]);
    else if (per_root[v] != want)
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d: root %d has %lld trees, not k = %lld", part, v,
                        (long long)per_root[v], (long long)o->k);
  }
  /* load_e ≤ U·b_e, and the largest load_e / b_e */
  int64_t best_load = 0, best_cap = 1;
  for (int64_t a = 0; !rc && a < g->m; a++) {
    if ((__int128)load[a] * o->U.den > (__int128)o->U.num * g->cap[a])
      rc = tc_error_set(err, TC_EFAIL,
                        "forestcoll: verifier: part %d: arc %d -> %d carries %lld trees, more than U·b = %lld/%lld·%lld",
                        part, g->src[a], g->dst[a], (long long)load[a], (long long)o->U.num, (long long)o->U.den,
                        (long long)g->cap[a]);
    else if ((__int128)load[a] * best_cap > (__int128)best_load * g->cap[a]) {
      best_load = load[a];
      best_cap = g->cap[a];
    }
  }
  if (!rc && best_load == 0) rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d moves no data", part);
  /* algbw = W·k / (best_load / best_cap) */
  int64_t wk = 0;
  if (!rc && tci_mul64(W, o->k, &wk))
    rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d: W·k overflows 64 bits", part);
  if (!rc) {
    tc_rat nk = {wk, 1}, rate;
    rc = tc_rat_make(best_load, best_cap, &rate, err);
    if (!rc) rc = tc_rat_div(nk, rate, &p->algbw, err);
  }
  if (!rc && o->optimal) rc = check_cut(g, p, part, w, err);
  if (!rc) {
    tc_rat claim, n = {W, 1}, kk = {o->k, 1};
    rc = o->optimal ? tc_rat_div(n, o->inv_x, &claim, err) : tc_rat_div(kk, o->U, &claim, err);
    if (!rc && !o->optimal) rc = tc_rat_mul(claim, n, &claim, err);
    if (!rc && tc_rat_cmp(claim, p->algbw) != 0)
      rc = tc_error_set(err, TC_EFAIL,
                        "forestcoll: verifier: part %d: the trees reach %lld/%lld, the search promised %lld/%lld", part,
                        (long long)p->algbw.num, (long long)p->algbw.den, (long long)claim.num, (long long)claim.den);
  }
  free(parent);
  free(state);
  free(load);
  free(per_root);
  return rc;
}

/* The forest's weights as one per node (1 on compute nodes when unweighted) and W, checked:
   non-negative, 0 on switches, not all 0, the sum within 64 bits. */
static int check_weights(const tc_graph *g, const tc_forest *f, int64_t *w, int64_t *W, tc_error *err) {
  *W = 0;
  for (int32_t v = 0; v < g->n; v++) {
    w[v] = f->weights ? f->weights[v] : g->kind[v] == TC_NODE_COMPUTE;
    if (w[v] < 0) return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: node %d has weight %lld < 0", v, (long long)w[v]);
    if (w[v] > 0 && g->kind[v] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: switch %d has weight %lld", v, (long long)w[v]);
    if (tci_add64(*W, w[v], W)) return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: the weights overflow 64 bits");
  }
  if (*W == 0) return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: every weight is 0");
  return TC_OK;
}

int tc_forest_verify(const tc_graph *g, tc_forest *f, tc_error *err) {
  f->verified = 0;
  int32_t nc = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  if (nc != f->ncompute || f->nparts < 1 || f->nparts > 2)
    return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: the forest does not belong to this graph");
  int want_in[2];
  int nwant = 0;
  if (f->coll == TC_COLL_ALLGATHER) want_in[nwant++] = 0;
  else if (f->coll == TC_COLL_REDUCE_SCATTER) want_in[nwant++] = 1;
  else if (f->coll == TC_COLL_ALLREDUCE) { want_in[nwant++] = 1; want_in[nwant++] = 0; }
  else return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: %s is not a tree collective", tc_collective_name(f->coll));
  if (nwant != f->nparts) return tc_error_set(err, TC_EFAIL, "forestcoll: verifier: %d parts for %s", f->nparts,
                                              tc_collective_name(f->coll));
  int64_t *w = malloc((size_t)g->n * sizeof *w), W = 0;
  if (!w) return tc_error_set(err, TC_ENOMEM, "forestcoll: verifier: out of memory");
  int rc = check_weights(g, f, w, &W, err);
  for (int i = 0; !rc && i < f->nparts; i++) {
    if (f->part[i].in_trees != want_in[i])
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: verifier: part %d has the wrong tree direction", i);
    else rc = check_part(g, &f->part[i], i, w, W, f->weights != NULL, err);
  }
  free(w);
  if (rc) return rc;
  f->weight_total = W;
  if (f->nparts == 1) f->algbw = f->part[0].algbw;
  else {
    /* allreduce: T = T_RS + T_AG, so algbw = a·b / (a + b) */
    tc_rat prod, sum;
    rc = tc_rat_mul(f->part[0].algbw, f->part[1].algbw, &prod, err);
    if (!rc) rc = tc_rat_add(f->part[0].algbw, f->part[1].algbw, &sum, err);
    if (!rc) rc = tc_rat_div(prod, sum, &f->algbw, err);
    if (rc) return rc;
  }
  f->verified = 1;
  return TC_OK;
}
