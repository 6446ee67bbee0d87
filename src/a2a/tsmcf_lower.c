/*
** tsmcf_lower.c — one source's time-expanded flow split into its commodities and lowered
** to transfers (contract in flows_internal.h).
**
** The flow is replayed step by step on parcels: source s starts with one parcel of
** (N−1)·D units; in step t every node sends, over each of its arcs, the flow's amount for
** that arc and step, taken first-in first-out from the parcels it held at the end of step
** t−1 (a parcel is split when only part of it is needed), and the parcels sent arrive at
** the end of step t. The checks of tsmcf.c guarantee that the parcels held always suffice
** and that every node u ≠ s ends holding exactly D units. Which commodity a unit belongs to
** is decided only then: what u holds at the end is shard (s,u) — any routing of the units
** works, because every node keeps exactly one shard's worth. This is the path
** decomposition of the flow on the time-expanded DAG (paper 003 §3.1.3), done on integers.
**
** Each parcel remembers its walk (a tree of hops shared by the parcels it was split from).
** A walk may come back to a node it visited; such a loop is cut out — the parcel waits at
** that node instead — so every unit follows a simple path from s to its destination, hops
** in strictly increasing steps, as the verifier's flow semantics require (sched.h), and no
** arc carries more than the flow put on it.
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/flows_internal.h"

typedef struct parcel {
  int64_t units;
  int64_t hop; /* the last hop of its walk, or −1 at the source */
} parcel;

typedef struct pool {
  parcel *p;
  int64_t head, len, room;
} pool;

typedef struct walks {
  int64_t *arc, *prev;
  int32_t *step;
  int64_t len, room;
} walks;

static int pool_push(pool *q, parcel x) {
  if (q->len == q->room) {
    if (q->head > 0) { /* reuse the consumed front before growing */
      memmove(q->p, q->p + q->head, sizeof *q->p * (size_t)(q->len - q->head));
      q->len -= q->head, q->head = 0;
    }
    if (q->len == q->room) {
      int64_t room = q->room ? 2 * q->room : 8;
      parcel *p = realloc(q->p, sizeof *p * (size_t)room);
      if (!p) return -1;
      q->p = p, q->room = room;
    }
  }
  q->p[q->len++] = x;
  return 0;
}

static int64_t walk_add(walks *w, int64_t arc, int32_t step, int64_t prev) {
  if (w->len == w->room) {
    int64_t room = w->room ? 2 * w->room : 64;
    int64_t *a = realloc(w->arc, sizeof *a * (size_t)room);
    if (a) w->arc = a;
    int64_t *p = a ? realloc(w->prev, sizeof *p * (size_t)room) : NULL;
    if (p) w->prev = p;
    int32_t *s = p ? realloc(w->step, sizeof *s * (size_t)room) : NULL;
    if (!s) return -1;
    w->step = s, w->room = room;
  }
  w->arc[w->len] = arc, w->step[w->len] = step, w->prev[w->len] = prev;
  return w->len++;
}

int tci_a2a_tsmcf_lower_source(const tc_graph *g, int32_t s, int32_t L, int64_t D, const int64_t *units,
                               tc_schedule *out, tc_error *err) {
  const int32_t n = g->n;
  pool *held = calloc((size_t)n, sizeof *held), *arriving = calloc((size_t)n, sizeof *arriving);
  walks w = {0};
  int64_t *lo = calloc((size_t)n, sizeof *lo), *hop_arc = malloc(sizeof *hop_arc * ((size_t)L + 1));
  int32_t *pos = malloc(sizeof *pos * (size_t)n), *hop_step = malloc(sizeof *hop_step * ((size_t)L + 1));
  int32_t *at = malloc(sizeof *at * ((size_t)L + 1));
  int rc = TC_OK;
  if (!held || !arriving || !lo || !hop_arc || !pos || !hop_step || !at ||
      pool_push(&held[s], (parcel){(int64_t)(n - 1) * D, -1})) {
    rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
    goto done;
  }
  for (int32_t t = 1; t <= L && !rc; t++) {
    for (int32_t u = 0; u < n && !rc; u++)
      for (int64_t a = g->out_off[u]; a < g->out_off[u + 1] && !rc; a++) {
        int64_t need = units[a * L + t - 1];
        pool *q = &held[u];
        while (need > 0 && !rc) {
          if (q->head == q->len) { /* tsmcf.c's checks exclude this */
            rc = tc_error_set(err, TC_EFAIL, "mcf: node %d sends more of source %d's data than it holds in step %d", u,
                              s, t);
            break;
          }
          parcel *x = &q->p[q->head];
          int64_t take = x->units < need ? x->units : need;
          int64_t hop = walk_add(&w, a, t, x->hop);
          if (hop < 0 || pool_push(&arriving[g->dst[a]], (parcel){take, hop})) {
            rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
            break;
          }
          x->units -= take, need -= take;
          if (!x->units) q->head++;
        }
      }
    for (int32_t v = 0; v < n && !rc; v++) {
      for (int64_t i = arriving[v].head; i < arriving[v].len && !rc; i++)
        if (pool_push(&held[v], arriving[v].p[i])) rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
      arriving[v].head = arriving[v].len = 0;
    }
  }
  for (int32_t u = 0; u < n; u++) pos[u] = -1;
  /* what u holds now is shard (s,u): each parcel along its walk with loops cut out */
  for (int32_t u = 0; u < n && !rc; u++) {
    if (u == s) continue;
    for (int64_t i = held[u].head; i < held[u].len && !rc; i++) {
      const parcel *x = &held[u].p[i];
      if (!x->units) continue;
      int32_t depth = 0;
      for (int64_t h = x->hop; h >= 0; h = w.prev[h]) depth++;
      int32_t k = depth;
      for (int64_t h = x->hop; h >= 0; h = w.prev[h]) k--, hop_arc[k] = w.arc[h], hop_step[k] = w.step[h];
      /* loop erasure: at[j] is the node reached after j kept hops (at[0] = s) */
      int32_t len = 0;
      at[0] = s, pos[s] = 0;
      for (int32_t j = 0; j < depth; j++) {
        int32_t v = g->dst[hop_arc[j]];
        if (pos[v] >= 0) { /* back at v: forget the loop, the parcel waited at v */
          for (int32_t q = pos[v] + 1; q <= len; q++) pos[at[q]] = -1;
          len = pos[v];
          continue;
        }
        hop_arc[len] = hop_arc[j], hop_step[len] = hop_step[j];
        at[++len] = v, pos[v] = len;
      }
      for (int32_t q = 0; q <= len; q++) pos[at[q]] = -1;
      for (int32_t j = 0; j < len && !rc; j++)
        rc = tc_schedule_add(out, s * n + u, hop_arc[j], hop_step[j], lo[u], lo[u] + x->units, err);
      lo[u] += x->units;
    }
  }
done:
  for (int32_t u = 0; held && u < n; u++) free(held[u].p);
  for (int32_t u = 0; arriving && u < n; u++) free(arriving[u].p);
  free(held), free(arriving), free(w.arc), free(w.prev), free(w.step), free(lo), free(hop_arc), free(pos);
  free(hop_step), free(at);
  return rc;
}
