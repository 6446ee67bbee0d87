/*
** biring_halves.c — the traditional bidirectional ring schedule on BiRing(d,N) (paper 000
** App. F.1 first paragraph).
**
** Topology: a bidirectional ring of N >= 3 nodes, every arc of node i to i+1 or i-1
** (mod N), both present (d/2 parallel links each way share every chunk).
** Allgather: the first half of every shard goes clockwise, the second half
** counter-clockwise, each a full circle: in step t node v+t-1 forwards v's first half to
** v+t and node v-t+1 forwards v's second half to v-t. Reduce-scatter is its reverse (Def.
** 5), allreduce the two in sequence.
** Guarantees: every arc carries half a shard per step (split over its parallel arcs), so
** T_L = N-1 and tau = (N-1)/N: BW-optimal but with linear latency.
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const BIRING = "biring";

int tc_baseline_biring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_bl_check_rs_ag(BIRING, coll, err);
  if (!rc) rc = tci_bl_check_biring(g, BIRING, err);
  int64_t scale = 1, units = 2; /* two halves */
  if (!rc) rc = tci_bl_split_scale(g, BIRING, &scale, err);
  if (!rc) rc = tci_bl_check_transfers(BIRING, g->n, g->n - 1, 4 * tci_bl_max_bundle(g), err);
  if (!rc) rc = tci_bl_units(BIRING, 2, scale, &units, err);
  if (rc) return rc;
  int32_t *order = tci_bl_identity(g->n, err);
  if (!order) return TC_ENOMEM;
  tc_bl_cycle c = {g->n, order};
  tc_schedule ag;
  rc = tc_schedule_init(&ag, TC_COLL_ALLGATHER, g->n, units, BIRING, err);
  for (int32_t v = 0; !rc && v < g->n; v++)
    rc = tci_bl_ring_broadcast(&ag, g, &c, v, TC_BL_HALVES, v, 0, 2, 0, scale, err);
  free(order);
  if (rc) {
    tc_schedule_destroy(&ag);
    return rc;
  }
  return tci_bl_finish(g, coll, &ag, NULL, BIRING, out, err);
}
