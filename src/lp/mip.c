/*
** mip.c — the MIP entry point (mip.h) over COIN-OR Cbc's C interface.
**
** Cbc takes the whole program at once (Cbc_loadProblem, CoinBigIndex column starts); the
** allowable gaps are set to zero so "optimal" means proven, and its log is off. A time limit
** that stops the search with an incumbent is reported as FEASIBLE: the caller gets a valid
** solution and knows it is not proven.
*/
#include "lp/mip.h"

#include <coin/Cbc_C_Interface.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tci_mip_status_name(tci_mip_status s) {
  switch (s) {
  case TCI_MIP_OPTIMAL: return "optimal";
  case TCI_MIP_FEASIBLE: return "feasible (time limit)";
  case TCI_MIP_INFEASIBLE: return "infeasible";
  default: return "no solution";
  }
}

static double bound(double v) { return v >= DBL_MAX ? DBL_MAX : v <= -DBL_MAX ? -DBL_MAX : v; }

int tci_mip_solve(int32_t rows, int32_t cols, const double *obj, const double *clo, const double *chi,
                  const uint8_t *integer, const int64_t *start, const int32_t *row, const double *val,
                  const double *rlo, const double *rhi, double time_limit, double *x, tci_mip_status *status,
                  tc_error *err) {
  if (start[cols] > INT32_MAX) return tc_error_set(err, TC_ERANGE, "mip: %lld nonzeros (at most 2^31)", (long long)start[cols]);
  CoinBigIndex *cstart = malloc(sizeof *cstart * ((size_t)cols + 1));
  double *bl = malloc(sizeof *bl * (size_t)(cols + rows + 1)), *bu = malloc(sizeof *bu * (size_t)(cols + rows + 1));
  if (!cstart || !bl || !bu) {
    free(cstart), free(bl), free(bu);
    return tc_error_set(err, TC_ENOMEM, "mip: out of memory");
  }
  for (int32_t j = 0; j <= cols; j++) cstart[j] = (CoinBigIndex)start[j];
  for (int32_t j = 0; j < cols; j++) bl[j] = bound(clo[j]), bu[j] = bound(chi[j]);
  for (int32_t r = 0; r < rows; r++) bl[cols + r] = bound(rlo[r]), bu[cols + r] = bound(rhi[r]);
  Cbc_Model *model = Cbc_newModel();
  if (!model) {
    free(cstart), free(bl), free(bu);
    return tc_error_set(err, TC_ENOMEM, "mip: Cbc cannot create a model");
  }
  Cbc_loadProblem(model, cols, rows, cstart, row, val, bl, bu, obj, bl + cols, bu + cols);
  for (int32_t j = 0; j < cols; j++)
    if (integer[j]) Cbc_setInteger(model, j);
  Cbc_setObjSense(model, 1);
  Cbc_setLogLevel(model, 0);
  Cbc_setAllowableGap(model, 0);
  Cbc_setParameter(model, "ratioGap", "0");
  Cbc_setParameter(model, "threads", "1");
  if (time_limit > 0) Cbc_setMaximumSeconds(model, time_limit);
  Cbc_solve(model);
  const double *sol = Cbc_numberSavedSolutions(model) > 0 || Cbc_isProvenOptimal(model) ? Cbc_getColSolution(model) : NULL;
  if (Cbc_isProvenOptimal(model) && sol) *status = TCI_MIP_OPTIMAL;
  else if (Cbc_isProvenInfeasible(model)) *status = TCI_MIP_INFEASIBLE;
  else if (sol) *status = TCI_MIP_FEASIBLE;
  else *status = TCI_MIP_NONE;
  if (sol && (*status == TCI_MIP_OPTIMAL || *status == TCI_MIP_FEASIBLE)) memcpy(x, sol, sizeof *x * (size_t)cols);
  Cbc_deleteModel(model);
  free(cstart), free(bl), free(bu);
  return TC_OK;
}
