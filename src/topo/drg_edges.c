/*
** drg_edges.c — the edge-list form used by the distance-regular constructions
** (contract in drg_internal.h): growth, labels, undirected line graph, distance-h graph,
** and conversion to a bidirectional tc_graph.
**
** The line graph here is the classical undirected one (edges sharing an endpoint), not
** the line digraph of expand.h: Table 8's "line graph of the Petersen graph" etc. mean
** this one. Inputs are simple graphs, so two distinct edges share at most one endpoint
** and the line graph comes out simple without deduplication.
*/
#include "drg_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRG_MAX_NODES (1 << 20)

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "out of memory"); }

int tci_drg_edges_init(drg_edges *es, int32_t n, tc_error *err) {
  memset(es, 0, sizeof *es);
  if (n < 1 || n > DRG_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "drg: %ld nodes is out of range", (long)n);
  es->n = n;
  return TC_OK;
}

int tci_drg_edges_add(drg_edges *es, int32_t u, int32_t v, tc_error *err) {
  if (u < 0 || v < 0 || u >= es->n || v >= es->n || u == v)
    return tc_error_set(err, TC_EFAIL, "drg: internal error: bad edge {%ld,%ld} on %ld nodes",
                        (long)u, (long)v, (long)es->n);
  if (es->m == es->room) {
    int32_t room = es->room ? 2 * es->room : 64;
    int32_t *eu = realloc(es->eu, (size_t)room * sizeof *eu);
    if (!eu) return oom(err);
    es->eu = eu;
    int32_t *ev = realloc(es->ev, (size_t)room * sizeof *ev);
    if (!ev) return oom(err);
    es->ev = ev;
    es->room = room;
  }
  es->eu[es->m] = u;
  es->ev[es->m] = v;
  es->m++;
  return TC_OK;
}

int tci_drg_edges_set_label(drg_edges *es, int32_t u, tc_error *err, const char *fmt, ...) {
  if (!es->label) {
    es->label = calloc((size_t)es->n, sizeof *es->label);
    if (!es->label) return oom(err);
  }
  char buf[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *copy = strdup(buf);
  if (!copy) return oom(err);
  free(es->label[u]);
  es->label[u] = copy;
  return TC_OK;
}

void tci_drg_edges_free(drg_edges *es) {
  free(es->eu);
  free(es->ev);
  if (es->label)
    for (int32_t i = 0; i < es->n; i++) free(es->label[i]);
  free(es->label);
  memset(es, 0, sizeof *es);
}

/* CSR incidence of an edge list: for node x, inc[off[x] .. off[x+1]-1] are the ids of
   the edges at x. */
typedef struct incidence {
  int32_t *off, *inc;
} incidence;

static void incidence_free(incidence *ic) {
  free(ic->off);
  free(ic->inc);
}

static int incidence_build(const drg_edges *es, incidence *ic, tc_error *err) {
  ic->off = calloc((size_t)es->n + 1, sizeof *ic->off);
  ic->inc = malloc((size_t)(2 * es->m + 1) * sizeof *ic->inc);
  int32_t *fill = calloc((size_t)es->n + 1, sizeof *fill);
  if (!ic->off || !ic->inc || !fill) {
    free(fill);
    incidence_free(ic);
    return oom(err);
  }
  for (int32_t e = 0; e < es->m; e++) {
    ic->off[es->eu[e] + 1]++;
    ic->off[es->ev[e] + 1]++;
  }
  for (int32_t x = 0; x < es->n; x++) ic->off[x + 1] += ic->off[x];
  for (int32_t e = 0; e < es->m; e++) {
    ic->inc[ic->off[es->eu[e]] + fill[es->eu[e]]++] = e;
    ic->inc[ic->off[es->ev[e]] + fill[es->ev[e]]++] = e;
  }
  free(fill);
  return TC_OK;
}

static int32_t other_end(const drg_edges *es, int32_t e, int32_t x) {
  return es->eu[e] == x ? es->ev[e] : es->eu[e];
}

static int label_line_node(const drg_edges *base, drg_edges *out, int32_t e, tc_error *err) {
  if (!base->label) return TC_OK;
  const char *a = base->label[base->eu[e]], *b = base->label[base->ev[e]];
  if (!a || !b) return TC_OK;
  return tci_drg_edges_set_label(out, e, err, "%s~%s", a, b);
}

int tci_drg_edges_line_graph(const drg_edges *base, drg_edges *out, tc_error *err) {
  incidence ic;
  int rc = tci_drg_edges_init(out, base->m, err);
  if (!rc) rc = incidence_build(base, &ic, err);
  if (rc) { tci_drg_edges_free(out); return rc; }
  for (int32_t x = 0; !rc && x < base->n; x++)
    for (int32_t i = ic.off[x]; !rc && i < ic.off[x + 1]; i++)
      for (int32_t j = i + 1; !rc && j < ic.off[x + 1]; j++)
        rc = tci_drg_edges_add(out, ic.inc[i], ic.inc[j], err);
  for (int32_t e = 0; !rc && e < base->m; e++) rc = label_line_node(base, out, e, err);
  incidence_free(&ic);
  if (rc) tci_drg_edges_free(out);
  return rc;
}

/* Breadth-first distances from s over the incidence lists (-1 = unreachable). */
static void bfs_distances(const drg_edges *es, const incidence *ic, int32_t s, int32_t *dist,
                          int32_t *queue) {
  for (int32_t x = 0; x < es->n; x++) dist[x] = -1;
  int32_t head = 0, tail = 0;
  dist[s] = 0;
  queue[tail++] = s;
  while (head < tail) {
    int32_t x = queue[head++];
    for (int32_t i = ic->off[x]; i < ic->off[x + 1]; i++) {
      int32_t y = other_end(es, ic->inc[i], x);
      if (dist[y] < 0) {
        dist[y] = dist[x] + 1;
        queue[tail++] = y;
      }
    }
  }
}

static int copy_labels(const drg_edges *from, drg_edges *to, tc_error *err) {
  if (!from->label) return TC_OK;
  for (int32_t x = 0; x < from->n; x++)
    if (from->label[x]) {
      int rc = tci_drg_edges_set_label(to, x, err, "%s", from->label[x]);
      if (rc) return rc;
    }
  return TC_OK;
}

int tci_drg_edges_distance_graph(const drg_edges *base, int32_t h, drg_edges *out, tc_error *err) {
  incidence ic;
  int rc = tci_drg_edges_init(out, base->n, err);
  if (!rc) rc = incidence_build(base, &ic, err);
  if (rc) { tci_drg_edges_free(out); return rc; }
  int32_t *dist = malloc((size_t)base->n * sizeof *dist);
  int32_t *queue = malloc((size_t)base->n * sizeof *queue);
  if (!dist || !queue) rc = oom(err);
  for (int32_t x = 0; !rc && x < base->n; x++) {
    bfs_distances(base, &ic, x, dist, queue);
    for (int32_t y = x + 1; !rc && y < base->n; y++)
      if (dist[y] == h) rc = tci_drg_edges_add(out, x, y, err);
  }
  if (!rc) rc = copy_labels(base, out, err);
  free(dist);
  free(queue);
  incidence_free(&ic);
  if (rc) tci_drg_edges_free(out);
  return rc;
}

int tci_drg_edges_to_graph(const drg_edges *es, tc_graph **out, tc_error *err) {
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, es->n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, 2 * (int64_t)es->m, err);
  for (int32_t e = 0; !rc && e < es->m; e++) rc = tc_graph_builder_add_edge(&b, es->eu[e], es->ev[e], 1, err);
  for (int32_t x = 0; !rc && es->label && x < es->n; x++)
    if (es->label[x]) rc = tc_graph_builder_set_label(&b, x, es->label[x], err);
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}
