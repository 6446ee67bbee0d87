/*
** lp_glpk.c — the GLPK backend of the LP engine (lp.h).
**
** GLPK keeps the basis statuses in the problem object: new rows enter basic and new columns
** non-basic, so the old basis stays valid and glp_simplex starts from it. The first solve is
** primal simplex from the standard (all-slack) basis; later ones dual simplex after rows
** were added and primal otherwise. Deleting a basic column leaves too few basic variables:
** GLPK then reports an invalid basis, and the solve restarts from an advanced basis. The
** presolver stays off (with it GLPK keeps no basis and reports an infeasible LP only as a
** failure). GLPK's duals are in the objective's sense (y_r = d(objective)/d(rhs_r),
** d_j = c_j − Σ a_rj y_r), lp.h's convention. Indices are 1-based here, 0-based in lp.h.
*/
#include "lp/lp_internal.h"

#include <glpk.h>
#include <stdlib.h>

int tci_lp_glpk_create(tci_lp_model *lp, tc_error *err) {
  (void)err;
  glp_prob *p = glp_create_prob();
  glp_set_obj_dir(p, lp->maximize ? GLP_MAX : GLP_MIN);
  lp->backend = p;
  return TC_OK;
}

void tci_lp_glpk_free(tci_lp_model *lp) { glp_delete_prob((glp_prob *)lp->backend); }

static int glpk_type(double lo, double hi) {
  int has_lo = lo > -TCI_LP_INF, has_hi = hi < TCI_LP_INF;
  if (has_lo && has_hi) return lo == hi ? GLP_FX : GLP_DB;
  if (has_lo) return GLP_LO;
  if (has_hi) return GLP_UP;
  return GLP_FR;
}

static double finite(double v) { return (v >= TCI_LP_INF || v <= -TCI_LP_INF) ? 0.0 : v; }

/* 1-based copies of one vector's entries (slot 0 unused, as GLPK takes them). */
static int glpk_vector(const int64_t *start, int32_t v, const int32_t *idx, const double *val,
                       int **ind, double **x, int *len, tc_error *err) {
  int64_t n = start[v + 1] - start[v];
  *ind = malloc(sizeof **ind * (size_t)(n + 1));
  *x = malloc(sizeof **x * (size_t)(n + 1));
  if (!*ind || !*x) {
    free(*ind), free(*x);
    return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  }
  for (int64_t k = 0; k < n; k++) (*ind)[k + 1] = idx[start[v] + k] + 1, (*x)[k + 1] = val[start[v] + k];
  *len = (int)n;
  return TC_OK;
}

int tci_lp_glpk_add_rows(tci_lp_model *lp, int32_t count, const double *lo, const double *hi,
                         const int64_t *start, const int32_t *col, const double *val, tc_error *err) {
  glp_prob *p = (glp_prob *)lp->backend;
  int first = glp_add_rows(p, count);
  for (int32_t i = 0; i < count; i++) {
    glp_set_row_bnds(p, first + i, glpk_type(lo[i], hi[i]), finite(lo[i]), finite(hi[i]));
    if (start[i + 1] == start[i]) continue;
    int *ind, len;
    double *x;
    int rc = glpk_vector(start, i, col, val, &ind, &x, &len, err);
    if (rc) return rc;
    glp_set_mat_row(p, first + i, len, ind, x);
    free(ind), free(x);
  }
  return TC_OK;
}

int tci_lp_glpk_add_cols(tci_lp_model *lp, int32_t count, const double *obj, const double *lo,
                         const double *hi, const int64_t *start, const int32_t *row, const double *val,
                         tc_error *err) {
  glp_prob *p = (glp_prob *)lp->backend;
  int first = glp_add_cols(p, count);
  for (int32_t j = 0; j < count; j++) {
    glp_set_col_bnds(p, first + j, glpk_type(lo[j], hi[j]), finite(lo[j]), finite(hi[j]));
    glp_set_obj_coef(p, first + j, obj[j]);
    if (start[j + 1] == start[j]) continue;
    int *ind, len;
    double *x;
    int rc = glpk_vector(start, j, row, val, &ind, &x, &len, err);
    if (rc) return rc;
    glp_set_mat_col(p, first + j, len, ind, x);
    free(ind), free(x);
  }
  return TC_OK;
}

int tci_lp_glpk_del_cols(tci_lp_model *lp, int32_t count, const int32_t *which, tc_error *err) {
  int *num = malloc(sizeof *num * ((size_t)count + 1));
  if (!num) return tc_error_set(err, TC_ENOMEM, "lp: out of memory");
  for (int32_t i = 0; i < count; i++) num[i + 1] = which[i] + 1;
  glp_del_cols((glp_prob *)lp->backend, count, num);
  free(num);
  return TC_OK;
}

int tci_lp_glpk_optimize(tci_lp_model *lp, tc_error *err) {
  (void)err;
  glp_prob *p = (glp_prob *)lp->backend;
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = lp->log <= 0 ? GLP_MSG_OFF : lp->log == 1 ? GLP_MSG_ERR : GLP_MSG_ON;
  parm.presolve = GLP_OFF;
  if (lp->time_limit > 0) parm.tm_lim = lp->time_limit < 2e6 ? (int)(lp->time_limit * 1000.0) + 1 : 2000000000;
  parm.meth = (lp->solved && (lp->pending & TCI_LP_ADDED_ROWS)) ? GLP_DUALP : GLP_PRIMAL;
  int it0 = glp_get_it_cnt(p);
  int rc = glp_simplex(p, &parm);
  if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
    /* a deleted basic column, or a basis gone singular: restart from an advanced basis */
    glp_adv_basis(p, 0);
    parm.meth = GLP_PRIMAL;
    rc = glp_simplex(p, &parm);
  }
  lp->iterations = glp_get_it_cnt(p) - it0;
  if (rc == GLP_ETMLIM || rc == GLP_EITLIM) {
    lp->status = TCI_LP_LIMIT;
    return TC_OK;
  }
  if (rc != 0) {
    lp->status = TCI_LP_FAILED;
    return TC_OK;
  }
  switch (glp_get_status(p)) {
    case GLP_OPT: lp->status = TCI_LP_OPTIMAL; break;
    case GLP_NOFEAS: lp->status = TCI_LP_INFEASIBLE; break;
    case GLP_UNBND: lp->status = TCI_LP_UNBOUNDED; break;
    default: lp->status = TCI_LP_FAILED; break;
  }
  if (lp->status != TCI_LP_OPTIMAL) return TC_OK;
  lp->objective = glp_get_obj_val(p);
  for (int32_t j = 0; j < lp->cols; j++) {
    lp->x[j] = glp_get_col_prim(p, j + 1);
    lp->d[j] = glp_get_col_dual(p, j + 1);
  }
  for (int32_t i = 0; i < lp->rows; i++) {
    lp->y[i] = glp_get_row_dual(p, i + 1);
    lp->act[i] = glp_get_row_prim(p, i + 1);
  }
  return TC_OK;
}
