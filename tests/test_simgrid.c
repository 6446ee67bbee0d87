/*
** test_simgrid.c — the SimGrid platform writer (simgrid.h), read back with libxml2:
**   - exactly N hosts n0..n<N-1> in one zone with routing="DijkstraCache", platform
**     version 4.1;
**   - one link per ordered pair of distinct neighbours, none for self-loops, bandwidth =
**     (sum of the capacities of the parallel arcs) x link bandwidth and latency = alpha,
**     both exactly (the %.17g numbers round-trip);
**   - one route per link and no other: u -> w over l<u>_<w> alone (SimGrid computes the
**     rest; tests/sim_simulate.sh runs SMPI's multi-hop algorithms over them);
**   - the file's size is linear: uniring(1,8193) takes 8 + 3 * 8193 lines (the earlier
**     writer refused it: 67 million routes);
**   - the hostfile "n0\n..n<N-1>\n"; rewriting over old files, nested directories;
**   - fabrics: switches are routers after the hosts, the hostfile lists compute nodes in
**     rank order (a star whose switch is node 0 byte for byte, fig2toy(1), dgx_a100(2));
**   - refusals: no nodes, not strongly connected, bad bandwidth or latency (zero, negative,
**     NaN, infinite), parallel capacities summing past 2^63 - 1, a link bandwidth that
**     overflows a double (TC_ERANGE), nothing written; a directory that is a file.
** Graphs: torus(3,3) (bidirectional), kautz(2,2) (directed, diameter 3), debruijn(2,3)
** (self-loops), genkautz(3,10), and a hand-made multigraph with capacities.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tc_fabric.h"
#include "tc_files.h"
#include "tc_test.h"
#include "topocoll/simgrid.h"

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-simgrid"); }

/* out = "<dir>/<name>", asserting that it fits. */
static void path_in(char *out, const char *dir, const char *name) {
  int k = snprintf(out, PATH_MAX, "%s/%s", dir, name);
  assert_true(k > 0 && k < PATH_MAX);
}

/* ---- reading the platform back ---- */

typedef struct platform {
  int n;          /* hosts and routers */
  int hosts;
  char *router;   /* n: 1 for a router */
  double *bw;     /* n*n: bandwidth of link l<u>_<v> in B/s, 0 when absent */
  double *lat;    /* n*n: its latency in s */
  int nlinks;
  char *route;    /* n*n: 1 when the route src -> dst is declared */
  int nroutes;
} platform;

static char *prop(xmlNode *e, const char *name) {
  xmlChar *v = xmlGetProp(e, (const xmlChar *)name);
  assert_non_null(v);
  return (char *)v;
}

/* "<number><unit>" -> number, asserting the unit. */
static double quantity(xmlNode *e, const char *name, const char *unit) {
  char *v = prop(e, name), *end = NULL;
  double x = strtod(v, &end);
  assert_string_equal(end, unit);
  xmlFree(v);
  return x;
}

/* "n<k>" -> k in 0..n-1. */
static int host_id(const char *text, int n) {
  int k = -1, used = 0;
  assert_int_equal(sscanf(text, "n%d%n", &k, &used), 1);
  assert_int_equal((int)strlen(text), used);
  assert_true(k >= 0 && k < n);
  return k;
}

/* "l<u>_<v>" -> u, v. */
static void link_ends(const char *text, int n, int *u, int *v) {
  int used = 0;
  assert_int_equal(sscanf(text, "l%d_%d%n", u, v, &used), 2);
  assert_int_equal((int)strlen(text), used);
  assert_true(*u >= 0 && *u < n && *v >= 0 && *v < n);
}

static int is(xmlNode *e, const char *name) {
  return e->type == XML_ELEMENT_NODE && !strcmp((const char *)e->name, name);
}

/* A route: over exactly one link, the one from its src to its dst, declared before it. */
static void read_route(platform *p, xmlNode *r) {
  char *s = prop(r, "src"), *d = prop(r, "dst"), *sym = prop(r, "symmetrical");
  int src = host_id(s, p->n), dst = host_id(d, p->n), links = 0;
  assert_string_equal(sym, "NO");
  xmlFree(s), xmlFree(d), xmlFree(sym);
  assert_int_not_equal(src, dst);
  assert_false(p->route[src * p->n + dst]); /* one route per pair */
  for (xmlNode *c = r->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    assert_true(is(c, "link_ctn"));
    char *id = prop(c, "id");
    int u, v;
    link_ends(id, p->n, &u, &v);
    xmlFree(id);
    assert_int_equal(u, src);
    assert_int_equal(v, dst);
    assert_true(p->bw[u * p->n + v] > 0); /* a declared link */
    links++;
  }
  assert_int_equal(links, 1);
  p->route[src * p->n + dst] = 1;
  p->nroutes++;
}

static void read_platform(const char *file, platform *p) {
  xmlDoc *doc = xmlReadFile(file, NULL, XML_PARSE_NONET);
  assert_non_null(doc);
  xmlNode *root = xmlDocGetRootElement(doc);
  assert_true(is(root, "platform"));
  char *version = prop(root, "version");
  assert_string_equal(version, "4.1");
  xmlFree(version);
  xmlNode *zone = NULL;
  for (xmlNode *c = root->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE) {
      assert_true(is(c, "zone"));
      assert_null(zone);
      zone = c;
    }
  assert_non_null(zone);
  char *routing = prop(zone, "routing");
  assert_string_equal(routing, "DijkstraCache");
  xmlFree(routing);
  memset(p, 0, sizeof *p);
  for (xmlNode *c = zone->children; c; c = c->next) p->n += is(c, "host") || is(c, "router");
  int n = p->n, last_host = -1, last_router = -1;
  p->bw = calloc((size_t)n * n, sizeof *p->bw);
  p->lat = calloc((size_t)n * n, sizeof *p->lat);
  p->route = calloc((size_t)n * n, sizeof *p->route);
  p->router = calloc((size_t)n + 1, 1);
  char *seen = calloc((size_t)n + 1, 1);
  for (xmlNode *c = zone->children; c; c = c->next) { /* hosts first, then routers, each in id order */
    if (is(c, "host") || is(c, "router")) {
      char *id = prop(c, "id");
      int k = host_id(id, n), router = is(c, "router");
      xmlFree(id);
      assert_false(seen[k]);
      seen[k] = 1;
      assert_true(k > (router ? last_router : last_host));
      if (router) last_router = k, p->router[k] = 1;
      else assert_int_equal(last_router, -1), last_host = k, p->hosts++;
    } else if (is(c, "link")) {
      char *id = prop(c, "id"), *policy = prop(c, "sharing_policy");
      int u, v;
      link_ends(id, n, &u, &v);
      assert_int_not_equal(u, v);
      assert_true(p->bw[u * n + v] == 0); /* one link per pair */
      assert_string_equal(policy, "SHARED");
      xmlFree(id), xmlFree(policy);
      p->bw[u * n + v] = quantity(c, "bandwidth", "Bps");
      p->lat[u * n + v] = quantity(c, "latency", "s");
      p->nlinks++;
    } else if (is(c, "route")) {
      read_route(p, c);
    } else {
      assert_true(c->type != XML_ELEMENT_NODE);
    }
  }
  free(seen);
  xmlFreeDoc(doc);
}

static void platform_free(platform *p) {
  free(p->router);
  free(p->route);
  free(p->bw);
  free(p->lat);
}

/* ---- the checks against the graph ---- */

static int64_t capacity(const tc_graph *g, int u, int v) {
  int64_t sum = 0;
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v) sum += g->cap[a];
  return sum;
}

static void check_links(const tc_graph *g, const platform *p, double bw, double alpha) {
  int n = g->n, pairs = 0;
  for (int u = 0; u < n; u++)
    for (int v = 0; v < n; v++) {
      int64_t cap = u == v ? 0 : capacity(g, u, v);
      pairs += cap > 0;
      assert_true(p->bw[u * n + v] == (double)cap * bw);
      if (cap) assert_true(p->lat[u * n + v] == alpha);
    }
  assert_int_equal(p->nlinks, pairs);
}

/* Exactly the neighbours have routes (their own link, read_route checked). */
static void check_routes(const tc_graph *g, const platform *p) {
  int n = g->n;
  for (int u = 0; u < n; u++)
    for (int v = 0; v < n; v++) assert_int_equal(p->route[u * n + v], u != v && capacity(g, u, v) > 0);
  assert_int_equal(p->nroutes, p->nlinks);
}

/* Line r names the host of rank r: the r-th compute node (node r without switches). */
static void check_hostfile(const char *dir, const tc_graph *g) {
  char path[PATH_MAX], want[16];
  path_in(path, dir, "hostfile");
  char *text = tc_files_slurp(path);
  assert_non_null(text);
  size_t off = 0;
  for (int u = 0; u < g->n; u++) {
    if (g->kind[u] != TC_NODE_COMPUTE) continue;
    snprintf(want, sizeof want, "n%d\n", u);
    assert_memory_equal(text + off, want, strlen(want));
    off += strlen(want);
  }
  assert_int_equal(strlen(text), off);
  free(text);
}

static void write_and_check(const char *dir, const tc_graph *g, double bw, double alpha) {
  tc_error err;
  assert_int_equal(tc_simgrid_write_platform(g, bw, alpha, dir, &err), TC_OK);
  char path[PATH_MAX];
  path_in(path, dir, "platform.xml");
  platform p;
  read_platform(path, &p);
  assert_int_equal(p.n, g->n);
  assert_int_equal(p.hosts, tc_graph_count_kind(g, TC_NODE_COMPUTE));
  for (int u = 0; u < g->n; u++) assert_int_equal(p.router[u], g->kind[u] == TC_NODE_SWITCH);
  check_links(g, &p, bw, alpha);
  check_routes(g, &p);
  check_hostfile(dir, g);
  platform_free(&p);
}

static void check_spec(void **state, const char *spec, double bw, double alpha) {
  tc_tmpdir *f = *state;
  tc_graph *g = tc_test_spec(spec);
  write_and_check(f->dir, g, bw, alpha);
  tc_graph_destroy(g);
}

/* ---- tests ---- */

static void torus_bidirectional(void **state) { check_spec(state, "torus(3,3)", 12.5e9, 1e-6); }

static void kautz_directed(void **state) { check_spec(state, "kautz(2,2)", 3.125e9, 1e-5); }

static void debruijn_self_loops(void **state) {
  tc_graph *g = tc_test_spec("debruijn(2,3)");
  assert_int_equal(tc_graph_count_self_loops(g), 2); /* 000 and 111: no link for them */
  tc_graph_destroy(g);
  check_spec(state, "debruijn(2,3)", 1e9, 0);
}

static void genkautz_ties(void **state) { check_spec(state, "genkautz(3,10)", 1.25e10, 2.5e-6); }

/* Parallel arcs are one link of their total capacity; a lone arc keeps its own. */
static void multigraph_capacities(void **state) {
  tc_tmpdir *f = *state;
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  static const int64_t arcs[][3] = {{0, 1, 1}, {0, 1, 2}, {1, 0, 5}, {1, 2, 1}, {2, 0, 1}, {2, 0, 1}, {2, 2, 3}};
  assert_int_equal(tc_graph_builder_init(&b, 3, &err), TC_OK);
  for (size_t i = 0; i < sizeof arcs / sizeof arcs[0]; i++)
    assert_int_equal(tc_graph_builder_add_arc(&b, arcs[i][0], arcs[i][1], arcs[i][2], &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  write_and_check(f->dir, g, 1e9, 1e-6);
  char path[PATH_MAX];
  path_in(path, f->dir, "platform.xml");
  platform p;
  read_platform(path, &p);
  assert_true(p.bw[0 * 3 + 1] == 3e9);
  assert_true(p.bw[1 * 3 + 0] == 5e9);
  assert_true(p.bw[2 * 3 + 0] == 2e9);
  assert_true(p.bw[1 * 3 + 2] == 1e9);
  assert_int_equal(p.nlinks, 4);
  assert_int_equal(p.nroutes, 4); /* 0 -> 2 is SimGrid's to find (via 1) */
  platform_free(&p);
  tc_graph_destroy(g);
}

/* A second write replaces both files; missing parent directories are created. */
static void rewrite_and_nested(void **state) {
  tc_tmpdir *f = *state;
  char nested[PATH_MAX], mid[PATH_MAX], top[PATH_MAX], file[PATH_MAX];
  path_in(top, f->dir, "a");
  path_in(mid, f->dir, "a/b");
  path_in(nested, f->dir, "a/b/c");
  tc_graph *big = tc_test_spec("torus(3,3)"), *small = tc_test_spec("biring(2,3)");
  write_and_check(nested, big, 1e9, 1e-6);
  write_and_check(nested, small, 2e9, 3e-6); /* fewer hosts: nothing of the old file left */
  assert_int_equal(tc_files_count(nested), 2);
  path_in(file, nested, "platform.xml");
  assert_int_equal(unlink(file), 0);
  path_in(file, nested, "hostfile");
  assert_int_equal(unlink(file), 0);
  assert_int_equal(rmdir(nested), 0);
  assert_int_equal(rmdir(mid), 0);
  assert_int_equal(rmdir(top), 0);
  tc_graph_destroy(big);
  tc_graph_destroy(small);
}

/* Two nodes: arcs 0 -> 1 of capacities a and b (parallel), and 1 -> 0 of capacity c. */
static tc_graph *capacities_graph(int64_t a, int64_t b, int64_t c) {
  tc_graph_builder gb;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&gb, 2, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&gb, 0, 1, a, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&gb, 0, 1, b, &err), TC_OK);
  assert_int_equal(tc_graph_builder_add_arc(&gb, 1, 0, c, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&gb, &g, &err), TC_OK);
  return g;
}

static void refusals(void **state) {
  tc_tmpdir *f = *state;
  tc_error err;
  static const int one_way[][2] = {{0, 1}, {1, 2}};
  tc_graph *g = tc_test_from_arcs(3, one_way, 2), *ok = tc_test_spec("torus(3,3)");
  assert_int_equal(tc_simgrid_write_platform(g, 1e9, 1e-6, f->dir, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "not strongly connected"));
  const double bad_bw[] = {0, -1, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad_bw / sizeof bad_bw[0]; i++) {
    assert_int_equal(tc_simgrid_write_platform(ok, bad_bw[i], 1e-6, f->dir, &err), TC_EINPUT);
    assert_non_null(strstr(err.msg, "bandwidth"));
  }
  const double bad_alpha[] = {-1e-9, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad_alpha / sizeof bad_alpha[0]; i++) {
    assert_int_equal(tc_simgrid_write_platform(ok, 1e9, bad_alpha[i], f->dir, &err), TC_EINPUT);
    assert_non_null(strstr(err.msg, "alpha"));
  }
  assert_int_equal(tc_files_count(f->dir), 0); /* nothing written by a refusal */
  tc_graph *none = tc_test_from_arcs(0, NULL, 0);
  assert_int_equal(tc_simgrid_write_platform(none, 1e9, 1e-6, f->dir, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the graph has no nodes: a platform needs at least one host");
  tc_graph_destroy(none);
  assert_int_equal(tc_files_count(f->dir), 0);
  /* the directory's name is taken by a file */
  char path[PATH_MAX];
  path_in(path, f->dir, "taken");
  tc_files_spill(path, "x", 1);
  assert_int_equal(tc_simgrid_write_platform(ok, 1e9, 1e-6, path, &err), TC_EINPUT);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof want, "cannot create directory %s: it exists and is not a directory", path);
  assert_string_equal(err.msg, want);
  /* "-" is standard output, which cannot hold a directory */
  assert_int_equal(tc_simgrid_write_platform(ok, 1e9, 1e-6, "-", &err), TC_EINPUT);
  assert_string_equal(err.msg, "a SimGrid platform is a directory (platform.xml and hostfile); '-' (standard "
                               "output) cannot receive it");
  assert_int_equal(unlink(path), 0);
  tc_graph_destroy(g);
  tc_graph_destroy(ok);
}

/* Capacities up to 2^63 - 1 are accepted by the readers: a sum or a bandwidth beyond range
   is refused, naming the pair, before anything is written. */
static void overflowing_capacities(void **state) {
  tc_tmpdir *f = *state;
  tc_error err;
  const int64_t big = INT64_MAX / 2 + 1; /* two of them overflow */
  tc_graph *g = capacities_graph(big, big, 1);
  assert_int_equal(tc_simgrid_write_platform(g, 1e9, 1e-6, f->dir, &err), TC_ERANGE);
  assert_string_equal(err.msg, "arcs n0 -> n1: their summed capacity overflows 64 bits");
  tc_graph_destroy(g);
  g = capacities_graph(1, 1, INT64_MAX); /* fits in 64 bits, but times 1e300 B/s is infinite */
  assert_int_equal(tc_simgrid_write_platform(g, 1e300, 1e-6, f->dir, &err), TC_ERANGE);
  assert_string_equal(err.msg, "arcs n1 -> n0: bandwidth 9223372036854775807 x 1e+300 B/s is not a positive finite "
                               "number");
  assert_int_equal(tc_files_count(f->dir), 0);
  assert_int_equal(tc_simgrid_write_platform(g, 1e9, 1e-6, f->dir, &err), TC_OK); /* 9.2e27 B/s is a double */
  tc_graph_destroy(g);
}

/* The file grows with the links: a ring of 8193 nodes (67 million node pairs) is its
   8 frame lines and one host, one link and one route line per node. */
static void linear_size(void **state) {
  tc_tmpdir *f = *state;
  tc_error err;
  tc_graph *ring = tc_test_spec("uniring(1,8193)");
  assert_int_equal(tc_simgrid_write_platform(ring, 1e9, 1e-6, f->dir, &err), TC_OK);
  char path[PATH_MAX];
  path_in(path, f->dir, "platform.xml");
  char *text = tc_files_slurp(path);
  assert_non_null(text);
  int lines = 0;
  for (const char *c = text; *c; c++) lines += *c == '\n';
  assert_int_equal(lines, 8 + 3 * 8193);
  assert_non_null(strstr(text, "    <route src=\"n8192\" dst=\"n0\" symmetrical=\"NO\"><link_ctn id=\"l8192_0\"/></route>\n"));
  free(text);
  tc_graph_destroy(ring);
}


/* Fabrics: compute nodes are hosts, switches routers, joined by the same links and one-link
   routes; the hostfile lists the compute nodes in rank order. The star of two GPUs whose
   switch is node 0, byte for byte; fig2toy(1) (capacities 10 and 1) and dgx_a100(2) (300
   and 25, chains of switches) by the reader; a graph of switches alone has no host. */
static void fabric_routers(void **state) {
  tc_tmpdir *f = *state;
  tc_error err;
  tc_graph *g = tc_fabric_star(2, 1);
  assert_int_equal(tc_simgrid_write_platform(g, 1e9, 1e-6, f->dir, &err), TC_OK);
  char path[PATH_MAX];
  path_in(path, f->dir, "platform.xml");
  char *text = tc_files_slurp(path);
  assert_string_equal(text,
                      "<?xml version='1.0'?>\n"
                      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                      "<!-- written by topocoll: one host per compute node, one router per switch node, one link -->\n"
                      "<!-- per ordered pair of neighbours, one route per link; SimGrid finds the shortest paths "
                      "between the others -->\n"
                      "<platform version=\"4.1\">\n"
                      "  <zone id=\"topocoll\" routing=\"DijkstraCache\">\n"
                      "    <host id=\"n1\" speed=\"1Gf\"/>\n"
                      "    <host id=\"n2\" speed=\"1Gf\"/>\n"
                      "    <router id=\"n0\"/>\n"
                      "    <link id=\"l0_1\" bandwidth=\"1000000000Bps\" latency=\"9.9999999999999995e-07s\" "
                      "sharing_policy=\"SHARED\"/>\n"
                      "    <link id=\"l0_2\" bandwidth=\"1000000000Bps\" latency=\"9.9999999999999995e-07s\" "
                      "sharing_policy=\"SHARED\"/>\n"
                      "    <link id=\"l1_0\" bandwidth=\"1000000000Bps\" latency=\"9.9999999999999995e-07s\" "
                      "sharing_policy=\"SHARED\"/>\n"
                      "    <link id=\"l2_0\" bandwidth=\"1000000000Bps\" latency=\"9.9999999999999995e-07s\" "
                      "sharing_policy=\"SHARED\"/>\n"
                      "    <route src=\"n0\" dst=\"n1\" symmetrical=\"NO\"><link_ctn id=\"l0_1\"/></route>\n"
                      "    <route src=\"n0\" dst=\"n2\" symmetrical=\"NO\"><link_ctn id=\"l0_2\"/></route>\n"
                      "    <route src=\"n1\" dst=\"n0\" symmetrical=\"NO\"><link_ctn id=\"l1_0\"/></route>\n"
                      "    <route src=\"n2\" dst=\"n0\" symmetrical=\"NO\"><link_ctn id=\"l2_0\"/></route>\n"
                      "  </zone>\n"
                      "</platform>\n");
  free(text);
  path_in(path, f->dir, "hostfile");
  text = tc_files_slurp(path);
  assert_string_equal(text, "n1\nn2\n");
  free(text);
  tc_graph_destroy(g);
  check_spec(state, "fig2toy(1)", 1.25e9, 2e-6);
  check_spec(state, "dgx_a100(2)", 1e9, 1e-6);
  const int arcs[][3] = {{0, 1, 1}, {1, 0, 1}};
  const int sw[] = {0, 1};
  g = tc_test_graph(2, arcs, 2, sw, 2);
  path_in(path, f->dir, "none");
  assert_int_equal(tc_simgrid_write_platform(g, 1e9, 1e-6, path, &err), TC_EINPUT);
  assert_string_equal(err.msg, "the graph has no compute node: a platform needs at least one host");
  struct stat st;
  assert_int_equal(stat(path, &st), -1);
  tc_graph_destroy(g);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, make_tmpdir, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(torus_bidirectional), T(kautz_directed),     T(debruijn_self_loops), T(genkautz_ties),
      T(multigraph_capacities), T(rewrite_and_nested), T(refusals), T(overflowing_capacities), T(linear_size),
      T(fabric_routers),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  xmlCleanupParser();
  return rc;
}
