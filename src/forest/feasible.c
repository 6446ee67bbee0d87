/*
** feasible.c — the feasibility oracle of the optimality search (contract in
** forest_internal.h): N max-flows s -> c on g plus a source, one per compute sink, spread
** over OpenMP threads, each thread with its own network; the source's arc to compute node c
** has src_scale·w_c (weighted roots), none when w_c = 0. A sink that fails yields the
** minimum cut of its max-flow (the nodes reachable from s in the residual network, minus s);
** the reported cut is the failing one with the largest ratio w(S ∩ V_c) / B⁺(S), ties to the
** set holding the smallest node where two differ, so the answer does not depend on how the
** sinks were shared out.
*/
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "forest/forest_internal.h"
#include "graph/maxflow.h"

/* 1 if cut a (ratio ca/ea, members in_a) beats cut b: a larger ratio, or on a tie the cut
   holding the smallest node where they differ — an order on sets, not on sinks, so neither
   the thread count nor the sink order can change the answer. */
static int better(int64_t ca, int64_t ea, const uint8_t *in_a, int64_t cb, int64_t eb, const uint8_t *in_b,
                  int32_t n) {
  __int128 l = (__int128)ca * eb, r = (__int128)cb * ea;
  if (l != r) return l > r;
  for (int32_t v = 0; v < n; v++)
    if (in_a[v] != in_b[v]) return in_a[v];
  return 0;
}

/* The network; the caller has checked that src_scale·w fits (it is at most `need`). */
static int build(tc_maxflow *mf, const tc_graph *g, const int32_t *compute, int32_t nc, const int64_t *node_w,
                 const int64_t *arc_cap, int64_t src_scale, tc_error *err) {
  int rc = tci_maxflow_reset(mf, g->n + 1, err);
  for (int64_t a = 0; !rc && a < g->m; a++)
    if (arc_cap[a] > 0 && g->src[a] != g->dst[a]) rc = tci_maxflow_add(mf, g->src[a], g->dst[a], arc_cap[a], NULL, err);
  for (int32_t i = 0; !rc && i < nc; i++)
    if (node_w[compute[i]] > 0) rc = tci_maxflow_add(mf, g->n, compute[i], src_scale * node_w[compute[i]], NULL, err);
  return rc;
}

int tci_forest_feasible(const tc_graph *g, const int32_t *compute, int32_t nc, const int64_t *node_w,
                        const int64_t *arc_cap, int64_t src_scale, int64_t need, int *pass, tci_cut *worst,
                        int64_t *maxflows, tc_error *err) {
  int rc = TC_OK, failed = 0;
  int64_t best_c = 0, best_e = 1, flows = 0;
  uint8_t *best_side = calloc((size_t)g->n, 1);
  if (!best_side) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for a cut");
  /* Threads pay off only when the max-flows are big enough to outweigh waking them. */
  int threads = (int64_t)nc * (g->m + nc) < (1 << 16) ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(threads) reduction(+ : flows)
  {
    tc_maxflow mf;
    tci_maxflow_init(&mf);
    tc_error lerr = {0};
    uint8_t *side = malloc((size_t)g->n);
    int lrc = side ? build(&mf, g, compute, nc, node_w, arc_cap, src_scale, &lerr)
                   : tc_error_set(&lerr, TC_ENOMEM, "forestcoll: out of memory for a cut");
#pragma omp for schedule(dynamic, 1)
    for (int32_t i = 0; i < nc; i++) {
      if (lrc) continue;
      int64_t value = 0;
      lrc = tci_maxflow_run_limit(&mf, g->n, compute[i], need, &value, &lerr);
      flows++;
      if (lrc || value >= need) continue;
      /* The run went to the end (value < need), so the residual reachability is a minimum
         cut's source side. */
      int64_t cc = 0, ee = 0;
      for (int32_t v = 0; v < g->n; v++) {
        side[v] = (uint8_t)tci_maxflow_source_side(&mf, v);
        cc += side[v] ? node_w[v] : 0; /* 0 on switches */
      }
      for (int64_t a = 0; a < g->m; a++) ee += side[g->src[a]] && !side[g->dst[a]] ? g->cap[a] : 0;
#pragma omp critical(tc_forest_feasible_cut)
      {
        if (!failed || better(cc, ee, side, best_c, best_e, best_side, g->n)) {
          best_c = cc;
          best_e = ee;
          memcpy(best_side, side, (size_t)g->n);
        }
        failed = 1;
      }
    }
#pragma omp critical(tc_forest_feasible_err)
    if (lrc && !rc) {
      rc = lrc;
      *err = lerr;
    }
    free(side);
    tci_maxflow_destroy(&mf);
  }
  *maxflows += flows;
  if (!rc) {
    *pass = !failed;
    if (failed && worst) {
      memcpy(worst->in_s, best_side, (size_t)g->n);
      worst->compute = best_c;
      worst->exit = best_e;
    }
  }
  free(best_side);
  return rc;
}
