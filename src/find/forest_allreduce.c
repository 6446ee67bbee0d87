/*
** forest_allreduce.c — what ForestColl (paper 001) offers a built finder member's allreduce.
**
** The finder's costs are the allgather's (paper 000 §5.4); its allreduce is RS + AG of the
** same schedule, 2·tau. Where BFB misses the allgather bound — self-loops (genkautz,
** debruijn), or expansions whose theorems leave tau above (N-1)/N — ForestColl's trees may do
** better, with equal shares or with the water-filling root weights (paper 001 §3.5 and
** App. E's "any root subset with unequal amounts": tc_forest_allreduce_weights). This file
** computes the exact optimum of each — the RS search on G^T plus the AG search on G, both
** Algorithm 1 with the same weights, no trees — and keeps the better when it beats 2·tau.
** The value is the bandwidth term the trees reach as the pipeline deepens (P → ∞); `plan`
** builds, verifies and measures the actual schedule, and keeps it only when it is faster.
** Only members of at most TC_FIND_FOREST_MAX_NODES nodes are searched (a few max-flows per
** node: milliseconds there).
*/
#include <stdlib.h>
#include <string.h>

#include "find_internal.h"
#include "topocoll/forest.h"

/* T_B of RS + AG with root weights w (NULL: equal), in M/B (B = d links): each half takes
   (M/W)·(1/x*) over unit links, so tau = d·(1/x*_RS + 1/x*_AG) / W. */
static int rs_ag_tau(const tc_graph *g, const tc_graph *gt, const int64_t *w, int64_t degree, tc_rat *out,
                     tc_error *err) {
  int64_t total = 0;
  for (int32_t v = 0; v < g->n; v++) total += w ? w[v] : 1;
  tc_forest_optimum ag, rs;
  memset(&ag, 0, sizeof ag);
  memset(&rs, 0, sizeof rs);
  int rc = tc_forest_search_optimum_weighted(g, w, 0, TC_FOREST_NEWTON, &ag, err);
  if (!rc) rc = tc_forest_search_optimum_weighted(gt, w, 0, TC_FOREST_NEWTON, &rs, err);
  if (!rc) rc = tc_rat_add(ag.inv_x, rs.inv_x, out, err);
  if (!rc) rc = tc_rat_mul(*out, (tc_rat){degree, total}, out, err);
  tc_forest_optimum_destroy(&ag);
  tc_forest_optimum_destroy(&rs);
  return rc;
}

int tci_find_forest_allreduce(tc_candidate *c, const tc_graph *g, tc_error *err) {
  c->forest_allreduce_tau = (tc_rat){0, 1};
  c->forest_weighted = 0;
  tc_rat bfb = {2 * c->measured_tau.num, c->measured_tau.den}, bound = {2 * ((int64_t)g->n - 1), g->n};
  if (g->n > TC_FIND_FOREST_MAX_NODES || tc_rat_cmp(bfb, bound) <= 0) return TC_OK;
  tc_graph *gt = NULL;
  int64_t *w = malloc((size_t)g->n * sizeof *w);
  int uniform = 1;
  tc_rat equal, weighted;
  int rc = w ? tc_graph_transpose(g, &gt, err) : tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc) rc = rs_ag_tau(g, gt, NULL, c->degree, &equal, err);
  if (!rc) rc = tc_forest_allreduce_weights(g, w, &uniform, err);
  if (!rc && !uniform) rc = rs_ag_tau(g, gt, w, c->degree, &weighted, err);
  if (!rc) {
    int use_weights = !uniform && tc_rat_cmp(weighted, equal) < 0;
    tc_rat best = use_weights ? weighted : equal;
    if (tc_rat_cmp(best, bfb) < 0) {
      c->forest_allreduce_tau = best;
      c->forest_weighted = use_weights;
    }
  }
  tc_graph_destroy(gt);
  free(w);
  if (rc) tc_error_prefix(err, "find: %s: ForestColl's allreduce", c->spec);
  return rc;
}
