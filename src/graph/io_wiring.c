/*
** io_wiring.c — the wiring plan: a CSV a technician follows to cable a patch panel
** (columns and semantics in docs/formats.md).
**
**   cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity
**
** Ports of node x are numbered 0.. per node. Guarantees:
**   - bidirectional graph: one row per opposite arc pair (a, rev[a]) at its lower arc id a,
**     kind "duplex" (or "loopback" for a self-loop, from_port == to_port). The port of x
**     on a link is the index of x's own arc of that link among x's out-arcs — which is the
**     order in which x's links appear in the plan — so each port carries exactly one cable
**     and a d-regular graph uses ports 0..d-1 of every node exactly once.
**   - otherwise, or when simplex fibres are asked for (tc_graph_write_wiring_as,
**     TC_WIRING_SIMPLEX): one row per arc u->v, kind "simplex": a fibre from the transmit side of
**     u's port p (p = index of the arc among u's out-arcs) to the receive side of v's port
**     q (q = index of the arc among v's in-arcs, which are ordered by arc id). Each
**     transmit side and each receive side is used at most once; in a graph with equal
**     in- and out-degree d, ports 0..d-1 are used exactly once per direction.
**   - cables are numbered 0.. in row order; labels are quoted per RFC 4180 when needed;
**     capacity is the link's capacity (per direction for duplex cables).
** The file is replaced atomically.
*/
#include <string.h>

#include "core/io_atomic.h"
#include "topocoll/graph_io.h"

/* A CSV field: bare unless it holds a comma, quote, CR or LF; then quoted, "" for ". */
static void put_field(FILE *fp, const char *s) {
  if (!s) return;
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"') fputc('"', fp);
    fputc(*s, fp);
  }
  fputc('"', fp);
}

static void put_row(const tc_graph *g, FILE *fp, int64_t cable, const char *kind, int32_t u, int64_t p,
                    int32_t v, int64_t q, int64_t cap) {
  fprintf(fp, "%lld,%s,%d,", (long long)cable, kind, u);
  put_field(fp, tc_graph_label(g, u));
  fprintf(fp, ",%lld,%d,", (long long)p, v);
  put_field(fp, tc_graph_label(g, v));
  fprintf(fp, ",%lld,%lld\n", (long long)q, (long long)cap);
}

/* Index of arc a among the in-arcs of v (in_arc of v is sorted by arc id). */
static int64_t in_port(const tc_graph *g, int32_t v, int64_t a) {
  int64_t lo = g->in_off[v], hi = g->in_off[v + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->in_arc[mid] < a) lo = mid + 1; else hi = mid;
  }
  return lo - g->in_off[v];
}

static void put_duplex_cables(const tc_graph *g, FILE *fp) {
  int64_t cable = 0;
  for (int64_t a = 0; a < g->m; a++) {
    int64_t b = g->rev[a];
    if (b < a) continue;
    int32_t u = g->src[a], v = g->dst[a];
    put_row(g, fp, cable++, u == v ? "loopback" : "duplex", u, a - g->out_off[u], v, b - g->out_off[v], g->cap[a]);
  }
}

static void put_simplex_fibres(const tc_graph *g, FILE *fp) {
  for (int64_t a = 0; a < g->m; a++) {
    int32_t u = g->src[a], v = g->dst[a];
    put_row(g, fp, a, "simplex", u, a - g->out_off[u], v, in_port(g, v, a), g->cap[a]);
  }
}

int tc_graph_write_wiring_as(const tc_graph *g, tc_wiring_links links, const char *path, tc_error *err) {
  if (links == TC_WIRING_DUPLEX && !g->bidirectional)
    return tc_error_set(err, TC_EINPUT, "duplex cables need links in opposite pairs; this graph has one-way arcs");
  int duplex = links == TC_WIRING_DUPLEX || (links == TC_WIRING_AUTO && g->bidirectional);
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  fputs("cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity\n", af.fp);
  if (duplex) put_duplex_cables(g, af.fp);
  else put_simplex_fibres(g, af.fp);
  return tci_atomic_commit(&af, err);
}

int tc_graph_write_wiring(const tc_graph *g, const char *path, tc_error *err) {
  return tc_graph_write_wiring_as(g, TC_WIRING_AUTO, path, err);
}
