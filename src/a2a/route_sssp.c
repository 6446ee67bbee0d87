/*
** route_sssp.c — the SSSP baseline (paper 003 §5.2, after Domke, Hoefler and Nagel's
** DF-SSSP, its ref. [19]): single paths "through a graph whose link weights reflect the
** additional congestion caused by each iteration".
**
** The rule (neither paper prints one; ours, after ref. [19]'s description): every arc
** starts with weight 1; destinations t = 0, 1, ..., N-1 in turn, each routed along a
** least-weight tree into t (Dijkstra over the arcs backwards; among equal weights the
** lowest arc id, so the result is deterministic), every compute source along its tree
** path; then each arc's weight grows by the number of those routes that use it. The first
** destination therefore gets shortest paths, later ones avoid what earlier ones loaded.
** Weights stay below 1 + N^2 * N: no overflow.
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

/* A binary min-heap of (key, node) with decrease-key by position. */
typedef struct heap {
  int32_t *node, *pos; /* pos[u]: u's index in node[], -1 if absent */
  int64_t *key;        /* key[u] */
  int32_t size;
} heap;

static int heap_less(const heap *h, int32_t a, int32_t b) {
  return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static void heap_swap(heap *h, int32_t i, int32_t j) {
  int32_t u = h->node[i], v = h->node[j];
  h->node[i] = v; h->node[j] = u;
  h->pos[v] = i; h->pos[u] = j;
}

static void heap_up(heap *h, int32_t i) {
  while (i > 0 && heap_less(h, h->node[i], h->node[(i - 1) / 2])) {
    heap_swap(h, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

static int32_t heap_pop(heap *h) {
  int32_t top = h->node[0];
  heap_swap(h, 0, --h->size);
  h->pos[top] = -1;
  for (int32_t i = 0;;) {
    int32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->size && heap_less(h, h->node[l], h->node[m])) m = l;
    if (r < h->size && heap_less(h, h->node[r], h->node[m])) m = r;
    if (m == i) break;
    heap_swap(h, i, m);
    i = m;
  }
  return top;
}

/* Least-weight tree into t: next[u] = the arc u leaves by (-1: none, or u == t). A node's
   key is final when it is popped; every candidate that ties with it comes from a node with
   a smaller key (weights are >= 1), popped before, so the lowest tying arc id wins. */
static void tree_into(const tc_graph *g, int32_t t, const int64_t *w, heap *h, uint8_t *done, int64_t *next) {
  for (int32_t u = 0; u < g->n; u++) {
    h->key[u] = INT64_MAX;
    h->pos[u] = -1;
    done[u] = 0;
    next[u] = -1;
  }
  h->size = 0;
  h->key[t] = 0;
  h->node[0] = t;
  h->pos[t] = 0;
  h->size = 1;
  while (h->size) {
    int32_t v = heap_pop(h);
    done[v] = 1;
    for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) {
      int64_t a = g->in_arc[i];
      int32_t u = g->src[a];
      if (done[u]) continue;
      int64_t cand = h->key[v] + w[a];
      if (cand > h->key[u] || (cand == h->key[u] && a > next[u])) continue;
      h->key[u] = cand;
      next[u] = a;
      if (h->pos[u] < 0) {
        h->node[h->size] = u;
        h->pos[u] = h->size++;
      }
      heap_up(h, h->pos[u]);
    }
  }
}

int tc_a2a_route_sssp(const tc_graph *g, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_a2a_check_graph(g, "sssp", err);
  if (!rc) rc = tc_a2a_routing_init(out, g->n, "sssp", err);
  if (rc) return rc;
  size_t n = (size_t)g->n, m = (size_t)(g->m ? g->m : 1);
  heap h = {malloc(n * sizeof(int32_t)), malloc(n * sizeof(int32_t)), malloc(n * sizeof(int64_t)), 0};
  uint8_t *done = malloc(n);
  int64_t *w = malloc(m * sizeof *w), *used = calloc(m, sizeof *used), *next = malloc(n * sizeof *next);
  int64_t *path = malloc(n * sizeof *path);
  int32_t *dist = malloc(n * sizeof *dist);
  if (!h.node || !h.pos || !h.key || !done || !w || !used || !next || !path || !dist)
    rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  for (size_t a = 0; !rc && a < (size_t)g->m; a++) w[a] = 1;
  for (int32_t t = 0; t < g->n && !rc; t++) {
    if (g->kind[t] != TC_NODE_COMPUTE || (rc = tci_a2a_dist_to(g, t, dist, "sssp", err))) continue;
    tree_into(g, t, w, &h, done, next);
    for (int32_t s = 0; s < g->n && !rc; s++) {
      if (!tci_a2a_live(g, s, t)) continue;
      int32_t len = 0;
      for (int32_t u = s; u != t; u = g->dst[next[u]]) path[len++] = next[u]; /* keys fall: a simple path */
      for (int32_t i = 0; i < len; i++) used[path[i]]++;
      rc = tc_a2a_routing_add(out, s, t, path, len, (tc_rat){1, 1}, err);
    }
    for (size_t a = 0; a < (size_t)g->m; a++) { /* the congestion this destination added */
      w[a] += used[a];
      used[a] = 0;
    }
  }
  free(h.node); free(h.pos); free(h.key); free(done); free(w); free(used); free(next); free(path); free(dist);
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
  if (rc) tc_a2a_routing_destroy(out);
  return rc;
}
