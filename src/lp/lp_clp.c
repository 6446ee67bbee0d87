/*
** lp_clp.c — the COIN-OR Clp backend of the LP engine (lp.h), through Clp's C interface.
**
** Clp keeps its basis in the model between solves, so warm starts are the algorithm choice
** alone: the first solve is Clp_initialSolve (presolve, then Clp's own choice of simplex),
** later ones Clp_dual after rows were added (the old basis stays dual feasible) and
** Clp_primal otherwise (new or deleted columns leave it primal feasible). Clp reports duals
** in the user's objective sense: y_r = d(objective)/d(rhs_r) and d_j = c_j − Σ a_rj y_r, which
** is lp.h's convention (tests/test_lp.c checks it against hand-solved LPs).
*/
#include "lp/lp_internal.h"

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

/* Clp's infinity is COIN_DBL_MAX. */
static double clp_bound(double v) {
  if (v >= TCI_LP_INF) return DBL_MAX;
  if (v <= -TCI_LP_INF) return -DBL_MAX;
  return v;
}

int tci_lp_clp_create(tci_lp_model *lp, tc_error *err) {
  Clp_Simplex *m = Clp_newModel();
  if (!m) return tc_error_set(err, TC_ENOMEM, "lp: Clp cannot create a model");
  Clp_setLogLevel(m, 0);
  Clp_setOptimizationDirection(m, lp->maximize ? -1.0 : 1.0);
  /* tighter than the defaults (1e-7): the certificate recovers exact fractions from the
     values, which needs them accurate to ~1e-9 */
  Clp_setPrimalTolerance(m, 1e-9);
  Clp_setDualTolerance(m, 1e-9);
  lp->backend = m;
  return TC_OK;
}

void tci_lp_clp_free(tci_lp_model *lp) { Clp_deleteModel((Clp_Simplex *)lp->backend); }

/* The bounds, starts and values in Clp's types. */
typedef struct {
  double *lo, *hi;
  CoinBigIndex *start;
} clp_args;

static int clp_args_make(int32_t count, const double *lo, const double *hi, const int64_t *start,
                         clp_args *a, tc_error *err) {
  a->lo = malloc(sizeof *a->lo * (size_t)count);
  a->hi = malloc(sizeof *a->hi * (size_t)count);
  a->start = malloc(sizeof *a->start * ((size_t)count + 1));
  if (!a->lo || !a->hi || !a->start) {
    free(a->lo), free(a->hi), free(a->start);
    return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  }
  for (int32_t i = 0; i < count; i++) a->lo[i] = clp_bound(lo[i]), a->hi[i] = clp_bound(hi[i]);
  for (int32_t i = 0; i <= count; i++) a->start[i] = (CoinBigIndex)start[i]; /* lp.c: <= INT_MAX */
  return TC_OK;
}

static void clp_args_free(clp_args *a) { free(a->lo), free(a->hi), free(a->start); }

int tci_lp_clp_add_rows(tci_lp_model *lp, int32_t count, const double *lo, const double *hi,
                        const int64_t *start, const int32_t *col, const double *val, tc_error *err) {
  clp_args a;
  int rc = clp_args_make(count, lo, hi, start, &a, err);
  if (rc) return rc;
  Clp_addRows((Clp_Simplex *)lp->backend, count, a.lo, a.hi, a.start, col, val);
  clp_args_free(&a);
  return TC_OK;
}

int tci_lp_clp_add_cols(tci_lp_model *lp, int32_t count, const double *obj, const double *lo,
                        const double *hi, const int64_t *start, const int32_t *row, const double *val,
                        tc_error *err) {
  clp_args a;
  int rc = clp_args_make(count, lo, hi, start, &a, err);
  if (rc) return rc;
  Clp_addColumns((Clp_Simplex *)lp->backend, count, a.lo, a.hi, obj, a.start, row, val);
  clp_args_free(&a);
  return TC_OK;
}

int tci_lp_clp_del_cols(tci_lp_model *lp, int32_t count, const int32_t *which, tc_error *err) {
  (void)err;
  Clp_deleteColumns((Clp_Simplex *)lp->backend, count, which);
  return TC_OK;
}

int tci_lp_clp_optimize(tci_lp_model *lp, tc_error *err) {
  (void)err;
  Clp_Simplex *m = (Clp_Simplex *)lp->backend;
  Clp_setLogLevel(m, lp->log);
  /* "from when set called": set right before the solve; a huge value means none */
  Clp_setMaximumSeconds(m, lp->time_limit > 0 ? lp->time_limit : 1e100);
  if (!lp->solved) Clp_initialSolve(m);
  else if (lp->pending & TCI_LP_ADDED_ROWS) Clp_dual(m, 0);
  else Clp_primal(m, 0);
  lp->iterations = Clp_numberIterations(m);
  switch (Clp_status(m)) {
    case 0: lp->status = TCI_LP_OPTIMAL; break;
    case 1: lp->status = TCI_LP_INFEASIBLE; break;
    case 2: lp->status = TCI_LP_UNBOUNDED; break;
    case 3: lp->status = TCI_LP_LIMIT; break;
    default: lp->status = TCI_LP_FAILED; break;
  }
  if (lp->status != TCI_LP_OPTIMAL) return TC_OK;
  lp->objective = Clp_getObjValue(m);
  if (lp->cols) {
    memcpy(lp->x, Clp_getColSolution(m), sizeof *lp->x * (size_t)lp->cols);
    memcpy(lp->d, Clp_getReducedCost(m), sizeof *lp->d * (size_t)lp->cols);
  }
  if (lp->rows) {
    memcpy(lp->y, Clp_getRowPrice(m), sizeof *lp->y * (size_t)lp->rows);
    memcpy(lp->act, Clp_getRowActivity(m), sizeof *lp->act * (size_t)lp->rows);
  }
  return TC_OK;
}
