/*
** simgrid.c — a graph as a SimGrid platform file and hostfile (contract in simgrid.h).
**
** Routes come from one BFS per source. The predecessor of v on the route from s is the
** lowest-id node p with dist(s,p) = dist(s,v) - 1 and an arc p -> v: the in-arcs of v are
** ordered by source, so the first qualifying one is it. Following predecessors back from v
** gives a shortest path that depends only on the graph, never on queue order, so the file
** is the same on every run. For a neighbour v of s, pred[v] = s: neighbours always use
** their own link.
*/
#include "topocoll/simgrid.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/io_atomic.h"
#include "topocoll/output.h"

/* Routes past this many are refused (the file would run to gigabytes). */
#define TC_SIMGRID_MAX_ROUTES (INT64_C(1) << 26)

/* mkdir -p: create `dir` and any missing parents. */
static int make_dirs(const char *dir, tc_error *err) {
  size_t len = strlen(dir);
  char *path = malloc(len + 1);
  if (!path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  memcpy(path, dir, len + 1);
  int rc = TC_OK;
  for (size_t i = 1; i <= len && !rc; i++) {
    if (path[i] != '/' && path[i] != '\0') continue;
    char saved = path[i];
    path[i] = '\0';
    struct stat st;
    if (mkdir(path, 0777) && errno != EEXIST)
      rc = tc_error_set(err, TC_EIO, "cannot create directory %s: %s", path, strerror(errno));
    else if (stat(path, &st) || !S_ISDIR(st.st_mode))
      rc = tc_error_set(err, TC_EINPUT, "cannot create directory %s: it exists and is not a directory", path);
    path[i] = saved;
  }
  free(path);
  return rc;
}

static char *join_path(const char *dir, const char *name, tc_error *err) {
  size_t size = strlen(dir) + strlen(name) + 2;
  char *p = malloc(size);
  if (!p) {
    tc_error_set(err, TC_ENOMEM, "out of memory");
    return NULL;
  }
  snprintf(p, size, "%s/%s", dir, name);
  return p;
}

/* Total capacity of the arcs u -> v starting at arc a (they are contiguous); *next is the
   first arc past them. Summed as a double, which the bandwidth is anyway: capacities are
   int64 each, so their sum may not fit one. */
static double parallel_capacity(const tc_graph *g, int64_t a, int64_t *next) {
  double sum = 0;
  int64_t b = a;
  for (; b < g->out_off[g->src[a] + 1] && g->dst[b] == g->dst[a]; b++) sum += (double)g->cap[b];
  *next = b;
  return sum;
}

static void write_links(FILE *fp, const tc_graph *g, double link_bw, double alpha_s) {
  for (int64_t a = 0, next; a < g->m; a = next) {
    double cap = parallel_capacity(g, a, &next);
    if (g->src[a] == g->dst[a]) continue; /* a self-loop needs no link: SMPI sends to itself locally */
    fprintf(fp, "    <link id=\"l%d_%d\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"SHARED\"/>\n",
            g->src[a], g->dst[a], cap * link_bw, alpha_s);
  }
}

/* dist[] = hops from s (BFS over out-arcs; -1 unreachable); queue has room for n. */
static void bfs(const tc_graph *g, int32_t s, int32_t *dist, int32_t *queue) {
  for (int32_t v = 0; v < g->n; v++) dist[v] = -1;
  int32_t head = 0, tail = 0;
  dist[s] = 0;
  queue[tail++] = s;
  while (head < tail) {
    int32_t u = queue[head++];
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (dist[g->dst[a]] < 0) {
        dist[g->dst[a]] = dist[u] + 1;
        queue[tail++] = g->dst[a];
      }
  }
}

/* The routes from s: pred[v] as in the header comment, then each path written forwards. */
static void write_routes_from(FILE *fp, const tc_graph *g, int32_t s, int32_t *dist, int32_t *pred, int32_t *path) {
  bfs(g, s, dist, path);
  for (int32_t v = 0; v < g->n; v++) {
    pred[v] = -1;
    if (v == s) continue;
    for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) {
      int32_t p = g->src[g->in_arc[i]];
      if (dist[p] == dist[v] - 1) {
        pred[v] = p;
        break;
      }
    }
  }
  for (int32_t v = 0; v < g->n; v++) {
    if (v == s) continue;
    int32_t len = 0;
    for (int32_t x = v; x != s; x = pred[x]) path[len++] = x;
    fprintf(fp, "    <route src=\"n%d\" dst=\"n%d\" symmetrical=\"NO\">", s, v);
    for (int32_t i = len - 1, from = s; i >= 0; from = path[i], i--)
      fprintf(fp, "<link_ctn id=\"l%d_%d\"/>", from, path[i]);
    fputs("</route>\n", fp);
  }
}

static int write_platform(const tc_graph *g, double link_bw, double alpha_s, const char *path, tc_error *err) {
  int32_t *dist = malloc(sizeof *dist * (size_t)g->n), *pred = malloc(sizeof *pred * (size_t)g->n),
          *scratch = malloc(sizeof *scratch * (size_t)g->n);
  if (!dist || !pred || !scratch) {
    free(dist), free(pred), free(scratch);
    return tc_error_set(err, TC_ENOMEM, "out of memory writing %s", path);
  }
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (!rc) {
    FILE *fp = af.fp;
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- written by topocoll: one host per node, one link per ordered pair of neighbours -->\n"
          "<platform version=\"4.1\">\n"
          "  <zone id=\"topocoll\" routing=\"Full\">\n",
          fp);
    for (int32_t u = 0; u < g->n; u++) fprintf(fp, "    <host id=\"n%d\" speed=\"1Gf\"/>\n", u);
    write_links(fp, g, link_bw, alpha_s);
    for (int32_t s = 0; s < g->n; s++) write_routes_from(fp, g, s, dist, pred, scratch);
    fputs("  </zone>\n</platform>\n", fp);
    rc = tci_atomic_commit(&af, err);
  }
  free(dist), free(pred), free(scratch);
  return rc;
}

static int write_hostfile(const tc_graph *g, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  for (int32_t u = 0; u < g->n; u++) fprintf(af.fp, "n%d\n", u);
  return tci_atomic_commit(&af, err);
}

int tc_simgrid_write_platform(const tc_graph *g, double link_bw, double alpha_s, const char *dir, tc_error *err) {
  if (!(link_bw > 0) || !isfinite(link_bw))
    return tc_error_set(err, TC_EINPUT, "link bandwidth must be a positive number of bytes/s, not %g", link_bw);
  if (!(alpha_s >= 0) || !isfinite(alpha_s))
    return tc_error_set(err, TC_EINPUT, "latency alpha must be a non-negative number of seconds, not %g", alpha_s);
  if ((int64_t)g->n * (g->n - 1) > TC_SIMGRID_MAX_ROUTES)
    return tc_error_set(err, TC_ERANGE, "%d nodes need %lld routes, more than the %lld a platform file may hold", g->n,
                        (long long)g->n * (g->n - 1), (long long)TC_SIMGRID_MAX_ROUTES);
  if (!tc_graph_is_strongly_connected(g))
    return tc_error_set(err, TC_EINPUT, "the graph is not strongly connected: some node pair would have no route");
  if (tc_output_is_stdout(dir))
    return tc_error_set(err, TC_EINPUT, "a SimGrid platform is a directory (platform.xml and hostfile); '-' "
                                        "(standard output) cannot receive it");
  int rc = make_dirs(dir, err);
  if (rc) return rc;
  char *platform = join_path(dir, "platform.xml", err), *hostfile = platform ? join_path(dir, "hostfile", err) : NULL;
  if (!hostfile) rc = TC_ENOMEM;
  /* Both files or neither (output.h): both targets checked first, then one batch. */
  if (!rc) rc = tc_output_check(platform, err);
  if (!rc) rc = tc_output_check(hostfile, err);
  if (!rc) {
    tc_output_begin();
    rc = write_platform(g, link_bw, alpha_s, platform, err);
    if (!rc) rc = write_hostfile(g, hostfile, err);
    if (rc) tc_output_abort();
    else rc = tc_output_commit(err);
  }
  free(platform);
  free(hostfile);
  return rc;
}
