/*
** ring.c — the unidirectional ring schedule on UniRing(d,m) (paper 000 Table 9
** row 9; App. C.2 before Cor. 4.1): the "ring of degree d" that attains the bandwidth bound.
**
** Topology: m >= 2 nodes, every arc of node i goes to i+1 (mod m); d parallel arcs are d
** ports and share every chunk in proportion to capacity.
** Allgather: in step t = 1..m-1 node i forwards shard i-t+1 (its own in step 1, then the
** one it received in step t-1) to i+1. Reduce-scatter: in step t node i sends its partial
** sum of shard i-t to i+1, which adds its own contribution; shard k starts at k+1 and
** arrives complete at k after m-1 hops. Allreduce: the two in sequence.
** Guarantees: every arc carries one shard (1/d of it per unit-capacity port) per step, so
** T_L = m-1 and tau = (m-1)/m (BW-optimal), 2(m-1) and 2(m-1)/m for allreduce.
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const RING = "ring";

/* Every node needs at least one arc and all of them to its successor. */
static int check_uniring(const tc_graph *g, tc_error *err) {
  if (g->n < 2) return tc_error_set(err, TC_EINPUT, "ring: needs at least 2 nodes (got %d)", g->n);
  for (int32_t u = 0; u < g->n; u++) {
    int32_t next = (int32_t)((u + 1) % g->n);
    if (tc_graph_out_degree(g, u) == 0)
      return tc_error_set(err, TC_EINPUT, "ring: needs a graph with an arc i -> i+1 for every node (node %d has none)",
                          u);
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (g->dst[a] != next)
        return tc_error_set(err, TC_EINPUT,
                            "ring: needs a unidirectional ring, every arc i -> i+1 (node %d has an arc to %d)", u,
                            g->dst[a]);
  }
  return TC_OK;
}

/* Reduce-scatter, built directly (the reverse would run on the transpose, another graph). */
static int ring_reduce_scatter(const tc_graph *g, int64_t units, int64_t scale, tc_schedule *rs, tc_error *err) {
  int32_t n = g->n;
  int rc = tc_schedule_init(rs, TC_COLL_REDUCE_SCATTER, n, units, RING, err);
  for (int32_t k = 0; !rc && k < n; k++)
    for (int32_t t = 1; !rc && t < n; t++) /* node k+t passes shard k's partial sum on */
      rc = tci_bl_send(rs, g, (int32_t)(((int64_t)k + t) % n), (int32_t)(((int64_t)k + t + 1) % n), k, t, 0, 1, scale,
                      err);
  return rc;
}

static int ring_allgather(const tc_graph *g, const int32_t *order, int64_t units, int64_t scale, tc_schedule *ag,
                          tc_error *err) {
  tc_bl_cycle c = {g->n, order};
  int rc = tc_schedule_init(ag, TC_COLL_ALLGATHER, g->n, units, RING, err);
  for (int32_t k = 0; !rc && k < g->n; k++)
    rc = tci_bl_ring_broadcast(ag, g, &c, k, TC_BL_ONEWAY, k, 0, 1, 0, scale, err);
  return rc;
}

int tc_baseline_ring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_bl_check_rs_ag(RING, coll, err);
  if (!rc) rc = check_uniring(g, err);
  int64_t scale = 1, units = 1;
  if (!rc) rc = tci_bl_split_scale(g, RING, &scale, err);
  if (!rc) rc = tci_bl_check_transfers(RING, g->n, g->n - 1, 2 * tci_bl_max_bundle(g), err);
  if (!rc) rc = tci_bl_units(RING, 1, scale, &units, err);
  if (rc) return rc;
  int32_t *order = tci_bl_identity(g->n, err);
  if (!order) return TC_ENOMEM;
  tc_schedule ag, rs;
  memset(&ag, 0, sizeof ag);
  memset(&rs, 0, sizeof rs);
  rc = ring_allgather(g, order, units, scale, &ag, err);
  if (!rc && coll != TC_COLL_ALLGATHER) rc = ring_reduce_scatter(g, units, scale, &rs, err);
  free(order);
  if (rc) {
    tc_schedule_destroy(&ag);
    tc_schedule_destroy(&rs);
    return rc;
  }
  return tci_bl_finish(g, coll, &ag, coll == TC_COLL_ALLGATHER ? NULL : &rs, RING, out, err);
}
