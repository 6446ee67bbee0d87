/*
** test_lp.c — the LP engine (src/lp/lp.h) on both backends, against LPs solved by hand.
**
** What is checked, for Clp and for GLPK alike:
**   - max 3x + 2y  s.t.  x + y <= 4, x + 3y <= 7, x <= 3 (a row): optimum 11 at (3, 1), row
**     duals (2, 0, 1), reduced costs (0, 0), activities (4, 6, 3) — and the same LP with the
**     first row written -x - y >= -4, whose dual is then -2: the ONE sign convention of lp.h
**     (dual = d objective / d rhs) for <= and >= rows;
**   - min 2x + 3y  s.t.  x + y >= 4, 0 <= x <= 3 (a column bound): optimum 9 at (3, 1), dual 3,
**     reduced costs (-1, 0) — a minimization, and a column at its upper bound;
**   - warm starts on the first LP: a column that must stay out (obj 1, entries 1 and 1:
**     reduced cost -1), then one that must enter (obj 5 on the first row: optimum 20, duals
**     (5, 0, 0), reduced costs -2, -3, -4, 0), then deleting it (back to 11), then adding the
**     row x <= 2 (dual simplex: optimum 19/2 at x, y, z = 2, 3/2, 1/2, duals (1/2, 1/2, 0, 2));
**   - detection: x + y >= 5 with x + y <= 4 is infeasible, max x with x - y <= 1 unbounded;
**   - bad arguments are refused with one line and change nothing: a column index out of
**     range, a column named twice in a row, lo > hi, deleting a column twice; unknown
**     engine names.
*/
#include <math.h>
#include <stdio.h>

#include "tc_test.h"
#include "lp/lp.h"

#define EPS 1e-7
#define INF TCI_LP_INF

static const tci_lp_engine engines[] = {TCI_LP_CLP, TCI_LP_GLPK};

static void near(double got, double want, const char *what, tci_lp_engine e) {
  if (fabs(got - want) > EPS) fail_msg("%s: %s is %.12g, expected %.12g", tci_lp_engine_name(e), what, got, want);
}

static void solve_expect(tci_lp_model *lp, tci_lp_status want) {
  tci_lp_status st;
  tc_error err;
  assert_int_equal(tci_lp_optimize(lp, &st, &err), TC_OK);
  if (st != want)
    fail_msg("%s: status %s, expected %s", tci_lp_engine_name(tci_lp_engine_of(lp)), tci_lp_status_name(st),
             tci_lp_status_name(want));
}

static void check_vec(tci_lp_model *lp, const double *got, const double *want, int n, const char *what) {
  char name[64];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "%s[%d]", what, i);
    near(got[i], want[i], name, tci_lp_engine_of(lp));
  }
}

/* max 3x + 2y s.t. r0, x + 3y <= 7, x <= 3, where r0 is x + y <= 4 or -x - y >= -4. */
static tci_lp_model *first_lp(tci_lp_engine e, int ge_form) {
  tci_lp_model *lp;
  tc_error err;
  assert_int_equal(tci_lp_create(e, 1, &lp, &err), TC_OK);
  double lo[3] = {ge_form ? -4 : -INF, -INF, -INF}, hi[3] = {ge_form ? INF : 4, 7, 3};
  assert_int_equal(tci_lp_add_rows(lp, 3, lo, hi, NULL, NULL, NULL, &err), TC_OK);
  double s = ge_form ? -1 : 1;
  double obj[2] = {3, 2}, val[5] = {s, 1, 1, s, 3};
  int64_t start[3] = {0, 3, 5};
  int32_t row[5] = {0, 1, 2, 0, 1};
  assert_int_equal(tci_lp_add_cols(lp, 2, obj, NULL, NULL, start, row, val, &err), TC_OK);
  return lp;
}

static void test_max_duals(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++)
    for (int ge = 0; ge < 2; ge++) {
      tci_lp_model *lp = first_lp(engines[k], ge);
      solve_expect(lp, TCI_LP_OPTIMAL);
      near(tci_lp_objective(lp), 11, "objective", engines[k]);
      check_vec(lp, tci_lp_primal(lp), (double[]){3, 1}, 2, "x");
      check_vec(lp, tci_lp_row_duals(lp), (double[]){ge ? -2 : 2, 0, 1}, 3, "y");
      check_vec(lp, tci_lp_reduced_costs(lp), (double[]){0, 0}, 2, "d");
      check_vec(lp, tci_lp_row_activity(lp), (double[]){ge ? -4 : 4, 6, 3}, 3, "Ax");
      tci_lp_free(lp);
    }
}

static void test_min_upper_bound(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    tci_lp_model *lp;
    tc_error err;
    assert_int_equal(tci_lp_create(engines[k], 0, &lp, &err), TC_OK);
    assert_int_equal(tci_lp_add_rows(lp, 1, (double[]){4}, (double[]){INF}, NULL, NULL, NULL, &err), TC_OK);
    int64_t start[3] = {0, 1, 2};
    int32_t row[2] = {0, 0};
    assert_int_equal(tci_lp_add_cols(lp, 2, (double[]){2, 3}, (double[]){0, 0}, (double[]){3, INF}, start, row,
                                     (double[]){1, 1}, &err),
                     TC_OK);
    solve_expect(lp, TCI_LP_OPTIMAL);
    near(tci_lp_objective(lp), 9, "objective", engines[k]);
    check_vec(lp, tci_lp_primal(lp), (double[]){3, 1}, 2, "x");
    check_vec(lp, tci_lp_row_duals(lp), (double[]){3}, 1, "y");
    check_vec(lp, tci_lp_reduced_costs(lp), (double[]){-1, 0}, 2, "d");
    tci_lp_free(lp);
  }
}

static void test_warm_start(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    tc_error err;
    tci_lp_model *lp = first_lp(engines[k], 0);
    solve_expect(lp, TCI_LP_OPTIMAL);
    /* z: obj 1, in rows 0 and 1 — stays out */
    int64_t start[2] = {0, 2};
    assert_int_equal(tci_lp_add_cols(lp, 1, (double[]){1}, NULL, NULL, start, (int32_t[]){0, 1}, (double[]){1, 1}, &err),
                     TC_OK);
    solve_expect(lp, TCI_LP_OPTIMAL);
    near(tci_lp_objective(lp), 11, "objective with z", engines[k]);
    check_vec(lp, tci_lp_reduced_costs(lp), (double[]){0, 0, -1}, 3, "d with z");
    /* w: obj 5 in row 0 — enters */
    int64_t start1[2] = {0, 1};
    assert_int_equal(tci_lp_add_cols(lp, 1, (double[]){5}, NULL, NULL, start1, (int32_t[]){0}, (double[]){1}, &err),
                     TC_OK);
    assert_int_equal(tci_lp_cols(lp), 4);
    solve_expect(lp, TCI_LP_OPTIMAL);
    near(tci_lp_objective(lp), 20, "objective with w", engines[k]);
    check_vec(lp, tci_lp_primal(lp), (double[]){0, 0, 0, 4}, 4, "x with w");
    check_vec(lp, tci_lp_row_duals(lp), (double[]){5, 0, 0}, 3, "y with w");
    check_vec(lp, tci_lp_reduced_costs(lp), (double[]){-2, -3, -4, 0}, 4, "d with w");
    /* delete w (basic): back to 11 */
    assert_int_equal(tci_lp_del_cols(lp, 1, (int32_t[]){3}, &err), TC_OK);
    assert_int_equal(tci_lp_cols(lp), 3);
    solve_expect(lp, TCI_LP_OPTIMAL);
    near(tci_lp_objective(lp), 11, "objective without w", engines[k]);
    check_vec(lp, tci_lp_primal(lp), (double[]){3, 1, 0}, 3, "x without w");
    /* row x <= 2: dual simplex */
    int64_t rstart[2] = {0, 1};
    assert_int_equal(tci_lp_add_rows(lp, 1, (double[]){-INF}, (double[]){2}, rstart, (int32_t[]){0}, (double[]){1}, &err),
                     TC_OK);
    solve_expect(lp, TCI_LP_OPTIMAL);
    near(tci_lp_objective(lp), 9.5, "objective with x <= 2", engines[k]);
    check_vec(lp, tci_lp_primal(lp), (double[]){2, 1.5, 0.5}, 3, "x with x <= 2");
    check_vec(lp, tci_lp_row_duals(lp), (double[]){0.5, 0.5, 0, 2}, 4, "y with x <= 2");
    tci_lp_free(lp);
  }
}

static void test_infeasible_unbounded(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    tc_error err;
    tci_lp_model *lp;
    assert_int_equal(tci_lp_create(engines[k], 1, &lp, &err), TC_OK);
    int64_t start[3] = {0, 2, 4};
    assert_int_equal(tci_lp_add_cols(lp, 2, (double[]){1, 1}, NULL, NULL, NULL, NULL, NULL, &err), TC_OK);
    assert_int_equal(tci_lp_add_rows(lp, 2, (double[]){5, -INF}, (double[]){INF, 4}, start, (int32_t[]){0, 1, 0, 1},
                                     (double[]){1, 1, 1, 1}, &err),
                     TC_OK);
    solve_expect(lp, TCI_LP_INFEASIBLE);
    tci_lp_free(lp);

    assert_int_equal(tci_lp_create(engines[k], 1, &lp, &err), TC_OK);
    assert_int_equal(tci_lp_add_cols(lp, 2, (double[]){1, 0}, NULL, NULL, NULL, NULL, NULL, &err), TC_OK);
    int64_t s1[2] = {0, 2};
    assert_int_equal(tci_lp_add_rows(lp, 1, (double[]){-INF}, (double[]){1}, s1, (int32_t[]){0, 1}, (double[]){1, -1}, &err),
                     TC_OK);
    solve_expect(lp, TCI_LP_UNBOUNDED);
    tci_lp_free(lp);
  }
}

static void test_refusals(void **state) {
  (void)state;
  for (int k = 0; k < 2; k++) {
    tc_error err;
    tci_lp_model *lp = first_lp(engines[k], 0);
    int64_t start[2] = {0, 2};
    assert_int_equal(tci_lp_add_rows(lp, 1, (double[]){0}, (double[]){1}, start, (int32_t[]){0, 2}, (double[]){1, 1}, &err),
                     TC_EFAIL);
    assert_string_equal(err.msg, "lp: row 0 names column 2 of 2");
    assert_int_equal(tci_lp_add_rows(lp, 1, (double[]){0}, (double[]){1}, start, (int32_t[]){1, 1}, (double[]){1, 1}, &err),
                     TC_EFAIL);
    assert_string_equal(err.msg, "lp: row 0 names column 1 twice");
    assert_int_equal(tci_lp_add_rows(lp, 1, (double[]){2}, (double[]){1}, NULL, NULL, NULL, &err), TC_EFAIL);
    assert_string_equal(err.msg, "lp: row 3 has bounds [2, 1]");
    assert_int_equal(tci_lp_del_cols(lp, 2, (int32_t[]){1, 1}, &err), TC_EFAIL);
    assert_string_equal(err.msg, "lp: column 1 deleted twice");
    assert_int_equal(tci_lp_rows(lp), 3);
    assert_int_equal(tci_lp_cols(lp), 2);
    solve_expect(lp, TCI_LP_OPTIMAL);
    near(tci_lp_objective(lp), 11, "objective after refusals", engines[k]);
    tci_lp_free(lp);
  }
  tci_lp_engine e;
  tc_error err;
  assert_int_equal(tci_lp_engine_parse("glpk", &e, &err), TC_OK);
  assert_int_equal(e, TCI_LP_GLPK);
  assert_int_equal(tci_lp_engine_parse("cplex", &e, &err), TC_EINPUT);
  assert_string_equal(err.msg, "unknown LP engine 'cplex' (clp|glpk)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_max_duals),          cmocka_unit_test(test_min_upper_bound),
      cmocka_unit_test(test_warm_start),         cmocka_unit_test(test_infeasible_unbounded),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
