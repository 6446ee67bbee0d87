/*
** dw_state.c — the state the column-generation solver's two phases share (contract in
** dw_internal.h): the column pool, pricing every representative in parallel, the dual bound
** of a pricing round and the progress report. dw.c (the master) and dw_fw.c (the
** first-order phase) both build on it; neither calls the other's internals.
*/
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/dw_internal.h"
#include "a2a/sptree.h"
#include "core/progress.h"

void tci_dw_pool_free(tci_dw_pool *p) {
  free(p->src), free(p->start), free(p->arc), free(p->load), free(p->idle), free(p->hash), free(p->lam);
  memset(p, 0, sizeof *p);
}

#define GROW(ptr, count)                                                     \
  do {                                                                       \
    void *q_ = realloc((ptr), sizeof *(ptr) * (size_t)(count));              \
    if (!q_) return 0;                                                       \
    (ptr) = q_;                                                              \
  } while (0)

static int pool_reserve(tci_dw_pool *p, int64_t cols, int64_t entries) {
  if (cols > p->room) {
    int64_t room = p->room ? p->room : 64;
    while (room < cols) room *= 2;
    GROW(p->src, room);
    GROW(p->start, room + 1);
    GROW(p->idle, room);
    GROW(p->hash, room);
    GROW(p->lam, room);
    if (p->count == 0) p->start[0] = 0;
    p->room = room;
  }
  if (entries > p->entry_room) {
    int64_t room = p->entry_room ? p->entry_room : 1024;
    while (room < entries) room *= 2;
    GROW(p->arc, room);
    GROW(p->load, room);
    p->entry_room = room;
  }
  return 1;
}
#undef GROW

int tci_dw_pool_copy(const tci_dw_pool *from, tci_dw_pool *to, tc_error *err) {
  tci_dw_pool_free(to);
  if (!pool_reserve(to, from->count + 1, from->entries + 1)) {
    tci_dw_pool_free(to);
    return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
  }
  size_t c = (size_t)from->count, e = (size_t)from->entries;
  memcpy(to->src, from->src, sizeof *to->src * c), memcpy(to->start, from->start, sizeof *to->start * (c + 1));
  memcpy(to->idle, from->idle, sizeof *to->idle * c), memcpy(to->hash, from->hash, sizeof *to->hash * c);
  memcpy(to->lam, from->lam, sizeof *to->lam * c);
  memcpy(to->arc, from->arc, sizeof *to->arc * e), memcpy(to->load, from->load, sizeof *to->load * e);
  to->count = from->count, to->entries = from->entries;
  return TC_OK;
}

void tci_dw_pool_compact(tci_dw_pool *p, const uint8_t *keep) {
  int64_t c = 0, e = 0;
  for (int64_t j = 0; j < p->count; j++) {
    if (!keep[j]) continue;
    int64_t b = p->start[j], len = p->start[j + 1] - b;
    memmove(p->arc + e, p->arc + b, sizeof *p->arc * (size_t)len);
    memmove(p->load + e, p->load + b, sizeof *p->load * (size_t)len);
    p->src[c] = p->src[j], p->idle[c] = p->idle[j], p->hash[c] = p->hash[j], p->lam[c] = p->lam[j];
    p->start[c] = e;
    e += len;
    c++;
  }
  p->count = c;
  p->entries = e;
  p->start[c] = e;
}


/* FNV-1a over the (arc, load) entries. */
static uint64_t tree_hash(const int32_t *arc, const int32_t *load, int32_t len) {
  uint64_t h = 1469598103934665603ULL;
  for (int32_t i = 0; i < len; i++) {
    h = (h ^ (uint64_t)(uint32_t)arc[i]) * 1099511628211ULL;
    h = (h ^ (uint64_t)(uint32_t)load[i]) * 1099511628211ULL;
  }
  return h;
}

int tci_dw_price(tci_dw *d, tc_error *err) {
  const tc_graph *g = d->g;
  int32_t n = d->n, nreps = d->nreps;
  int failed = 0, threads = d->threads > 0 ? d->threads : omp_get_max_threads();
#pragma omp parallel if (tci_sptree_parallel(g, nreps) && threads > 1) num_threads(threads)
  {
    tci_sptree tree;
    int ok = tci_sptree_init(&tree, n, NULL) == TC_OK;
    if (!ok) {
#pragma omp atomic write
      failed = 1;
    }
#pragma omp for schedule(dynamic, 8)
    for (int32_t i = 0; i < nreps; i++) {
      if (!ok) continue;
      int32_t *arc = d->t_arc + (int64_t)i * (n - 1), *load = d->t_load + (int64_t)i * (n - 1);
      tci_sptree_build(&tree, g, d->l_price, d->sym->rep[i]);
      d->t_cost[i] = tci_sptree_cost(&tree, g);
      int32_t len = tci_sptree_loads(&tree, g, arc, load);
      d->t_len[i] = len;
      d->t_hash[i] = tree_hash(arc, load, len);
      double at_master = 0;
      for (int32_t k = 0; k < len; k++) at_master += (double)load[k] * d->l_master[arc[k]];
      d->t_rc[i] = at_master - d->mu[i];
    }
    tci_sptree_destroy(&tree);
  }
  if (failed) return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory for shortest-path trees");
  return TC_OK;
}

/* The bound of the last pricing: |H|·Σ_r cost_r / Σ_a c_a l_a (the full graph's Σ dist). */
static double round_bound(const tci_dw *d) {
  double cl = 0, dist = 0;
  for (int64_t a = 0; a < d->m; a++)
    if (d->sym->arc_class[a] >= 0) cl += (double)d->g->cap[a] * d->l_price[a];
  for (int32_t i = 0; i < d->nreps; i++) dist += d->t_cost[i];
  return cl > 0 ? dist * d->sym->order / cl : 0;
}

void tci_dw_keep_bound(tci_dw *d) {
  double bound = round_bound(d);
  if (bound > d->best_bound) {
    d->best_bound = bound;
    memcpy(d->l_best, d->l_price, sizeof *d->l_best * (size_t)d->m);
  }
}

void tci_dw_progress(const tci_dw *d) {
  if (!d->o->progress) return;
  double gap = d->best_bound > 0 ? d->z / d->best_bound - 1 : INFINITY;
  tci_progress(d->o->progress, d->o->progress_ctx, (double)d->rounds, 0,
               "dw: round %lld, f in [%.9g, %.9g], gap %.3g, %lld columns", (long long)d->rounds, 1 / d->z,
               d->best_bound > 0 ? 1 / d->best_bound : INFINITY, gap, (long long)d->cols.count);
}

int tci_dw_pool_append(tci_dw *d, const uint8_t *take, int64_t *col, tc_error *err) {
  int32_t n = d->n, nreps = d->nreps;
  tci_dw_pool *p = &d->cols;
  int64_t count = 0, entries = 0, *at = malloc(sizeof *at * (size_t)nreps);
  if (!at) return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
  for (int32_t i = 0; i < nreps; i++) at[i] = take[i] ? -1 : -2;
  for (int64_t j = 0; j < p->count; j++)
    if (at[p->src[j]] == -1 && p->hash[j] == d->t_hash[p->src[j]]) at[p->src[j]] = j;
  for (int32_t i = 0; i < nreps; i++)
    if (at[i] == -1) count++, entries += d->t_len[i];
  if (!pool_reserve(p, p->count + count, p->entries + entries)) {
    free(at);
    return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory for %lld columns", (long long)(p->count + count));
  }
  for (int32_t i = 0; i < nreps; i++) {
    if (at[i] != -1) continue;
    const int32_t *arc = d->t_arc + (int64_t)i * (n - 1), *load = d->t_load + (int64_t)i * (n - 1);
    int64_t e = p->entries;
    for (int32_t t = 0; t < d->t_len[i]; t++) p->arc[e] = arc[t], p->load[e++] = load[t];
    p->src[p->count] = i, p->idle[p->count] = 0, p->hash[p->count] = d->t_hash[i], p->lam[p->count] = 0;
    at[i] = p->count;
    p->entries = e;
    p->start[++p->count] = e;
  }
  for (int32_t i = 0; col && i < nreps; i++)
    if (at[i] >= 0) col[i] = at[i];
  free(at);
  return TC_OK;
}
