/*
** ilp.c — the single-path ILP baselines of paper 003 §5.2 (ILP-disjoint, ILP-shortest):
** every commodity takes exactly one path of its candidate set, and the largest load /
** capacity is minimized (contract in a2a_flows.h):
**   minimize L
**   Σ_{p ∈ P(s,t)} x_p = 1                    every commodity (s,t)
**   Σ_{p ∋ a} x_p − c_a L <= 0                 every arc a
**   x_p ∈ {0,1},  L >= 0
** Solved by Cbc (lp/mip.h). The problem is NP-hard, so it is refused beyond
** TC_A2A_ILP_MAX_NODES nodes or TC_A2A_ILP_MAX_PATHS candidates, and stopped by a time
** limit (60 s unless given); the routing is then the best choice found, and *optimal says
** which. Either way its load is what the routing's fluid evaluation measures.
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/flows_internal.h"
#include "lp/mip.h"

#define DEFAULT_LIMIT 60.0

int tc_a2a_route_ilp(const tc_graph *g, tc_a2a_path_set set, double time_limit, tc_a2a_routing *out, int *optimal,
                     tc_error *err) {
  memset(out, 0, sizeof *out);
  if (optimal) *optimal = 0;
  const char *what = set == TC_A2A_PATHS_DISJOINT ? "ilp-disjoint" : "ilp-shortest";
  if (set != TC_A2A_PATHS_DISJOINT && set != TC_A2A_PATHS_SHORTEST)
    return tc_error_set(err, TC_EINPUT, "ilp: the candidate paths must be disjoint or shortest");
  int rc = tci_a2a_flows_check(g, what, err);
  if (rc) return rc;
  if (g->n > TC_A2A_ILP_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "%s: at most %d nodes (the graph has %d): the single-path ILP is NP-hard", what,
                        TC_A2A_ILP_MAX_NODES, g->n);
  tci_a2a_paths P;
  if ((rc = tci_a2a_paths_build(g, set, 0, TC_A2A_ILP_MAX_PATHS, what, &P, err))) return rc;
  const int32_t n = g->n;
  const int64_t m = g->m, K = (int64_t)n * n, cols = P.npaths + 1, rows = K + m;
  const int64_t nnz = m + P.hop_off[P.npaths] + P.npaths;
  double *obj = calloc((size_t)cols, sizeof *obj), *clo = calloc((size_t)cols, sizeof *clo);
  double *chi = malloc(sizeof *chi * (size_t)cols), *x = malloc(sizeof *x * (size_t)cols);
  double *rlo = malloc(sizeof *rlo * (size_t)rows), *rhi = malloc(sizeof *rhi * (size_t)rows);
  double *val = malloc(sizeof *val * (size_t)nnz);
  int64_t *start = malloc(sizeof *start * ((size_t)cols + 1));
  int32_t *row = malloc(sizeof *row * (size_t)nnz);
  uint8_t *integer = calloc((size_t)cols, 1);
  if (!obj || !clo || !chi || !x || !rlo || !rhi || !val || !start || !row || !integer) {
    rc = tc_error_set(err, TC_ENOMEM, "%s: out of memory", what);
    goto done;
  }
  /* rows: commodity k at k (empty for s == t: bounds 0), arc a at K + a */
  for (int64_t k = 0; k < K; k++) rlo[k] = rhi[k] = P.first[k + 1] > P.first[k] ? 1 : 0;
  for (int64_t a = 0; a < m; a++) rlo[K + a] = -1e300, rhi[K + a] = 0;
  int64_t e = 0;
  start[0] = 0;
  obj[0] = 1, chi[0] = 1e300; /* L */
  for (int64_t a = 0; a < m; a++) row[e] = (int32_t)(K + a), val[e++] = -(double)g->cap[a];
  start[1] = e;
  for (int64_t k = 0; k < K; k++)
    for (int64_t p = P.first[k]; p < P.first[k + 1]; p++) {
      row[e] = (int32_t)k, val[e++] = 1;
      for (int64_t h = P.hop_off[p]; h < P.hop_off[p + 1]; h++) row[e] = (int32_t)(K + P.arc[h]), val[e++] = 1;
      chi[p + 1] = 1, integer[p + 1] = 1;
      start[p + 2] = e;
    }
  tci_mip_status st;
  double limit = time_limit > 0 ? time_limit : DEFAULT_LIMIT;
  if ((rc = tci_mip_solve((int32_t)rows, (int32_t)cols, obj, clo, chi, integer, start, row, val, rlo, rhi, limit, x,
                          &st, err)))
    goto done;
  if (st != TCI_MIP_OPTIMAL && st != TCI_MIP_FEASIBLE) {
    rc = tc_error_set(err, TC_EFAIL, "%s: Cbc found no single-path routing within %g s (%s)", what, limit,
                      tci_mip_status_name(st));
    goto done;
  }
  if (optimal) *optimal = st == TCI_MIP_OPTIMAL;
  if ((rc = tc_a2a_routing_init(out, n, what, err))) goto done;
  for (int64_t k = 0; k < K && !rc; k++) {
    if (P.first[k + 1] == P.first[k]) continue;
    int64_t best = P.first[k]; /* the path Cbc set (the largest value, against rounding) */
    for (int64_t p = P.first[k]; p < P.first[k + 1]; p++)
      if (x[p + 1] > x[best + 1]) best = p;
    rc = tc_a2a_routing_add(out, (int32_t)(k / n), (int32_t)(k % n), P.arc + P.hop_off[best],
                            (int32_t)(P.hop_off[best + 1] - P.hop_off[best]), (tc_rat){1, 1}, err);
  }
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
done:
  if (rc) tc_a2a_routing_destroy(out);
  tci_a2a_paths_destroy(&P);
  free(obj), free(clo), free(chi), free(x), free(rlo), free(rhi), free(val), free(start), free(row), free(integer);
  return rc;
}
