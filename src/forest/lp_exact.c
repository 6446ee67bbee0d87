/*
** lp_exact.c — GLPK on an integer LP, and the exact check that certifies its optimum
** (contract in lp_exact.h).
**
** Why recovering fractions from doubles works here: glp_exact's values are exact rationals
** truncated to doubles, so each is within |v|·2^-52 of a fraction whose denominator divides
** the optimal basis' determinant. For LP (6) on small fabrics those denominators are small
** (though many distinct ones, so each row and column is summed on its own rather than over
** one common denominator), and a value is recovered when its denominator is at most
**     D(v) = min(2^24, sqrt(2^48 / max(1, |v|)))
** — below that bound the rounding error is under 1/(16·D^2), which Legendre's theorem needs
** (with room to spare) for the fraction to be the convergent that tci_lp_recover returns. A
** value whose true denominator is larger is recovered wrongly, and then the exact check
** fails: the bound decides only how often we certify, never whether a certificate is right.
*/
#include "forest/lp_exact.h"

#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

typedef __int128 wide;

int tci_lp_init(tci_lp *lp, int64_t rows, int64_t cols, int64_t nnz, tc_error *err) {
  memset(lp, 0, sizeof *lp);
  if (rows < 1 || cols < 1 || nnz < 0 || rows >= INT_MAX || cols >= INT_MAX || nnz >= INT_MAX)
    return tc_error_set(err, TC_ERANGE, "lp: %lld rows, %lld columns and %lld entries do not fit the solver",
                        (long long)rows, (long long)cols, (long long)nnz);
  lp->rows = (int32_t)rows;
  lp->cols = (int32_t)cols;
  lp->room = nnz;
  lp->ia = malloc((size_t)(nnz + 1) * sizeof *lp->ia);
  lp->ja = malloc((size_t)(nnz + 1) * sizeof *lp->ja);
  lp->ar = malloc((size_t)(nnz + 1) * sizeof *lp->ar);
  lp->rhs = calloc((size_t)rows + 1, sizeof *lp->rhs);
  lp->obj = calloc((size_t)cols + 1, sizeof *lp->obj);
  if (!lp->ia || !lp->ja || !lp->ar || !lp->rhs || !lp->obj) {
    tci_lp_destroy(lp);
    return tc_error_set(err, TC_ENOMEM, "lp: out of memory for %lld entries", (long long)nnz);
  }
  return TC_OK;
}

void tci_lp_destroy(tci_lp *lp) {
  free(lp->ia);
  free(lp->ja);
  free(lp->ar);
  free(lp->rhs);
  free(lp->obj);
  memset(lp, 0, sizeof *lp);
}

int tci_lp_entry(tci_lp *lp, int64_t row, int64_t col, int a, tc_error *err) {
  if (lp->nnz >= lp->room || row < 1 || row > lp->rows || col < 1 || col > lp->cols)
    return tc_error_set(err, TC_EFAIL, "lp: entry (%lld, %lld) outside the %d x %d LP or its %lld entries",
                        (long long)row, (long long)col, lp->rows, lp->cols, (long long)lp->room);
  int64_t k = ++lp->nnz;
  lp->ia[k] = (int)row;
  lp->ja[k] = (int)col;
  lp->ar[k] = a;
  return TC_OK;
}

void tci_lp_solution_destroy(tci_lp_solution *s) {
  free(s->xfloat);
  free(s->x);
  memset(s, 0, sizeof *s);
}

/* ---- fractions from doubles ---------------------------------------------------------- */

int tci_lp_recover(double v, int64_t maxden, tc_rat *out) {
  if (!isfinite(v) || fabs(v) >= 0x1p38) return 1;
  if (maxden < 1) maxden = 1;
  /* |v| = n / 2^60 exactly up to 2^-60 (scaling by a power of two is exact; the
     conversion drops bits below 2^-60, far under the precision Legendre needs). */
  wide n = (wide)(fabs(v) * 0x1p60), d = (wide)1 << 60;
  wide p0 = 0, q0 = 1, p1 = 1, q1 = 0; /* convergents h_{k-2}/k_{k-2}, h_{k-1}/k_{k-1} */
  while (d != 0) {
    wide a = n / d;
    if (q1 > 0 && a > (maxden - q0) / q1) break; /* the next denominator exceeds maxden */
    wide p2 = a * p1 + p0, q2 = a * q1 + q0;
    p0 = p1, q0 = q1, p1 = p2, q1 = q2;
    wide r = n - a * d;
    n = d;
    d = r;
  }
  out->num = (int64_t)(v < 0 ? -p1 : p1); /* p1 <= |v|·q1 + 1 < 2^62: fits */
  out->den = (int64_t)q1;
  return 0;
}

static int64_t denominator_bound(double v) {
  double d = sqrt(0x1p48 / fmax(1.0, fabs(v)));
  return d >= 0x1p24 ? (int64_t)1 << 24 : (int64_t)d;
}

/* ---- the exact check ----------------------------------------------------------------- */

/* Recover v[1..count] into r; 0 and a reason in why when one has no fraction. */
static int recover_all(const double *v, int64_t count, const char *what, tc_rat *r, char *why, size_t whylen) {
  for (int64_t j = 1; j <= count; j++)
    if (tci_lp_recover(v[j], denominator_bound(v[j]), &r[j])) {
      snprintf(why, whylen, "%s %lld (%.17g) is beyond the recoverable range", what, (long long)j, v[j]);
      return 0;
    }
  return 1;
}

/* An exact sum of fractions, kept reduced in 128 bits (den > 0). Rows and columns are summed
   separately, so only the denominators of one row's (or column's) values ever meet. */
typedef struct fsum {
  wide num, den;
} fsum;

static wide gcd_wide(wide a, wide b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* s += a·r; 1 on overflow. */
static int fsum_add(fsum *s, int64_t a, tc_rat r) {
  if (a == 0 || r.num == 0) return 0;
  wide g = gcd_wide(s->den, r.den), den, left, right, num;
  if (__builtin_mul_overflow(s->den, (wide)r.den / g, &den) || __builtin_mul_overflow(s->num, (wide)r.den / g, &left) ||
      __builtin_mul_overflow((wide)a * r.num, s->den / g, &right) || __builtin_add_overflow(left, right, &num))
    return 1;
  wide h = gcd_wide(num, den);
  s->num = num / h;
  s->den = den / h;
  return 0;
}

/* s <= b exactly; an overflow counts as "no" (uncertified, never wrongly certified). */
static int fsum_at_most(fsum s, int64_t b) {
  wide bd;
  return !__builtin_mul_overflow((wide)b, s.den, &bd) && s.num <= bd;
}

static int fsum_at_least(fsum s, int64_t b) {
  wide bd;
  return !__builtin_mul_overflow((wide)b, s.den, &bd) && s.num >= bd;
}

/* Both reduced with positive denominators: equal exactly when the parts are. */
static int fsum_is(fsum s, tc_rat r) { return s.num == r.num && s.den == r.den; }

/* x >= 0, A x <= b and c·x = value. */
static int check_primal(const tci_lp *lp, const tc_rat *x, tc_rat value, char *why, size_t whylen) {
  fsum *row = malloc(((size_t)lp->rows + 1) * sizeof *row), obj = {0, 1};
  if (!row) return snprintf(why, whylen, "out of memory checking the primal"), 0;
  for (int32_t i = 1; i <= lp->rows; i++) row[i] = (fsum){0, 1};
  int ok = 1;
  for (int32_t j = 1; ok && j <= lp->cols; j++) {
    if (x[j].num < 0) snprintf(why, whylen, "primal column %d is negative", j), ok = 0;
    else if (fsum_add(&obj, lp->obj[j], x[j]))
      snprintf(why, whylen, "the primal objective needs denominators beyond 128 bits"), ok = 0;
  }
  for (int64_t k = 1; ok && k <= lp->nnz; k++)
    if (fsum_add(&row[lp->ia[k]], (int64_t)lp->ar[k], x[lp->ja[k]]))
      snprintf(why, whylen, "primal row %d needs denominators beyond 128 bits", lp->ia[k]), ok = 0;
  for (int32_t i = 1; ok && i <= lp->rows; i++)
    if (!fsum_at_most(row[i], lp->rhs[i])) snprintf(why, whylen, "primal row %d is violated", i), ok = 0;
  if (ok && !fsum_is(obj, value)) snprintf(why, whylen, "the primal objective is not the recovered optimum"), ok = 0;
  free(row);
  return ok;
}

/* y >= 0, A^T y >= c and b·y = value. */
static int check_dual(const tci_lp *lp, const tc_rat *y, tc_rat value, char *why, size_t whylen) {
  fsum *col = malloc(((size_t)lp->cols + 1) * sizeof *col), obj = {0, 1};
  if (!col) return snprintf(why, whylen, "out of memory checking the dual"), 0;
  for (int32_t j = 1; j <= lp->cols; j++) col[j] = (fsum){0, 1};
  int ok = 1;
  for (int32_t i = 1; ok && i <= lp->rows; i++) {
    if (y[i].num < 0) snprintf(why, whylen, "dual row %d is negative", i), ok = 0;
    else if (fsum_add(&obj, lp->rhs[i], y[i]))
      snprintf(why, whylen, "the dual objective needs denominators beyond 128 bits"), ok = 0;
  }
  for (int64_t k = 1; ok && k <= lp->nnz; k++)
    if (fsum_add(&col[lp->ja[k]], (int64_t)lp->ar[k], y[lp->ia[k]]))
      snprintf(why, whylen, "dual column %d needs denominators beyond 128 bits", lp->ja[k]), ok = 0;
  for (int32_t j = 1; ok && j <= lp->cols; j++)
    if (!fsum_at_least(col[j], lp->obj[j])) snprintf(why, whylen, "dual column %d is violated", j), ok = 0;
  if (ok && !fsum_is(obj, value)) snprintf(why, whylen, "the dual objective is not the recovered optimum"), ok = 0;
  free(col);
  return ok;
}

/* The primal xv checked as the solution of value: the exact primal (caller frees), or NULL
   and the reason in why. */
static tc_rat *certify_primal(const tci_lp *lp, const double *xv, tc_rat value, char *why, size_t len) {
  tc_rat *rx = malloc(((size_t)lp->cols + 1) * sizeof *rx);
  if (!rx) snprintf(why, len, "out of memory checking the primal");
  if (rx && recover_all(xv, lp->cols, "primal column", rx, why, len) && check_primal(lp, rx, value, why, len))
    return rx;
  free(rx);
  return NULL;
}

static int certify_dual(const tci_lp *lp, const double *y, tc_rat value, char *why, size_t len) {
  tc_rat *ry = malloc(((size_t)lp->rows + 1) * sizeof *ry);
  if (!ry) snprintf(why, len, "out of memory checking the dual");
  int ok = ry && recover_all(y, lp->rows, "dual row", ry, why, len) && check_dual(lp, ry, value, why, len);
  free(ry);
  return ok;
}

/* ---- GLPK ---------------------------------------------------------------------------- */

static const char *status_name(int status) {
  switch (status) {
    case GLP_OPT: return "optimal";
    case GLP_FEAS: return "feasible, not proven optimal";
    case GLP_INFEAS: return "infeasible";
    case GLP_NOFEAS: return "no feasible solution";
    case GLP_UNBND: return "unbounded";
    default: return "undefined";
  }
}

/* The floating simplex finds an optimal basis cheaply; the rational simplex starts from it
   (from the slack basis if the floating one gave up) and makes it exactly optimal. 0 when
   GLPK reports an optimum, else GLPK's code and status in why. */
static int solve_exact(glp_prob *P, char *why, size_t len) {
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  if (glp_simplex(P, &parm) != 0) glp_std_basis(P);
  int code = glp_exact(P, &parm);
  if (code == 0 && glp_get_status(P) == GLP_OPT) return 0;
  snprintf(why, len, "GLPK's exact simplex ended with code %d, solution %s", code, status_name(glp_get_status(P)));
  return 1;
}

/* The vertex GLPK stops at can have denominators far beyond the recoverable bound (LP (6) is
   degenerate: many optimal vertices, some with huge basis determinants). Among the optimal
   solutions, the one with the least total of the variables outside the objective (flows,
   capacities) tends to be a sparser vertex with small denominators, so re-solve for it —
   with the added row  q·(c·x) >= p  and the objective  min Σ_{c_j = 0} x_j — and check that
   one against the original LP. Returns its exact primal (and its doubles in out->xfloat),
   or NULL and the reason in why. P is left changed. */
static tc_rat *least_flow_primal(const tci_lp *lp, glp_prob *P, tci_lp_solution *out, char *why, size_t len) {
  int *ind = malloc(((size_t)lp->cols + 1) * sizeof *ind);
  double *val = malloc(((size_t)lp->cols + 1) * sizeof *val), *xv = malloc(((size_t)lp->cols + 1) * sizeof *xv);
  int k = 0, ok = ind && val && xv;
  if (!ok) snprintf(why, len, "out of memory");
  for (int32_t j = 1; ok && j <= lp->cols; j++) {
    glp_set_obj_coef(P, j, lp->obj[j] ? 0.0 : 1.0);
    wide a = (wide)lp->obj[j] * out->value.den; /* exact in a double below 2^53 */
    if (a > ((wide)1 << 53) || -a > ((wide)1 << 53))
      snprintf(why, len, "the objective row is not exact in GLPK"), ok = 0;
    else if (a) ind[++k] = j, val[k] = (double)a;
  }
  if (ok && ((wide)out->value.num > ((wide)1 << 53) || -(wide)out->value.num > ((wide)1 << 53)))
    snprintf(why, len, "the optimum is not exact in GLPK"), ok = 0;
  if (ok) {
    int row = glp_add_rows(P, 1);
    glp_set_mat_row(P, row, k, ind, val);
    glp_set_row_bnds(P, row, GLP_LO, (double)out->value.num, 0.0);
    glp_set_obj_dir(P, GLP_MIN);
    ok = !solve_exact(P, why, len);
  }
  for (int32_t j = 1; ok && j <= lp->cols; j++) xv[j] = glp_get_col_prim(P, j);
  tc_rat *rx = ok ? certify_primal(lp, xv, out->value, why, len) : NULL;
  if (rx) memcpy(out->xfloat, xv, ((size_t)lp->cols + 1) * sizeof *xv);
  free(ind);
  free(val);
  free(xv);
  return rx;
}

int tci_lp_solve(const tci_lp *lp, int prefer_least_flow, tci_lp_solution *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  out->xfloat = malloc(((size_t)lp->cols + 1) * sizeof *out->xfloat);
  double *y = malloc(((size_t)lp->rows + 1) * sizeof *y);
  glp_prob *P = glp_create_prob();
  int rc = (!out->xfloat || !y || !P) ? tc_error_set(err, TC_ENOMEM, "lp: out of memory for the solver") : TC_OK;
  int quiet = glp_term_out(GLP_OFF); /* no banner or warning on the terminal, whatever msg_lev */
  if (!rc) {
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_rows(P, lp->rows);
    glp_add_cols(P, lp->cols);
    for (int32_t i = 1; i <= lp->rows; i++) glp_set_row_bnds(P, i, GLP_UP, 0.0, (double)lp->rhs[i]);
    for (int32_t j = 1; j <= lp->cols; j++) {
      glp_set_col_bnds(P, j, GLP_LO, 0.0, 0.0);
      glp_set_obj_coef(P, j, (double)lp->obj[j]);
    }
    glp_load_matrix(P, (int)lp->nnz, lp->ia, lp->ja, lp->ar);
    char why[sizeof out->why_lower];
    if (solve_exact(P, why, sizeof why)) rc = tc_error_set(err, TC_EFAIL, "lp: %s", why);
  }
  if (!rc) {
    out->value_float = glp_get_obj_val(P);
    for (int32_t j = 1; j <= lp->cols; j++) out->xfloat[j] = glp_get_col_prim(P, j);
    for (int32_t i = 1; i <= lp->rows; i++) y[i] = glp_get_row_dual(P, i);
    if (tci_lp_recover(out->value_float, denominator_bound(out->value_float), &out->value)) {
      snprintf(out->why_lower, sizeof out->why_lower, "the optimum %.17g is beyond the recoverable range",
               out->value_float);
      memcpy(out->why_upper, out->why_lower, sizeof out->why_upper);
      out->value = (tc_rat){0, 1};
    } else {
      out->upper = certify_dual(lp, y, out->value, out->why_upper, sizeof out->why_upper);
      /* the first vertex and the least-flow one, in the order asked for */
      char vertex[sizeof out->why_lower] = "", least[sizeof out->why_lower] = "";
      if (!prefer_least_flow) out->x = certify_primal(lp, out->xfloat, out->value, vertex, sizeof vertex);
      if (!out->x) out->resolved = (out->x = least_flow_primal(lp, P, out, least, sizeof least)) != NULL;
      if (!out->x && prefer_least_flow) out->x = certify_primal(lp, out->xfloat, out->value, vertex, sizeof vertex);
      out->lower = out->x != NULL;
      if (!out->lower)
        snprintf(out->why_lower, sizeof out->why_lower, "optimal vertex: %.64s; least-flow optimum: %.56s", vertex,
                 least);
    }
  }
  if (P) glp_delete_prob(P);
  glp_term_out(quiet);
  free(y);
  if (rc) tci_lp_solution_destroy(out);
  return rc;
}
