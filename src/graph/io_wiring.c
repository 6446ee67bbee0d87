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
#include <stdlib.h>
#include <string.h>

#include "core/io_atomic.h"
#include "core/io_text.h"
#include "topocoll/graph_io.h"

static void put_row(const tc_graph *g, FILE *fp, const tc_cable *c) {
  fprintf(fp, "%lld,%s,%d,", (long long)c->cable, c->kind, c->u);
  tci_csv_put_field(fp, tc_graph_label(g, c->u));
  fprintf(fp, ",%lld,%d,", (long long)c->u_port, c->v);
  tci_csv_put_field(fp, tc_graph_label(g, c->v));
  fprintf(fp, ",%lld,%lld\n", (long long)c->v_port, (long long)c->capacity);
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

int tc_graph_wiring_cables(const tc_graph *g, tc_wiring_links links, tc_cable **out, int64_t *count, tc_error *err) {
  *out = NULL;
  *count = 0;
  if (links == TC_WIRING_DUPLEX && !g->bidirectional)
    return tc_error_set(err, TC_EINPUT, "duplex cables need links in opposite pairs; this graph has one-way arcs");
  int duplex = links == TC_WIRING_DUPLEX || (links == TC_WIRING_AUTO && g->bidirectional);
  tc_cable *v = malloc((size_t)(g->m ? g->m : 1) * sizeof *v);
  if (!v) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int64_t n = 0;
  for (int64_t a = 0; a < g->m; a++) {
    int32_t u = g->src[a], w = g->dst[a];
    if (!duplex) {
      v[n] = (tc_cable){n, "simplex", u, a - g->out_off[u], w, in_port(g, w, a), g->cap[a]};
      n++;
      continue;
    }
    int64_t b = g->rev[a];
    if (b < a) continue;
    v[n] = (tc_cable){n, u == w ? "loopback" : "duplex", u, a - g->out_off[u], w, b - g->out_off[w], g->cap[a]};
    n++;
  }
  *out = v;
  *count = n;
  return TC_OK;
}

int tc_graph_write_wiring_as(const tc_graph *g, tc_wiring_links links, const char *path, tc_error *err) {
  tc_cable *cables = NULL;
  int64_t count = 0;
  int rc = tc_graph_wiring_cables(g, links, &cables, &count, err);
  tc_atomic_file af;
  if (!rc) rc = tci_atomic_open(&af, path, err);
  if (rc) {
    free(cables);
    return rc;
  }
  fputs("cable,kind,from_node,from_label,from_port,to_node,to_label,to_port,capacity\n", af.fp);
  for (int64_t i = 0; i < count; i++) put_row(g, af.fp, &cables[i]);
  free(cables);
  return tci_atomic_commit(&af, err);
}

int tc_graph_write_wiring(const tc_graph *g, const char *path, tc_error *err) {
  return tc_graph_write_wiring_as(g, TC_WIRING_AUTO, path, err);
}
