/*
** extract.c — MCF-extP (paper 003 §3.2.1): paths from the link MCF's per-commodity flows by
** repeated widest-path extraction (contract in a2a_flows.h).
**
** For each commodity (s,t), on the arcs where its flow is positive (integers over the
** result's commodity denominator), the s -> t path of the largest bottleneck is found
** (Dijkstra maximizing the minimum, ties to the lower node and arc ids), its bottleneck r
** is subtracted along it, and this repeats until t cannot be reached. Each round removes at
** least one arc, so a commodity gets at most as many paths as its flow has arcs. The flows
** of tc_a2a_solve are exactly conserving s-to-t path flows (decompose.c), so the rates drain
** them completely and sum to what t receives; a later bottleneck can never exceed an earlier
** one (subtracting only lowers widths), so the rates come out non-increasing. The weights
** are rate / sum, exact.
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/flows_internal.h"

/* One widest path s -> t on rem (> 0 usable). Returns its bottleneck (0: none), the path's
   arcs in path[0..*len-1]. */
static int64_t widest(const tc_graph *g, int32_t s, int32_t t, const int64_t *rem, int64_t *width, int64_t *via,
                      uint8_t *done, int64_t *path, int32_t *len) {
  const int32_t n = g->n;
  for (int32_t u = 0; u < n; u++) width[u] = 0, via[u] = -1, done[u] = 0;
  width[s] = INT64_MAX;
  for (;;) {
    int32_t u = -1;
    for (int32_t v = 0; v < n; v++)
      if (!done[v] && width[v] > 0 && (u < 0 || width[v] > width[u])) u = v;
    if (u < 0 || u == t) break;
    done[u] = 1;
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
      int32_t v = g->dst[a];
      int64_t b = rem[a] < width[u] ? rem[a] : width[u];
      if (rem[a] > 0 && !done[v] && b > width[v]) width[v] = b, via[v] = a;
    }
  }
  if (width[t] <= 0) return 0;
  int32_t k = 0;
  for (int32_t v = t; v != s; v = g->src[via[v]]) k++;
  *len = k;
  for (int32_t v = t; v != s; v = g->src[via[v]]) path[--k] = via[v];
  return width[t];
}

int tc_a2a_route_extract(const tc_graph *g, const tc_a2a_result *mcf, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!mcf->commodity_flow)
    return tc_error_set(err, TC_EINPUT, "mcf-extp: the MCF result has no per-commodity flows (solve with children)");
  if (mcf->n != g->n || mcf->m != g->m)
    return tc_error_set(err, TC_EINPUT, "mcf-extp: the MCF result is for %d nodes and %lld arcs, the graph has %d and "
                        "%lld", mcf->n, (long long)mcf->m, g->n, (long long)g->m);
  const int32_t n = g->n;
  const int64_t m = g->m;
  int64_t *rem = malloc(sizeof *rem * (size_t)(m > 0 ? m : 1)), *width = malloc(sizeof *width * (size_t)n);
  int64_t *via = malloc(sizeof *via * (size_t)n), *path = malloc(sizeof *path * (size_t)n);
  uint8_t *done = malloc((size_t)n);
  /* one commodity's paths: their arcs and rates, before the weights are known */
  int64_t room = 64, *rate = malloc(sizeof *rate * (size_t)room), *off = malloc(sizeof *off * ((size_t)room + 1));
  int64_t arc_room = 256, *arcs = malloc(sizeof *arcs * (size_t)arc_room);
  int rc = TC_OK;
  if (!rem || !width || !via || !path || !done || !rate || !off || !arcs) {
    rc = tc_error_set(err, TC_ENOMEM, "mcf-extp: out of memory");
    goto done;
  }
  if ((rc = tc_a2a_routing_init(out, n, "mcf-extp", err))) goto done;
  for (int32_t s = 0; s < n && !rc; s++)
    for (int32_t t = 0; t < n && !rc; t++) {
      if (s == t) continue;
      memcpy(rem, mcf->commodity_flow + ((int64_t)s * n + t) * m, sizeof *rem * (size_t)m);
      int64_t np = 0, total = 0;
      int32_t len;
      off[0] = 0;
      for (int64_t r; !rc && (r = widest(g, s, t, rem, width, via, done, path, &len)) > 0;) {
        for (int32_t i = 0; i < len; i++) rem[path[i]] -= r;
        if (np == room || off[np] + len > arc_room) { /* grow */
          int64_t *r2 = realloc(rate, sizeof *r2 * (size_t)(2 * room));
          if (r2) rate = r2;
          int64_t *o2 = r2 ? realloc(off, sizeof *o2 * (size_t)(2 * room + 1)) : NULL;
          if (o2) off = o2, room *= 2;
          int64_t *a2 = o2 ? realloc(arcs, sizeof *a2 * (size_t)(2 * arc_room + len)) : NULL;
          if (!a2) {
            rc = tc_error_set(err, TC_ENOMEM, "mcf-extp: out of memory");
            break;
          }
          arcs = a2, arc_room = 2 * arc_room + len;
        }
        memcpy(arcs + off[np], path, sizeof *path * (size_t)len);
        off[np + 1] = off[np] + len;
        rate[np++] = r;
        total += r; /* <= the commodity's inflow at t: no overflow */
      }
      if (!rc && !np)
        rc = tc_error_set(err, TC_EFAIL, "mcf-extp: commodity (%d,%d) has no flow to extract", s, t);
      for (int64_t p = 0; p < np && !rc; p++)
        rc = tc_a2a_routing_add(out, s, t, arcs + off[p], (int32_t)(off[p + 1] - off[p]), (tc_rat){rate[p], total},
                                err);
    }
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
done:
  if (rc) tc_a2a_routing_destroy(out);
  free(rem), free(width), free(via), free(path), free(done), free(rate), free(off), free(arcs);
  return rc;
}

int tc_a2a_route_mcf_extp(const tc_graph *g, const tc_a2a_flow_options *o, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_a2a_flow_options def;
  if (!o) tc_a2a_flow_options_default(&def), o = &def;
  tc_a2a_options ao;
  tc_a2a_options_default(&ao);
  ao.engine = o->engine;
  ao.time_limit = o->time_limit;
  tc_a2a_result r;
  int rc = tc_a2a_solve(g, &ao, &r, err);
  if (rc) {
    tc_error_prefix(err, "mcf-extp");
    return rc;
  }
  rc = tc_a2a_route_extract(g, &r, out, err);
  tc_a2a_result_destroy(&r);
  return rc;
}
