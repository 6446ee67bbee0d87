/*
** pairwise.c — pairwise exchange for alltoall and allgather (MPICH, Open MPI, Intel MPI;
** paper 002 §2.2.3): N - 1 rounds; in round k node i sends to partner i XOR k when N is a
** power of two, else to (i + k) mod N (receiving from (i - k) mod N). Alltoall sends block
** (i, partner); allgather sends i's own block. Topology-unaware: on complete(n) each
** round is one step of single-arc messages (T_L = N - 1, tau = d (N-1)/N); elsewhere
** routed (logical_sched.c) and refused where two messages of a round share a link.
*/
#include <stdlib.h>

#include "synth/baseline_common.h"

int tc_baseline_pairwise(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  const char *algo = "pairwise";
  if (coll != TC_COLL_ALLTOALL && coll != TC_COLL_ALLGATHER)
    return tc_error_set(err, TC_EINPUT, "%s: supports alltoall and allgather (not %s)", algo, tc_collective_name(coll));
  int rc = tci_bl_logical_init(g, coll, 0, -1, 1, algo, out, err);
  if (rc) return rc;
  int32_t n = g->n;
  int pow2 = (n & (n - 1)) == 0;
  tc_bl_blocks l = {0};
  rc = tci_bl_check_transfers(algo, n, n, 1, err);
  for (int32_t k = 1; k < n && !rc; k++)
    for (int32_t i = 0; i < n && !rc; i++) {
      int32_t p = pow2 ? i ^ k : (i + k) % n;
      rc = tci_bl_push(&l, k, i, p, coll == TC_COLL_ALLTOALL ? i * n + p : i, 0, 1, err);
    }
  if (!rc) rc = tci_bl_logical(g, l.b, l.n, algo, 0, out, err);
  free(l.b);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
