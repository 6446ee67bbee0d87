/*
** simgrid.c — a graph as a SimGrid platform file and hostfile (contract in simgrid.h).
**
** The file grows with the arcs, not the node pairs: one route per link, and SimGrid's
** DijkstraCache zone computes every other route on demand (shortest path in links, one
** Dijkstra per source the first time it sends, cached). A schedule's transfers are all
** between neighbours, and the only one-link path between neighbours is their own link, so
** they use exactly it; the routes that SimGrid computes serve SMPI's built-in algorithms.
** The earlier writer declared all N(N-1) routes (routing="Full"): 3.3 GB for kautz(4,5).
** On a fabric the switches are routers: the same one-link routes join hosts and routers,
** and SimGrid routes a message between two hosts along its own shortest path through them.
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
#include "topocoll/rank_map.h"

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

/* The link of the arcs u -> v starting at arc a (parallel arcs are contiguous in the CSR):
   *bw = their summed capacity times link_bw, *next the first arc past them. The sum is
   checked (capacities up to 2^63 - 1 are accepted by the readers) and so is the product:
   an overflowing, infinite or non-positive bandwidth is TC_ERANGE naming the pair. */
static int link_bandwidth(const tc_graph *g, int64_t a, double link_bw, double *bw, int64_t *next, tc_error *err) {
  int64_t sum = 0, b = a;
  int over = 0;
  for (; b < g->out_off[g->src[a] + 1] && g->dst[b] == g->dst[a]; b++)
    over |= __builtin_add_overflow(sum, g->cap[b], &sum);
  *next = b;
  if (over)
    return tc_error_set(err, TC_ERANGE, "arcs n%d -> n%d: their summed capacity overflows 64 bits", g->src[a],
                        g->dst[a]);
  *bw = (double)sum * link_bw;
  if (!(*bw > 0) || !isfinite(*bw))
    return tc_error_set(err, TC_ERANGE, "arcs n%d -> n%d: bandwidth %lld x %g B/s is not a positive finite number",
                        g->src[a], g->dst[a], (long long)sum, link_bw);
  return TC_OK;
}

/* Every link's bandwidth, checked before the file is opened: a refusal writes nothing. */
static int check_links(const tc_graph *g, double link_bw, tc_error *err) {
  double bw;
  for (int64_t a = 0, next = 0; a < g->m; a = next) {
    if (g->src[a] == g->dst[a]) next = a + 1; /* a self-loop has no link */
    else if (link_bandwidth(g, a, link_bw, &bw, &next, err)) return err->code;
  }
  return TC_OK;
}

/* One link per ordered pair of distinct neighbours (a self-loop needs none: SMPI delivers
   a message to oneself locally); with routes, the single-link route over it. */
static void write_links(FILE *fp, const tc_graph *g, double link_bw, double alpha_s, int routes) {
  for (int64_t a = 0, next = 0; a < g->m; a = next) {
    int32_t u = g->src[a], w = g->dst[a];
    double bw = 0;
    tc_error ignored;
    if (u == w) {
      next = a + 1;
      continue;
    }
    link_bandwidth(g, a, link_bw, &bw, &next, &ignored); /* sets next; check_links refused every failure */
    if (routes)
      fprintf(fp, "    <route src=\"n%d\" dst=\"n%d\" symmetrical=\"NO\"><link_ctn id=\"l%d_%d\"/></route>\n", u, w, u,
              w);
    else
      fprintf(fp, "    <link id=\"l%d_%d\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"SHARED\"/>\n", u,
              w, bw, alpha_s);
  }
}

static int write_platform(const tc_graph *g, const tc_rank_map *map, double link_bw, double alpha_s,
                          const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  int fabric = map->ranks < g->n;
  fputs("<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n",
        fp);
  fputs(fabric ? "<!-- written by topocoll: one host per compute node, one router per switch node, one link -->\n"
                 "<!-- per ordered pair of neighbours, one route per link; SimGrid finds the shortest paths between "
                 "the others -->\n"
               : "<!-- written by topocoll: one host per node, one link per ordered pair of neighbours, -->\n"
                 "<!-- one route per link; SimGrid finds the shortest paths between the others -->\n",
        fp);
  fputs("<platform version=\"4.1\">\n"
        "  <zone id=\"topocoll\" routing=\"DijkstraCache\">\n",
        fp);
  for (int32_t r = 0; r < map->ranks; r++) fprintf(fp, "    <host id=\"n%d\" speed=\"1Gf\"/>\n", map->node[r]);
  for (int32_t u = 0; u < g->n; u++)
    if (map->rank[u] < 0) fprintf(fp, "    <router id=\"n%d\"/>\n", u);
  write_links(fp, g, link_bw, alpha_s, 0);
  write_links(fp, g, link_bw, alpha_s, 1);
  fputs("  </zone>\n</platform>\n", fp);
  return tci_atomic_commit(&af, err);
}

/* Rank r runs on the host of the node it plays (rank_map.h). */
static int write_hostfile(const tc_rank_map *map, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  for (int32_t r = 0; r < map->ranks; r++) fprintf(af.fp, "n%d\n", map->node[r]);
  return tci_atomic_commit(&af, err);
}

int tc_simgrid_write_platform(const tc_graph *g, double link_bw, double alpha_s, const char *dir, tc_error *err) {
  if (!(link_bw > 0) || !isfinite(link_bw))
    return tc_error_set(err, TC_EINPUT, "link bandwidth must be a positive number of bytes/s, not %g", link_bw);
  if (!(alpha_s >= 0) || !isfinite(alpha_s))
    return tc_error_set(err, TC_EINPUT, "latency alpha must be a non-negative number of seconds, not %g", alpha_s);
  if (g->n == 0) return tc_error_set(err, TC_EINPUT, "the graph has no nodes: a platform needs at least one host");
  if (!tc_graph_is_strongly_connected(g))
    return tc_error_set(err, TC_EINPUT, "the graph is not strongly connected: some node pair would have no route");
  if (tc_output_is_stdout(dir))
    return tc_error_set(err, TC_EINPUT, "a SimGrid platform is a directory (platform.xml and hostfile); '-' "
                                        "(standard output) cannot receive it");
  tc_rank_map map;
  int rc = tc_rank_map_init(&map, g, err);
  if (!rc && map.ranks == 0)
    rc = tc_error_set(err, TC_EINPUT, "the graph has no compute node: a platform needs at least one host");
  if (!rc) rc = check_links(g, link_bw, err);
  if (!rc) rc = make_dirs(dir, err);
  if (rc) {
    tc_rank_map_destroy(&map);
    return rc;
  }
  char *platform = join_path(dir, "platform.xml", err), *hostfile = platform ? join_path(dir, "hostfile", err) : NULL;
  if (!hostfile) rc = TC_ENOMEM;
  /* Both files or neither (output.h): both targets checked first, then one batch. */
  if (!rc) rc = tc_output_check(platform, err);
  if (!rc) rc = tc_output_check(hostfile, err);
  if (!rc) {
    tc_output_begin();
    rc = write_platform(g, &map, link_bw, alpha_s, platform, err);
    if (!rc) rc = write_hostfile(&map, hostfile, err);
    if (rc) tc_output_abort();
    else rc = tc_output_commit(err);
  }
  free(platform);
  free(hostfile);
  tc_rank_map_destroy(&map);
  return rc;
}
