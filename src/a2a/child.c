/*
** child.c — the child LPs of paper 003 §3.1.2, eqs. (10)-(14): each source's master flow
** split into its N−1 commodities (contract in a2a_internal.h).
**
**   minimize Σ_{t,a} x_{t,a}
**   (11)  Σ_t x_{t,a} <= x'_{s,a}                         every arc a with master flow
**   (12)  Σ_{a into u} x_{t,a} − Σ_{a out of u} x_{t,a} >= 0     u ∉ {s, t}
**   (13)  Σ_{a into t} x_{t,a} >= F
** (12) and (13) share one row per (t, u ≠ s) as in master.c. Only arcs that carry master flow
** get variables (the others have capacity 0 here), none out of t or into s. The printed form
** (least total flow) is the one implemented: it leaves no cycles or stray flow to clean up.
** Children are independent; they run in parallel only when there is enough work, because an
** OpenMP team's spin-waiting costs more than a few small LPs (measured on 2 cores).
*/
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "a2a/a2a_internal.h"

/* Below this many child variables in total the children run serially, unless threads > 1
   asks for a team anyway. */
#define PARALLEL_MIN_VARS 200000

int tci_a2a_child_solve(const tc_graph *g, int32_t s, tci_lp_engine engine, const int64_t *src_units,
                        int64_t den, int64_t f_units, double time_limit, double *out, tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  memset(out, 0, sizeof *out * (size_t)n * (size_t)m);
  int64_t *arc_row = malloc(sizeof *arc_row * (size_t)(m > 0 ? m : 1));
  if (!arc_row) return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  int64_t narc = 0;
  for (int64_t a = 0; a < m; a++)
    arc_row[a] = (src_units[a] > 0 && g->src[a] != g->dst[a] && g->dst[a] != s) ? narc++ : -1;
  const int64_t cons0 = narc, rows = cons0 + (int64_t)(n - 1) * (n - 1);
  const int64_t cols = (int64_t)(n - 1) * narc;
#define ROW(t, u) (cons0 + (int64_t)((t) < s ? (t) : (t) - 1) * (n - 1) + ((u) < s ? (u) : (u) - 1))
  double *lo = malloc(sizeof *lo * (size_t)rows), *hi = malloc(sizeof *hi * (size_t)rows);
  int64_t *start = malloc(sizeof *start * ((size_t)cols + 1));
  int32_t *row = malloc(sizeof *row * (size_t)(cols * 3 + 1));
  double *val = malloc(sizeof *val * (size_t)(cols * 3 + 1)), *obj = malloc(sizeof *obj * (size_t)(cols + 1));
  int64_t *col_at = malloc(sizeof *col_at * (size_t)(cols + 1));
  tci_lp_model *lp = NULL;
  int rc = TC_OK;
  if (!lo || !hi || !start || !row || !val || !obj || !col_at) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory for a child LP");
    goto done;
  }
  if (rows > INT32_MAX - 1 || cols * 3 > INT32_MAX) {
    rc = tc_error_set(err, TC_ERANGE, "all-to-all child LP too large: %lld columns", (long long)cols);
    goto done;
  }
  const double F = (double)f_units / (double)den;
  for (int64_t a = 0; a < m; a++)
    if (arc_row[a] >= 0) lo[arc_row[a]] = -TCI_LP_INF, hi[arc_row[a]] = (double)src_units[a] / (double)den;
  for (int32_t t = 0; t < n; t++)
    for (int32_t u = 0; u < n && t != s; u++)
      if (u != s) lo[ROW(t, u)] = u == t ? F : 0, hi[ROW(t, u)] = TCI_LP_INF;
  int64_t k = 0, c = 0;
  start[0] = 0;
  for (int32_t t = 0; t < n; t++) {
    if (t == s) continue;
    for (int64_t a = 0; a < m; a++) {
      int32_t u = g->src[a], v = g->dst[a];
      if (arc_row[a] < 0 || u == t) continue;
      row[k] = (int32_t)arc_row[a], val[k++] = 1;
      row[k] = (int32_t)ROW(t, v), val[k++] = 1;
      if (u != s) row[k] = (int32_t)ROW(t, u), val[k++] = -1;
      obj[c] = 1;
      col_at[c] = (int64_t)t * m + a;
      start[++c] = k;
    }
  }
  for (int attempt = 0; attempt < 2; attempt++) {
    tci_lp_free(lp);
    lp = NULL;
    if (attempt == 1) /* the solver's tolerances: a little less demand */
      for (int32_t t = 0; t < n; t++)
        if (t != s) lo[ROW(t, t)] = F * (1 - 1e-7);
    if ((rc = tci_lp_create(engine, 0, &lp, err))) goto done;
    tci_lp_set_time_limit(lp, time_limit);
    if ((rc = tci_lp_add_rows(lp, (int32_t)rows, lo, hi, NULL, NULL, NULL, err))) goto done;
    if ((rc = tci_lp_add_cols(lp, (int32_t)c, obj, NULL, NULL, start, row, val, err))) goto done;
    tci_lp_status st;
    if ((rc = tci_lp_optimize(lp, &st, err))) goto done;
    if (st == TCI_LP_OPTIMAL) {
      const double *x = tci_lp_primal(lp);
      for (int64_t j = 0; j < c; j++) out[col_at[j]] = x[j] > 0 ? x[j] : 0;
      goto done;
    }
    if (attempt == 1 || st != TCI_LP_INFEASIBLE)
      rc = tc_error_set(err, TC_EFAIL, "all-to-all child LP of source %d (%s): %s", s, tci_lp_engine_name(engine),
                        tci_lp_status_name(st));
    if (rc) goto done;
  }
done:
#undef ROW
  tci_lp_free(lp);
  free(arc_row), free(lo), free(hi), free(start), free(row), free(val), free(obj), free(col_at);
  return rc;
}

int tci_a2a_children_finish(const tc_graph *g, const double *flows, int64_t *out_units, int64_t *out_den,
                            tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  tci_a2a_rationalize(flows, (int64_t)n * n * m, out_units, out_den);
  for (int32_t s = 0; s < n; s++)
    for (int32_t t = 0; t < n; t++)
      if (t != s && tci_a2a_decompose(g, s, t, out_units + ((int64_t)s * n + t) * m) < 0)
        return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  return TC_OK;
}

int tci_a2a_children_solve(const tc_graph *g, tci_lp_engine engine, const int64_t *source_units, int64_t den,
                           int64_t f_units, double time_limit, int threads, int64_t *out_units, int64_t *out_den,
                           tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  double *flows = malloc(sizeof *flows * (size_t)n * (size_t)n * (size_t)(m > 0 ? m : 1));
  if (!flows) return tc_error_set(err, TC_ENOMEM, "a2a: out of memory for %d child LPs", n);
  int64_t work = 0;
  for (int32_t s = 0; s < n; s++)
    for (int64_t a = 0; a < m; a++) work += source_units[(int64_t)s * m + a] > 0;
  work *= n - 1;
  int parallel = threads > 1 || (threads == 0 && work >= PARALLEL_MIN_VARS);
  int rc = TC_OK;
  tc_error first = {0, ""};
#pragma omp parallel for schedule(dynamic, 1) if (parallel) num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (int32_t s = 0; s < n; s++) {
    tc_error e;
    int r;
#pragma omp atomic read
    r = rc;
    if (r) continue;
    r = tci_a2a_child_solve(g, s, engine, source_units + (int64_t)s * m, den, f_units, time_limit,
                            flows + (int64_t)s * n * m, &e);
    if (r) {
#pragma omp critical(a2a_child_error)
      if (!rc) {
        rc = r;
        first = e;
      }
    }
  }
  if (rc) {
    if (err) *err = first;
    free(flows);
    return rc;
  }
  rc = tci_a2a_children_finish(g, flows, out_units, out_den, err);
  free(flows);
  return rc;
}
