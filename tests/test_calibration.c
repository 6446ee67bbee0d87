/*
** test_calibration.c — the calibration of fit.h (issue #14 §8): α and the link bandwidth
** from measured times, to a file and back.
**   - times equal to the model on torus(3,3)'s BFB allreduce cost (4 steps, 16/9, degree
**     4) at α = 7 µs, b = 3.125 GB/s give both back to 1e-12 and max_rel_err 0; times 2 %
**     above it give α and 1/b 2 % high with max_rel_err 0 (a uniform scale is the model);
**   - refusals: times that shrink with the size (negative slope), times whose line has a
**     negative intercept (α < 0), each with its one line, the values by hand;
**   - the file: written values read back bit for bit (%.17g), the source escaped; the reader
**     refuses another format, a missing or negative alpha_s, a zero bandwidth and an
**     unknown key, naming the file and the key.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_files.h"
#include "topocoll/fit.h"

static tc_cost torus_cost(void) {
  tc_cost c;
  memset(&c, 0, sizeof c);
  c.steps = 4;
  c.degree = 4;
  c.tau = (tc_rat){16, 9};
  c.tau_optimal = (tc_rat){16, 9};
  c.moore_steps = 4;
  return c;
}

static void assert_rel(double got, double want, double tol) {
  if (!(fabs(got - want) <= tol * fabs(want))) fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

static void fit_recovers_the_model(void **state) {
  (void)state;
  tc_cost c = torus_cost();
  const double alpha = 7e-6, bw = 3.125e9;
  double m[6], t[6];
  for (int i = 0; i < 6; i++) {
    m[i] = 1024.0 * (1 << (3 * i)); /* 1 KiB .. 32 MiB */
    t[i] = tc_cost_time(&c, alpha, bw, m[i]);
  }
  tc_calibration cal;
  tc_error err;
  assert_int_equal(tc_calibration_fit(&c, m, t, 6, &cal, &err), TC_OK);
  assert_rel(cal.alpha_s, alpha, 1e-12);
  assert_rel(cal.link_bw, bw, 1e-12);
  assert_int_equal(cal.sizes, 6);
  assert_true(cal.max_rel_err < 1e-12);
  for (int i = 0; i < 6; i++) t[i] *= 1.02;
  assert_int_equal(tc_calibration_fit(&c, m, t, 6, &cal, &err), TC_OK);
  assert_rel(cal.alpha_s, alpha * 1.02, 1e-12);
  assert_rel(cal.link_bw, bw / 1.02, 1e-12);
  assert_true(cal.max_rel_err < 1e-12);
}

static void fit_refusals(void **state) {
  (void)state;
  tc_cost c = torus_cost();
  tc_calibration cal;
  tc_error err;
  /* (1e3 B, 2 ms) and (1e6 B, 1 ms): slope -1e-3/999e3 = -1.001e-9 s/B */
  const double m[] = {1e3, 1e6}, shrinking[] = {2e-3, 1e-3};
  assert_int_equal(tc_calibration_fit(&c, m, shrinking, 2, &cal, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the measured times do not grow with the size (slope -1e-09 s/B): no bandwidth to "
                               "fit; measure larger sizes");
  /* (1e3 B, 0.5 us) and (1e6 B, 1 ms): slope 999.5e-6/999e3, intercept 0.5e-6 - 1e3 slope =
     -5.005e-7 s over 4 steps: alpha -1.25e-7 s */
  const double below[] = {0.5e-6, 1e-3};
  assert_int_equal(tc_calibration_fit(&c, m, below, 2, &cal, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the measured times fit a negative alpha (-1.25e-07 s): they do not follow the "
                               "alpha-beta model; measure more sizes or more iterations");
  assert_true(cal.alpha_s == 0 && cal.link_bw == 0); /* outputs left empty */
}

static int setup(void **state) { return tc_tmpdir_setup(state, "tc-calibration"); }

static void write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static void file_round_trip(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "cal.json", path, sizeof path);
  tc_calibration cal = {1.0 / 3 * 1e-5, 2.9e9 / 7, 0.0123, 11}, back;
  tc_error err;
  assert_int_equal(tc_calibration_write(&cal, "run \"x\\y\".json", path, &err), TC_OK);
  assert_int_equal(tc_calibration_read(path, &back, &err), TC_OK);
  assert_true(back.alpha_s == cal.alpha_s && back.link_bw == cal.link_bw && back.max_rel_err == cal.max_rel_err);
  assert_int_equal(back.sizes, 11);
  FILE *fp = fopen(path, "r");
  char text[1024];
  size_t n = fread(text, 1, sizeof text - 1, fp);
  fclose(fp);
  text[n] = '\0';
  assert_non_null(strstr(text, "\"source\": \"run \\\"x\\\\y\\\".json\""));
  /* only alpha and the bandwidth are required */
  write_text(path, "{\"format\": \"topocoll-calibration\", \"version\": 1, \"alpha_s\": 0, \"link_bw_Bps\": 5}");
  assert_int_equal(tc_calibration_read(path, &back, &err), TC_OK);
  assert_true(back.alpha_s == 0 && back.link_bw == 5 && back.sizes == 0);
}

static void reader_refusals(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX], want[PATH_MAX + 128];
  tc_tmpdir_path(f, "bad.json", path, sizeof path);
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"{\"format\": \"topocoll-calibration\", \"version\": 1, \"link_bw_Bps\": 5}", "alpha_s: missing"},
      {"{\"format\": \"topocoll-calibration\", \"version\": 1, \"alpha_s\": -1e-6, \"link_bw_Bps\": 5}",
       "alpha_s: -9.9999999999999995e-07 must be >= 0"},
      {"{\"format\": \"topocoll-calibration\", \"version\": 1, \"alpha_s\": 1e-6, \"link_bw_Bps\": 0}",
       "link_bw_Bps: 0 must be > 0"},
      {"{\"format\": \"topocoll-calibration\", \"version\": 1, \"alpha_s\": 1e-6, \"link_bw_Bps\": \"fast\"}",
       "link_bw_Bps: expected a number"},
      {"{\"format\": \"topocoll-calibration\", \"version\": 1, \"alpha_s\": 1e-6, \"link_bw_Bps\": 5, \"beta\": 1}",
       "beta"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_text(path, cases[i].text);
    tc_calibration back;
    tc_error err;
    assert_int_equal(tc_calibration_read(path, &back, &err), TC_EINPUT);
    snprintf(want, sizeof want, "%s: ", path);
    if (strncmp(err.msg, want, strlen(want)) || !strstr(err.msg, cases[i].msg))
      fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
    assert_true(back.alpha_s == 0 && back.link_bw == 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fit_recovers_the_model),
      cmocka_unit_test(fit_refusals),
      cmocka_unit_test_setup_teardown(file_round_trip, setup, tc_tmpdir_teardown),
      cmocka_unit_test_setup_teardown(reader_refusals, setup, tc_tmpdir_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
