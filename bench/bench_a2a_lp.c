/*
** bench_a2a_lp.c — the LP engine's two backends on the all-to-all master LP (paper 003
** §3.1.2, eqs. (6)-(9); src/a2a/master.c): Clp against GLPK for N = 16 .. 128 on GenKautz
** of degree 4, tori and hypercubes. Each case is solved `runs` times per engine (a cold
** solve each time) and the median wall time is reported with the ratio GLPK/Clp; both
** engines' F must agree to 1e-9, or the row is marked and the exit status is 1. The faster
** engine on these is the default of `topocoll a2a` (docs/alltoall.md).
**
** usage: bench_a2a_lp [runs=3] [max_n=128]
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "a2a/a2a_internal.h"
#include "topocoll/spec.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* median time of `runs` cold master solves; F of the last */
static int time_master(const tc_graph *g, tci_lp_engine e, int runs, double *median, double *f, int64_t *cols) {
  double t[16];
  tc_rat none = {0, 1};
  for (int r = 0; r < runs; r++) {
    tci_a2a_lp_answer ans;
    tc_error err;
    double t0 = now();
    if (tci_a2a_master_solve(g, e, none, NULL, 0, &ans, &err)) {
      fprintf(stderr, "bench_a2a_lp: %s\n", err.msg);
      return 1;
    }
    t[r] = now() - t0;
    *f = ans.f;
    *cols = ans.cols;
    tci_a2a_lp_answer_destroy(&ans);
  }
  qsort(t, (size_t)runs, sizeof t[0], cmp_double);
  *median = t[runs / 2];
  return 0;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 3;
  int max_n = argc > 2 ? atoi(argv[2]) : 128;
  if (runs < 1 || runs > 15) runs = 3;
  static const struct { const char *spec; int n; } cases[] = {
      {"genkautz(4,16)", 16},  {"genkautz(4,32)", 32}, {"genkautz(4,64)", 64}, {"genkautz(4,128)", 128},
      {"torus(4,4)", 16},      {"torus(3,3,3)", 27},   {"torus(8,8)", 64},     {"torus(4,4,8)", 128},
      {"hypercube(4)", 16},    {"hypercube(5)", 32},   {"hypercube(6)", 64},   {"hypercube(7)", 128},
  };
  printf("## all-to-all master LP (6)-(9): Clp vs GLPK, median of %d cold solves\n\n", runs);
  printf("| graph | N | columns | F | clp s | glpk s | glpk / clp |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  int status = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cases[i].n > max_n) continue;
    tc_graph *g;
    tc_error err;
    if (tc_spec_build(cases[i].spec, &g, &err)) {
      fprintf(stderr, "bench_a2a_lp: %s\n", err.msg);
      return 1;
    }
    double tc, tg, fc, fg;
    int64_t cols;
    if (time_master(g, TCI_LP_CLP, runs, &tc, &fc, &cols) || time_master(g, TCI_LP_GLPK, runs, &tg, &fg, &cols)) {
      tc_graph_destroy(g);
      return 1;
    }
    int agree = fabs(fc - fg) <= 1e-9 * fmax(1, fabs(fc));
    if (!agree) status = 1;
    printf("| %s | %d | %lld | %.9f%s | %.3f | %.3f | %.2f |\n", cases[i].spec, g->n, (long long)cols, fc,
           agree ? "" : " (engines disagree)", tc, tg, tg / tc);
    fflush(stdout);
    tc_graph_destroy(g);
  }
  return status;
}
