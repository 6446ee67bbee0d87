/*
** full.c — the link-based maximum concurrent MCF of paper 003 §3.1.1, eqs. (1)-(5), with
** the host caps of §3.2.2 (contract in a2a_internal.h). It has k·N²·(N−1) variables, so it
** is the test oracle for small graphs (the master LP must reach the same F) and the method
** "full"; above TCI_A2A_FULL_MAX_VARS variables it is refused.
**
**   maximize F
**   (2)  Σ_{s,t} x_{st,a} <= c_a                                    every arc a (loops excepted)
**   (3)  Σ_{a into u} x_{st,a} − Σ_{a out of u} x_{st,a} >= 0        u ∉ {s, t}
**   (4)  Σ_{a into t} x_{st,a} − F >= 0
**   host as in master.c;  x >= 0
** (3) and (4) share one row per (s,t,u ≠ s), as in master.c. No variable exists for a loop,
** an arc into s or an arc out of t: flow there is never needed.
*/
#include <stdlib.h>

#include "a2a/a2a_internal.h"

int tci_a2a_full_solve(const tc_graph *g, tci_lp_engine engine, tc_rat host_cap, double time_limit,
                       tci_a2a_lp_answer *out, tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  const int host = host_cap.num > 0;
  out->flow = out->length = out->host_length = NULL;
  int64_t ncap = 0;
  for (int64_t a = 0; a < m; a++) ncap += g->src[a] != g->dst[a];
  const int64_t q = (int64_t)n * (n - 1);
  if (q * ncap > TCI_A2A_FULL_MAX_VARS)
    return tc_error_set(err, TC_ERANGE, "the full link MCF takes at most %d variables, this graph needs %lld (use --method lp)",
                        TCI_A2A_FULL_MAX_VARS, (long long)(q * ncap));
  int64_t *cap_row = malloc(sizeof *cap_row * (size_t)(m > 0 ? m : 1));
  if (!cap_row) return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  ncap = 0;
  for (int64_t a = 0; a < m; a++) cap_row[a] = g->src[a] == g->dst[a] ? -1 : ncap++;
  const int64_t cons0 = ncap, host0 = cons0 + q * (n - 1);
  const int64_t rows = host0 + (host ? 2 * (int64_t)n : 0);
  const int64_t cols = q * ncap + 1;
#define ROW(s, t, u) (cons0 + ((int64_t)(s) * (n - 1) + ((t) < (s) ? (t) : (t) - 1)) * (n - 1) + ((u) < (s) ? (u) : (u) - 1))
  double *lo = malloc(sizeof *lo * (size_t)rows), *hi = malloc(sizeof *hi * (size_t)rows);
  int64_t *start = malloc(sizeof *start * ((size_t)cols + 1));
  int32_t *row = malloc(sizeof *row * (size_t)(cols * 5 + q));
  double *val = malloc(sizeof *val * (size_t)(cols * 5 + q)), *obj = calloc((size_t)cols, sizeof *obj);
  int64_t *col_at = malloc(sizeof *col_at * (size_t)cols);
  tci_lp_model *lp = NULL;
  int rc = TC_OK;
  if (!lo || !hi || !start || !row || !val || !obj || !col_at) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory for the full MCF");
    goto done;
  }
  for (int64_t a = 0; a < m; a++)
    if (cap_row[a] >= 0) lo[cap_row[a]] = -TCI_LP_INF, hi[cap_row[a]] = (double)g->cap[a];
  for (int64_t r = cons0; r < host0; r++) lo[r] = 0, hi[r] = TCI_LP_INF;
  for (int64_t r = host0; r < rows; r++) lo[r] = -TCI_LP_INF, hi[r] = (double)host_cap.num / (double)host_cap.den;
  int64_t k = 0, c = 0;
  start[0] = 0;
  obj[0] = 1;
  for (int32_t s = 0; s < n; s++)
    for (int32_t t = 0; t < n; t++)
      if (t != s) row[k] = (int32_t)ROW(s, t, t), val[k++] = -1;
  col_at[c++] = -1;
  start[c] = k;
  for (int32_t s = 0; s < n; s++)
    for (int32_t t = 0; t < n; t++) {
      if (t == s) continue;
      for (int64_t a = 0; a < m; a++) {
        int32_t u = g->src[a], v = g->dst[a];
        if (cap_row[a] < 0 || v == s || u == t) continue;
        row[k] = (int32_t)cap_row[a], val[k++] = 1;
        row[k] = (int32_t)ROW(s, t, v), val[k++] = 1;
        if (u != s) row[k] = (int32_t)ROW(s, t, u), val[k++] = -1;
        if (host) {
          row[k] = (int32_t)(host0 + u), val[k++] = 1;
          row[k] = (int32_t)(host0 + n + v), val[k++] = 1;
        }
        col_at[c] = ((int64_t)s * n + t) * m + a;
        start[++c] = k;
      }
    }
  if ((rc = tci_lp_create(engine, 1, &lp, err))) goto done;
  tci_lp_set_time_limit(lp, time_limit);
  if ((rc = tci_lp_add_rows(lp, (int32_t)rows, lo, hi, NULL, NULL, NULL, err))) goto done;
  if ((rc = tci_lp_add_cols(lp, (int32_t)c, obj, NULL, NULL, start, row, val, err))) goto done;
  tci_lp_status st;
  if ((rc = tci_lp_optimize(lp, &st, err))) goto done;
  if (st != TCI_LP_OPTIMAL) {
    rc = tc_error_set(err, TC_EFAIL, "all-to-all full MCF LP (%s): %s", tci_lp_engine_name(engine),
                      tci_lp_status_name(st));
    goto done;
  }
  rc = tci_a2a_lp_answer_read(lp, g, (int64_t)n * n * m, col_at, c, cap_row, host, host0, rows, out, err);
done:
#undef ROW
  if (rc) tci_a2a_lp_answer_destroy(out);
  tci_lp_free(lp);
  free(cap_row), free(lo), free(hi), free(start), free(row), free(val), free(obj), free(col_at);
  return rc;
}
