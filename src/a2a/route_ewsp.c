/*
** route_ewsp.c — the EwSP baseline (Equal-weight Shortest Paths, paper 003 §5.3): every
** commodity split equally over all its shortest paths, per path (not per hop as ECMP
** would). Paths are arc sequences, so on a multigraph parallel arcs give distinct paths.
**
** Counting first: the number of shortest paths from u to t is the sum over the arcs
** u -> v with dist(v) = dist(u) - 1 of v's count (nodes taken in order of distance). The
** total is checked against TC_A2A_MAX_PATHS before any path is enumerated, because it
** grows exponentially with the distance on tori and hypercubes (k! at distance k in Q_n).
** Then a depth-first walk along those arcs, lowest arc id first, lists them in order.
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

/* Shortest paths u -> t for every u, saturating above TC_A2A_MAX_PATHS. order[] (n) and
   start[] (n + 1) are scratch: the reached nodes by distance, a counting sort. */
static void count_paths(const tc_graph *g, int32_t t, const int32_t *dist, int32_t *order, int32_t *start,
                        int64_t *count) {
  int32_t reached = 0;
  for (int32_t i = 0; i <= g->n; i++) start[i] = 0;
  for (int32_t u = 0; u < g->n; u++)
    if (dist[u] >= 0) start[dist[u] + 1]++;
  for (int32_t i = 0; i < g->n; i++) start[i + 1] += start[i];
  for (int32_t u = 0; u < g->n; u++) {
    count[u] = 0;
    if (dist[u] >= 0) order[start[dist[u]]++] = u, reached++;
  }
  count[t] = 1;
  for (int32_t i = 0; i < reached; i++) { /* nearer nodes first: their counts are final */
    int32_t u = order[i];
    if (u == t) continue;
    int64_t c = 0;
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (dist[g->dst[a]] == dist[u] - 1) c += count[g->dst[a]]; /* each <= MAX + 1: no overflow */
    count[u] = c > TC_A2A_MAX_PATHS ? TC_A2A_MAX_PATHS + 1 : c;
  }
}

/* Every shortest path s -> t, depth first, lowest arc first, each with weight 1/total. */
static int list_paths(const tc_graph *g, int32_t s, int32_t t, const int32_t *dist, int64_t total, int64_t *path,
                      int64_t *next, tc_a2a_routing *out, tc_error *err) {
  int32_t depth = 0, len = dist[s], u = s;
  next[0] = g->out_off[s];
  int rc = TC_OK;
  while (depth >= 0 && !rc) {
    if (depth == len) { /* u == t */
      rc = tc_a2a_routing_add(out, s, t, path, len, (tc_rat){1, total}, err);
      depth--;
      if (depth >= 0) u = g->src[path[depth]];
      continue;
    }
    int64_t a = next[depth];
    while (a < g->out_off[u + 1] && dist[g->dst[a]] != dist[u] - 1) a++;
    if (a == g->out_off[u + 1]) { /* this level is done: back up */
      depth--;
      if (depth >= 0) u = g->src[path[depth]];
      continue;
    }
    next[depth] = a + 1;
    path[depth++] = a;
    u = g->dst[a];
    if (depth < len) next[depth] = g->out_off[u];
  }
  return rc;
}

int tc_a2a_route_ewsp(const tc_graph *g, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_a2a_check_graph(g, "ewsp", err);
  if (!rc) rc = tc_a2a_routing_init(out, g->n, "ewsp", err);
  if (rc) return rc;
  size_t n = (size_t)g->n;
  int32_t *dist = malloc(n * sizeof *dist), *order = malloc(n * sizeof *order), *start = malloc((n + 1) * sizeof *start);
  int64_t *count = malloc(n * sizeof *count), *path = malloc(n * sizeof *path), *next = malloc(n * sizeof *next);
  if (!dist || !order || !start || !count || !path || !next) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  /* pass 0 counts every commodity's paths against the limit, pass 1 lists them */
  for (int pass = 0; pass < 2 && !rc; pass++) {
    int64_t total = 0;
    for (int32_t t = 0; t < g->n && !rc; t++) {
      if (g->kind[t] != TC_NODE_COMPUTE || (rc = tci_a2a_dist_to(g, t, dist, "ewsp", err))) continue;
      count_paths(g, t, dist, order, start, count);
      for (int32_t s = 0; s < g->n && !rc; s++) {
        if (!tci_a2a_live(g, s, t)) continue;
        total += count[s];
        if (total > TC_A2A_MAX_PATHS)
          rc = tc_error_set(err, TC_ERANGE, "ewsp: the graph has more than %lld shortest paths between its pairs of "
                            "nodes (%d -> %d alone has %s%lld)", (long long)TC_A2A_MAX_PATHS, s, t,
                            count[s] > TC_A2A_MAX_PATHS ? "more than " : "",
                            (long long)(count[s] > TC_A2A_MAX_PATHS ? TC_A2A_MAX_PATHS : count[s]));
        else if (pass == 1)
          rc = list_paths(g, s, t, dist, count[s], path, next, out, err);
      }
    }
  }
  free(dist); free(order); free(start); free(count); free(path); free(next);
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
  if (rc) tc_a2a_routing_destroy(out);
  return rc;
}
