/*
** ring.c — the unidirectional ring schedule (paper 000 Table 9 row 9; App. C.2 before
** Cor. 4.1; paper 002 §2.2.3's ring allgather and allreduce), home UniRing(d,m): the
** "ring of degree d" that attains the bandwidth bound; on any other graph a ring through
** every node, over one-hop arcs where the graph has such a cycle, routed where it has not.
**
** The ring: order[0..N-1], node order[p] sending to order[p+1] (mod N) — the rank order
** 0, 1, ..., N-1 when every arc i -> i+1 exists (UniRing, biring, complete(n)), else the
** first cycle through every node over arcs that a bounded search finds
** (tci_bl_hamiltonian_cycle), else the rank order with each hop routed (logical_sched.c).
** Allgather: in step t = 1..N-1 position p forwards the shard of position p-t+1 (its own in
** step 1, then the one it received in step t-1) to p+1. Reduce-scatter: in step t position
** q+t sends its partial sum of the shard of position q to q+t+1, which adds its own
** contribution; it arrives complete at q after N-1 hops. Allreduce: the two in sequence.
** Guarantees: on a cycle of arcs every arc of it carries one shard (1/d of it per
** unit-capacity port of d parallel arcs) per step, so T_L = N-1 and tau = (N-1)/N on
** UniRing (BW-optimal), 2(N-1) and 2(N-1)/N for allreduce; on a graph with more ports per
** node the same pattern uses one of them. Routed, a reduction whose partial would be
** relayed through a compute node is refused (it would add its own).
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const RING = "ring";

/* Extensions of the cycle search: a ring is a baseline, not worth minutes of search. */
#define CYCLE_BUDGET (INT64_C(1) << 22)

/* The blocks of `coll` around the ring `order` (RS in rounds 1..N-1, then AG). */
static int ring_blocks(int32_t n, const int32_t *order, tc_collective coll, tc_bl_blocks *l, tc_error *err) {
  int rc = TC_OK;
  int32_t ag0 = coll == TC_COLL_ALLREDUCE ? n - 1 : 0;
  if (coll != TC_COLL_ALLGATHER)
    for (int32_t q = 0; q < n && !rc; q++)
      for (int32_t t = 1; t < n && !rc; t++)
        rc = tci_bl_push(l, t, order[(q + t) % n], order[(q + t + 1) % n], order[q], 0, 1, err);
  if (coll != TC_COLL_REDUCE_SCATTER)
    for (int32_t p = 0; p < n && !rc; p++)
      for (int32_t t = 1; t < n && !rc; t++)
        rc = tci_bl_push(l, ag0 + t, order[(p + t - 1) % n], order[(p + t) % n], order[p], 0, 1, err);
  return rc;
}

int tc_baseline_ring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_bl_check_rs_ag(RING, coll, err);
  if (!rc) rc = tci_bl_check_transfers(RING, g->n, g->n - 1, 2 * tci_bl_max_bundle(g), err);
  if (rc) return rc;
  int32_t *order = tci_bl_identity(g->n, err);
  if (!order) return TC_ENOMEM;
  if (!tci_bl_hamiltonian_cycle(g, CYCLE_BUDGET, order))
    for (int32_t u = 0; u < g->n; u++) order[u] = u; /* routed in rank order */
  tc_bl_blocks l = {0};
  rc = ring_blocks(g->n, order, coll, &l, err);
  if (!rc) rc = tci_bl_emit(g, coll, l.b, l.n, RING, coll == TC_COLL_ALLREDUCE ? g->n - 1 : 0, out, err);
  free(l.b);
  free(order);
  return rc;
}
