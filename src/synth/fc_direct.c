/*
** fc_direct.c — FC direct: every block goes straight from where it is to where it must be,
** in one round (the fully connected baseline of paper 002 Table 3.2, FC rows).
**
** Broadcast: the root to every node; reduce: every node to the root; scatter: block k from
** the root to node k; gather: block k from node k to the root; allgather: every node's
** block to every node; reduce-scatter: every node's part of block k to node k; allreduce:
** that reduce-scatter, then that allgather (2 rounds); alltoall: block (s, t) from s to t;
** p2p: the whole buffer from S to T. On complete(n) (its home) each round is one step of
** single-arc messages: T_L = 1 (allreduce 2), and tau = the FC optima (N-1)/N · d etc.;
** elsewhere each message is routed (logical_sched.c), and refused where messages contend.
*/
#include <stdlib.h>

#include "synth/baseline_common.h"

int tc_baseline_fc_direct(const tc_graph *g, tc_collective coll, int32_t root, int32_t dst, tc_schedule *out,
                          tc_error *err) {
  const char *algo = "fc-direct";
  int rc = tci_bl_logical_init(g, coll, root, dst, 1, algo, out, err);
  if (rc) return rc;
  int32_t n = g->n;
  tc_bl_blocks l = {0};
  rc = tci_bl_check_transfers(algo, n, n, 2, err);
  for (int32_t u = 0; u < n && !rc; u++)
    for (int32_t v = 0; v < n && !rc; v++) {
      if (u == v) continue;
      switch (coll) {
        case TC_COLL_BROADCAST: if (u == root) rc = tci_bl_push(&l, 1, u, v, 0, 0, 1, err); break;
        case TC_COLL_REDUCE: if (v == root) rc = tci_bl_push(&l, 1, u, v, 0, 0, 1, err); break;
        case TC_COLL_SCATTER: if (u == root) rc = tci_bl_push(&l, 1, u, v, v, 0, 1, err); break;
        case TC_COLL_GATHER: if (v == root) rc = tci_bl_push(&l, 1, u, v, u, 0, 1, err); break;
        case TC_COLL_P2P: if (u == root && v == dst) rc = tci_bl_push(&l, 1, u, v, 0, 0, 1, err); break;
        case TC_COLL_ALLGATHER: rc = tci_bl_push(&l, 1, u, v, u, 0, 1, err); break;
        case TC_COLL_REDUCE_SCATTER: rc = tci_bl_push(&l, 1, u, v, v, 0, 1, err); break;
        case TC_COLL_ALLREDUCE:
          rc = tci_bl_push(&l, 1, u, v, v, 0, 1, err);
          if (!rc) rc = tci_bl_push(&l, 2, v, u, v, 0, 1, err);
          break;
        case TC_COLL_ALLTOALL: rc = tci_bl_push(&l, 1, u, v, u * n + v, 0, 1, err); break;
      }
    }
  if (!rc) rc = tci_bl_logical(g, l.b, l.n, algo, 1, out, err);
  free(l.b);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
