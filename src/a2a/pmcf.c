/*
** pmcf.c — the path-based MCF of paper 003 §3.1.4, eqs. (21)-(24), over a candidate path
** set (contract in a2a_flows.h):
**   maximize F
**   (22)  Σ_{(s,t)} Σ_{p ∋ a} x_p <= c_a           every arc a
**   (23)  Σ_{p ∈ P(s,t)} x_p − F = 0                every commodity (s,t)
**   (24)  x >= 0
** (23) is an equality (the paper's ">= F" has the same optimum: flow beyond F can be
** dropped), so every commodity routes exactly F and its weights are x_p / F, all over one
** denominator when the vertex is recovered exactly. A simple path conserves flow by itself,
** so no conservation rows are needed.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/flows_internal.h"
#include "forest/lp_exact.h"

#define GRID (1LL << 20)

/* Weights of commodity k's paths from their LP flows x[first..last): the exact fractions
   x_p / F when each is recovered (denominator <= 2^16, within 1e-9) and they sum to exactly
   1; otherwise x_p / Σ x rounded down on a 2^-20 grid, the remainder given to the largest.
   w[i].num == 0 marks a path left out. */
static void weights(const double *x, int64_t count, double F, tc_rat *w) {
  tc_rat sum = {0, 1};
  int exact = 1;
  for (int64_t i = 0; i < count && exact; i++) {
    w[i] = (tc_rat){0, 1};
    double v = x[i] / F;
    if (!(x[i] > 1e-12)) continue;
    tc_error err;
    if (tci_lp_recover(v, 65536, &w[i]) || fabs((double)w[i].num / (double)w[i].den - v) > 1e-9 ||
        tc_rat_add(sum, w[i], &sum, &err))
      exact = 0;
  }
  if (exact && sum.num == 1 && sum.den == 1) return;
  double total = 0;
  for (int64_t i = 0; i < count; i++) total += x[i] > 0 ? x[i] : 0;
  int64_t used = 0, big = 0;
  for (int64_t i = 0; i < count; i++) {
    int64_t u = x[i] > 0 ? (int64_t)floor(x[i] / total * (double)GRID) : 0;
    if (u > GRID) u = GRID;
    w[i] = (tc_rat){u, GRID};
    used += u;
    if (u > w[big].num) big = i;
  }
  w[big].num += GRID - used;
}

int tc_a2a_route_pmcf(const tc_graph *g, const tc_a2a_flow_options *o, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_a2a_flow_options def;
  if (!o) tc_a2a_flow_options_default(&def), o = &def;
  int rc = tci_a2a_flows_check(g, "pmcf", err);
  if (rc) return rc;
  tci_a2a_paths P;
  if ((rc = tci_a2a_paths_build(g, o->paths, o->lmax, TC_A2A_PMCF_MAX_PATHS, "pmcf", &P, err))) return rc;
  const int32_t n = g->n;
  const int64_t m = g->m, K = (int64_t)n * n, cols = P.npaths + 1, nnz = P.hop_off[P.npaths] + P.npaths + K;
  const int64_t rows = m + K; /* capacity rows, then one row per commodity (empty for s == t) */
  double *lo = malloc(sizeof *lo * (size_t)rows), *hi = malloc(sizeof *hi * (size_t)rows);
  double *obj = calloc((size_t)cols, sizeof *obj), *x = NULL;
  int64_t *start = malloc(sizeof *start * ((size_t)cols + 1));
  int32_t *row = malloc(sizeof *row * (size_t)nnz);
  double *val = malloc(sizeof *val * (size_t)nnz);
  tc_rat *w = NULL;
  tci_lp_model *lp = NULL;
  const tci_lp_engine engine = o->engine == TC_A2A_GLPK ? TCI_LP_GLPK : TCI_LP_CLP;
  if (!lo || !hi || !obj || !start || !row || !val) {
    rc = tc_error_set(err, TC_ENOMEM, "pmcf: out of memory for the path LP");
    goto done;
  }
  if (rows > INT32_MAX || cols > INT32_MAX) {
    rc = tc_error_set(err, TC_ERANGE, "pmcf: the path LP is too large (%lld columns)", (long long)cols);
    goto done;
  }
  for (int64_t a = 0; a < m; a++) lo[a] = -TCI_LP_INF, hi[a] = (double)g->cap[a];
  for (int64_t k = 0; k < K; k++) lo[m + k] = hi[m + k] = 0;
  int64_t e = 0;
  start[0] = 0;
  obj[0] = 1;
  for (int64_t k = 0; k < K; k++) /* F: −1 in every live commodity's row */
    if (P.first[k + 1] > P.first[k]) row[e] = (int32_t)(m + k), val[e++] = -1;
  start[1] = e;
  for (int64_t k = 0; k < K; k++)
    for (int64_t p = P.first[k]; p < P.first[k + 1]; p++) {
      for (int64_t h = P.hop_off[p]; h < P.hop_off[p + 1]; h++) row[e] = (int32_t)P.arc[h], val[e++] = 1;
      row[e] = (int32_t)(m + k), val[e++] = 1;
      start[p + 2] = e;
    }
  if ((rc = tci_lp_create(engine, 1, &lp, err))) goto done;
  tci_lp_set_time_limit(lp, o->time_limit);
  if ((rc = tci_lp_add_rows(lp, (int32_t)rows, lo, hi, NULL, NULL, NULL, err))) goto done;
  if ((rc = tci_lp_add_cols(lp, (int32_t)cols, obj, NULL, NULL, start, row, val, err))) goto done;
  tci_lp_status st;
  if ((rc = tci_lp_optimize(lp, &st, err))) goto done;
  if (st != TCI_LP_OPTIMAL) {
    rc = tc_error_set(err, TC_EFAIL, "pmcf: the path LP (%s): %s", tci_lp_engine_name(engine), tci_lp_status_name(st));
    goto done;
  }
  x = malloc(sizeof *x * (size_t)cols);
  w = malloc(sizeof *w * (size_t)(P.npaths ? P.npaths : 1));
  if (!x || !w) {
    rc = tc_error_set(err, TC_ENOMEM, "pmcf: out of memory");
    goto done;
  }
  memcpy(x, tci_lp_primal(lp), sizeof *x * (size_t)cols);
  if (!(x[0] > 0)) {
    rc = tc_error_set(err, TC_EFAIL, "pmcf: the path LP found no positive concurrent rate");
    goto done;
  }
  if ((rc = tc_a2a_routing_init(out, n, "pmcf", err))) goto done;
  for (int64_t k = 0; k < K && !rc; k++) {
    int64_t f = P.first[k], c = P.first[k + 1] - f;
    if (!c) continue;
    weights(x + 1 + f, c, x[0], w + f);
    for (int64_t i = 0; i < c && !rc; i++)
      if (w[f + i].num > 0)
        rc = tc_a2a_routing_add(out, (int32_t)(k / n), (int32_t)(k % n), P.arc + P.hop_off[f + i],
                                (int32_t)(P.hop_off[f + i + 1] - P.hop_off[f + i]), w[f + i], err);
  }
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
done:
  if (rc) tc_a2a_routing_destroy(out);
  tci_lp_free(lp);
  tci_a2a_paths_destroy(&P);
  free(lo), free(hi), free(obj), free(start), free(row), free(val), free(x), free(w);
  return rc;
}
