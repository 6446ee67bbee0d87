/*
** bench_find.c — the finder's speed (paper 000 §5.4 reports "under a minute").
**
**   1. one tc_find (prediction only: the Pareto frontier, nothing built) for N spread up to
**      2000 and d in {2, 4, 8, 16}; target <= 1 s each (paper 000 §5.4: "under a minute");
**   2. the sweep N = 2..2000 at d = 4 (the data of paper 000 Fig. 15), unidirectional and
**      bidirectional; target <= 2 min each;
**   3. for reference, building and verifying every member of the N = 1024, d = 4 frontier
**      (Table 4's five topologies): not a target, the cost of `find --build`.
** Every figure is the median wall time over the runs. The table says which targets hold.
**
** usage: bench_find [runs=5]
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "topocoll/find.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One find; returns its wall time, or -1 on failure (reported). */
static double time_find(int32_t n, int32_t d, int bidirectional, int build, int32_t *members) {
  tc_find_options o = {n, d, bidirectional, build};
  tc_frontier f;
  tc_error err;
  double t0 = now();
  int rc = tc_find(&o, &f, &err);
  double t = now() - t0;
  if (rc) {
    if (rc == TC_EINPUT && bidirectional) return t; /* no bidirectional construction here */
    fprintf(stderr, "bench_find: N=%d d=%d: %s\n", (int)n, (int)d, err.msg);
    return -1;
  }
  if (members) *members = f.count;
  tc_frontier_destroy(&f);
  return t;
}

static int single_finds(int runs) {
  static const int32_t sizes[] = {16, 64, 100, 256, 500, 997, 1000, 1024, 1536, 1680, 1999, 2000};
  static const int32_t degrees[] = {2, 4, 8, 16};
  double *t = malloc((size_t)runs * sizeof *t), worst = 0;
  if (!t) return 1;
  printf("\n1. one find (prediction only), median of %d runs; target <= 1 s each\n\n", runs);
  printf("| N | d=2 (ms) | d=4 (ms) | d=8 (ms) | d=16 (ms) | members (d=2/4/8/16) |\n");
  printf("| ---: | ---: | ---: | ---: | ---: | --- |\n");
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    char cells[4][16], members[64];
    int at = 0;
    for (size_t j = 0; j < 4; j++) {
      int32_t count = 0;
      for (int r = 0; r < runs; r++)
        if ((t[r] = time_find(sizes[i], degrees[j], 0, 0, &count)) < 0) return free(t), 1;
      double m = median(t, runs);
      if (m > worst) worst = m;
      snprintf(cells[j], sizeof cells[j], "%.1f", m * 1e3);
      at += snprintf(members + at, sizeof members - (size_t)at, "%s%d", j ? "/" : "", (int)count);
    }
    printf("| %d | %s | %s | %s | %s | %s |\n", (int)sizes[i], cells[0], cells[1], cells[2], cells[3], members);
  }
  printf("\nslowest single find: %.1f ms (target 1000 ms): %s\n", worst * 1e3, worst <= 1.0 ? "met" : "MISSED");
  free(t);
  return 0;
}

static int sweeps(int runs) {
  double *t = malloc((size_t)runs * sizeof *t);
  if (!t) return 1;
  printf("\n2. sweep N = 2..2000 at d = 4 (Fig. 15), median of %d runs; target <= 120 s\n\n", runs);
  printf("| sweep | total (s) | slowest N (ms) | target |\n| --- | ---: | ---: | --- |\n");
  for (int bidir = 0; bidir <= 1; bidir++) {
    double slowest = 0;
    for (int r = 0; r < runs; r++) {
      double t0 = now();
      for (int32_t n = 2; n <= 2000; n++) {
        double one = time_find(n, 4, bidir, 0, NULL);
        if (one < 0) return free(t), 1;
        if (one > slowest) slowest = one;
      }
      t[r] = now() - t0;
    }
    double m = median(t, runs);
    printf("| %s | %.2f | %.1f | %s |\n", bidir ? "bidirectional" : "unidirectional", m, slowest * 1e3,
           m <= 120 ? "met" : "MISSED");
  }
  free(t);
  return 0;
}

static int build_1024(int runs) {
  double *t = malloc((size_t)runs * sizeof *t);
  if (!t) return 1;
  int32_t members = 0;
  for (int r = 0; r < runs; r++)
    if ((t[r] = time_find(1024, 4, 0, 1, &members)) < 0) return free(t), 1;
  printf("\n3. find --build at N = 1024, d = 4: %d members built, verified and measured in %.2f s "
         "(median of %d)\n",
         (int)members, median(t, runs), runs);
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 5;
  if (runs < 1) runs = 1;
  printf("bench_find: topology finder (paper 000 §5.4)\n");
  if (single_finds(runs) || sweeps(runs < 3 ? runs : 3) || build_1024(runs < 3 ? runs : 3)) return 1;
  return 0;
}
