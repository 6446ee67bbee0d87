/*
** split.c — switch removal by edge splitting and the path pools (contract in split.h).
*/
#include "forest/split.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "forest/forest_internal.h"
#include "graph/maxflow.h"

/* ---- path pools ------------------------------------------------------------------------- */

static int grow_pools(tci_pools *p, int64_t need, tc_error *err) {
  if (need <= p->npools) return TC_OK;
  int64_t room = p->npools ? p->npools : 64;
  while (room < need) room *= 2;
  tci_pool *q = realloc(p->pool, (size_t)room * sizeof *q);
  if (!q) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld path pools", (long long)room);
  memset(q + p->npools, 0, (size_t)(room - p->npools) * sizeof *q);
  p->pool = q;
  p->npools = room;
  return TC_OK;
}

/* A new path of hops a[0..na-1] (na >= 1; `a` must not point into the arena, which may
   move); its index goes to *id. */
static int new_path(tci_pools *p, const int64_t *a, int64_t na, int64_t *id, tc_error *err) {
  if (p->npaths + 2 > p->path_room) {
    int64_t room = p->path_room ? 2 * p->path_room : 256;
    int64_t *q = realloc(p->path_off, (size_t)room * sizeof *q);
    if (!q) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld paths", (long long)room);
    p->path_off = q;
    p->path_room = room;
  }
  if (p->nhops + na > p->hop_room) {
    int64_t room = p->hop_room ? 2 * p->hop_room : 1024;
    while (room < p->nhops + na) room *= 2;
    int64_t *q = realloc(p->hop, (size_t)room * sizeof *q);
    if (!q) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld path hops", (long long)room);
    p->hop = q;
    p->hop_room = room;
  }
  if (p->npaths == 0) p->path_off[0] = 0;
  memcpy(p->hop + p->nhops, a, (size_t)na * sizeof *a);
  p->nhops += na;
  *id = p->npaths++;
  p->path_off[p->npaths] = p->nhops;
  return TC_OK;
}

static int push_piece(tci_pool *q, int64_t path, int64_t units, tc_error *err) {
  if (q->len == q->room) {
    if (q->head > 0 && q->head * 2 >= q->len) { /* compact the consumed front */
      memmove(q->piece, q->piece + q->head, (size_t)(q->len - q->head) * sizeof *q->piece);
      q->len -= q->head;
      q->head = 0;
    } else {
      int64_t room = q->room ? 2 * q->room : 4;
      tci_piece *r = realloc(q->piece, (size_t)room * sizeof *r);
      if (!r) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for path pieces");
      q->piece = r;
      q->room = room;
    }
  }
  q->piece[q->len].path = path;
  q->piece[q->len].units = units;
  q->len++;
  return TC_OK;
}

int tci_pools_init(tci_pools *p, const tci_capgraph *d, const tc_graph *g, const int64_t *arc_units, tc_error *err) {
  memset(p, 0, sizeof *p);
  int rc = grow_pools(p, d->narcs, err);
  for (int64_t a = 0; !rc && a < g->m; a++) {
    if (g->src[a] == g->dst[a] || arc_units[a] == 0) continue;
    int64_t id = tci_capgraph_find(d, g->src[a], g->dst[a]), path;
    if (id < 0) return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: arc %lld missing from D", (long long)a);
    rc = new_path(p, &a, 1, &path, err);
    if (!rc) rc = push_piece(&p->pool[id], path, arc_units[a], err);
  }
  if (rc) tci_pools_destroy(p);
  return rc;
}

int tci_pools_copy(tci_pools *out, const tci_pools *p, tc_error *err) {
  memset(out, 0, sizeof *out);
  out->pool = calloc((size_t)(p->npools ? p->npools : 1), sizeof *out->pool);
  out->path_off = malloc((size_t)(p->path_room ? p->path_room : 1) * sizeof *out->path_off);
  out->hop = malloc((size_t)(p->hop_room ? p->hop_room : 1) * sizeof *out->hop);
  int rc = out->pool && out->path_off && out->hop ? TC_OK : TC_ENOMEM;
  out->npools = p->npools;
  for (int64_t i = 0; !rc && i < p->npools; i++) {
    const tci_pool *q = &p->pool[i];
    int64_t live = q->len - q->head;
    if (!live) continue;
    out->pool[i].piece = malloc((size_t)live * sizeof *q->piece);
    if (!out->pool[i].piece) { rc = TC_ENOMEM; break; }
    memcpy(out->pool[i].piece, q->piece + q->head, (size_t)live * sizeof *q->piece);
    out->pool[i].len = out->pool[i].room = live;
  }
  if (rc) {
    tci_pools_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory copying the path pools");
  }
  out->npaths = p->npaths;
  out->path_room = p->path_room;
  out->nhops = p->nhops;
  out->hop_room = p->hop_room;
  if (p->npaths) memcpy(out->path_off, p->path_off, (size_t)(p->npaths + 1) * sizeof *p->path_off);
  if (p->nhops) memcpy(out->hop, p->hop, (size_t)p->nhops * sizeof *p->hop);
  return TC_OK;
}

void tci_pools_destroy(tci_pools *p) {
  for (int64_t i = 0; p->pool && i < p->npools; i++) free(p->pool[i].piece);
  free(p->pool);
  free(p->path_off);
  free(p->hop);
  memset(p, 0, sizeof *p);
}

int tci_pools_take(tci_pools *p, const tci_capgraph *d, int32_t x, int32_t y, int64_t units, tci_piece **out,
                   int64_t *count, int64_t *room, tc_error *err) {
  int64_t id = tci_capgraph_find(d, x, y);
  tci_pool *q = id >= 0 && id < p->npools ? &p->pool[id] : NULL;
  while (units > 0) {
    if (!q || q->head == q->len)
      return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: the pool of %d -> %d ran dry", x, y);
    tci_piece *pc = &q->piece[q->head];
    int64_t take = pc->units < units ? pc->units : units;
    if (*count == *room) {
      int64_t r = *room ? 2 * *room : 16;
      tci_piece *o = realloc(*out, (size_t)r * sizeof *o);
      if (!o) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for routes");
      *out = o;
      *room = r;
    }
    (*out)[*count].path = pc->path;
    (*out)[(*count)++].units = take;
    pc->units -= take;
    units -= take;
    if (pc->units == 0) q->head++;
  }
  return TC_OK;
}

/* Move γ units of (u,w) and (w,t) onto (u,t), pairing pieces front to front. */
static int split_pools(tci_pools *p, tci_capgraph *d, int32_t u, int32_t w, int32_t t, int64_t gamma, tci_piece **ta,
                       int64_t *ta_room, tci_piece **tb, int64_t *tb_room, tc_error *err) {
  int64_t na = 0, nb = 0;
  int rc = tci_pools_take(p, d, u, w, gamma, ta, &na, ta_room, err);
  if (!rc) rc = tci_pools_take(p, d, w, t, gamma, tb, &nb, tb_room, err);
  if (rc) return rc;
  rc = tci_capgraph_add(d, u, w, -gamma, err);
  if (!rc) rc = tci_capgraph_add(d, w, t, -gamma, err);
  if (!rc && u != t) rc = tci_capgraph_add(d, u, t, gamma, err);
  if (rc || u == t) return rc; /* a loop crosses no cut: its units are simply dropped */
  rc = grow_pools(p, d->narcs, err);
  int64_t id = tci_capgraph_find(d, u, t);
  for (int64_t i = 0, j = 0; !rc && i < na && j < nb;) {
    int64_t amt = (*ta)[i].units < (*tb)[j].units ? (*ta)[i].units : (*tb)[j].units, path;
    int64_t pa = (*ta)[i].path, pb = (*tb)[j].path;
    int64_t la = p->path_off[pa + 1] - p->path_off[pa], lb = p->path_off[pb + 1] - p->path_off[pb];
    /* Copy the two hop lists out first: the arena may move while the new path is added. */
    int64_t stack[64], *tmp = la + lb <= 64 ? stack : malloc((size_t)(la + lb) * sizeof *tmp);
    if (!tmp) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for a path");
    memcpy(tmp, p->hop + p->path_off[pa], (size_t)la * sizeof *tmp);
    memcpy(tmp + la, p->hop + p->path_off[pb], (size_t)lb * sizeof *tmp);
    rc = new_path(p, tmp, la + lb, &path, err);
    if (tmp != stack) free(tmp);
    if (!rc) rc = push_piece(&p->pool[id], path, amt, err);
    (*ta)[i].units -= amt;
    (*tb)[j].units -= amt;
    if ((*ta)[i].units == 0) i++;
    if ((*tb)[j].units == 0) j++;
  }
  return rc;
}

/* ---- γ of Theorem 8 ---------------------------------------------------------------------- */

typedef struct split_ctx {
  tci_capgraph *d;
  const int32_t *compute;
  const int64_t *w; /* weights per node of g */
  int32_t nc;
  int64_t k, nk, inf; /* nk = k·W */
} split_ctx;

/* The network D_k (D plus s = d->n with s -> c of capacity k·w_c) into mf. */
static int build_base(tc_maxflow *mf, const split_ctx *x, tc_error *err) {
  const tci_capgraph *d = x->d;
  int rc = tci_maxflow_reset(mf, d->n + 1, err);
  for (int64_t a = 0; !rc && a < d->narcs; a++)
    if (d->cap[a] > 0) rc = tci_maxflow_add(mf, d->src[a], d->dst[a], d->cap[a], NULL, err);
  for (int32_t i = 0; !rc && i < x->nc; i++)
    if (x->w[x->compute[i]] > 0) rc = tci_maxflow_add(mf, d->n, x->compute[i], x->k * x->w[x->compute[i]], NULL, err);
  return rc;
}

/* Family 1 (fam = 0): D̂_{(u,w),v} = D_k + u->s, u->t, v->w (all ∞), flow u -> w, over compute
   v ∉ {u, t}. Family 2 (fam = 1): D̂_{(w,t),v} = D_k + w->s, u->t, v->t, flow w -> t, over
   every compute v. Lowers *best to min(*best, F - W·k) (runs stop once F reaches W·k + *best). */
static int family(tc_maxflow *mf, const split_ctx *x, int fam, int32_t u, int32_t w, int32_t t, int64_t *best,
                  int64_t *flows, tc_error *err) {
  int32_t s = x->d->n, from = fam ? w : u, to = fam ? t : w, end = fam ? t : w;
  int rc = build_base(mf, x, err);
  if (!rc) rc = tci_maxflow_add(mf, fam ? w : u, s, x->inf, NULL, err);
  if (!rc && u != t) rc = tci_maxflow_add(mf, u, t, x->inf, NULL, err);
  int64_t first = mf->m;
  /* one switchable arc v -> end per compute v, arc first + i (a loop when v == end, inert) */
  for (int32_t i = 0; !rc && i < x->nc; i++) rc = tci_maxflow_add(mf, x->compute[i], end, 0, NULL, err);
#pragma omp for schedule(dynamic, 1)
  for (int32_t i = 0; i < x->nc; i++) {
    int32_t v = x->compute[i];
    if (rc || (!fam && (v == u || v == t))) continue;
    int64_t arc = first + i;
    tci_maxflow_set_cap(mf, arc, x->inf);
    int64_t value = 0;
    rc = tci_maxflow_run_limit(mf, from, to, x->nk + *best, &value, err);
    (*flows)++;
    tci_maxflow_set_cap(mf, arc, 0);
    if (!rc && value - x->nk < *best) *best = value - x->nk;
  }
  return rc;
}

static int gamma_of(const split_ctx *x, int32_t u, int32_t w, int32_t t, int64_t ub, int64_t *gamma, int64_t *flows,
                    tc_error *err) {
  int rc = TC_OK;
  int64_t best = ub, nflows = 0;
  /* Threads pay off only when the max-flows are big enough to outweigh waking them. */
  int threads = (int64_t)x->nc * (x->d->narcs + x->nc) < (1 << 16) ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(threads) reduction(+ : nflows)
  {
    tc_maxflow mf;
    tci_maxflow_init(&mf);
    tc_error lerr = {0};
    int64_t local = ub;
    int lrc = family(&mf, x, 0, u, w, t, &local, &nflows, &lerr);
    if (!lrc) lrc = family(&mf, x, 1, u, w, t, &local, &nflows, &lerr);
#pragma omp critical(tc_forest_gamma)
    {
      if (local < best) best = local;
      if (lrc && !rc) {
        rc = lrc;
        *err = lerr;
      }
    }
    tci_maxflow_destroy(&mf);
  }
  *flows += nflows;
  if (rc) return rc;
  if (best < 0) return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: a cut of D_k is below W·k");
  *gamma = best;
  return TC_OK;
}

/* ---- Algorithm 4 -------------------------------------------------------------------------- */

typedef struct order_key {
  int32_t u;
  int64_t dist; /* hops from u to t in D without w; INT64_MAX when unreachable; -1 for u = t */
  int32_t after; /* (u − t) mod n: the cyclic successors of t first */
} order_key;

static int cmp_key(const void *pa, const void *pb) {
  const order_key *a = pa, *b = pb;
  if (a->dist != b->dist) return a->dist > b->dist ? -1 : 1;
  return (a->after > b->after) - (a->after < b->after);
}

/* Hop distance from every node to t in the physical fabric g, avoiding w (reverse BFS).
   The fabric, not the current D: after a cluster switch is split into a ring, the ring makes
   a cluster's own nodes look far from each other, which would pair them up at the global
   switch and waste its cross-cluster capacity. */
static void dist_to(const tc_graph *g, int32_t t, int32_t w, int64_t *dist, int32_t *queue) {
  for (int32_t v = 0; v < g->n; v++) dist[v] = INT64_MAX;
  int32_t qh = 0, qt = 0;
  dist[t] = 0;
  queue[qt++] = t;
  while (qh < qt) {
    int32_t v = queue[qh++];
    for (int64_t j = g->in_off[v]; j < g->in_off[v + 1]; j++) {
      int32_t z = g->src[g->in_arc[j]];
      if (z != w && dist[z] == INT64_MAX) {
        dist[z] = dist[v] + 1;
        queue[qt++] = z;
      }
    }
  }
}

typedef struct sw_key {
  int32_t w;
  int32_t neighbours;
} sw_key;

static int cmp_sw(const void *pa, const void *pb) {
  const sw_key *a = pa, *b = pb;
  if (a->neighbours != b->neighbours) return a->neighbours < b->neighbours ? -1 : 1;
  return (a->w > b->w) - (a->w < b->w);
}

static int32_t distinct_neighbours(const tci_capgraph *d, int32_t w, uint8_t *mark) {
  int32_t count = 0;
  for (int side = 0; side < 2; side++) {
    const tci_adjlist *l = side ? &d->in[w] : &d->out[w];
    for (int32_t i = 0; i < l->len; i++) {
      int64_t a = l->arc[i];
      int32_t z = side ? d->src[a] : d->dst[a];
      if (d->cap[a] > 0 && !mark[z]) { mark[z] = 1; count++; }
    }
  }
  for (int side = 0; side < 2; side++) {
    const tci_adjlist *l = side ? &d->in[w] : &d->out[w];
    for (int32_t i = 0; i < l->len; i++) mark[side ? d->src[l->arc[i]] : d->dst[l->arc[i]]] = 0;
  }
  return count;
}

int tci_split_switches(tci_capgraph *d, const tc_graph *g, int64_t k, const int64_t *w, int greedy, tci_pools *pools,
                       tci_split_stats *stats, tc_progress_fn progress, void *progress_ctx, tc_error *err) {
  split_ctx x = {.d = d, .k = k, .w = w};
  int32_t *compute = NULL, nc = 0, nsw = 0;
  int64_t W = 0;
  int rc = tci_forest_compute_nodes(g, &compute, &nc, err);
  x.compute = compute;
  x.nc = nc;
  for (int32_t i = 0; !rc && i < nc; i++) W += w[compute[i]]; /* tci_forest_weights checked the sum */
  if (!rc && tci_mul64(W, k, &x.nk)) rc = tc_error_set(err, TC_ERANGE, "forestcoll: W·k overflows 64 bits");
  int64_t total = 0;
  for (int64_t a = 0; !rc && a < d->narcs; a++)
    if (tci_add64(total, d->cap[a], &total)) rc = tc_error_set(err, TC_ERANGE, "forestcoll: total capacity overflows");
  /* ∞: more than any finite cut of D_k can hold. Two of them leave a source, hence /4. */
  if (!rc && (tci_add64(total, x.nk, &x.inf) || x.inf >= INT64_MAX / 4))
    rc = tc_error_set(err, TC_ERANGE, "forestcoll: the scaled capacities are too large for switch removal");
  x.inf += 1;
  sw_key *sw = malloc((size_t)g->n * sizeof *sw);
  order_key *keys = malloc((size_t)g->n * sizeof *keys);
  int64_t *dist = malloc((size_t)g->n * sizeof *dist);
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  uint8_t *mark = calloc((size_t)g->n, 1);
  tci_piece *ta = NULL, *tb = NULL;
  int64_t ta_room = 0, tb_room = 0;
  if (!rc && (!sw || !keys || !dist || !queue || !mark))
    rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for switch removal on %d nodes", g->n);
  for (int32_t w = 0; !rc && w < g->n; w++)
    if (g->kind[w] == TC_NODE_SWITCH) {
      sw[nsw].w = w;
      sw[nsw++].neighbours = distinct_neighbours(d, w, mark);
    }
  if (!rc) qsort(sw, (size_t)nsw, sizeof *sw, cmp_sw);
  const char *phase = greedy ? "forest: removing switches" : "forest: removing switches exactly (Algorithm 4)";
  if (!rc && progress) progress(progress_ctx, phase, 0, nsw);
  for (int32_t si = 0; !rc && si < nsw; si++) {
    int32_t w = sw[si].w;
    /* A switch with at most two neighbours a, b is split completely without a max-flow:
       every cut keeps enough slack. Proof: write slack(S) = B⁺(S) − k·w(S ∩ V_c) ≥ 0 for
       S ⊉ V_c. A split on (u,w),(w,t) only shrinks cuts with u, t ∈ S ∌ w or w ∈ S ∌ u, t.
       If a, b ∈ S ∌ w, S + w is a cut with B⁺ smaller by c(S,w) − c(w,S̄) = in(w) − 0, so
       slack(S) ≥ in(w), the most all of w's splits remove (w ∈ S ∌ a, b: symmetric, with
       out(w)). If a ∈ S ∌ b, w ∉ S, only the loops γ_aa shrink S, and slack(S) ≥
       slack(S + w) + c(a,w) − c(w,b) = γ_aa − γ_bb, so the loops at b must stay ≤
       max(0, c(b,w) − c(w,a)) = max(0, c(w,b) − c(a,w)) (equal: w is Eulerian), which
       is exactly what splitting the non-loop pair first and the loop with the rest leaves
       (the ingress order below puts u = t last); the other mixed cases are the same with a
       and b or S and its complement exchanged. */
    int free_split = greedy || distinct_neighbours(d, w, mark) <= 2;
    /* Egress arcs of w: the list does not grow while w is processed (new arcs avoid w). */
    for (int32_t fi = 0; !rc && fi < d->out[w].len; fi++) {
      int64_t f = d->out[w].arc[fi];
      int32_t t = d->dst[f];
      if (d->cap[f] == 0) continue;
      dist_to(g, t, w, dist, queue);
      int32_t nk = 0;
      for (int32_t ei = 0; ei < d->in[w].len; ei++) {
        int64_t e = d->in[w].arc[ei];
        if (d->cap[e] == 0) continue;
        keys[nk].u = d->src[e];
        keys[nk].after = (d->src[e] - t + d->n) % d->n;
        keys[nk++].dist = d->src[e] == t ? -1 : dist[d->src[e]]; /* a loop last */
      }
      qsort(keys, (size_t)nk, sizeof *keys, cmp_key);
      for (int32_t ei = 0; !rc && ei < nk && d->cap[f] > 0; ei++) {
        int32_t u = keys[ei].u;
        int64_t cuw = tci_capgraph_cap(d, u, w), ub = cuw < d->cap[f] ? cuw : d->cap[f], gamma = 0;
        if (ub == 0) continue;
        if (free_split) gamma = ub;
        else rc = gamma_of(&x, u, w, t, ub, &gamma, &stats->maxflows, err);
        if (!rc && gamma > 0) {
          rc = split_pools(pools, d, u, w, t, gamma, &ta, &ta_room, &tb, &tb_room, err);
          stats->splits++;
        }
      }
      if (!rc && d->cap[f] > 0) {
        rc = tc_error_set(err, TC_EFAIL,
                          "forestcoll: internal error: egress arc %d -> %d of switch %d kept %lld units after one pass "
                          "(Theorem 8)",
                          w, t, w, (long long)d->cap[f]);
      }
    }
    if (!rc && (tci_capgraph_in_cap(d, w) || tci_capgraph_out_cap(d, w)))
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: internal error: switch %d is not isolated after its removal", w);
    if (!rc && progress) progress(progress_ctx, phase, si + 1, nsw);
  }
  free(compute);
  free(sw);
  free(keys);
  free(dist);
  free(queue);
  free(mark);
  free(ta);
  free(tb);
  return rc;
}
