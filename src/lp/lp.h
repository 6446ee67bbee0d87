/*
** lp.h — the LP engine: one interface over two simplex backends, COIN-OR Clp and GLPK.
** Internal (layer `lp`, right after `core`); nothing else calls Clp or GLPK for the
** all-to-all work.
**
** A model is   max/min c·x   s.t.   lo_r <= A x <= hi_r (rows),   lo_c <= x <= hi_c (columns).
** Rows and columns are 0-based and appended in order; bounds may be ±TCI_LP_INF (a free
** side). A model is built incrementally and may be re-solved after rows or columns are
** added (or columns deleted): the next solve starts from the previous basis — primal
** simplex after columns were added or deleted (the old basis stays primal feasible), dual
** simplex after rows were added (it stays dual feasible). The first solve of a model is a
** cold start (Clp: its automatic choice with presolve; GLPK: primal simplex from the
** standard basis).
**
** Sign convention (ONE, for both backends, whatever the sense):
**   - the dual y_r of row r is the rate of change of the optimal objective when the row's
**     active bound is raised: y_r = d(objective)/d(rhs_r). So in a maximization a binding
**     `<=` row has y_r >= 0 and a binding `>=` row y_r <= 0 (minimization: the opposite);
**   - the reduced cost of column j is d_j = c_j − Σ_r a_rj y_r. At a maximization optimum a
**     column at its lower bound has d_j <= 0 (minimization: >= 0), a basic column d_j = 0.
** Both backends report exactly this (checked by tests/test_lp.c on hand-solved LPs).
**
** Results (objective, primal values, duals, reduced costs, row activities) are those of the
** last solve and valid only while its status is TCI_LP_OPTIMAL; the pointers returned stay
** valid until the model is changed or freed. Logging is off unless tci_lp_set_log asks.
** A model is not thread-safe; distinct models may be solved in distinct threads.
*/
#ifndef TC_LP_LP_H
#define TC_LP_LP_H

#include <math.h>
#include <stdint.h>

#include "topocoll/error.h"

#define TCI_LP_INF HUGE_VAL

typedef enum { TCI_LP_CLP = 0, TCI_LP_GLPK = 1 } tci_lp_engine;

typedef enum {
  TCI_LP_OPTIMAL = 0,
  TCI_LP_INFEASIBLE = 1, /* no x satisfies the rows and bounds */
  TCI_LP_UNBOUNDED = 2,  /* feasible, objective unbounded in the optimization sense */
  TCI_LP_LIMIT = 3,      /* the time limit stopped the solver first */
  TCI_LP_FAILED = 4      /* the backend gave up (numerical trouble): no answer */
} tci_lp_status;

typedef struct tci_lp_model tci_lp_model;

/* "clp" / "glpk" */
const char *tci_lp_engine_name(tci_lp_engine e);
/* Parse "clp" or "glpk"; TC_EINPUT with one line naming both otherwise. */
int tci_lp_engine_parse(const char *name, tci_lp_engine *out, tc_error *err);
/* "optimal", "infeasible", "unbounded", "time limit", "failed" */
const char *tci_lp_status_name(tci_lp_status s);

/* An empty model (no rows, no columns). maximize: 1 = maximize, 0 = minimize. */
int tci_lp_create(tci_lp_engine engine, int maximize, tci_lp_model **out, tc_error *err);
void tci_lp_free(tci_lp_model *lp);

/* Backend log level: 0 (default) silent, 1 a line per solve, higher more. */
void tci_lp_set_log(tci_lp_model *lp, int level);
/* Wall-clock limit of each later solve in seconds (<= 0 or TCI_LP_INF: none). */
void tci_lp_set_time_limit(tci_lp_model *lp, double seconds);

int32_t tci_lp_rows(const tci_lp_model *lp);
int32_t tci_lp_cols(const tci_lp_model *lp);
tci_lp_engine tci_lp_engine_of(const tci_lp_model *lp);

/* Append `count` rows with bounds lo[i] <= row <= hi[i] (lo[i] == hi[i]: an equality).
   Row-wise entries are optional: with start != NULL, row i has the entries
   (col[k], val[k]) for k in start[i] .. start[i+1]-1 (columns must exist; no column twice
   in a row). With start == NULL the rows are empty (columns fill them later). */
int tci_lp_add_rows(tci_lp_model *lp, int32_t count, const double *lo, const double *hi,
                    const int64_t *start, const int32_t *col, const double *val, tc_error *err);
/* Append `count` columns with objective obj[j] and bounds lo[j] <= x_j <= hi[j] (lo, hi
   NULL: 0 and +inf). Column j has the entries (row[k], val[k]) for k in
   start[j] .. start[j+1]-1 (start NULL: empty columns; rows must exist, none twice). */
int tci_lp_add_cols(tci_lp_model *lp, int32_t count, const double *obj, const double *lo,
                    const double *hi, const int64_t *start, const int32_t *row, const double *val,
                    tc_error *err);
/* Delete the `count` distinct columns which[] (any order); later columns shift down, keeping
   their order. */
int tci_lp_del_cols(tci_lp_model *lp, int32_t count, const int32_t *which, tc_error *err);

/* Solve (warm when possible, see above). Returns TC_OK whenever the backend ran, with the
   outcome in *status; an error code only for a failure to run (memory). */
int tci_lp_optimize(tci_lp_model *lp, tci_lp_status *status, tc_error *err);

/* Of the last TCI_LP_OPTIMAL solve: */
double tci_lp_objective(const tci_lp_model *lp);
const double *tci_lp_primal(tci_lp_model *lp);        /* cols values */
const double *tci_lp_row_activity(tci_lp_model *lp);  /* rows values A x */
const double *tci_lp_row_duals(tci_lp_model *lp);     /* rows values y, convention above */
const double *tci_lp_reduced_costs(tci_lp_model *lp); /* cols values d, convention above */
/* Simplex iterations of the last solve (for benches). */
int64_t tci_lp_iterations(const tci_lp_model *lp);

#endif
