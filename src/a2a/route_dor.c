/*
** route_dor.c — the DOR baseline (dimension-order routing, paper 003 §5.2, its ref. [17]
** Dally–Seitz): on a torus, correct dimension 0 first, then 1, ..., each the shorter way
** round; when both ways are equally long (an even length, half-way across) the + way.
**
** Numbering is tc_topo_torus's (row-major, the last coordinate fastest), and the graph
** must be exactly that torus: it is rebuilt from the dimensions and compared arc by arc,
** so DOR on anything else is refused with one line instead of routing through arcs that
** do not exist. A hop takes the lowest-id arc between its two nodes.
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

#include "topocoll/construct.h"
#include "topocoll/topo.h"

#define MAX_DIMS 64

/* The lowest-id arc u -> v (the caller knows there is one). */
static int64_t arc_between(const tc_graph *g, int32_t u, int32_t v) {
  int64_t a = g->out_off[u];
  while (g->dst[a] != v) a++;
  return a;
}

int tc_a2a_route_dor(const tc_graph *g, const int64_t *dims, int k, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!dims || k < 1 || k > MAX_DIMS)
    return tc_error_set(err, TC_EINPUT, "dor: needs the torus dimensions (1 to %d of them)", MAX_DIMS);
  tc_graph *torus = NULL;
  int rc = tc_topo_torus(dims, k, &torus, err);
  if (rc) {
    tc_error_prefix(err, "dor");
    return rc;
  }
  int same = tc_graph_same_arcs(torus, g);
  tc_graph_destroy(torus);
  if (!same) return tc_error_set(err, TC_EINPUT, "dor: the graph is not the torus of those dimensions (DOR routes "
                                 "tori only)");
  if ((rc = tci_a2a_check_graph(g, "dor", err)) || (rc = tc_a2a_routing_init(out, g->n, "dor", err))) return rc;
  int64_t stride[MAX_DIMS], hops = 0;
  for (int i = k - 1, s = 1; i >= 0; s *= (int)dims[i], i--) {
    stride[i] = s;
    hops += dims[i] / 2;
  }
  int64_t *path = malloc((size_t)(hops ? hops : 1) * sizeof *path);
  if (!path) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t s = 0; s < g->n && !rc; s++)
    for (int32_t t = 0; t < g->n && !rc; t++) {
      if (!tci_a2a_live(g, s, t)) continue;
      int32_t len = 0, u = s;
      for (int i = 0; i < k; i++) {
        int64_t L = dims[i], x = (u / stride[i]) % L, y = (t / stride[i]) % L, up = ((y - x) % L + L) % L;
        int64_t step = up <= L - up ? 1 : -1, count = up <= L - up ? up : L - up;
        for (int64_t c = 0; c < count; c++) {
          int64_t nx = ((x + step) % L + L) % L;
          int32_t v = (int32_t)(u + (nx - x) * stride[i]);
          path[len++] = arc_between(g, u, v);
          u = v;
          x = nx;
        }
      }
      rc = tc_a2a_routing_add(out, s, t, path, len, (tc_rat){1, 1}, err);
    }
  free(path);
  if (!rc) rc = tc_a2a_routing_finish(g, out, err);
  if (rc) tc_a2a_routing_destroy(out);
  return rc;
}
