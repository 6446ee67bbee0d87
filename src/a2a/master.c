/*
** master.c — the master LP of paper 003 §3.1.2, eqs. (6)-(9), with the host caps of §3.2.2
** (contract in a2a_internal.h).
**
**   maximize F
**   (7)  Σ_s x_{s,a} <= c_a                              every arc a (loops excepted)
**   (8)  Σ_{a into u} x_{s,a} − Σ_{a out of u} x_{s,a} − F >= 0    every source s, node u ≠ s
**   host Σ_s Σ_{a out of u} x_{s,a} <= C,  Σ_s Σ_{a into u} x_{s,a} <= C    every node u
**   x >= 0
** x_{s,a} is all the flow that source s sends over arc a; (8) says every other node keeps F of
** it. No variable exists for a loop (it would add to a node's inflow and outflow alike and
** only consume capacity) nor for an arc into s (flow back to its source does nothing), so
** neither takes part, and a loop's length in the certificate is 0. The host rows are the
** "per-node aggregate caps" reading of Fig. 2: all flow through a node's NIC passes its host.
** The capacity and host rows' duals are the lengths of the upper-bound certificate.
**
** With fix_f the same rows give a second LP: F pinned to a value (the certified upper bound)
** and the least total flow. Its optimal vertex is sparser, and its fractions usually have
** small denominators, so it is what makes a bound exact when the first vertex's fractions
** could not be recovered (solve.c). Its duals are not lengths and are not returned.
*/
#include <stdlib.h>

#include "a2a/a2a_internal.h"

void tci_a2a_lp_answer_destroy(tci_a2a_lp_answer *a) {
  free(a->flow);
  free(a->length);
  free(a->host_length);
  a->flow = a->length = a->host_length = NULL;
}

int tci_a2a_lp_answer_read(tci_lp_model *lp, const tc_graph *g, int64_t slots, const int64_t *col_slot,
                           int64_t cols, const int64_t *cap_row, int host, int64_t host0, int64_t rows,
                           tci_a2a_lp_answer *out, tc_error *err) {
  const int64_t m = g->m, n = g->n;
  out->flow = calloc((size_t)(slots > 0 ? slots : 1), sizeof *out->flow);
  out->length = calloc((size_t)(m > 0 ? m : 1), sizeof *out->length);
  if (host) out->host_length = calloc(2 * (size_t)n, sizeof *out->host_length);
  if (!out->flow || !out->length || (host && !out->host_length)) {
    tci_a2a_lp_answer_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  }
  const double *x = tci_lp_primal(lp), *y = tci_lp_row_duals(lp);
  out->f = x[0];
  for (int64_t j = 1; j < cols; j++) out->flow[col_slot[j]] = x[j] > 0 ? x[j] : 0;
  /* a binding <= row of a maximization has dual >= 0; clip float noise below 0 */
  for (int64_t a = 0; a < m; a++) out->length[a] = cap_row[a] >= 0 && y[cap_row[a]] > 0 ? y[cap_row[a]] : 0;
  for (int64_t u = 0; host && u < 2 * n; u++) out->host_length[u] = y[host0 + u] > 0 ? y[host0 + u] : 0;
  out->rows = rows;
  out->cols = cols;
  return TC_OK;
}

int tci_a2a_master_solve(const tc_graph *g, tci_lp_engine engine, tc_rat host_cap, const tc_rat *fix_f,
                         double time_limit, tci_a2a_lp_answer *out, tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  const int host = host_cap.num > 0;
  out->flow = out->length = out->host_length = NULL;
  /* row numbering: capacity rows of the non-loop arcs, then (s,u) rows, then host rows */
  int64_t *cap_row = malloc(sizeof *cap_row * (size_t)(m > 0 ? m : 1));
  if (!cap_row) return tc_error_set(err, TC_ENOMEM, "a2a: out of memory");
  int64_t ncap = 0;
  for (int64_t a = 0; a < m; a++) cap_row[a] = g->src[a] == g->dst[a] ? -1 : ncap++;
  const int64_t cons0 = ncap, host0 = cons0 + (int64_t)n * (n - 1);
  const int64_t rows = host0 + (host ? 2 * (int64_t)n : 0);
  const int64_t cols = (int64_t)n * ncap + 1; /* an upper bound; arcs into s are skipped */
  if (rows > INT32_MAX - 1 || cols > INT32_MAX - 1 || cols * 5 > INT32_MAX) {
    free(cap_row);
    return tc_error_set(err, TC_ERANGE, "all-to-all LP too large: %lld rows, %lld columns", (long long)rows,
                        (long long)cols);
  }
#define CONS(s, u) (cons0 + (int64_t)(s) * (n - 1) + ((u) < (s) ? (u) : (u) - 1))
  double *lo = malloc(sizeof *lo * (size_t)rows), *hi = malloc(sizeof *hi * (size_t)rows);
  int64_t *start = malloc(sizeof *start * ((size_t)cols + 1));
  int32_t *row = malloc(sizeof *row * (size_t)cols * 5);
  double *val = malloc(sizeof *val * (size_t)cols * 5), *obj = calloc((size_t)cols, sizeof *obj);
  int64_t *col_arc = malloc(sizeof *col_arc * (size_t)cols);
  tci_lp_model *lp = NULL;
  int rc = TC_OK;
  if (!lo || !hi || !start || !row || !val || !obj || !col_arc) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory for the master LP");
    goto done;
  }
  for (int64_t a = 0; a < m; a++)
    if (cap_row[a] >= 0) lo[cap_row[a]] = -TCI_LP_INF, hi[cap_row[a]] = (double)g->cap[a];
  for (int64_t r = cons0; r < host0; r++) lo[r] = 0, hi[r] = TCI_LP_INF;
  for (int64_t r = host0; r < rows; r++) lo[r] = -TCI_LP_INF, hi[r] = (double)host_cap.num / (double)host_cap.den;
  /* column 0 is F: -1 in every (8) row */
  int64_t k = 0, c = 0;
  start[0] = 0;
  obj[0] = 1;
  for (int64_t r = cons0; r < host0; r++) row[k] = (int32_t)r, val[k++] = -1;
  col_arc[c++] = -1;
  start[c] = k;
  double f_lo = 0, f_hi = TCI_LP_INF;
  if (fix_f) { /* least total flow at F fixed: obj 1 on every x, F pinned */
    obj[0] = 0;
    f_lo = f_hi = (double)fix_f->num / (double)fix_f->den;
  }
  for (int32_t s = 0; s < n; s++)
    for (int64_t a = 0; a < m; a++) {
      int32_t u = g->src[a], v = g->dst[a];
      if (cap_row[a] < 0 || v == s) continue;
      row[k] = (int32_t)cap_row[a], val[k++] = 1;
      row[k] = (int32_t)CONS(s, v), val[k++] = 1;
      if (u != s) row[k] = (int32_t)CONS(s, u), val[k++] = -1;
      if (host) {
        row[k] = (int32_t)(host0 + u), val[k++] = 1;
        row[k] = (int32_t)(host0 + n + v), val[k++] = 1;
      }
      col_arc[c] = (int64_t)s * m + a;
      obj[c] = fix_f ? 1 : 0;
      start[++c] = k;
    }
  double *clo = malloc(sizeof *clo * (size_t)c), *chi = malloc(sizeof *chi * (size_t)c);
  if (!clo || !chi) {
    free(clo), free(chi);
    rc = tc_error_set(err, TC_ENOMEM, "a2a: out of memory for the master LP");
    goto done;
  }
  for (int64_t j = 0; j < c; j++) clo[j] = 0, chi[j] = TCI_LP_INF;
  clo[0] = f_lo, chi[0] = f_hi;
  if ((rc = tci_lp_create(engine, fix_f ? 0 : 1, &lp, err))) {
    free(clo), free(chi);
    goto done;
  }
  tci_lp_set_time_limit(lp, time_limit);
  if ((rc = tci_lp_add_rows(lp, (int32_t)rows, lo, hi, NULL, NULL, NULL, err))) goto done;
  rc = tci_lp_add_cols(lp, (int32_t)c, obj, clo, chi, start, row, val, err);
  free(clo), free(chi);
  if (rc) goto done;
  tci_lp_status st;
  if ((rc = tci_lp_optimize(lp, &st, err))) goto done;
  if (st != TCI_LP_OPTIMAL) {
    rc = tc_error_set(err, TC_EFAIL, "all-to-all master LP (%s): %s",
                      tci_lp_engine_name(engine), tci_lp_status_name(st));
    goto done;
  }
  rc = tci_a2a_lp_answer_read(lp, g, (int64_t)n * m, col_arc, c, cap_row, host, host0, rows, out, err);
done:
#undef CONS
  if (rc) tci_a2a_lp_answer_destroy(out);
  tci_lp_free(lp);
  free(cap_row), free(lo), free(hi), free(start), free(row), free(val), free(obj), free(col_arc);
  return rc;
}
