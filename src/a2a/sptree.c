/*
** sptree.c — Dijkstra shortest-path trees and their all-to-all loads (contract in
** sptree.h).
**
** The heap is an indexed binary heap keyed by (dist, node id), so decrease-key is O(log n)
** and the settle order is a function of the lengths alone. Loads are subtree sizes: walking
** the settle order backwards, each node's count of compute sinks is final when it is
** reached (its children were settled after it), and is both the load of its parent arc and
** a contribution to its parent's count.
*/
#include "a2a/sptree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tci_sptree_init(tci_sptree *t, int32_t n, tc_error *err) {
  memset(t, 0, sizeof *t);
  size_t k = n > 0 ? (size_t)n : 1;
  t->dist = malloc(k * sizeof *t->dist);
  t->parent = malloc(k * sizeof *t->parent);
  t->order = malloc(k * sizeof *t->order);
  t->heap = malloc(k * sizeof *t->heap);
  t->slot = malloc(k * sizeof *t->slot);
  t->below = malloc(k * sizeof *t->below);
  if (!t->dist || !t->parent || !t->order || !t->heap || !t->slot || !t->below) {
    tci_sptree_destroy(t);
    return tc_error_set(err, TC_ENOMEM, "out of memory for shortest-path trees of %d nodes", n);
  }
  t->n = n;
  return TC_OK;
}

void tci_sptree_destroy(tci_sptree *t) {
  free(t->dist);
  free(t->parent);
  free(t->order);
  free(t->heap);
  free(t->slot);
  free(t->below);
  memset(t, 0, sizeof *t);
}

/* (dist, id) order: a before b. */
static int before(const double *dist, int32_t a, int32_t b) { return dist[a] < dist[b] || (dist[a] == dist[b] && a < b); }

static void sift_up(tci_sptree *t, int32_t i) {
  int32_t v = t->heap[i];
  while (i > 0) {
    int32_t p = (i - 1) / 2;
    if (!before(t->dist, v, t->heap[p])) break;
    t->heap[i] = t->heap[p];
    t->slot[t->heap[i]] = i;
    i = p;
  }
  t->heap[i] = v;
  t->slot[v] = i;
}

static void sift_down(tci_sptree *t, int32_t i, int32_t size) {
  int32_t v = t->heap[i];
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && before(t->dist, t->heap[c + 1], t->heap[c])) c++;
    if (!before(t->dist, t->heap[c], v)) break;
    t->heap[i] = t->heap[c];
    t->slot[t->heap[i]] = i;
    i = c;
  }
  t->heap[i] = v;
  t->slot[v] = i;
}

void tci_sptree_build(tci_sptree *t, const tc_graph *g, const double *len, int32_t root) {
  int32_t n = g->n, size = 0;
  for (int32_t v = 0; v < n; v++) {
    t->dist[v] = INFINITY;
    t->parent[v] = -1;
    t->slot[v] = -1;
  }
  t->root = root;
  t->reached = 0;
  t->dist[root] = 0;
  t->heap[size++] = root;
  t->slot[root] = 0;
  while (size > 0) {
    int32_t u = t->heap[0];
    t->slot[u] = -2; /* settled */
    if (--size > 0) {
      t->heap[0] = t->heap[size];
      sift_down(t, 0, size);
    }
    t->order[t->reached++] = u;
    double du = t->dist[u];
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
      int32_t v = g->dst[a];
      double dv = du + len[a];
      if (t->slot[v] == -2 || !(dv < t->dist[v])) continue;
      t->dist[v] = dv;
      t->parent[v] = a;
      if (t->slot[v] < 0) {
        t->heap[size] = v;
        sift_up(t, size++);
      } else {
        sift_up(t, t->slot[v]);
      }
    }
  }
}

int32_t tci_sptree_loads(tci_sptree *t, const tc_graph *g, int32_t *arc, int32_t *load) {
  for (int32_t i = 0; i < t->reached; i++) {
    int32_t v = t->order[i];
    t->below[v] = v != t->root && g->kind[v] == TC_NODE_COMPUTE;
  }
  for (int32_t i = t->reached - 1; i > 0; i--) {
    int32_t v = t->order[i];
    t->below[g->src[t->parent[v]]] += t->below[v];
  }
  int32_t k = 0;
  for (int32_t i = 1; i < t->reached; i++) {
    int32_t v = t->order[i];
    if (t->below[v] == 0) continue;
    arc[k] = (int32_t)t->parent[v];
    load[k++] = t->below[v];
  }
  return k;
}

double tci_sptree_cost(const tci_sptree *t, const tc_graph *g) {
  double sum = 0;
  for (int32_t v = 0; v < g->n; v++)
    if (v != t->root && g->kind[v] == TC_NODE_COMPUTE) sum += t->dist[v];
  return sum;
}

/* Measured on genkautz(4,1000) (RelWithDebInfo, one thread): one tree costs 110-130 µs, so
   a round of 1000 trees is about 0.12 s and worth two threads; genkautz(4,64)'s trees cost
   5 µs, and a round of 64 (0.3 ms) is less than what a parallel region's spinning threads
   cost on a shared 2-core machine. Rounds of fewer than 2·10^6 node-or-arc visits (about
   20 ms of trees) stay serial. */
#define PARALLEL_VISITS 2000000.0

int tci_sptree_parallel(const tc_graph *g, int64_t nsrc) {
  return (double)nsrc * ((double)g->n + (double)g->m) >= PARALLEL_VISITS;
}
