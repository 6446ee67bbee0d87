/*
** lp.c — the engine's front: argument checks, sizes, result storage, and dispatch to the
** backend (lp_clp.c or lp_glpk.c). The contract is lp.h's.
**
** Every argument is checked here, so both backends see only valid models: GLPK aborts the
** process on a duplicate entry or an index out of range, and Clp silently misbehaves. A bad
** argument is a caller's bug, reported as TC_EFAIL with one line; sizes beyond the backends'
** int indices are TC_ERANGE.
*/
#include "lp/lp_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *tci_lp_engine_name(tci_lp_engine e) { return e == TCI_LP_GLPK ? "glpk" : "clp"; }

int tci_lp_engine_parse(const char *name, tci_lp_engine *out, tc_error *err) {
  if (name && strcmp(name, "clp") == 0) *out = TCI_LP_CLP;
  else if (name && strcmp(name, "glpk") == 0) *out = TCI_LP_GLPK;
  else return tc_error_set(err, TC_EINPUT, "unknown LP engine '%s' (clp|glpk)", name ? name : "");
  return TC_OK;
}

const char *tci_lp_status_name(tci_lp_status s) {
  switch (s) {
    case TCI_LP_OPTIMAL: return "optimal";
    case TCI_LP_INFEASIBLE: return "infeasible";
    case TCI_LP_UNBOUNDED: return "unbounded";
    case TCI_LP_LIMIT: return "time limit";
    default: return "failed";
  }
}

int tci_lp_create(tci_lp_engine engine, int maximize, tci_lp_model **out, tc_error *err) {
  *out = NULL;
  if (engine != TCI_LP_CLP && engine != TCI_LP_GLPK)
    return tc_error_set(err, TC_EFAIL, "lp: unknown engine %d", (int)engine);
  tci_lp_model *lp = calloc(1, sizeof *lp);
  if (!lp) return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  lp->engine = engine;
  lp->maximize = maximize ? 1 : 0;
  lp->status = TCI_LP_FAILED;
  int rc = engine == TCI_LP_CLP ? tci_lp_clp_create(lp, err) : tci_lp_glpk_create(lp, err);
  if (rc) {
    free(lp);
    return rc;
  }
  *out = lp;
  return TC_OK;
}

void tci_lp_free(tci_lp_model *lp) {
  if (!lp) return;
  if (lp->backend) {
    if (lp->engine == TCI_LP_CLP) tci_lp_clp_free(lp);
    else tci_lp_glpk_free(lp);
  }
  free(lp->x);
  free(lp->d);
  free(lp->y);
  free(lp->act);
  free(lp);
}

void tci_lp_set_log(tci_lp_model *lp, int level) { lp->log = level < 0 ? 0 : level; }

void tci_lp_set_time_limit(tci_lp_model *lp, double seconds) {
  lp->time_limit = (seconds > 0 && seconds < TCI_LP_INF) ? seconds : 0;
}

int32_t tci_lp_rows(const tci_lp_model *lp) { return lp->rows; }
int32_t tci_lp_cols(const tci_lp_model *lp) { return lp->cols; }
tci_lp_engine tci_lp_engine_of(const tci_lp_model *lp) { return lp->engine; }

/* lo <= hi, neither NaN, lo < +inf and hi > -inf. */
static int bounds_ok(double lo, double hi) {
  return lo == lo && hi == hi && lo <= hi && lo < TCI_LP_INF && hi > -TCI_LP_INF;
}

/* The entries of `count` vectors over `dim` indices: start monotone from 0, indices in
   range, finite values, no index twice in a vector. `mark` (dim entries, -1) is scratch. */
static int check_entries(const char *what, const char *index_name, int32_t count, int32_t dim,
                         const int64_t *start, const int32_t *idx, const double *val, tc_error *err) {
  if (start[0] != 0) return tc_error_set(err, TC_EFAIL, "lp: %s start[0] is %lld, not 0", what, (long long)start[0]);
  if (start[count] > INT_MAX) return tc_error_set(err, TC_ERANGE, "lp: %lld entries exceed the engines' limit", (long long)start[count]);
  if (start[count] > 0 && (!idx || !val)) return tc_error_set(err, TC_EFAIL, "lp: %s entries given without indices or values", what);
  int32_t *mark = malloc(sizeof *mark * (size_t)(dim > 0 ? dim : 1));
  if (!mark) return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  for (int32_t i = 0; i < dim; i++) mark[i] = -1;
  int rc = TC_OK;
  for (int32_t v = 0; v < count && !rc; v++) {
    if (start[v + 1] < start[v]) {
      rc = tc_error_set(err, TC_EFAIL, "lp: %s %d has start %lld after %lld", what, v, (long long)start[v + 1],
                        (long long)start[v]);
      break;
    }
    for (int64_t k = start[v]; k < start[v + 1]; k++) {
      if (idx[k] < 0 || idx[k] >= dim) {
        rc = tc_error_set(err, TC_EFAIL, "lp: %s %d names %s %d of %d", what, v, index_name, idx[k], dim);
        break;
      }
      if (!(val[k] == val[k]) || val[k] == TCI_LP_INF || val[k] == -TCI_LP_INF) {
        rc = tc_error_set(err, TC_EFAIL, "lp: %s %d has a non-finite coefficient", what, v);
        break;
      }
      if (mark[idx[k]] == v) {
        rc = tc_error_set(err, TC_EFAIL, "lp: %s %d names %s %d twice", what, v, index_name, idx[k]);
        break;
      }
      mark[idx[k]] = v;
    }
  }
  free(mark);
  return rc;
}

/* Grow a result array to n doubles (kept across solves). */
static int grow(double **a, int32_t n) {
  double *p = realloc(*a, sizeof **a * (size_t)(n > 0 ? n : 1));
  if (!p) return TC_ENOMEM;
  *a = p;
  return TC_OK;
}

/* A zero start vector for `count` empty vectors. */
static int64_t *empty_start(int32_t count) { return calloc((size_t)count + 1, sizeof(int64_t)); }

int tci_lp_add_rows(tci_lp_model *lp, int32_t count, const double *lo, const double *hi,
                    const int64_t *start, const int32_t *col, const double *val, tc_error *err) {
  if (count < 0 || (count > 0 && (!lo || !hi))) return tc_error_set(err, TC_EFAIL, "lp: add_rows: bad arguments");
  if (count == 0) return TC_OK;
  if ((int64_t)lp->rows + count > INT_MAX - 1)
    return tc_error_set(err, TC_ERANGE, "lp: more than %d rows", INT_MAX - 1);
  for (int32_t i = 0; i < count; i++)
    if (!bounds_ok(lo[i], hi[i])) return tc_error_set(err, TC_EFAIL, "lp: row %d has bounds [%g, %g]", lp->rows + i, lo[i], hi[i]);
  int64_t *own = NULL;
  if (!start) {
    if (!(own = empty_start(count))) return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
    start = own;
  }
  int rc = check_entries("row", "column", count, lp->cols, start, col, val, err);
  if (!rc)
    rc = lp->engine == TCI_LP_CLP ? tci_lp_clp_add_rows(lp, count, lo, hi, start, col, val, err)
                                  : tci_lp_glpk_add_rows(lp, count, lo, hi, start, col, val, err);
  free(own);
  if (rc) return rc;
  lp->rows += count;
  lp->pending |= TCI_LP_ADDED_ROWS;
  lp->status = TCI_LP_FAILED;
  return TC_OK;
}

int tci_lp_add_cols(tci_lp_model *lp, int32_t count, const double *obj, const double *lo,
                    const double *hi, const int64_t *start, const int32_t *row, const double *val,
                    tc_error *err) {
  if (count < 0 || (count > 0 && !obj)) return tc_error_set(err, TC_EFAIL, "lp: add_cols: bad arguments");
  if (count == 0) return TC_OK;
  if ((int64_t)lp->cols + count > INT_MAX - 1)
    return tc_error_set(err, TC_ERANGE, "lp: more than %d columns", INT_MAX - 1);
  double *zero = NULL, *inf = NULL;
  int64_t *own = NULL;
  int rc = TC_OK;
  if (!lo || !hi) {
    zero = malloc(sizeof *zero * (size_t)count);
    inf = malloc(sizeof *inf * (size_t)count);
    if (!zero || !inf) {
      rc = tc_error_set(err, TC_ENOMEM, "lp: out of memory");
      goto out;
    }
    for (int32_t j = 0; j < count; j++) zero[j] = 0, inf[j] = TCI_LP_INF;
    if (!lo) lo = zero;
    if (!hi) hi = inf;
  }
  for (int32_t j = 0; j < count && !rc; j++) {
    if (!bounds_ok(lo[j], hi[j]))
      rc = tc_error_set(err, TC_EFAIL, "lp: column %d has bounds [%g, %g]", lp->cols + j, lo[j], hi[j]);
    else if (!(obj[j] == obj[j]) || obj[j] == TCI_LP_INF || obj[j] == -TCI_LP_INF)
      rc = tc_error_set(err, TC_EFAIL, "lp: column %d has a non-finite objective", lp->cols + j);
  }
  if (rc) goto out;
  if (!start) {
    if (!(own = empty_start(count))) {
      rc = tc_error_set(err, TC_ENOMEM, "lp: out of memory");
      goto out;
    }
    start = own;
  }
  rc = check_entries("column", "row", count, lp->rows, start, row, val, err);
  if (!rc)
    rc = lp->engine == TCI_LP_CLP ? tci_lp_clp_add_cols(lp, count, obj, lo, hi, start, row, val, err)
                                  : tci_lp_glpk_add_cols(lp, count, obj, lo, hi, start, row, val, err);
  if (!rc) {
    lp->cols += count;
    lp->pending |= TCI_LP_ADDED_COLS;
    lp->status = TCI_LP_FAILED;
  }
out:
  free(zero);
  free(inf);
  free(own);
  return rc;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int tci_lp_del_cols(tci_lp_model *lp, int32_t count, const int32_t *which, tc_error *err) {
  if (count < 0 || (count > 0 && !which)) return tc_error_set(err, TC_EFAIL, "lp: del_cols: bad arguments");
  if (count == 0) return TC_OK;
  int32_t *sorted = malloc(sizeof *sorted * (size_t)count);
  if (!sorted) return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  memcpy(sorted, which, sizeof *sorted * (size_t)count);
  qsort(sorted, (size_t)count, sizeof *sorted, cmp_i32);
  int rc = TC_OK;
  for (int32_t i = 0; i < count && !rc; i++) {
    if (sorted[i] < 0 || sorted[i] >= lp->cols)
      rc = tc_error_set(err, TC_EFAIL, "lp: cannot delete column %d of %d", sorted[i], lp->cols);
    else if (i > 0 && sorted[i] == sorted[i - 1])
      rc = tc_error_set(err, TC_EFAIL, "lp: column %d deleted twice", sorted[i]);
  }
  if (!rc)
    rc = lp->engine == TCI_LP_CLP ? tci_lp_clp_del_cols(lp, count, sorted, err)
                                  : tci_lp_glpk_del_cols(lp, count, sorted, err);
  free(sorted);
  if (rc) return rc;
  lp->cols -= count;
  lp->pending |= TCI_LP_DELETED_COLS;
  lp->status = TCI_LP_FAILED;
  return TC_OK;
}

int tci_lp_optimize(tci_lp_model *lp, tci_lp_status *status, tc_error *err) {
  *status = TCI_LP_FAILED;
  if (grow(&lp->x, lp->cols) || grow(&lp->d, lp->cols) || grow(&lp->y, lp->rows) || grow(&lp->act, lp->rows))
    return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  lp->status = TCI_LP_FAILED;
  lp->iterations = 0;
  int rc = lp->engine == TCI_LP_CLP ? tci_lp_clp_optimize(lp, err) : tci_lp_glpk_optimize(lp, err);
  if (rc) return rc;
  lp->solved = 1;
  lp->pending = 0;
  *status = lp->status;
  return TC_OK;
}

double tci_lp_objective(const tci_lp_model *lp) { return lp->objective; }
const double *tci_lp_primal(tci_lp_model *lp) { return lp->x; }
const double *tci_lp_row_activity(tci_lp_model *lp) { return lp->act; }
const double *tci_lp_row_duals(tci_lp_model *lp) { return lp->y; }
const double *tci_lp_reduced_costs(tci_lp_model *lp) { return lp->d; }
int64_t tci_lp_iterations(const tci_lp_model *lp) { return lp->iterations; }
