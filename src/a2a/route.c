/*
** route.c — storage of all-to-all routings and the checks that make one (contract in
** a2a_route.h): init, append, finish (commodity order + validation), destroy.
**
** Why finish checks everything rather than trusting generators: routings also come from
** route files and, later, from LP solutions; the lowering and the fluid evaluation rely on
** every path being a simple s -> t path over real arcs and every commodity's weights
** summing to exactly 1, so that is decided once, here.
*/
#include "topocoll/a2a_route.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

int tc_a2a_routing_init(tc_a2a_routing *r, int32_t nodes, const char *algorithm, tc_error *err) {
  memset(r, 0, sizeof *r);
  if (nodes < 1) return tc_error_set(err, TC_EINPUT, "a routing needs at least one node (got %d)", nodes);
  if (nodes > TC_ALLTOALL_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "alltoall on %d nodes: at most %d nodes (N*N commodities fit an int32)", nodes,
                        TC_ALLTOALL_MAX_NODES);
  r->nodes = nodes;
  r->hop_off = malloc(sizeof *r->hop_off);
  if (!r->hop_off) return tc_error_set(err, TC_ENOMEM, "out of memory");
  r->hop_off[0] = 0;
  strncpy(r->algorithm, algorithm ? algorithm : "", sizeof r->algorithm - 1);
  return TC_OK;
}

void tc_a2a_routing_destroy(tc_a2a_routing *r) {
  free(r->commodity);
  free(r->weight);
  free(r->hop_off);
  free(r->arc);
  free(r->first);
  memset(r, 0, sizeof *r);
}

/* Room for one more path of len arcs. */
static int grow(tc_a2a_routing *r, int32_t len, tc_error *err) {
  if (r->npaths >= TC_A2A_MAX_PATHS)
    return tc_error_set(err, TC_ERANGE, "a routing holds at most %lld paths", (long long)TC_A2A_MAX_PATHS);
  if (r->npaths == r->path_room) {
    int64_t room = r->path_room ? 2 * r->path_room : 64;
    int32_t *c = realloc(r->commodity, (size_t)room * sizeof *c);
    if (c) r->commodity = c;
    tc_rat *w = c ? realloc(r->weight, (size_t)room * sizeof *w) : NULL;
    if (w) r->weight = w;
    int64_t *h = w ? realloc(r->hop_off, (size_t)(room + 1) * sizeof *h) : NULL;
    if (!h) return tc_error_set(err, TC_ENOMEM, "out of memory for %lld paths", (long long)room);
    r->hop_off = h;
    r->path_room = room;
  }
  int64_t need = r->hop_off[r->npaths] + len;
  if (need > r->arc_room) {
    int64_t room = r->arc_room ? 2 * r->arc_room : 256;
    while (room < need) room *= 2;
    int64_t *a = realloc(r->arc, (size_t)room * sizeof *a);
    if (!a) return tc_error_set(err, TC_ENOMEM, "out of memory for %lld hops", (long long)room);
    r->arc = a;
    r->arc_room = room;
  }
  return TC_OK;
}

int tc_a2a_routing_add(tc_a2a_routing *r, int32_t s, int32_t t, const int64_t *arcs, int32_t len, tc_rat weight,
                       tc_error *err) {
  if (r->first) return tc_error_set(err, TC_EINPUT, "the routing is finished: no path can be added");
  if (s < 0 || s >= r->nodes || t < 0 || t >= r->nodes)
    return tc_error_set(err, TC_EINPUT, "commodity (%d,%d) is not a pair of nodes 0..%d", s, t, r->nodes - 1);
  if (len < 1) return tc_error_set(err, TC_EINPUT, "a path of commodity (%d,%d) has no hop", s, t);
  if (weight.den <= 0 || weight.num <= 0)
    return tc_error_set(err, TC_EINPUT, "a path of commodity (%d,%d) has weight %lld/%lld (must be > 0)", s, t,
                        (long long)weight.num, (long long)weight.den);
  int rc = grow(r, len, err);
  if (rc) return rc;
  int64_t p = r->npaths++;
  r->commodity[p] = s * r->nodes + t;
  if ((rc = tc_rat_make(weight.num, weight.den, &r->weight[p], err))) { r->npaths--; return rc; }
  memcpy(r->arc + r->hop_off[p], arcs, (size_t)len * sizeof *arcs);
  r->hop_off[p + 1] = r->hop_off[p] + len;
  return TC_OK;
}

/* Reorder the paths by commodity, keeping their order within one (a stable counting sort),
   and fill first[]. */
static int sort_by_commodity(tc_a2a_routing *r, tc_error *err) {
  int64_t K = (int64_t)r->nodes * r->nodes, n = r->npaths;
  int64_t *first = calloc((size_t)K + 1, sizeof *first), *at = malloc((size_t)(n ? n : 1) * sizeof *at);
  int32_t *c = malloc((size_t)(n ? n : 1) * sizeof *c);
  tc_rat *w = malloc((size_t)(n ? n : 1) * sizeof *w);
  int64_t *h = malloc((size_t)(n + 1) * sizeof *h), *a = malloc((size_t)(r->hop_off[n] ? r->hop_off[n] : 1) * sizeof *a);
  if (!first || !at || !c || !w || !h || !a) {
    free(first); free(at); free(c); free(w); free(h); free(a);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int64_t p = 0; p < n; p++) first[r->commodity[p] + 1]++;
  for (int64_t k = 0; k < K; k++) first[k + 1] += first[k];
  for (int64_t p = 0; p < n; p++) at[p] = first[r->commodity[p]]++; /* p's new place */
  for (int64_t k = K; k > 0; k--) first[k] = first[k - 1]; /* first[] was advanced to the ends */
  first[0] = 0;
  int64_t *len = h; /* lengths first, then their prefix sums */
  for (int64_t p = 0; p < n; p++) len[at[p] + 1] = r->hop_off[p + 1] - r->hop_off[p];
  h[0] = 0;
  for (int64_t q = 0; q < n; q++) h[q + 1] += h[q];
  for (int64_t p = 0; p < n; p++) {
    c[at[p]] = r->commodity[p];
    w[at[p]] = r->weight[p];
    memcpy(a + h[at[p]], r->arc + r->hop_off[p], (size_t)(r->hop_off[p + 1] - r->hop_off[p]) * sizeof *a);
  }
  free(at);
  free(r->commodity); free(r->weight); free(r->hop_off); free(r->arc);
  r->commodity = c;
  r->weight = w;
  r->hop_off = h;
  r->arc = a;
  r->path_room = n;
  r->arc_room = h[n];
  r->first = first;
  return TC_OK;
}

/* Path p of commodity (s,t) must be a simple path s -> t over arcs of g; seen[] is all -1
   on entry and on return (nodes are stamped with p while the path is walked). */
static int check_path(const tc_graph *g, const tc_a2a_routing *r, int64_t p, int64_t index, int32_t *seen,
                      tc_error *err) {
  int32_t s = r->commodity[p] / r->nodes, t = r->commodity[p] % r->nodes, at = s;
  int rc = TC_OK;
  int64_t h = r->hop_off[p];
  for (; h < r->hop_off[p + 1] && !rc; h++) {
    int64_t a = r->arc[h];
    seen[at] = 0;
    if (a < 0 || a >= g->m)
      rc = tc_error_set(err, TC_EINPUT, "path %lld of commodity (%d,%d) uses arc %lld, not an arc of the graph",
                        (long long)index, s, t, (long long)a);
    else if (g->src[a] != at)
      rc = tc_error_set(err, TC_EINPUT, "path %lld of commodity (%d,%d) is broken: arc %lld leaves node %d, not %d",
                        (long long)index, s, t, (long long)a, g->src[a], at);
    else if (seen[g->dst[a]] == 0)
      rc = tc_error_set(err, TC_EINPUT, "path %lld of commodity (%d,%d) visits node %d twice", (long long)index, s, t,
                        g->dst[a]);
    else
      at = g->dst[a];
  }
  if (!rc && at != t)
    rc = tc_error_set(err, TC_EINPUT, "path %lld of commodity (%d,%d) ends at node %d", (long long)index, s, t, at);
  seen[s] = -1; /* unstamp every node the walk reached */
  for (int64_t q = r->hop_off[p]; q < h; q++)
    if (r->arc[q] >= 0 && r->arc[q] < g->m) seen[g->dst[r->arc[q]]] = -1;
  return rc;
}

int tc_a2a_routing_finish(const tc_graph *g, tc_a2a_routing *r, tc_error *err) {
  if (r->first) return TC_OK;
  if (g->n != r->nodes)
    return tc_error_set(err, TC_EINPUT, "the routing is for %d nodes but the graph has %d", r->nodes, g->n);
  int rc = sort_by_commodity(r, err);
  int32_t *seen = rc ? NULL : malloc((size_t)g->n * sizeof *seen);
  if (!rc && !seen) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t u = 0; seen && u < g->n; u++) seen[u] = -1;
  for (int32_t s = 0; s < r->nodes && !rc; s++)
    for (int32_t t = 0; t < r->nodes && !rc; t++) {
      int64_t k = (int64_t)s * r->nodes + t, count = r->first[k + 1] - r->first[k];
      int live = s != t && g->kind[s] == TC_NODE_COMPUTE && g->kind[t] == TC_NODE_COMPUTE;
      if (!live) {
        if (count)
          rc = tc_error_set(err, TC_EINPUT, "commodity (%d,%d) has %lld path%s but %s", s, t, (long long)count,
                            count == 1 ? "" : "s", s == t ? "a node sends itself nothing" : "a switch sends and "
                            "receives nothing");
        continue;
      }
      if (!count) {
        rc = tc_error_set(err, TC_EINPUT, "commodity (%d,%d) has no path", s, t);
        break;
      }
      tc_rat sum = {0, 1};
      for (int64_t p = r->first[k]; p < r->first[k + 1] && !rc; p++) {
        rc = check_path(g, r, p, p - r->first[k], seen, err);
        if (!rc && tc_rat_add(sum, r->weight[p], &sum, NULL))
          rc = tc_error_set(err, TC_ERANGE, "the weights of commodity (%d,%d) overflow when added", s, t);
      }
      if (!rc && (sum.num != 1 || sum.den != 1)) {
        char text[48];
        tc_rat_format(sum, text, sizeof text);
        rc = tc_error_set(err, TC_EINPUT, "the weights of commodity (%d,%d) sum to %s, not 1", s, t, text);
      }
    }
  free(seen);
  if (rc) tc_a2a_routing_destroy(r);
  return rc;
}
