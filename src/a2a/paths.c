/*
** paths.c — candidate path sets per commodity for pMCF and the ILP baselines (contract in
** flows_internal.h; paper 003 §3.1.4):
**   disjoint  a maximal set of arc-disjoint s -> t paths: a max-flow with capacity 1 on
**             every arc (augmenting paths by BFS, lowest arc id first), decomposed into
**             paths; a cycle met while walking the flow is cancelled (it carries nothing
**             from s to t), so the paths are simple. Their number is the arc connectivity.
**   shortest  every shortest s -> t path (as arc sequences, lowest arc first);
**   lmax      every simple s -> t path of at most l_max hops (depth-first from s).
** Paths are stored in commodity order s·N + t. The count is checked against the limit as
** paths are added, so an exponential set is refused (TC_ERANGE) rather than enumerated.
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/flows_internal.h"
#include "a2a/route_internal.h"
#include "topocoll/metrics.h"

void tci_a2a_paths_destroy(tci_a2a_paths *p) {
  free(p->first), free(p->hop_off), free(p->arc);
  memset(p, 0, sizeof *p);
}

typedef struct builder {
  tci_a2a_paths *P;
  int64_t limit;
  const char *what, *set;
} builder;

/* Append a path (commodities must come in order; the caller sets first[]). */
static int add(builder *b, const int64_t *arcs, int32_t len, tc_error *err) {
  tci_a2a_paths *P = b->P;
  if (P->npaths >= b->limit)
    return tc_error_set(err, TC_ERANGE, "%s: more than %lld %s candidate paths", b->what, (long long)b->limit, b->set);
  if (P->npaths + 1 >= P->path_room) {
    int64_t room = P->path_room ? 2 * P->path_room : 256;
    int64_t *h = realloc(P->hop_off, sizeof *h * (size_t)(room + 1));
    if (!h) return tc_error_set(err, TC_ENOMEM, "%s: out of memory for candidate paths", b->what);
    P->hop_off = h, P->path_room = room;
  }
  int64_t need = P->hop_off[P->npaths] + len;
  if (need > P->arc_room) {
    int64_t room = P->arc_room ? 2 * P->arc_room : 1024;
    while (room < need) room *= 2;
    int64_t *a = realloc(P->arc, sizeof *a * (size_t)room);
    if (!a) return tc_error_set(err, TC_ENOMEM, "%s: out of memory for candidate paths", b->what);
    P->arc = a, P->arc_room = room;
  }
  memcpy(P->arc + P->hop_off[P->npaths], arcs, sizeof *arcs * (size_t)len);
  P->hop_off[P->npaths + 1] = need;
  P->npaths++;
  return TC_OK;
}

/* ---- disjoint: unit-capacity max-flow, decomposed ---- */

typedef struct scratch {
  int32_t *queue, *seen;
  int64_t *via;  /* BFS: the arc that reached a node, encoded 2a (forward) or 2a+1 (backward) */
  uint8_t *flow; /* per arc: 1 when the flow uses it */
  int64_t *path, *next;
  int32_t *on;
} scratch;

static int disjoint_pair(const tc_graph *g, builder *b, int32_t s, int32_t t, scratch *w, tc_error *err) {
  const int32_t n = g->n;
  memset(w->flow, 0, (size_t)g->m);
  for (;;) { /* augment along a shortest residual path */
    for (int32_t u = 0; u < n; u++) w->seen[u] = 0;
    int32_t head = 0, tail = 0;
    w->queue[tail++] = s, w->seen[s] = 1;
    while (head < tail && !w->seen[t]) {
      int32_t u = w->queue[head++];
      for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
        int32_t v = g->dst[a];
        if (w->flow[a] || w->seen[v] || v == u) continue;
        w->seen[v] = 1, w->via[v] = 2 * a, w->queue[tail++] = v;
      }
      for (int64_t i = g->in_off[u]; i < g->in_off[u + 1]; i++) {
        int64_t a = g->in_arc[i];
        int32_t v = g->src[a];
        if (!w->flow[a] || w->seen[v]) continue;
        w->seen[v] = 1, w->via[v] = 2 * a + 1, w->queue[tail++] = v;
      }
    }
    if (!w->seen[t]) break;
    for (int32_t v = t; v != s;) {
      int64_t a = w->via[v] / 2;
      if (w->via[v] % 2) w->flow[a] = 0, v = g->dst[a];
      else w->flow[a] = 1, v = g->src[a];
    }
  }
  /* decompose: walk the flow from s; a node met twice closes a cycle, which is cancelled */
  for (;;) {
    int32_t len = 0, u = s;
    for (int32_t v = 0; v < n; v++) w->on[v] = -1;
    w->on[s] = 0;
    while (u != t) {
      int64_t a = g->out_off[u];
      while (a < g->out_off[u + 1] && !w->flow[a]) a++;
      if (a == g->out_off[u + 1]) break; /* only when no flow leaves s */
      int32_t v = g->dst[a];
      w->path[len++] = a;
      if (w->on[v] >= 0) { /* cycle v ... u -> v: cancel it and continue from v */
        for (int32_t i = w->on[v]; i < len; i++) w->flow[w->path[i]] = 0;
        for (int32_t i = w->on[v]; i < len - 1; i++) w->on[g->dst[w->path[i]]] = -1;
        len = w->on[v];
        u = v;
        continue;
      }
      w->on[v] = len, u = v;
    }
    if (u != t) break;
    for (int32_t i = 0; i < len; i++) w->flow[w->path[i]] = 0;
    int rc = add(b, w->path, len, err);
    if (rc) return rc;
  }
  return TC_OK;
}

/* ---- lmax: every simple path of at most lmax hops from s, bucketed by destination ---- */

static int lmax_source(const tc_graph *g, builder *b, int32_t s, int32_t lmax, scratch *w, tci_a2a_paths *tmp,
                       tc_error *err) {
  builder tb = {tmp, b->limit - b->P->npaths, b->what, b->set};
  tmp->npaths = 0;
  tmp->hop_off[0] = 0;
  for (int32_t v = 0; v < g->n; v++) w->on[v] = 0;
  int32_t depth = 0, u = s;
  w->on[s] = 1;
  w->next[0] = g->out_off[s];
  int rc = TC_OK;
  while (depth >= 0 && !rc) {
    int64_t a = w->next[depth];
    while (a < g->out_off[u + 1] && w->on[g->dst[a]]) a++;
    if (a == g->out_off[u + 1]) { /* back up */
      w->on[u] = u == s ? 1 : 0;
      depth--;
      if (depth >= 0) u = g->src[w->path[depth]];
      continue;
    }
    w->next[depth] = a + 1;
    w->path[depth++] = a;
    u = g->dst[a];
    w->on[u] = 1;
    rc = add(&tb, w->path, depth, err); /* a path to u */
    if (depth < lmax) w->next[depth] = g->out_off[u];
    else { /* no deeper: undo at once */
      w->on[u] = 0;
      depth--;
      u = g->src[w->path[depth]];
    }
  }
  if (rc) return rc;
  /* bucket by destination, keeping the order of discovery */
  for (int32_t t = 0; t < g->n && !rc; t++) {
    b->P->first[(int64_t)s * g->n + t] = b->P->npaths;
    if (t == s) continue;
    for (int64_t p = 0; p < tmp->npaths && !rc; p++) {
      int64_t last = tmp->arc[tmp->hop_off[p + 1] - 1];
      if (g->dst[last] == t)
        rc = add(b, tmp->arc + tmp->hop_off[p], (int32_t)(tmp->hop_off[p + 1] - tmp->hop_off[p]), err);
    }
  }
  return rc;
}

/* ---- shortest: depth first along arcs that get one hop closer ---- */

static int shortest_pair(const tc_graph *g, builder *b, int32_t s, const int32_t *dist, scratch *w, tc_error *err) {
  int32_t depth = 0, len = dist[s], u = s;
  w->next[0] = g->out_off[s];
  int rc = TC_OK;
  while (depth >= 0 && !rc) {
    if (depth == len) {
      rc = add(b, w->path, len, err);
      depth--;
      if (depth >= 0) u = g->src[w->path[depth]];
      continue;
    }
    int64_t a = w->next[depth];
    while (a < g->out_off[u + 1] && dist[g->dst[a]] != dist[u] - 1) a++;
    if (a == g->out_off[u + 1]) {
      depth--;
      if (depth >= 0) u = g->src[w->path[depth]];
      continue;
    }
    w->next[depth] = a + 1;
    w->path[depth++] = a;
    u = g->dst[a];
    if (depth < len) w->next[depth] = g->out_off[u];
  }
  return rc;
}

int tci_a2a_paths_build(const tc_graph *g, tc_a2a_path_set set, int32_t lmax, int64_t max_paths, const char *what,
                        tci_a2a_paths *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  const int32_t n = g->n;
  const char *name = tc_a2a_path_set_name(set);
  if (!name) return tc_error_set(err, TC_EINPUT, "%s: unknown path set %d", what, (int)set);
  int rc = TC_OK;
  int32_t diam = 0;
  if (set == TC_A2A_PATHS_LMAX) {
    if ((rc = tc_graph_diameter(g, &diam, err))) return rc;
    if (lmax < 0 || (lmax > 0 && lmax < diam))
      return tc_error_set(err, TC_EINPUT, "%s: paths of at most %d hops cannot join every pair (the diameter is %d)",
                          what, lmax, diam);
    if (!lmax) lmax = diam;
  }
  builder b = {out, max_paths, what, name};
  scratch w = {0};
  tci_a2a_paths tmp = {0};
  size_t nn = (size_t)n, mm = (size_t)(g->m > 0 ? g->m : 1);
  out->nodes = n;
  out->first = calloc(nn * nn + 1, sizeof *out->first);
  out->hop_off = calloc(1, sizeof *out->hop_off);
  tmp.hop_off = calloc(1, sizeof *tmp.hop_off);
  w.queue = malloc(sizeof *w.queue * nn), w.seen = malloc(sizeof *w.seen * nn), w.on = malloc(sizeof *w.on * nn);
  w.via = malloc(sizeof *w.via * nn), w.flow = malloc(mm);
  w.path = malloc(sizeof *w.path * (nn + 1)), w.next = malloc(sizeof *w.next * (nn + 1));
  /* shortest: dist[t·N + u] = hops from u to t */
  int32_t *dist = set == TC_A2A_PATHS_SHORTEST ? malloc(sizeof *dist * nn * nn) : NULL;
  if (!out->first || !out->hop_off || !tmp.hop_off || !w.queue || !w.seen || !w.on || !w.via || !w.flow || !w.path ||
      !w.next || (set == TC_A2A_PATHS_SHORTEST && !dist)) {
    rc = tc_error_set(err, TC_ENOMEM, "%s: out of memory", what);
    goto done;
  }
  for (int32_t t = 0; dist && t < n && !rc; t++) rc = tci_a2a_dist_to(g, t, dist + (int64_t)t * n, what, err);
  for (int32_t s = 0; s < n && !rc; s++) {
    if (set == TC_A2A_PATHS_LMAX) {
      rc = lmax_source(g, &b, s, lmax, &w, &tmp, err);
      continue;
    }
    for (int32_t t = 0; t < n && !rc; t++) {
      out->first[(int64_t)s * n + t] = out->npaths;
      if (t == s) continue;
      if (set == TC_A2A_PATHS_DISJOINT) {
        rc = disjoint_pair(g, &b, s, t, &w, err);
      } else {
        rc = shortest_pair(g, &b, s, dist + (int64_t)t * n, &w, err);
      }
    }
  }
  if (!rc) out->first[nn * nn] = out->npaths;
done:
  free(w.queue), free(w.seen), free(w.on), free(w.via), free(w.flow), free(w.path), free(w.next), free(dist);
  tci_a2a_paths_destroy(&tmp);
  if (rc) tci_a2a_paths_destroy(out);
  return rc;
}
