/*
** route_lower.c — a routing as a store-and-forward step schedule (contract in
** a2a_route.h; paper 003 §4: "the smallest chunk size to support the lowest such rate").
**
** The shard of commodity (s,t) is cut into D units, D the LCM of all weight denominators,
** so every path's weight is a whole number of units; the paths of a commodity take
** consecutive ranges in their order, and hop h of a path moves its range over the path's
** h-th arc in step h. A relay therefore sends in step h + 1 exactly what it received in
** step h, which is the flow semantics the verifier checks (sched.h). One D for the whole
** schedule keeps its chunk endpoints on one denominator, as the IR requires.
*/
#include "a2a/route_internal.h"

#include <string.h>

int tc_a2a_routing_lower(const tc_graph *g, const tc_a2a_routing *r, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!r->first) return tc_error_set(err, TC_EINPUT, "the routing is not finished (tc_a2a_routing_finish)");
  if (g->n != r->nodes)
    return tc_error_set(err, TC_EINPUT, "the routing is for %d nodes but the graph has %d", r->nodes, g->n);
  int64_t D;
  int rc = tci_a2a_denominator(r, &D, err);
  if (!rc) rc = tc_schedule_init(out, TC_COLL_ALLTOALL, r->nodes, D, r->algorithm, err);
  if (!rc) rc = tc_schedule_reserve(out, r->hop_off[r->npaths] ? r->hop_off[r->npaths] : 1, err);
  int64_t K = (int64_t)r->nodes * r->nodes;
  for (int64_t k = 0; k < K && !rc; k++) {
    int64_t lo = 0;
    for (int64_t p = r->first[k]; p < r->first[k + 1] && !rc; p++) {
      int64_t hi = lo + r->weight[p].num * (D / r->weight[p].den); /* the weights sum to 1: hi <= D */
      for (int64_t h = r->hop_off[p]; h < r->hop_off[p + 1] && !rc; h++)
        rc = tc_schedule_add(out, (int32_t)k, r->arc[h], (int32_t)(h - r->hop_off[p] + 1), lo, hi, err);
      lo = hi;
    }
  }
  if (rc) tc_schedule_destroy(out);
  return rc;
}
