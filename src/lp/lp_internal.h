/*
** lp_internal.h — what lp.c shares with its two backends (lp_clp.c, lp_glpk.c). Internal
** to the `lp` layer.
**
** lp.c checks every argument (indices, bounds, duplicates, sizes) before a backend sees it,
** so a backend never aborts on bad input (GLPK would); it keeps the sizes and the results of
** the last solve in the model. A backend only translates: build its own model, solve it
** warm or cold as `pending` says, and fill the result arrays in the convention of lp.h.
*/
#ifndef TC_LP_LP_INTERNAL_H
#define TC_LP_LP_INTERNAL_H

#include "lp/lp.h"

/* What changed since the last solve, to pick the warm-start algorithm. */
enum { TCI_LP_ADDED_COLS = 1, TCI_LP_ADDED_ROWS = 2, TCI_LP_DELETED_COLS = 4 };

struct tci_lp_model {
  tci_lp_engine engine;
  int maximize;
  int32_t rows, cols;
  int log;
  double time_limit; /* seconds, 0 = none */
  int solved;        /* a solve has run: the backend holds a basis to start from */
  int pending;       /* TCI_LP_ADDED_* since the last solve */
  void *backend;     /* Clp_Simplex * or glp_prob * */
  /* results of the last solve (valid when status is optimal) */
  tci_lp_status status;
  double objective;
  int64_t iterations;
  double *x, *d;   /* cols */
  double *y, *act; /* rows */
  int32_t room_cols, room_rows;
};

/* Each backend: create its empty model in lp->backend; free it; append rows/columns whose
   arguments lp.c has checked (start != NULL, 0-based, entries valid, bounds with ±INF); delete
   columns (sorted ascending, distinct); solve and fill lp->status, objective, iterations
   and (when optimal) x, d, y, act, which lp.c has sized. */
int tci_lp_clp_create(tci_lp_model *lp, tc_error *err);
void tci_lp_clp_free(tci_lp_model *lp);
int tci_lp_clp_add_rows(tci_lp_model *lp, int32_t count, const double *lo, const double *hi,
                        const int64_t *start, const int32_t *col, const double *val, tc_error *err);
int tci_lp_clp_add_cols(tci_lp_model *lp, int32_t count, const double *obj, const double *lo,
                        const double *hi, const int64_t *start, const int32_t *row, const double *val,
                        tc_error *err);
int tci_lp_clp_del_cols(tci_lp_model *lp, int32_t count, const int32_t *which, tc_error *err);
int tci_lp_clp_optimize(tci_lp_model *lp, tc_error *err);

int tci_lp_glpk_create(tci_lp_model *lp, tc_error *err);
void tci_lp_glpk_free(tci_lp_model *lp);
int tci_lp_glpk_add_rows(tci_lp_model *lp, int32_t count, const double *lo, const double *hi,
                         const int64_t *start, const int32_t *col, const double *val, tc_error *err);
int tci_lp_glpk_add_cols(tci_lp_model *lp, int32_t count, const double *obj, const double *lo,
                         const double *hi, const int64_t *start, const int32_t *row, const double *val,
                         tc_error *err);
int tci_lp_glpk_del_cols(tci_lp_model *lp, int32_t count, const int32_t *which, tc_error *err);
int tci_lp_glpk_optimize(tci_lp_model *lp, tc_error *err);

#endif
