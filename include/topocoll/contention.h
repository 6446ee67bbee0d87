/*
** contention.h — the contention check of the multi-port model (paper 002 §2.2.1, §3.1):
** in every round, every directed link carries at most one message.
**
** In a step schedule (sched.h) all transfers on one arc in one step ARE one message (the
** message-combine of Eq. 3.2), so a step schedule can never break the rule by itself. It
** can be broken one level up, by *logical* messages: a topology-unaware algorithm
** (pairwise exchange, Bruck, binomial trees) sends from rank u to rank w in round r, and on
** a graph where w is not u's neighbour the message follows a route of several links. Two
** messages of one round whose routes share a link contend for it: the network would
** serialise them, which the α-β cost of the step schedule built from the routes would not
** show. tc_contention_check finds that. A message is (round, src, dst): any number of
** blocks between the same pair in the same round form one combined message and count once.
**
** Routes: tc_routes_shortest gives every message a shortest path, chosen deterministically
** (breadth-first from the source, out-arcs in arc-id order, the first arc that discovers a
** node is its predecessor), so on complete(n) every route is the one arc src -> dst.
*/
#ifndef TOPOCOLL_CONTENTION_H
#define TOPOCOLL_CONTENTION_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/graph.h"

/* One logical message: in round `round` (>= 1) node src sends to node dst != src. */
typedef struct tc_message {
  int32_t round, src, dst;
} tc_message;

/* Routes of n messages: message i follows arcs arc[off[i] .. off[i+1]) from src to dst. */
typedef struct tc_routes {
  int64_t n;
  int64_t *off, *arc;
} tc_routes;

/* Shortest routes as above; TC_EINPUT "no route from 3 to 5" when dst cannot be reached,
   or naming a message whose nodes are out of range or equal. On failure *out is empty. */
TC_API int tc_routes_shortest(const tc_graph *g, const tc_message *msg, int64_t n, tc_routes *out, tc_error *err);
TC_API void tc_routes_destroy(tc_routes *r);

/* TC_OK when no link carries two distinct messages in one round, else TC_EFAIL with one
   line naming the first such round (lowest), link and pair of messages, e.g. "round 2:
   link 1 -> 2 (arc 3) carries two messages, 0 -> 2 and 1 -> 3 (one message per link and
   round)". Every route must lead from its message's src to its dst over arcs of g (else
   TC_EINPUT naming the message). */
TC_API int tc_contention_check(const tc_graph *g, const tc_message *msg, int64_t n, const tc_routes *r,
                               tc_error *err);

#endif
