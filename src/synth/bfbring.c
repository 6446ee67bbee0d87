/*
** bfbring.c — the BFB ring schedule on BiRing(d,N) (paper 000 App. F.1, Fig. 17):
** half the total-hop latency of the traditional ring at the same bandwidth.
**
** Topology: a bidirectional ring of N >= 3 nodes, every arc of node i to i+1 or i-1
** (mod N), both present (parallel links share every chunk).
** Allgather: every node broadcasts its WHOLE shard both ways at once; for t = 1 ..
** floor((N-1)/2) node v+t-1 sends v's shard to v+t and node v-t+1 sends it to v-t. For
** even N the node v+N/2 opposite v is still missing it: in step N/2 it receives the first
** half from v+N/2-1 and the second half from v-N/2+1. Reduce-scatter is the reverse (Def.
** 5), allreduce the two in sequence (2 floor(N/2) steps, the "ShiftedBFBRing" count of A.2).
** Guarantees: T_L = floor(N/2); every arc carries one shard per step (half a shard in the
** even last step), and no byte arrives twice, so tau = (N-1)/N (BW-optimal, Thm 5).
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const BFBRING = "bfbring";

int tc_baseline_bfbring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_bl_check_rs_ag(BFBRING, coll, err);
  if (!rc) rc = tci_bl_check_biring(g, BFBRING, err);
  int64_t scale = 1, units = 2; /* the even last step halves the shard */
  if (!rc) rc = tci_bl_split_scale(g, BFBRING, &scale, err);
  if (!rc) rc = tci_bl_check_transfers(BFBRING, g->n, g->n - 1, 4 * tci_bl_max_bundle(g), err);
  if (!rc) rc = tci_bl_units(BFBRING, 2, scale, &units, err);
  if (rc) return rc;
  int32_t *order = tci_bl_identity(g->n, err);
  if (!order) return TC_ENOMEM;
  tc_bl_cycle c = {g->n, order};
  tc_schedule ag;
  rc = tc_schedule_init(&ag, TC_COLL_ALLGATHER, g->n, units, BFBRING, err);
  for (int32_t v = 0; !rc && v < g->n; v++)
    rc = tci_bl_ring_broadcast(&ag, g, &c, v, TC_BL_BFB, v, 0, 2, 0, scale, err);
  free(order);
  if (rc) {
    tc_schedule_destroy(&ag);
    return rc;
  }
  return tci_bl_finish(g, coll, &ag, NULL, BFBRING, out, err);
}
