/*
** bruck.c — Bruck's algorithms for alltoall (index) and allgather (concatenation), paper
** 002 §2.2.3: ceil(log2 N) rounds; in round k (distance 2^(k-1)) node i sends to
** (i + 2^(k-1)) mod N.
**   alltoall: the block (s, t) travels by the binary digits of (t - s) mod N, lowest first:
**   in round k its holder passes it on when digit k-1 is set (flow semantics: the holder
**   hands it on), so every block is combined with the others sharing that digit — the
**   local rotations of the original become the local reorder term of the cost model
**   (tc_cost.local_copy).
**   allgather: node i sends the blocks it holds, i - j for j < 2^(k-1) (the last round only
**   the N - 2^(k-1) still missing downstream), to i + 2^(k-1) — the mirror image of the
**   textbook's "send to i - 2^k", which keeps every message in the same direction.
** On complete(n) round k is step k; elsewhere routed (logical_sched.c).
*/
#include <stdlib.h>

#include "synth/baseline_common.h"

int tc_baseline_bruck(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  const char *algo = "bruck";
  if (coll != TC_COLL_ALLTOALL && coll != TC_COLL_ALLGATHER)
    return tc_error_set(err, TC_EINPUT, "%s: supports alltoall and allgather (not %s)", algo, tc_collective_name(coll));
  int rc = tci_bl_logical_init(g, coll, 0, -1, 1, algo, out, err);
  if (rc) return rc;
  int32_t n = g->n, L = 0;
  while ((INT64_C(1) << L) < n) L++;
  tc_bl_blocks l = {0};
  rc = tci_bl_check_transfers(algo, n, n, L + 1, err);
  for (int32_t k = 1; k <= L && !rc; k++) {
    int64_t dist = INT64_C(1) << (k - 1);
    for (int32_t i = 0; i < n && !rc; i++) {
      int32_t to = (int32_t)((i + dist) % n);
      if (coll == TC_COLL_ALLGATHER) {
        int64_t count = dist < n - dist ? dist : n - dist;
        for (int64_t j = 0; j < count && !rc; j++)
          rc = tci_bl_push(&l, k, i, to, (int32_t)(((i - j) % n + n) % n), 0, 1, err);
        continue;
      }
      /* alltoall: the blocks i holds before round k are (s, t) with s + (t - s mod 2^(k-1))
         == i, i.e. s = i - low, low = the digits below k-1 of (t - s) mod N */
      for (int32_t s = 0; s < n && !rc; s++) {
        int64_t low = ((i - s) % n + n) % n;
        if (low >= dist) continue;
        for (int32_t t = 0; t < n && !rc; t++) {
          int64_t off = ((t - s) % n + n) % n;
          if ((off & (dist - 1)) == low && (off & dist))
            rc = tci_bl_push(&l, k, i, to, s * n + t, 0, 1, err);
        }
      }
    }
  }
  if (!rc) rc = tci_bl_logical(g, l.b, l.n, algo, 0, out, err);
  free(l.b);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
