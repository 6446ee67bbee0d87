/*
** maxflow.c — Dinic's maximum flow on int64 capacities (contract in maxflow.h).
**
** Each phase builds BFS levels from s in the residual network and then saturates a blocking
** flow along level-increasing arcs with an explicit-stack depth-first search (no recursion,
** so deep networks cannot overflow the C stack). The algorithm terminates with a maximum
** flow because every phase strictly increases the s-t distance; all quantities are
** integers, so the result is exact. The residual arc list is laid out per tail (CSR) once
** per arc set, so repeated runs after tci_maxflow_set_cap cost no rebuilding.
*/
#include "graph/maxflow.h"

#include <stdlib.h>
#include <string.h>

void tci_maxflow_init(tc_maxflow *f) { memset(f, 0, sizeof *f); }

void tci_maxflow_destroy(tc_maxflow *f) {
  free(f->head);
  free(f->cap);
  free(f->resid);
  free(f->adj);
  free(f->adj_off);
  free(f->next_arc);
  free(f->level);
  free(f->queue);
  free(f->path);
  memset(f, 0, sizeof *f);
}

/* realloc that leaves *p untouched on failure. */
static int grow(void **p, size_t count, size_t size) {
  void *q = realloc(*p, count * size);
  if (!q) return 0;
  *p = q;
  return 1;
}

static int reserve_nodes(tc_maxflow *f, int32_t nodes, tc_error *err) {
  if (nodes <= f->node_room) return TC_OK;
  size_t room = (size_t)nodes;
  if (!grow((void **)&f->adj_off, room + 1, sizeof *f->adj_off) ||
      !grow((void **)&f->next_arc, room, sizeof *f->next_arc) || !grow((void **)&f->level, room, sizeof *f->level) ||
      !grow((void **)&f->queue, room, sizeof *f->queue) || !grow((void **)&f->path, room, sizeof *f->path))
    return tc_error_set(err, TC_ENOMEM, "maxflow: out of memory for %d nodes", nodes);
  f->node_room = nodes;
  return TC_OK;
}

static int reserve_arcs(tc_maxflow *f, int64_t arcs, tc_error *err) {
  if (arcs <= f->arc_room) return TC_OK;
  int64_t room = f->arc_room ? f->arc_room : 16;
  while (room < arcs) room *= 2;
  if (room > INT64_MAX / 32)
    return tc_error_set(err, TC_ERANGE, "maxflow: %lld arcs is too many", (long long)arcs);
  size_t r = (size_t)room;
  if (!grow((void **)&f->head, 2 * r, sizeof *f->head) || !grow((void **)&f->cap, r, sizeof *f->cap) ||
      !grow((void **)&f->resid, 2 * r, sizeof *f->resid) || !grow((void **)&f->adj, 2 * r, sizeof *f->adj))
    return tc_error_set(err, TC_ENOMEM, "maxflow: out of memory for %lld arcs", (long long)arcs);
  f->arc_room = room;
  return TC_OK;
}

int tci_maxflow_reset(tc_maxflow *f, int32_t nodes, tc_error *err) {
  if (nodes < 2) return tc_error_set(err, TC_EINPUT, "maxflow: a network needs at least 2 nodes (got %d)", nodes);
  int rc = reserve_nodes(f, nodes, err);
  if (rc) return rc;
  f->n = nodes;
  f->m = 0;
  f->adj_valid = 0;
  return TC_OK;
}

int tci_maxflow_add(tc_maxflow *f, int32_t u, int32_t v, int64_t cap, int64_t *arc, tc_error *err) {
  if (u < 0 || u >= f->n || v < 0 || v >= f->n)
    return tc_error_set(err, TC_EINPUT, "maxflow: arc %d -> %d outside nodes 0..%d", u, v, f->n - 1);
  if (cap < 0) return tc_error_set(err, TC_EINPUT, "maxflow: arc %d -> %d has negative capacity", u, v);
  int rc = reserve_arcs(f, f->m + 1, err);
  if (rc) return rc;
  int64_t a = f->m++;
  f->head[2 * a] = v;     /* forward residual arc u -> v */
  f->head[2 * a + 1] = u; /* backward residual arc v -> u */
  f->cap[a] = cap;
  f->adj_valid = 0;
  if (arc) *arc = a;
  return TC_OK;
}

/* Lay out residual arcs by tail: tail(e) = head(e ^ 1). */
static void build_adjacency(tc_maxflow *f) {
  memset(f->adj_off, 0, ((size_t)f->n + 1) * sizeof *f->adj_off);
  for (int64_t e = 0; e < 2 * f->m; e++) f->adj_off[f->head[e ^ 1] + 1]++;
  for (int32_t v = 0; v < f->n; v++) f->adj_off[v + 1] += f->adj_off[v];
  for (int32_t v = 0; v < f->n; v++) f->next_arc[v] = f->adj_off[v];
  for (int64_t e = 0; e < 2 * f->m; e++) f->adj[f->next_arc[f->head[e ^ 1]]++] = e;
  f->adj_valid = 1;
}

/* BFS levels from s over arcs with residual capacity; returns 1 if t is reached. The last
   call of a run explores everything reachable, which defines the minimum cut. */
static int compute_levels(tc_maxflow *f, int32_t s, int32_t t) {
  for (int32_t v = 0; v < f->n; v++) f->level[v] = -1;
  int32_t qh = 0, qt = 0;
  f->level[s] = 0;
  f->queue[qt++] = s;
  while (qh < qt) {
    int32_t v = f->queue[qh++];
    for (int64_t i = f->adj_off[v]; i < f->adj_off[v + 1]; i++) {
      int64_t e = f->adj[i];
      int32_t w = f->head[e];
      if (f->resid[e] > 0 && f->level[w] < 0) {
        f->level[w] = f->level[v] + 1;
        f->queue[qt++] = w;
      }
    }
  }
  return f->level[t] >= 0;
}

/* One blocking flow along level-increasing arcs; returns the amount pushed. */
static int64_t blocking_flow(tc_maxflow *f, int32_t s, int32_t t) {
  int64_t pushed = 0;
  int32_t depth = 0, v = s;
  for (int32_t x = 0; x < f->n; x++) f->next_arc[x] = f->adj_off[x];
  for (;;) {
    if (v == t) {
      int64_t bottleneck = INT64_MAX;
      for (int32_t i = 0; i < depth; i++)
        if (f->resid[f->path[i]] < bottleneck) bottleneck = f->resid[f->path[i]];
      int32_t first_saturated = depth;
      for (int32_t i = 0; i < depth; i++) {
        int64_t e = f->path[i];
        f->resid[e] -= bottleneck;
        f->resid[e ^ 1] += bottleneck;
        if (f->resid[e] == 0 && i < first_saturated) first_saturated = i;
      }
      pushed += bottleneck;
      /* Resume from the tail of the first saturated arc: the prefix is still usable. */
      depth = first_saturated;
      v = depth ? f->head[f->path[depth - 1]] : s;
      continue;
    }
    int advanced = 0;
    for (; f->next_arc[v] < f->adj_off[v + 1]; f->next_arc[v]++) {
      int64_t e = f->adj[f->next_arc[v]];
      int32_t w = f->head[e];
      if (f->resid[e] > 0 && f->level[w] == f->level[v] + 1) {
        f->path[depth++] = e;
        v = w;
        advanced = 1;
        break;
      }
    }
    if (advanced) continue;
    if (v == s) return pushed;
    /* Dead end: v can reach t no more in this phase; retreat and skip the arc into v. */
    f->level[v] = -1;
    int64_t e = f->path[--depth];
    v = f->head[e ^ 1];
    f->next_arc[v]++;
  }
}

int tci_maxflow_run(tc_maxflow *f, int32_t s, int32_t t, int64_t *value, tc_error *err) {
  return tci_maxflow_run_limit(f, s, t, INT64_MAX, value, err);
}

int tci_maxflow_run_limit(tc_maxflow *f, int32_t s, int32_t t, int64_t limit, int64_t *value, tc_error *err) {
  if (s < 0 || s >= f->n || t < 0 || t >= f->n || s == t)
    return tc_error_set(err, TC_EINPUT, "maxflow: bad terminals %d -> %d on %d nodes", s, t, f->n);
  int64_t out_of_s = 0;
  for (int64_t a = 0; a < f->m; a++)
    if (f->head[2 * a + 1] == s && __builtin_add_overflow(out_of_s, f->cap[a], &out_of_s))
      return tc_error_set(err, TC_ERANGE, "maxflow: capacities leaving the source overflow 64 bits");
  if (!f->adj_valid) build_adjacency(f);
  for (int64_t a = 0; a < f->m; a++) {
    f->resid[2 * a] = f->cap[a];
    f->resid[2 * a + 1] = 0;
  }
  int64_t total = 0;
  /* Stopping between phases keeps the flow valid (and >= limit); only the cut is then not
     a minimum one, which is why the contract says so. */
  while (total < limit && compute_levels(f, s, t)) total += blocking_flow(f, s, t);
  *value = total;
  return TC_OK;
}

/* Backwards BFS from t: the residual arc into v that partners e (e leaves v) is e ^ 1, from
   head[e]; it can carry flow towards v when its residual capacity is positive. */
void tci_maxflow_sink_side(tc_maxflow *f, int32_t t, uint8_t *side) {
  memset(side, 0, (size_t)f->n);
  int32_t qh = 0, qt = 0;
  side[t] = 1;
  f->queue[qt++] = t;
  while (qh < qt) {
    int32_t v = f->queue[qh++];
    for (int64_t i = f->adj_off[v]; i < f->adj_off[v + 1]; i++) {
      int64_t e = f->adj[i];
      int32_t u = f->head[e];
      if (!side[u] && f->resid[e ^ 1] > 0) {
        side[u] = 1;
        f->queue[qt++] = u;
      }
    }
  }
}
