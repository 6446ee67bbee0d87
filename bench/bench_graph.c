/*
** bench_graph.c — the graph core's performance targets, measured: all-pairs BFS (diameter +
** distance histogram) of genkautz(4,10000) and torus(100,100), and building
** genkautz(4,1000000) (the spec's default loops=keep: exactly what tests/test_topo_kautz.c
** builds and checks, whose time is measured here rather than asserted there). Each case
** runs in a fresh child process so its peak RSS is its own; the parent reports the median
** wall time of the runs and the largest peak RSS.
**
** usage: bench_graph [runs=5]     (OMP_NUM_THREADS controls the cores used)
*/
#define _DEFAULT_SOURCE /* wait4: per-child peak RSS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "topocoll/metrics.h"
#include "topocoll/spec.h"

typedef struct bench_case {
  const char *what, *spec;
  int all_pairs;      /* 1: time build + all-pairs; 0: time the build only */
  double target_s;
  double target_mb;   /* 0: no memory target */
} bench_case;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Child: run once, write "seconds checksum" to fd. */
static int run_once(const bench_case *c, int fd) {
  tc_error err;
  tc_graph *g = NULL;
  double t0 = now();
  if (tc_spec_build(c->spec, &g, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
  long long check = g->m;
  double t1 = now();
  if (c->all_pairs) {
    tc_distance_stats s;
    if (tc_graph_distance_stats(g, &s, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    check = s.diameter * 1000000007LL + s.distance_sum;
    tc_distance_stats_destroy(&s);
  }
  double t2 = now();
  tc_graph_destroy(g);
  dprintf(fd, "%.6f %.6f %lld\n", t1 - t0, t2 - t1, check);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 5;
  if (runs < 1 || runs > 100) { fprintf(stderr, "bench_graph: runs must be 1..100\n"); return 2; }
  const bench_case cases[] = {
      {"all-pairs BFS", "genkautz(4,10000)", 1, 2.0, 200},
      {"all-pairs BFS", "torus(100,100)", 1, 2.0, 200},
      {"build", "genkautz(4,1000000)", 0, 1.0, 0},
  };
  printf("| case | spec | median s (of %d) | target s | ratio to target | peak RSS MB | target MB | result |\n", runs);
  printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  int all_ok = 1;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bench_case *c = &cases[i];
    double times[100], peak_mb = 0;
    long long check = -1;
    for (int r = 0; r < runs; r++) {
      int pipefd[2];
      if (pipe(pipefd)) return 1;
      pid_t pid = fork();
      if (pid == 0) { close(pipefd[0]); _exit(run_once(c, pipefd[1])); }
      close(pipefd[1]);
      char buf[128] = {0};
      ssize_t got = read(pipefd[0], buf, sizeof buf - 1);
      close(pipefd[0]);
      int status;
      struct rusage ru;
      wait4(pid, &status, 0, &ru);
      double build_s, ap_s;
      if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) ||
          sscanf(buf, "%lf %lf %lld", &build_s, &ap_s, &check) != 3) {
        fprintf(stderr, "bench_graph: case %s failed\n", c->spec);
        return 1;
      }
      times[r] = c->all_pairs ? build_s + ap_s : build_s;
      if (ru.ru_maxrss / 1024.0 > peak_mb) peak_mb = ru.ru_maxrss / 1024.0;
    }
    qsort(times, (size_t)runs, sizeof times[0], cmp_double);
    double med = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
    int ok = med <= c->target_s && (c->target_mb == 0 || peak_mb <= c->target_mb);
    all_ok &= ok;
    char mb_target[32] = "-";
    if (c->target_mb > 0) snprintf(mb_target, sizeof mb_target, "%.0f", c->target_mb);
    printf("| %s | %s | %.3f | %.1f | %.3f | %.1f | %s | %s |\n", c->what, c->spec, med, c->target_s,
           med / c->target_s, peak_mb, mb_target, ok ? "met" : "MISSED");
  }
  return all_ok ? 0 : 1;
}
