/*
** route_internal.h — pieces shared by the routing files of src/a2a (internal header): the
** weights' common denominator, which commodities carry data, and the distances the
** baselines route by.
*/
#ifndef TC_A2A_ROUTE_INTERNAL_H
#define TC_A2A_ROUTE_INTERNAL_H

#include "topocoll/a2a_route.h"

/* The largest common denominator a routing may have (sums of units are checked too). */
#define TCI_A2A_MAX_DENOM (1LL << 62)

/* D = LCM of r's weight denominators; TC_ERANGE beyond TCI_A2A_MAX_DENOM. */
int tci_a2a_denominator(const tc_a2a_routing *r, int64_t *out, tc_error *err);

/* The commodity (s,t) carries data: two distinct compute nodes. */
static inline int tci_a2a_live(const tc_graph *g, int32_t s, int32_t t) {
  return s != t && g->kind[s] == TC_NODE_COMPUTE && g->kind[t] == TC_NODE_COMPUTE;
}

/* dist[u] = hops from u to t (-1: none), by a BFS over g's arcs backwards; TC_EINPUT
   naming the pair when some compute node cannot reach t ("node 3 cannot reach node 0:
   the graph is not strongly connected"). `what` prefixes the message. */
int tci_a2a_dist_to(const tc_graph *g, int32_t t, int32_t *dist, const char *what, tc_error *err);

/* The refusal every baseline shares: at least two compute nodes and at most
   TC_ALLTOALL_MAX_NODES nodes. */
int tci_a2a_check_graph(const tc_graph *g, const char *what, tc_error *err);

#endif
