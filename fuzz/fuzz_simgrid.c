/*
** fuzz_simgrid.c — edge list -> graph -> SimGrid platform (lower/simgrid.c), and the
** written platform read back with libxml2.
**
** Invariants: the error contract (harness.h); the writer succeeds exactly when the graph
** has nodes, is strongly connected and every link's bandwidth (summed capacity of a node pair's arcs,
** times the link bandwidth) is a finite number (else TC_EINPUT, resp. TC_ERANGE); the
** platform is well-formed XML with one zone routed by SimGrid (DijkstraCache), the hosts
** n0..n<N-1> once each, one link per ordered pair of distinct nodes joined by arcs whose
** bandwidth is their total capacity times the link bandwidth, and exactly one route for
** each such pair, over its own link alone, and none for any other pair (SimGrid computes
** those); the hostfile lists n0..n<N-1>, one per line.
** Bounded work: graphs of at most 32 nodes are written.
*/
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "topocoll/graph_io.h"
#include "topocoll/simgrid.h"

#define MAX_N 32
#define LINK_BW 1.25e10

/* "n<id>" with 0 <= id < n, else -1. */
static int host_id(const xmlChar *s, int n) {
  int id, used;
  if (!s || sscanf((const char *)s, "n%d%n", &id, &used) != 1 || s[used] || id < 0 || id >= n) return -1;
  return id;
}

static xmlChar *attr(xmlNode *e, const char *name) { return xmlGetProp(e, (const xmlChar *)name); }

typedef struct platform {
  int n;
  int hosts[MAX_N];
  double link[MAX_N][MAX_N]; /* bandwidth of link l<u>_<v>, 0 if none */
  int routes[MAX_N][MAX_N];
} platform;

static void read_link(platform *p, xmlNode *e) {
  xmlChar *id = attr(e, "id"), *bw = attr(e, "bandwidth");
  int u, v, used;
  double b;
  if (!id || !bw || sscanf((const char *)id, "l%d_%d%n", &u, &v, &used) != 2 || id[used] || u < 0 || v < 0 ||
      u >= p->n || v >= p->n || u == v || p->link[u][v] != 0)
    tcf_fail("platform: bad or repeated link id \"%s\"", id ? (const char *)id : "(none)");
  if (sscanf((const char *)bw, "%lgBps%n", &b, &used) != 1 || bw[used] || !(b > 0))
    tcf_fail("platform: link %s has bandwidth \"%s\"", id, bw);
  p->link[u][v] = b;
  xmlFree(id);
  xmlFree(bw);
}

static void read_route(platform *p, xmlNode *e) {
  xmlChar *src = attr(e, "src"), *dst = attr(e, "dst");
  int s = host_id(src, p->n), d = host_id(dst, p->n);
  if (s < 0 || d < 0 || s == d || p->routes[s][d]++) tcf_fail("platform: bad or repeated route %s -> %s", src, dst);
  int at = s, hops = 0;
  for (xmlNode *c = e->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    hops++;
    xmlChar *id = attr(c, "id");
    int u, v, used;
    if (strcmp((const char *)c->name, "link_ctn") || !id || sscanf((const char *)id, "l%d_%d%n", &u, &v, &used) != 2 ||
        id[used] || u != at || v < 0 || v >= p->n || p->link[u][v] == 0)
      tcf_fail("platform: route %d -> %d does not continue from n%d along a link (\"%s\")", s, d, at,
               id ? (const char *)id : (const char *)c->name);
    at = v;
    xmlFree(id);
  }
  if (at != d) tcf_fail("platform: route %d -> %d ends at n%d", s, d, at);
  if (!p->link[s][d] || hops != 1)
    tcf_fail("platform: route %d -> %d is not the single link of two neighbours (%d links)", s, d, hops);
  xmlFree(src);
  xmlFree(dst);
}

static void check_platform(const tc_graph *g, const char *dir) {
  static platform p;
  memset(&p, 0, sizeof p);
  p.n = g->n;
  char path[4200];
  snprintf(path, sizeof path, "%s/platform.xml", dir);
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) tcf_fail("platform.xml is not well-formed XML");
  xmlNode *zone = xmlDocGetRootElement(doc)->children;
  while (zone && zone->type != XML_ELEMENT_NODE) zone = zone->next;
  if (!zone || strcmp((const char *)zone->name, "zone")) tcf_fail("platform.xml has no zone");
  xmlChar *routing = attr(zone, "routing");
  if (!routing || strcmp((const char *)routing, "DijkstraCache"))
    tcf_fail("platform: zone routing \"%s\", expected DijkstraCache", routing ? (const char *)routing : "(none)");
  xmlFree(routing);
  /* Links first: routes may come before or after them in the file. */
  for (xmlNode *e = zone->children; e; e = e->next)
    if (e->type == XML_ELEMENT_NODE && !strcmp((const char *)e->name, "link")) read_link(&p, e);
  for (xmlNode *e = zone->children; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE) continue;
    if (!strcmp((const char *)e->name, "host")) {
      xmlChar *id = attr(e, "id");
      int h = host_id(id, p.n);
      if (h < 0 || p.hosts[h]++) tcf_fail("platform: bad or repeated host \"%s\"", id);
      xmlFree(id);
    } else if (!strcmp((const char *)e->name, "route")) {
      read_route(&p, e);
    }
  }
  xmlFreeDoc(doc);
  for (int u = 0; u < p.n; u++) {
    if (!p.hosts[u]) tcf_fail("platform: no host n%d", u);
    for (int v = 0; v < p.n; v++) {
      if (u == v) continue;
      int64_t want = 0; /* total capacity u -> v, exact (a sum past 64 bits was refused) */
      for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
        if (g->dst[a] == v) want += g->cap[a];
      if (p.link[u][v] != (double)want * LINK_BW) tcf_fail("platform: link %d -> %d has %.17g B/s, expected %.17g", u, v,
                                                   p.link[u][v], (double)want * LINK_BW);
      if (p.routes[u][v] != (want > 0)) /* a route per link, over it alone (read_route) */
        tcf_fail("platform: %d routes %d -> %d between %s", p.routes[u][v], u, v, want > 0 ? "neighbours" : "non-neighbours");
    }
  }
  snprintf(path, sizeof path, "%s/hostfile", dir);
  FILE *fp = fopen(path, "r");
  if (!fp) tcf_fail("no hostfile");
  char line[64];
  int k = 0;
  while (fgets(line, sizeof line, fp)) {
    char want[64];
    snprintf(want, sizeof want, "n%d\n", k++);
    if (strcmp(line, want)) tcf_fail("hostfile line %d is \"%s\"", k, line);
  }
  fclose(fp);
  if (k != p.n) tcf_fail("hostfile has %d lines for %d nodes", k, p.n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = tcf_path("in.txt"), *dir = tcf_path("platform");
  tcf_write_file(in, data, size);
  tc_graph *g = NULL;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_graph_read_edgelist(in, &g, &err);
  if (rc || g->n > MAX_N) {
    tc_graph_destroy(g);
    return 0;
  }
  rc = tc_simgrid_write_platform(g, LINK_BW, 1e-6, dir, &err);
  tcf_check_result("tc_simgrid_write_platform", rc, &err);
  /* a graph with no nodes is refused like one that is not strongly connected (TC_EINPUT) */
  int connected = g->n > 0 && tc_graph_is_strongly_connected(g), finite = 1;
  for (int64_t a = 0; a < g->m; a++) { /* a pair's summed capacity, the way the writer must check it */
    int64_t sum = 0;
    int over = 0;
    for (int64_t b = g->out_off[g->src[a]]; b < g->out_off[g->src[a] + 1]; b++)
      if (g->dst[b] == g->dst[a]) over |= __builtin_add_overflow(sum, g->cap[b], &sum);
    if (g->src[a] != g->dst[a] && (over || !isfinite((double)sum * LINK_BW))) finite = 0;
  }
  if (!connected && rc != TC_EINPUT)
    tcf_fail("a graph that is empty or not strongly connected gave %d: %s", rc, err.msg);
  if (connected && !finite && rc != TC_ERANGE) tcf_fail("a link beyond 64 bits or a double gave %d: %s", rc, err.msg);
  if (connected && finite && rc) tcf_fail("a strongly connected graph was refused: %s", err.msg);
  if (!rc) check_platform(g, dir);
  tc_graph_destroy(g);
  return 0;
}
