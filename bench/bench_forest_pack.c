/*
** bench_forest_pack.c — Algorithm 5 (src/forest/pack.c, tci_pack_trees) on generated D*:
**   complete   K_n with capacity c on every arc: min_v F(s,v; D_k) >= n·k exactly for k <= c
**              (the cut V - {v}), so k = c; c = 83 is the k of MI250 2×16 (digest-001 §7.2) on a
**              D* of the same 32 nodes;
**   a100-like  n clusters of 8 (the logical graph of dgx_a100(n) after switch removal, k = 1):
**              every GPU has one arc of n - 1 (U·25 with U = 8(n-1)/200, the optimum of the
**              bottleneck cut "all but one cluster") to a GPU of another cluster, a seeded
**              random permutation, and each cluster is a complete digraph with
**              ceil(12(n-1)/7) per arc (a GPU's U·300 = 12(n-1) units of NVSwitch capacity
**              spread over 7 peers). For n = 128 that is 127 and 218. Every node has
**              in = out and each cluster receives 8(n-1) = N - 8: the bottleneck cut is
**              tight, as in the real fabric;
**   random     a random Eulerian digraph (a union of seeded random cycles with random
**              capacities), packed with the largest k its max-flows accept (tci_pack_max_k).
** Every case is checked (spanning batches, Σm = k per root, arc loads <= capacity) and the
** table gives the median wall time of the packing alone, the max-flows it ran and the
** batches it made. Each run is a fresh child process (its own peak RSS).
**
** usage: bench_forest_pack [runs=3] [max_clusters=128]   (OMP_NUM_THREADS: cores used)
*/
#define _DEFAULT_SOURCE /* wait4: per-child peak RSS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forest/pack.h"

typedef struct bench_case {
  const char *kind; /* complete | a100 | random */
  int32_t size;     /* nodes (complete, random) or clusters (a100) */
  int64_t cap;      /* complete: c; random: the capacity range */
} bench_case;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng_next(uint64_t *s) { /* splitmix64: the same stream everywhere */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int build(const bench_case *c, tci_capgraph *d, int64_t *k, tc_error *err) {
  uint64_t seed = 12345;
  if (!strcmp(c->kind, "complete")) {
    int rc = tci_capgraph_init(d, c->size, err);
    for (int32_t u = 0; !rc && u < c->size; u++)
      for (int32_t v = 0; !rc && v < c->size; v++) rc = tci_capgraph_add(d, u, v, c->cap, err);
    *k = c->cap;
    return rc;
  }
  if (!strcmp(c->kind, "a100")) {
    int32_t n = 8 * c->size;
    int64_t inter = c->size - 1, intra = (12 * inter + 6) / 7; /* 127 and 218 for 128 clusters */
    int rc = tci_capgraph_init(d, n, err);
    for (int32_t u = 0; !rc && u < n; u++)
      for (int32_t v = u / 8 * 8; !rc && v < u / 8 * 8 + 8; v++) rc = tci_capgraph_add(d, u, v, intra, err);
    /* A permutation with no GPU sent to its own cluster: shuffle, then repair. */
    int32_t *p = malloc((size_t)n * sizeof *p);
    if (!p) return tc_error_set(err, TC_ENOMEM, "bench: out of memory");
    for (int32_t i = 0; i < n; i++) p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
      int32_t j = (int32_t)(rng_next(&seed) % (uint64_t)(i + 1)), t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    for (int pass = 0; pass < 100; pass++)
      for (int32_t i = 0; i < n; i++)
        if (p[i] / 8 == i / 8) {
          int32_t j = (int32_t)(rng_next(&seed) % (uint64_t)n), t = p[i];
          if (p[j] / 8 != i / 8 && t / 8 != j / 8) {
            p[i] = p[j];
            p[j] = t;
          }
        }
    for (int32_t i = 0; !rc && i < n; i++) rc = tci_capgraph_add(d, i, p[i], inter, err);
    free(p);
    *k = 1;
    return rc;
  }
  int32_t n = c->size;
  int rc = tci_capgraph_init(d, n, err);
  int32_t *p = malloc((size_t)n * sizeof *p);
  if (!p) return tc_error_set(err, TC_ENOMEM, "bench: out of memory");
  for (int cyc = 0; !rc && cyc < 4; cyc++) { /* four random Hamiltonian cycles */
    for (int32_t i = 0; i < n; i++) p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
      int32_t j = (int32_t)(rng_next(&seed) % (uint64_t)(i + 1)), t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    int64_t w = 1 + (int64_t)(rng_next(&seed) % (uint64_t)c->cap);
    for (int32_t i = 0; !rc && i < n; i++) rc = tci_capgraph_add(d, p[i], p[(i + 1) % n], w, err);
  }
  free(p);
  if (!rc) rc = tci_pack_max_k(d, k, err);
  return rc;
}

/* Every invariant of pack.h; returns a message or NULL. */
static const char *check(const tci_capgraph *d, int64_t k, const tci_packing *p) {
  int32_t n = d->n;
  int64_t *per_root = calloc((size_t)n, sizeof *per_root);
  uint8_t *in = calloc((size_t)n, 1);
  tci_capgraph load;
  tc_error err;
  const char *bad = NULL;
  if (!per_root || !in || tci_capgraph_init(&load, n, &err)) bad = "out of memory";
  for (int64_t i = 0; !bad && i < p->count; i++) {
    const tci_batch *b = &p->batch[i];
    memset(in, 0, (size_t)n);
    in[b->root] = 1;
    if (b->nedges != n - 1) bad = "a batch does not span";
    for (int32_t e = 0; !bad && e < b->nedges; e++) {
      if (!in[b->from[e]] || in[b->to[e]]) bad = "an edge out of BFS order";
      else if (tci_capgraph_add(&load, b->from[e], b->to[e], b->mult, &err)) bad = "load overflow";
      in[b->to[e]] = 1;
    }
    per_root[b->root] += b->mult;
  }
  for (int32_t v = 0; !bad && v < n; v++)
    if (per_root[v] != k) bad = "a root does not have k trees";
  for (int64_t a = 0; !bad && a < load.narcs; a++)
    if (load.cap[a] > tci_capgraph_cap(d, load.src[a], load.dst[a])) bad = "an arc is over capacity";
  if (per_root && in) tci_capgraph_destroy(&load);
  free(per_root);
  free(in);
  return bad;
}

static int run_once(const bench_case *c, int fd) {
  tc_error err;
  tci_capgraph d;
  int64_t k;
  if (build(c, &d, &k, &err)) {
    fprintf(stderr, "bench_forest_pack: %s\n", err.msg);
    return 1;
  }
  tci_packing p;
  double t0 = now();
  int rc = tci_pack_trees(&d, k, NULL, &p, &err);
  double t1 = now();
  if (rc) {
    fprintf(stderr, "bench_forest_pack: %s\n", err.msg);
    return 1;
  }
  const char *bad = check(&d, k, &p);
  if (bad) {
    fprintf(stderr, "bench_forest_pack: %s %d: %s\n", c->kind, c->size, bad);
    return 1;
  }
  dprintf(fd, "%.6f %d %lld %lld %lld %lld\n", t1 - t0, d.n, (long long)tci_capgraph_live_arcs(&d), (long long)k,
          (long long)p.count, (long long)p.maxflows);
  tci_packing_destroy(&p);
  tci_capgraph_destroy(&d);
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 3;
  int max_clusters = argc > 2 ? atoi(argv[2]) : 128;
  if (runs < 1 || runs > 100 || max_clusters < 2) {
    fprintf(stderr, "usage: bench_forest_pack [runs=3 (1..100)] [max_clusters=128 (>= 2)]\n");
    return 2;
  }
  const bench_case cases[] = {
      {"complete", 32, 1},   {"complete", 32, 83}, {"random", 32, 100}, {"random", 32, 3000}, {"random", 128, 400},
      {"a100", 16, 0},       {"a100", 32, 0},      {"a100", 64, 0},    {"a100", 128, 0},
  };
  printf("| case | nodes | arcs | k | batches | max-flows | median s (of %d) | peak RSS MB |\n", runs);
  printf("|---|---|---|---|---|---|---|---|\n");
  int status = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bench_case *c = &cases[i];
    if (!strcmp(c->kind, "a100") && c->size > max_clusters) continue;
    double t[100];
    long long nodes = 0, arcs = 0, k = 0, batches = 0, flows = 0;
    long rss = 0;
    int ok = 1;
    for (int r = 0; r < runs && ok; r++) {
      int fds[2];
      if (pipe(fds)) return 1;
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        _exit(run_once(c, fds[1]));
      }
      close(fds[1]);
      char buf[256] = {0};
      ssize_t got = read(fds[0], buf, sizeof buf - 1);
      close(fds[0]);
      int wst;
      struct rusage ru;
      wait4(pid, &wst, 0, &ru);
      if (ru.ru_maxrss > rss) rss = ru.ru_maxrss;
      if (got <= 0 || !WIFEXITED(wst) || WEXITSTATUS(wst) ||
          sscanf(buf, "%lf %lld %lld %lld %lld %lld", &t[r], &nodes, &arcs, &k, &batches, &flows) != 6)
        ok = 0;
    }
    if (!ok) {
      printf("| %s %d | failed |\n", c->kind, c->size);
      status = 1;
      continue;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    printf("| %s %d%s | %lld | %lld | %lld | %lld | %lld | %.3f | %.1f |\n", c->kind, c->size,
           !strcmp(c->kind, "a100") ? " clusters" : "", nodes, arcs, k, batches, flows, t[runs / 2], rss / 1024.0);
    fflush(stdout);
  }
  return status;
}
