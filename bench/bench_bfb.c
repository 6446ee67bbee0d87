/*
** bench_bfb.c — generate + verify the optimal BFB allgather at paper 000
** Table 6 sizes (hypercube(10), torus(50,50)) and beyond (genkautz(4,4096), torus(100,100)),
** against our targets and the paper's reported times; plus the same per-(u,t) LPs
** solved by GLPK's simplex, side by side with the exact max-flow solver.
**
** Every measurement runs in a fresh child process so its peak RSS is its own; the parent
** prints the median wall time over the runs and the largest peak RSS. Columns:
**   gen, verify     tc_bfb_allgather, and tc_schedule_sort + tc_schedule_verify as every
**                   pipeline runs them (tc_collective_build) (medians); total = their sum
**                   per run, median; the targets and the paper's times refer to it;
**   exact LPs       tc_bfb_optima: every U*_{u,t} solved exactly, no schedule written;
**   GLPK LPs        tci_bfb_optima_glpk: the same LPs (1) built and solved by GLPK on one
**                   thread (GLPK is not used concurrently), with the largest deviation from
**                   the exact optima; "-" where skipped as too slow (say so in the table).
** The paper's times (52.7 s, 61.1 s) are its LP-based generator on its hardware; the ratio
** column is paper time / our total.
**
** usage: bench_bfb [runs=5] [glpk=1]   (glpk=0 skips the GLPK side; OMP_NUM_THREADS sets
**                                       the cores the exact side uses)
*/
#define _DEFAULT_SOURCE /* wait4: per-child peak RSS */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "topocoll/bfb.h"
#include "synth/bfb_internal.h"
#include "topocoll/cost.h"
#include "topocoll/spec.h"
#include "topocoll/verify.h"

typedef struct bench_case {
  const char *spec;
  double target_s; /* generate + verify */
  double paper_s;  /* paper 000 Table 6, 0 if not reported */
  int glpk;        /* 1: also time the GLPK side */
} bench_case;

/* What a "main" child reports. */
typedef struct main_result {
  double gen_s, verify_s, exact_s;
  long long transfers, units, tau_num, tau_den;
  int steps, bw_optimal;
} main_result;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(const char *what, const tc_error *err) {
  fprintf(stderr, "bench_bfb: %s: %s\n", what, err->msg);
  return 1;
}

/* Child: generate, verify, measure; then the exact optima alone. */
static int run_main(const bench_case *c, int fd) {
  tc_error err;
  tc_graph *g = NULL;
  if (tc_spec_build(c->spec, &g, &err)) return fail(c->spec, &err);
  main_result r = {0};
  tc_schedule s;
  double t0 = now();
  if (tc_bfb_allgather(g, &s, NULL, &err)) return fail("bfb", &err);
  double t1 = now();
  tc_schedule_sort(&s); /* every pipeline verifies in canonical order (tc_collective_build) */
  if (tc_schedule_verify(g, &s, &err)) return fail("verify", &err);
  double t2 = now();
  tc_cost cost;
  if (tc_schedule_cost(g, &s, &cost, &err)) return fail("cost", &err);
  r.gen_s = t1 - t0;
  r.verify_s = t2 - t1;
  r.transfers = s.count;
  r.units = s.units;
  r.steps = s.steps;
  r.tau_num = cost.tau.num;
  r.tau_den = cost.tau.den;
  r.bw_optimal = cost.bw_optimal;
  tc_cost_destroy(&cost);
  tc_schedule_destroy(&s);
  tc_rat *U = NULL;
  int32_t D;
  double t3 = now();
  if (tc_bfb_optima(g, &U, &D, &err)) return fail("optima", &err);
  r.exact_s = now() - t3;
  free(U);
  tc_graph_destroy(g);
  dprintf(fd, "%.6f %.6f %.6f %lld %lld %lld %lld %d %d\n", r.gen_s, r.verify_s, r.exact_s, r.transfers, r.units,
          r.tau_num, r.tau_den, r.steps, r.bw_optimal);
  return 0;
}

/* Child: all LPs by GLPK, and the largest deviation from the exact optima. */
static int run_glpk(const bench_case *c, int fd) {
  tc_error err;
  tc_graph *g = NULL;
  if (tc_spec_build(c->spec, &g, &err)) return fail(c->spec, &err);
  double *Ug = NULL;
  tc_rat *U = NULL;
  int32_t D, De;
  double t0 = now();
  if (tci_bfb_optima_glpk(g, &Ug, &D, &err)) return fail("glpk", &err);
  double secs = now() - t0, dev = 0;
  if (tc_bfb_optima(g, &U, &De, &err)) return fail("optima", &err);
  if (De != D) {
    fprintf(stderr, "bench_bfb: %s: GLPK and exact disagree on the diameter\n", c->spec);
    return 1;
  }
  for (int64_t i = 0; i < (int64_t)g->n * D; i++) dev = fmax(dev, fabs(Ug[i] - tc_rat_to_double(U[i])));
  free(U);
  free(Ug);
  tc_graph_destroy(g);
  dprintf(fd, "%.6f %.3e\n", secs, dev);
  return 0;
}

/* Run `fn` in a child; its one-line report goes to buf. Returns 0 and the child's peak RSS. */
static int in_child(int (*fn)(const bench_case *, int), const bench_case *c, char *buf, size_t size, double *rss_mb) {
  int pipefd[2];
  if (pipe(pipefd)) return 1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    close(pipefd[0]);
    _exit(fn(c, pipefd[1]));
  }
  close(pipefd[1]);
  size_t got = 0;
  ssize_t k;
  while (got + 1 < size && (k = read(pipefd[0], buf + got, size - 1 - got)) > 0) got += (size_t)k;
  buf[got] = 0;
  close(pipefd[0]);
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) || !got) return 1;
  *rss_mb = ru.ru_maxrss / 1024.0;
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 5, glpk = argc > 2 ? atoi(argv[2]) : 1;
  if (runs < 1 || runs > 100) {
    fprintf(stderr, "bench_bfb: runs must be 1..100\n");
    return 2;
  }
  /* GLPK side of torus(100,100): ~10^6 LPs, several minutes; skipped by default. */
  const bench_case cases[] = {
      {"hypercube(10)", 0.5, 52.7, 1},
      {"torus(50,50)", 0.5, 61.1, 1},
      {"genkautz(4,4096)", 5.0, 0, 1},
      {"torus(100,100)", 30.0, 0, 0},
  };
  printf("BFB allgather, generate + verify (median of %d runs, child processes); GLPK side: 1 run, 1 thread\n\n", runs);
  printf("| spec | steps | tau | bw-opt | transfers | units | gen s | verify s | total s | target s | result | paper s |"
         " paper/total | peak RSS MB | exact LPs s | GLPK LPs s | GLPK/exact | max abs dev |\n");
  printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  int all_ok = 1;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bench_case *c = &cases[i];
    double gen[100], ver[100], tot[100], ex[100], peak = 0, rss;
    main_result r = {0};
    for (int k = 0; k < runs; k++) {
      char buf[512];
      if (in_child(run_main, c, buf, sizeof buf, &rss) ||
          sscanf(buf, "%lf %lf %lf %lld %lld %lld %lld %d %d", &r.gen_s, &r.verify_s, &r.exact_s, &r.transfers, &r.units,
                 &r.tau_num, &r.tau_den, &r.steps, &r.bw_optimal) != 9) {
        fprintf(stderr, "bench_bfb: %s failed\n", c->spec);
        return 1;
      }
      gen[k] = r.gen_s;
      ver[k] = r.verify_s;
      tot[k] = r.gen_s + r.verify_s;
      ex[k] = r.exact_s;
      if (rss > peak) peak = rss;
    }
    double mg = median(gen, runs), mv = median(ver, runs), mt = median(tot, runs), me = median(ex, runs);
    char paper[32] = "-", ratio[32] = "-", gl[32] = "-", glr[32] = "-", dev[32] = "-";
    if (c->paper_s > 0) {
      snprintf(paper, sizeof paper, "%.1f", c->paper_s);
      snprintf(ratio, sizeof ratio, "%.0fx", c->paper_s / mt);
    }
    if (c->glpk && glpk) {
      char buf[256];
      double gs, gdev, grss;
      if (in_child(run_glpk, c, buf, sizeof buf, &grss) || sscanf(buf, "%lf %lf", &gs, &gdev) != 2) {
        fprintf(stderr, "bench_bfb: GLPK side of %s failed\n", c->spec);
        return 1;
      }
      snprintf(gl, sizeof gl, "%.2f", gs);
      snprintf(glr, sizeof glr, "%.0fx", gs / me);
      snprintf(dev, sizeof dev, "%.1e", gdev);
    } else {
      snprintf(gl, sizeof gl, "skipped");
    }
    int ok = mt <= c->target_s;
    all_ok &= ok;
    printf("| %s | %d | %lld/%lld | %s | %lld | %lld | %.3f | %.3f | %.3f | %.1f | %s | %s | %s | %.0f | %.3f | %s | %s | %s |\n",
           c->spec, r.steps, r.tau_num, r.tau_den, r.bw_optimal ? "yes" : "no", r.transfers, r.units, mg, mv, mt,
           c->target_s, ok ? "met" : "MISSED", paper, ratio, peak, me, gl, glr, dev);
    fflush(stdout);
  }
  printf("\nGLPK side of torus(100,100) is skipped: ~10^6 LPs take several minutes on one thread.\n");
  return all_ok ? 0 : 1;
}
