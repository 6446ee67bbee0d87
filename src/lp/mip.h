/*
** mip.h — the MIP entry point of the `lp` layer (internal): one small mixed-integer program
** solved by COIN-OR Cbc through its C interface, for the single-path ILP baselines of the
** all-to-all (a2a_flows.h). Nothing else calls Cbc.
**
** The program is   minimize c·x   s.t.   rlo_r <= A x <= rhi_r,   clo_j <= x_j <= chi_j,
** x_j integer where integer[j]; A column-wise (column j's entries (row[k], val[k]) for
** k in start[j] .. start[j+1]-1). Cbc runs silently, single-threaded, with the time limit
** (seconds, <= 0: none) and a zero relative gap, so TCI_MIP_OPTIMAL is a proof.
*/
#ifndef TC_LP_MIP_H
#define TC_LP_MIP_H

#include <stdint.h>

#include "topocoll/error.h"

typedef enum {
  TCI_MIP_OPTIMAL = 0,    /* proven optimal */
  TCI_MIP_FEASIBLE = 1,   /* the time limit stopped the search; x is the best solution found */
  TCI_MIP_INFEASIBLE = 2, /* no integer solution exists */
  TCI_MIP_NONE = 3        /* stopped (time limit, numerical trouble) without a solution */
} tci_mip_status;

/* "optimal", "feasible (time limit)", "infeasible", "no solution" */
const char *tci_mip_status_name(tci_mip_status s);

/* Solve; x (cols values) receives the solution when the status is OPTIMAL or FEASIBLE.
   Returns TC_OK whenever Cbc ran (the outcome in *status); TC_ERANGE when the sizes do not
   fit Cbc's int indices. */
int tci_mip_solve(int32_t rows, int32_t cols, const double *obj, const double *clo, const double *chi,
                  const uint8_t *integer, const int64_t *start, const int32_t *row, const double *val,
                  const double *rlo, const double *rhi, double time_limit, double *x, tci_mip_status *status,
                  tc_error *err);

#endif
