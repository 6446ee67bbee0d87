/*
** ring_bound.c — the best any ring allgather can do on a fabric, the comparison paper 001
** §5.1 draws (213.33 GB/s on A100 2×8 against ForestColl's 346.67).
**
** A ring allgather that crosses a cut S (compute nodes on both sides) sends N−1 shards out
** of S whichever way the ring is laid: the |S ∩ V_c| shards born in S leave once each, and
** every shard born outside S that enters S must leave it again, except the one whose owner
** comes right after S — (2 + 14·2)/2 = 15 = N−1 on A100 2×8. Several rings in parallel
** split the data but not this count, so T_ring ≥ (M/N)·(N−1)/B⁺(S) for every such cut, and
** the ring's best algbw is N·λ/(N−1) with λ the least B⁺(S) over cuts splitting the compute
** nodes — the compute nodes' edge connectivity through the switches: min over compute v ≠ c
** of F(c, v) and F(v, c) for one fixed compute c.
*/
#include <stdlib.h>

#include "forest/forest_internal.h"
#include "graph/maxflow.h"

int tc_forest_ring_bound(const tc_graph *g, tc_rat *algbw, int64_t *min_cut, tc_error *err) {
  int rc = tc_forest_check_fabric(g, 0, err);
  if (rc) return rc;
  int32_t *compute = NULL, nc = 0;
  rc = tci_forest_compute_nodes(g, &compute, &nc, err);
  tc_maxflow mf;
  tci_maxflow_init(&mf);
  if (!rc) rc = tci_maxflow_reset(&mf, g->n, err);
  for (int64_t a = 0; !rc && a < g->m; a++)
    if (g->src[a] != g->dst[a]) rc = tci_maxflow_add(&mf, g->src[a], g->dst[a], g->cap[a], NULL, err);
  int64_t lambda = INT64_MAX;
  for (int32_t i = 1; !rc && i < nc; i++)
    for (int dir = 0; !rc && dir < 2; dir++) {
      int64_t f = 0;
      rc = tci_maxflow_run_limit(&mf, dir ? compute[i] : compute[0], dir ? compute[0] : compute[i], lambda, &f, err);
      if (!rc && f < lambda) lambda = f;
    }
  if (!rc) rc = tc_rat_make((int64_t)nc * lambda, nc - 1, algbw, err);
  if (!rc && min_cut) *min_cut = lambda;
  tci_maxflow_destroy(&mf);
  free(compute);
  return rc;
}
