/*
** binomial.c — binomial trees for broadcast, reduce, scatter and gather (MPICH's; paper 002
** §2.2.3, Table 4.3 "Binomial: log2 p steps").
**
** Ranks are relative to the root, r = (u - root) mod N, and L = ceil(log2 N) rounds.
** Broadcast: in round k (k = 1..L, mask m = 2^(k-1)) every r < m that has the buffer sends
** it to r + m (when < N). Reduce is its mirror: round k uses m = 2^(L-k), and every
** m <= r < 2m sends its partial to r - m. Scatter follows the broadcast tree top-down:
** round k, m = 2^(L-k): every r with r mod 2m == 0 sends the blocks of r + m .. min(r + 2m,
** N) - 1 to r + m (one combined message; block of relative rank q is node (q + root) mod N's).
** Gather is its mirror (m = 2^(k-1): r + m sends those blocks to r). On complete(n) T_L = L;
** tau: broadcast and reduce L·d (the whole buffer each round), scatter and gather d·(N-1)/N ...
** measured by the cost model, not assumed here; elsewhere routed (logical_sched.c).
*/
#include <stdlib.h>

#include "synth/baseline_common.h"

int tc_baseline_binomial(const tc_graph *g, tc_collective coll, int32_t root, tc_schedule *out, tc_error *err) {
  const char *algo = "binomial";
  if (coll != TC_COLL_BROADCAST && coll != TC_COLL_REDUCE && coll != TC_COLL_SCATTER && coll != TC_COLL_GATHER)
    return tc_error_set(err, TC_EINPUT, "%s: supports broadcast, reduce, scatter and gather (not %s)", algo,
                        tc_collective_name(coll));
  int rc = tci_bl_logical_init(g, coll, root, -1, 1, algo, out, err);
  if (rc) return rc;
  int32_t n = g->n, L = 0;
  while ((INT64_C(1) << L) < n) L++;
  tc_bl_blocks l = {0};
  rc = tci_bl_check_transfers(algo, n, L + 1, 1, err);
  for (int32_t k = 1; k <= L && !rc; k++) {
    int down = coll == TC_COLL_BROADCAST || coll == TC_COLL_GATHER; /* masks grow with k */
    int64_t m = INT64_C(1) << (down ? k - 1 : L - k);
    for (int64_t r = 0; r < n && !rc; r++) {
      int32_t u = (int32_t)((r + root) % n), w;
      switch (coll) {
        case TC_COLL_BROADCAST:
          if (r < m && r + m < n) rc = tci_bl_push(&l, k, u, (int32_t)((r + m + root) % n), 0, 0, 1, err);
          break;
        case TC_COLL_REDUCE:
          if (r >= m && r < 2 * m) rc = tci_bl_push(&l, k, u, (int32_t)((r - m + root) % n), 0, 0, 1, err);
          break;
        case TC_COLL_SCATTER: /* r sends the blocks of r+m .. r+2m-1 */
        case TC_COLL_GATHER:  /* r+m sends them to r */
          if (r % (2 * m) || r + m >= n) break;
          w = (int32_t)((r + m + root) % n);
          for (int64_t q = r + m; q < r + 2 * m && q < n && !rc; q++) {
            int32_t block = (int32_t)((q + root) % n);
            rc = coll == TC_COLL_SCATTER ? tci_bl_push(&l, k, u, w, block, 0, 1, err)
                                         : tci_bl_push(&l, k, w, u, block, 0, 1, err);
          }
          break;
        default: break;
      }
    }
  }
  if (!rc) rc = tci_bl_logical(g, l.b, l.n, algo, 0, out, err);
  free(l.b);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
