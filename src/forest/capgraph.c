/*
** capgraph.c — the mutable capacitated digraph of ForestColl's constructions (contract in
** capgraph.h). Arcs live in flat arrays; an open-addressing table maps the pair (u,v) to its
** arc, and per-node lists name the arcs leaving and entering each node. Dead arcs (capacity
** 0) keep their slot so the pair can come back without a new entry.
*/
#include "forest/capgraph.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

static uint64_t pair_hash(int32_t u, int32_t v) {
  uint64_t x = ((uint64_t)(uint32_t)u << 32) | (uint32_t)v;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

int tci_capgraph_init(tci_capgraph *g, int32_t n, tc_error *err) {
  memset(g, 0, sizeof *g);
  if (n < 1) return tc_error_set(err, TC_EINPUT, "capgraph: needs at least one node (got %d)", n);
  g->n = n;
  g->out = calloc((size_t)n, sizeof *g->out);
  g->in = calloc((size_t)n, sizeof *g->in);
  g->mask = 63;
  g->slot = calloc(g->mask + 1, sizeof *g->slot);
  if (!g->out || !g->in || !g->slot) {
    tci_capgraph_destroy(g);
    return tc_error_set(err, TC_ENOMEM, "capgraph: out of memory for %d nodes", n);
  }
  return TC_OK;
}

void tci_capgraph_destroy(tci_capgraph *g) {
  for (int32_t u = 0; g->out && u < g->n; u++) free(g->out[u].arc);
  for (int32_t u = 0; g->in && u < g->n; u++) free(g->in[u].arc);
  free(g->out);
  free(g->in);
  free(g->src);
  free(g->dst);
  free(g->cap);
  free(g->slot);
  memset(g, 0, sizeof *g);
}

int64_t tci_capgraph_find(const tci_capgraph *g, int32_t u, int32_t v) {
  for (uint64_t h = pair_hash(u, v) & g->mask;; h = (h + 1) & g->mask) {
    int64_t s = g->slot[h];
    if (!s) return -1;
    if (g->src[s - 1] == u && g->dst[s - 1] == v) return s - 1;
  }
}

int64_t tci_capgraph_cap(const tci_capgraph *g, int32_t u, int32_t v) {
  int64_t a = tci_capgraph_find(g, u, v);
  return a < 0 ? 0 : g->cap[a];
}

static int rehash(tci_capgraph *g, uint64_t slots) {
  int64_t *slot = calloc(slots, sizeof *slot);
  if (!slot) return 0;
  for (int64_t a = 0; a < g->narcs; a++) {
    uint64_t h = pair_hash(g->src[a], g->dst[a]) & (slots - 1);
    while (slot[h]) h = (h + 1) & (slots - 1);
    slot[h] = a + 1;
  }
  free(g->slot);
  g->slot = slot;
  g->mask = slots - 1;
  return 1;
}

static int list_push(tci_adjlist *l, int64_t a) {
  if (l->len == l->room) {
    int32_t room = l->room ? 2 * l->room : 4;
    int64_t *p = realloc(l->arc, (size_t)room * sizeof *p);
    if (!p) return 0;
    l->arc = p;
    l->room = room;
  }
  l->arc[l->len++] = a;
  return 1;
}

static int new_arc(tci_capgraph *g, int32_t u, int32_t v, int64_t *id, tc_error *err) {
  if (g->narcs == g->room) {
    int64_t room = g->room ? 2 * g->room : 64;
    int32_t *s = realloc(g->src, (size_t)room * sizeof *s);
    if (s) g->src = s;
    int32_t *d = s ? realloc(g->dst, (size_t)room * sizeof *d) : NULL;
    if (d) g->dst = d;
    int64_t *c = d ? realloc(g->cap, (size_t)room * sizeof *c) : NULL;
    if (!c) return tc_error_set(err, TC_ENOMEM, "capgraph: out of memory for %lld arcs", (long long)room);
    g->cap = c;
    g->room = room;
  }
  if ((uint64_t)(g->narcs + 1) * 2 > g->mask + 1 && !rehash(g, 2 * (g->mask + 1)))
    return tc_error_set(err, TC_ENOMEM, "capgraph: out of memory for the arc table");
  int64_t a = g->narcs;
  if (!list_push(&g->out[u], a) || !list_push(&g->in[v], a))
    return tc_error_set(err, TC_ENOMEM, "capgraph: out of memory for node %d's arcs", u);
  g->src[a] = u;
  g->dst[a] = v;
  g->cap[a] = 0;
  uint64_t h = pair_hash(u, v) & g->mask;
  while (g->slot[h]) h = (h + 1) & g->mask;
  g->slot[h] = a + 1;
  g->narcs++;
  *id = a;
  return TC_OK;
}

int tci_capgraph_add(tci_capgraph *g, int32_t u, int32_t v, int64_t delta, tc_error *err) {
  if (u < 0 || u >= g->n || v < 0 || v >= g->n)
    return tc_error_set(err, TC_EINPUT, "capgraph: arc %d -> %d outside nodes 0..%d", u, v, g->n - 1);
  if (u == v || delta == 0) return TC_OK;
  int64_t a = tci_capgraph_find(g, u, v);
  if (a < 0) {
    if (delta < 0) return tc_error_set(err, TC_EINPUT, "capgraph: arc %d -> %d would go below 0", u, v);
    int rc = new_arc(g, u, v, &a, err);
    if (rc) return rc;
  }
  int64_t c;
  if (tci_add64(g->cap[a], delta, &c))
    return tc_error_set(err, TC_ERANGE, "capgraph: capacity of %d -> %d overflows 64 bits", u, v);
  if (c < 0) return tc_error_set(err, TC_EINPUT, "capgraph: arc %d -> %d would go below 0", u, v);
  g->cap[a] = c;
  return TC_OK;
}

int tci_capgraph_from_graph(tci_capgraph *out, const tc_graph *g, int64_t scale, tc_error *err) {
  int rc = tci_capgraph_init(out, g->n, err);
  for (int64_t a = 0; !rc && a < g->m; a++) {
    int64_t c;
    if (tci_mul64(g->cap[a], scale, &c))
      rc = tc_error_set(err, TC_ERANGE, "capgraph: capacity %lld x %lld overflows 64 bits", (long long)g->cap[a],
                        (long long)scale);
    else rc = tci_capgraph_add(out, g->src[a], g->dst[a], c, err);
  }
  if (rc) tci_capgraph_destroy(out);
  return rc;
}

int tci_capgraph_copy(tci_capgraph *out, const tci_capgraph *g, tc_error *err) {
  memset(out, 0, sizeof *out);
  size_t room = (size_t)(g->room ? g->room : 1), slots = (size_t)g->mask + 1;
  out->n = g->n;
  out->narcs = g->narcs;
  out->room = (int64_t)room;
  out->mask = g->mask;
  out->src = malloc(room * sizeof *out->src);
  out->dst = malloc(room * sizeof *out->dst);
  out->cap = malloc(room * sizeof *out->cap);
  out->slot = malloc(slots * sizeof *out->slot);
  out->out = calloc((size_t)g->n, sizeof *out->out);
  out->in = calloc((size_t)g->n, sizeof *out->in);
  int ok = out->src && out->dst && out->cap && out->slot && out->out && out->in;
  if (ok) {
    memcpy(out->src, g->src, (size_t)g->narcs * sizeof *g->src);
    memcpy(out->dst, g->dst, (size_t)g->narcs * sizeof *g->dst);
    memcpy(out->cap, g->cap, (size_t)g->narcs * sizeof *g->cap);
    memcpy(out->slot, g->slot, slots * sizeof *g->slot);
  }
  for (int32_t u = 0; ok && u < g->n; u++)
    for (int side = 0; ok && side < 2; side++) {
      const tci_adjlist *l = side ? &g->in[u] : &g->out[u];
      tci_adjlist *m = side ? &out->in[u] : &out->out[u];
      if (!l->len) continue;
      m->arc = malloc((size_t)l->len * sizeof *m->arc);
      if (!m->arc) ok = 0;
      else {
        memcpy(m->arc, l->arc, (size_t)l->len * sizeof *m->arc);
        m->len = m->room = l->len;
      }
    }
  if (!ok) {
    tci_capgraph_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "capgraph: out of memory copying %lld arcs", (long long)g->narcs);
  }
  return TC_OK;
}

int64_t tci_capgraph_out_cap(const tci_capgraph *g, int32_t u) {
  int64_t s = 0;
  for (int32_t i = 0; i < g->out[u].len; i++) s += g->cap[g->out[u].arc[i]];
  return s;
}

int64_t tci_capgraph_in_cap(const tci_capgraph *g, int32_t u) {
  int64_t s = 0;
  for (int32_t i = 0; i < g->in[u].len; i++) s += g->cap[g->in[u].arc[i]];
  return s;
}

int64_t tci_capgraph_live_arcs(const tci_capgraph *g) {
  int64_t k = 0;
  for (int64_t a = 0; a < g->narcs; a++) k += g->cap[a] > 0;
  return k;
}
