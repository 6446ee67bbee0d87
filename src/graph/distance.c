/*
** distance.c — hop distances: single-source BFS, BFS layers N_t^±(u), and the all-pairs
** summary (diameter, histogram, average) of metrics.h.
**
** The all-pairs summary runs a bit-parallel BFS: a batch of 64*WORDS sources advances one
** level at a time, each node pulling the frontier bits of its in-neighbours (for out-
** distances from the sources). A pass over the in-CSR thus advances 256 BFS trees at once
** and nothing n x n is ever stored. Batches are independent and spread over OpenMP threads,
** each with private buffers, merged at the end.
*/
#include "topocoll/metrics.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define WORDS 4 /* 64-bit words per node per batch: 256 sources per pass */

/* The cost of the all-pairs summary, estimated before it runs. A batch of 256 sources makes
   one pass over every node and in-arc per BFS level, plus one that finds nothing, so the
   work is ceil(N/256) * (levels + 1) * (N + M) node-or-arc visits. The levels of a batch are
   its sources' eccentricity; node 0's (the larger of out and in, from the two BFS that
   decide strong connectivity) stands for them: exact on vertex-transitive graphs, and
   within 2x of the diameter on any strongly connected one. The rate was measured with
   OMP_NUM_THREADS=1 on the CLI of a RelWithDebInfo build (`topocoll topo G
   --no-reverse-symmetry`, user time, which includes building G): torus(128,128), 6.8e8
   visits in 4.10 s (1.7e8/s); torus(64,64), 2.2e7 in 0.12 s (1.8e8/s); debruijn(2,14),
   4.7e7 in 0.44 s (1.1e8/s, most of it not the BFS). The rate used is 1.5e8 and the
   threads' speed-up is not counted (the machine may be shared), so the estimate errs long.
   Memory: three bitsets of N x 256 bits per thread. */
#define VISITS_PER_SECOND 1.5e8

static int32_t bfs_depth(const tc_graph *g, tc_dir dir, int32_t *dist, int64_t *reached, tc_error *err) {
  int rc = tc_graph_bfs(g, 0, dir, dist, err);
  if (rc) return -1;
  int32_t depth = 0;
  *reached = 0;
  for (int32_t i = 0; i < g->n; i++)
    if (dist[i] >= 0) {
      (*reached)++;
      if (dist[i] > depth) depth = dist[i];
    }
  return depth;
}

int tc_graph_distance_cost(const tc_graph *g, tc_distance_cost *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (g->n < 1) {
    out->strongly_connected = 1;
    return TC_OK;
  }
  int32_t *dist = malloc((size_t)g->n * sizeof *dist);
  if (!dist) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int64_t out_reached = 0, in_reached = 0;
  int32_t out_depth = bfs_depth(g, TC_OUT, dist, &out_reached, err);
  int32_t in_depth = out_depth < 0 ? -1 : bfs_depth(g, TC_IN, dist, &in_reached, err);
  free(dist);
  if (in_depth < 0) return TC_ENOMEM;
  out->strongly_connected = out_reached == g->n && in_reached == g->n;
  double n = g->n, batches = (double)((g->n + 64 * WORDS - 1) / (64 * WORDS));
  double levels = out_depth > in_depth ? out_depth : in_depth;
  out->seconds = batches * (levels + 1) * (n + (double)g->m) / VISITS_PER_SECOND;
  int threads = batches > 1 ? omp_get_max_threads() : 1;
  out->bytes = (double)threads * n * WORDS * 3 * sizeof(uint64_t);
  return TC_OK;
}

int tc_graph_bfs(const tc_graph *g, int32_t u, tc_dir dir, int32_t *dist, tc_error *err) {
  if (u < 0 || u >= g->n) return tc_error_set(err, TC_EINPUT, "node %d outside 0..%d", u, g->n - 1);
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  if (!queue) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t i = 0; i < g->n; i++) dist[i] = -1;
  int32_t head = 0, tail = 0;
  dist[u] = 0;
  queue[tail++] = u;
  const int64_t *off = dir == TC_OUT ? g->out_off : g->in_off;
  while (head < tail) {
    int32_t x = queue[head++];
    for (int64_t i = off[x]; i < off[x + 1]; i++) {
      int32_t y = dir == TC_OUT ? g->dst[i] : g->src[g->in_arc[i]];
      if (dist[y] < 0) { dist[y] = dist[x] + 1; queue[tail++] = y; }
    }
  }
  free(queue);
  return TC_OK;
}

int tc_graph_layers(const tc_graph *g, int32_t u, tc_dir dir, tc_layers *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int32_t *dist = malloc((size_t)g->n * sizeof *dist);
  if (!dist) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = tc_graph_bfs(g, u, dir, dist, err);
  if (rc) { free(dist); return rc; }
  int32_t depth = 0, reached = 0;
  for (int32_t i = 0; i < g->n; i++)
    if (dist[i] >= 0) { reached++; if (dist[i] > depth) depth = dist[i]; }
  out->order = malloc((size_t)reached * sizeof *out->order);
  out->layer_off = calloc((size_t)depth + 2, sizeof *out->layer_off);
  if (!out->order || !out->layer_off) {
    free(dist);
    tc_layers_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int32_t i = 0; i < g->n; i++)
    if (dist[i] >= 0) out->layer_off[dist[i] + 1]++;
  for (int32_t t = 0; t <= depth; t++) out->layer_off[t + 1] += out->layer_off[t];
  int64_t *fill = malloc(((size_t)depth + 1) * sizeof *fill);
  if (!fill) {
    free(dist);
    tc_layers_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  memcpy(fill, out->layer_off, ((size_t)depth + 1) * sizeof *fill);
  for (int32_t i = 0; i < g->n; i++) /* ascending ids inside each layer */
    if (dist[i] >= 0) out->order[fill[dist[i]]++] = i;
  free(fill);
  free(dist);
  out->depth = depth;
  out->reached = reached;
  return TC_OK;
}

void tc_layers_destroy(tc_layers *l) {
  free(l->order);
  free(l->layer_off);
  memset(l, 0, sizeof *l);
}

/* Per-thread accumulation of the all-pairs summary. */
typedef struct {
  int64_t *hist;
  int32_t hist_len;
  int64_t unreachable;
  int failed;
} partial;

static int hist_add(partial *p, int32_t t, int64_t count) {
  if (t >= p->hist_len) {
    int32_t len = p->hist_len ? p->hist_len : 16;
    while (len <= t) len *= 2;
    int64_t *h = realloc(p->hist, (size_t)len * sizeof *h);
    if (!h) return -1;
    memset(h + p->hist_len, 0, (size_t)(len - p->hist_len) * sizeof *h);
    p->hist = h;
    p->hist_len = len;
  }
  p->hist[t] += count;
  return 0;
}

/* BFS from sources first..first+count-1 (count <= 64*WORDS) at once; out-distances. */
static void batch_bfs(const tc_graph *g, int32_t first, int32_t count, uint64_t *visited,
                      uint64_t *frontier, uint64_t *next, partial *p) {
  int32_t n = g->n;
  memset(visited, 0, (size_t)n * WORDS * sizeof *visited);
  memset(frontier, 0, (size_t)n * WORDS * sizeof *frontier);
  for (int32_t s = 0; s < count; s++) {
    int32_t v = first + s;
    visited[(size_t)v * WORDS + s / 64] |= 1ULL << (s % 64);
    frontier[(size_t)v * WORDS + s / 64] |= 1ULL << (s % 64);
  }
  for (int32_t level = 1;; level++) {
    int64_t found = 0;
    for (int32_t v = 0; v < n; v++) {
      uint64_t acc[WORDS] = {0};
      for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) {
        const uint64_t *f = frontier + (size_t)g->src[g->in_arc[i]] * WORDS;
        for (int w = 0; w < WORDS; w++) acc[w] |= f[w];
      }
      uint64_t *vis = visited + (size_t)v * WORDS, *nx = next + (size_t)v * WORDS;
      for (int w = 0; w < WORDS; w++) {
        nx[w] = acc[w] & ~vis[w];
        vis[w] |= nx[w];
        found += __builtin_popcountll(nx[w]);
      }
    }
    if (!found) break;
    if (hist_add(p, level, found)) { p->failed = 1; return; }
    uint64_t *t = frontier;
    memcpy(t, next, (size_t)n * WORDS * sizeof *t);
  }
  int64_t seen = 0;
  for (size_t i = 0; i < (size_t)n * WORDS; i++) seen += __builtin_popcountll(visited[i]);
  p->unreachable += (int64_t)count * n - seen;
}

int tc_graph_distance_stats(const tc_graph *g, tc_distance_stats *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int32_t n = g->n, batch = 64 * WORDS;
  int32_t batches = (n + batch - 1) / batch;
  partial total = {0};
  int failed = 0;
#pragma omp parallel if (batches > 1)
  {
    partial mine = {0};
    uint64_t *buf = malloc((size_t)n * WORDS * 3 * sizeof *buf + 1);
    if (!buf) mine.failed = 1;
#pragma omp for schedule(dynamic)
    for (int32_t b = 0; b < batches; b++) {
      if (mine.failed) continue;
      int32_t first = b * batch, count = n - first < batch ? n - first : batch;
      batch_bfs(g, first, count, buf, buf + (size_t)n * WORDS, buf + (size_t)2 * n * WORDS, &mine);
    }
    free(buf);
#pragma omp critical
    {
      failed |= mine.failed;
      for (int32_t t = 0; t < mine.hist_len && !failed; t++)
        if (mine.hist[t] && hist_add(&total, t, mine.hist[t])) failed = 1;
      total.unreachable += mine.unreachable;
      free(mine.hist);
    }
  }
  if (failed) {
    free(total.hist);
    return tc_error_set(err, TC_ENOMEM, "out of memory in all-pairs BFS");
  }
  int32_t diameter = 0;
  for (int32_t t = 0; t < total.hist_len; t++)
    if (total.hist[t]) diameter = t;
  out->histogram = calloc((size_t)diameter + 1, sizeof *out->histogram);
  if (!out->histogram) {
    free(total.hist);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int32_t t = 1; t <= diameter; t++) {
    out->histogram[t] = total.hist[t];
    out->pairs += total.hist[t];
    out->distance_sum += total.hist[t] * t;
  }
  free(total.hist);
  out->diameter = diameter;
  out->unreachable = total.unreachable;
  out->strongly_connected = total.unreachable == 0;
  return TC_OK;
}

void tc_distance_stats_destroy(tc_distance_stats *s) {
  free(s->histogram);
  memset(s, 0, sizeof *s);
}

int tc_graph_diameter(const tc_graph *g, int32_t *diameter, tc_error *err) {
  tc_distance_stats s;
  int rc = tc_graph_distance_stats(g, &s, err);
  if (rc) return rc;
  *diameter = s.strongly_connected ? s.diameter : -1;
  tc_distance_stats_destroy(&s);
  return TC_OK;
}
