/*
** lp_exact.h — an integer LP in the one form LP (6) needs, solved by GLPK, and the exact
** certificate of its optimum. Internal.
**
** The form is   max c·x   s.t.   A x <= b,   x >= 0,   with c, A, b integers and b >= 0. Then
** x = 0 is feasible and the optimum, when finite, is a rational p/q. GLPK's floating simplex
** finds an optimal basis and its rational simplex (glp_exact) makes that basis exactly
** optimal, but hands the values back as doubles. tci_lp_solve recovers p/q and every primal
** and dual value as a fraction of bounded denominator, then checks in exact rational
** arithmetic (128 bits, every operation overflow-checked):
**   - the primal: x >= 0, every row A_i x <= b_i, and c·x = p/q;
**   - the dual:   y >= 0, every column (A^T y)_j >= c_j, and b·y = p/q.
** By weak duality p/q is then the optimum, whatever GLPK did: the check is the certificate,
** and no wrong value can pass it. When it fails (a value with no fraction of small enough
** denominator, a sum beyond 128 bits, a violated row or column) the solution
** says so — `certified` is 0 and `why` names the first check that failed — and p/q is only
** the fraction nearest GLPK's double, never claimed exact.
*/
#ifndef TC_FOREST_LP_EXACT_H
#define TC_FOREST_LP_EXACT_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/rational.h"

/* The matrix as coordinate entries, 1-based as GLPK loads them (slot 0 unused). Each
   (row, column) pair is written at most once (GLPK aborts on duplicates). */
typedef struct tci_lp {
  int32_t rows, cols;
  int64_t nnz, room; /* entries written / allocated */
  int *ia, *ja;      /* room + 1: row and column of entry k (1..nnz) */
  double *ar;        /* room + 1: coefficient of entry k, an integer */
  int64_t *rhs;      /* rows + 1: b_i >= 0 */
  int64_t *obj;      /* cols + 1: c_j */
} tci_lp;

typedef struct tci_lp_solution {
  double value_float;  /* GLPK's optimum after glp_exact */
  tc_rat value;        /* p/q, the fraction nearest value_float */
  int lower;           /* 1: the primal was checked exactly: the optimum is >= p/q */
  int upper;           /* 1: the dual was checked exactly: the optimum is <= p/q */
  int resolved;        /* 1: x is the least-flow optimum (tci_lp_solve) */
  char why_lower[160]; /* when lower is 0: the first check of the primal that failed */
  char why_upper[160]; /* when upper is 0: the first check of the dual that failed */
  double *xfloat;      /* cols + 1: GLPK's primal (slot 0 unused) */
  tc_rat *x;           /* when lower, cols + 1: the exact primal; else NULL */
} tci_lp_solution;

/* An LP of rows x cols with room for nnz entries, all zero. Sizes must fit GLPK's int. */
int tci_lp_init(tci_lp *lp, int64_t rows, int64_t cols, int64_t nnz, tc_error *err);
void tci_lp_destroy(tci_lp *lp);
/* Entry (row, col) = a. TC_EFAIL (a caller bug, never the user's) beyond the room or sizes. */
int tci_lp_entry(tci_lp *lp, int64_t row, int64_t col, int a, tc_error *err);

/* Solve with GLPK, its terminal output off, then certify as above. The primal checked is the
   optimal vertex GLPK stops at and, when that one cannot be recovered (or first, with
   prefer_least_flow), the optimal solution with the least total of the variables outside
   the objective: a sparser vertex, usually with small denominators, found by solving once
   more. An LP that GLPK does not solve to optimality (unbounded, or the solver fails) is
   TC_EFAIL naming GLPK's status. */
int tci_lp_solve(const tci_lp *lp, int prefer_least_flow, tci_lp_solution *out, tc_error *err);
void tci_lp_solution_destroy(tci_lp_solution *s);

/* The last continued-fraction convergent of v whose denominator is <= maxden. If v is a
   fraction p/q rounded to a double, q <= maxden and the rounding error is below
   1/(2·maxden^2), this is exactly p/q (Legendre: p/q is a convergent of v, and the next
   partial quotient is so large that the next convergent's denominator exceeds maxden).
   Returns 1, recovering nothing, when v is not finite or |v| >= 2^38. */
int tci_lp_recover(double v, int64_t maxden, tc_rat *out);

#endif
