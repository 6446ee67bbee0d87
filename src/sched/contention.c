/*
** contention.c — logical messages, their shortest routes and the multi-port contention
** check (contract in contention.h).
**
** Routes: one breadth-first search per distinct source (messages sorted by source first),
** the path read back from the predecessor arcs. The check sorts message indices by
** (round, src, dst), drops repeats (a combined message counts once), and walks each round
** with one owner per arc: an arc already owned by another message of the same round is the
** contention reported. O(n log n + total route length + m) after the routes.
*/
#include "topocoll/contention.h"

#include <stdlib.h>
#include <string.h>

/* A message and its index, sorted by value (no shared state: the library may run
   generators on several threads). */
typedef struct keyed {
  tc_message m;
  int64_t i;
} keyed;

static int cmp_message(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->m.round != y->m.round) return x->m.round < y->m.round ? -1 : 1;
  if (x->m.src != y->m.src) return x->m.src < y->m.src ? -1 : 1;
  if (x->m.dst != y->m.dst) return x->m.dst < y->m.dst ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

static int cmp_by_src(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->m.src != y->m.src) return x->m.src < y->m.src ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/* Indices 0..n-1 sorted by cmp (NULL after running out of memory). */
static int64_t *sorted_indices(const tc_message *msg, int64_t n, int (*cmp)(const void *, const void *)) {
  keyed *k = malloc((size_t)(n ? n : 1) * sizeof *k);
  int64_t *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
  if (!k || !idx) {
    free(k); free(idx);
    return NULL;
  }
  for (int64_t i = 0; i < n; i++) k[i] = (keyed){msg[i], i};
  qsort(k, (size_t)n, sizeof *k, cmp);
  for (int64_t i = 0; i < n; i++) idx[i] = k[i].i;
  free(k);
  return idx;
}

static int check_message(const tc_graph *g, const tc_message *m, int64_t i, tc_error *err) {
  if (m->src < 0 || m->src >= g->n || m->dst < 0 || m->dst >= g->n)
    return tc_error_set(err, TC_EINPUT, "message #%lld (%d -> %d) names a node outside 0..%d", (long long)i, m->src,
                        m->dst, g->n - 1);
  if (m->src == m->dst) return tc_error_set(err, TC_EINPUT, "message #%lld goes from node %d to itself", (long long)i, m->src);
  if (m->round < 1) return tc_error_set(err, TC_EINPUT, "message #%lld has round %d (rounds start at 1)", (long long)i, m->round);
  return TC_OK;
}

/* Breadth-first from u: pred[v] = the arc that first reached v (-1: none; u itself -2). */
static void bfs_pred(const tc_graph *g, int32_t u, int64_t *pred, int32_t *queue) {
  for (int32_t v = 0; v < g->n; v++) pred[v] = -1;
  pred[u] = -2;
  int32_t head = 0, tail = 0;
  queue[tail++] = u;
  while (head < tail) {
    int32_t x = queue[head++];
    for (int64_t a = g->out_off[x]; a < g->out_off[x + 1]; a++)
      if (pred[g->dst[a]] == -1) {
        pred[g->dst[a]] = a;
        queue[tail++] = g->dst[a];
      }
  }
}

int tc_routes_shortest(const tc_graph *g, const tc_message *msg, int64_t n, tc_routes *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  for (int64_t i = 0; i < n; i++) {
    int rc = check_message(g, &msg[i], i, err);
    if (rc) return rc;
  }
  int64_t *pred = malloc((size_t)g->n * sizeof *pred), *len = calloc((size_t)(n ? n : 1), sizeof *len);
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  int64_t *idx = sorted_indices(msg, n, cmp_by_src);
  int64_t *hops = NULL, total = 0;
  int rc = TC_OK;
  if (!pred || !len || !queue || !idx) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  /* two passes: lengths, then the arcs (walked back from dst, stored forwards) */
  for (int pass = 0; pass < 2 && !rc; pass++) {
    if (pass == 1) {
      out->off = malloc((size_t)(n + 1) * sizeof *out->off);
      hops = out->arc = malloc((size_t)(total ? total : 1) * sizeof *out->arc);
      if (!out->off || !hops) { rc = tc_error_set(err, TC_ENOMEM, "out of memory"); break; }
      out->off[0] = 0;
      for (int64_t i = 0; i < n; i++) out->off[i + 1] = out->off[i] + len[i];
    }
    for (int64_t q = 0; q < n && !rc; q++) {
      const tc_message *m = &msg[idx[q]];
      if (q == 0 || msg[idx[q - 1]].src != m->src) bfs_pred(g, m->src, pred, queue);
      if (pred[m->dst] == -1) {
        rc = tc_error_set(err, TC_EINPUT, "no route from %d to %d", m->src, m->dst);
        break;
      }
      int64_t k = 0;
      for (int32_t v = m->dst; v != m->src; v = g->src[pred[v]]) {
        if (pass == 1) hops[out->off[idx[q]] + len[idx[q]] - 1 - k] = pred[v];
        k++;
      }
      if (pass == 0) {
        len[idx[q]] = k;
        total += k;
      }
    }
  }
  free(pred); free(len); free(queue); free(idx);
  if (rc) { tc_routes_destroy(out); return rc; }
  out->n = n;
  return TC_OK;
}

void tc_routes_destroy(tc_routes *r) {
  free(r->off);
  free(r->arc);
  memset(r, 0, sizeof *r);
}

/* Route i leads from msg[i].src to msg[i].dst over arcs of g. */
static int check_route(const tc_graph *g, const tc_message *m, const tc_routes *r, int64_t i, tc_error *err) {
  int32_t at = m->src;
  for (int64_t h = r->off[i]; h < r->off[i + 1]; h++) {
    int64_t a = r->arc[h];
    if (a < 0 || a >= g->m || g->src[a] != at)
      return tc_error_set(err, TC_EINPUT, "the route of message #%lld (%d -> %d) breaks at hop %lld", (long long)i,
                          m->src, m->dst, (long long)(h - r->off[i] + 1));
    at = g->dst[a];
  }
  if (at != m->dst)
    return tc_error_set(err, TC_EINPUT, "the route of message #%lld (%d -> %d) ends at node %d", (long long)i, m->src,
                        m->dst, at);
  return TC_OK;
}

int tc_contention_check(const tc_graph *g, const tc_message *msg, int64_t n, const tc_routes *r, tc_error *err) {
  if (r->n != n) return tc_error_set(err, TC_EINPUT, "%lld routes for %lld messages", (long long)r->n, (long long)n);
  for (int64_t i = 0; i < n; i++) {
    int rc = check_message(g, &msg[i], i, err);
    if (!rc) rc = check_route(g, &msg[i], r, i, err);
    if (rc) return rc;
  }
  int64_t *idx = sorted_indices(msg, n, cmp_message), *owner = malloc((size_t)(g->m ? g->m : 1) * sizeof *owner);
  int32_t *stamp = calloc((size_t)(g->m ? g->m : 1), sizeof *stamp); /* the round that last owned the arc */
  if (!idx || !owner || !stamp) {
    free(idx); free(owner); free(stamp);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  int rc = TC_OK;
  for (int64_t q = 0; q < n && !rc; q++) {
    const tc_message *m = &msg[idx[q]];
    const tc_message *prev = q ? &msg[idx[q - 1]] : NULL;
    if (prev && prev->round == m->round && prev->src == m->src && prev->dst == m->dst) continue; /* combined */
    for (int64_t h = r->off[idx[q]]; h < r->off[idx[q] + 1] && !rc; h++) {
      int64_t a = r->arc[h];
      if (stamp[a] == m->round) {
        const tc_message *o = &msg[owner[a]];
        rc = tc_error_set(err, TC_EFAIL, "round %d: link %d -> %d (arc %lld) carries two messages, %d -> %d and %d -> %d "
                          "(one message per link and round)", m->round, g->src[a], g->dst[a], (long long)a, o->src,
                          o->dst, m->src, m->dst);
      }
      stamp[a] = m->round;
      owner[a] = idx[q];
    }
  }
  free(idx); free(owner); free(stamp);
  return rc;
}
