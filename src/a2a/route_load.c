/*
** route_load.c — the fluid evaluation of a routing (contract in a2a_route.h, paper 003
** §5.3's "all-to-all time": unit demands, the maximum link load, 1/F).
**
** Exact: every weight is an integer number of units of 1/D (D the LCM of the
** denominators), per-arc sums are integers (overflow-checked), and the maximum of
** units[a] / (D cap[a]) is found by 128-bit cross-multiplication before one rational is
** formed.
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

void tc_a2a_load_destroy(tc_a2a_load *l) {
  free(l->units);
  memset(l, 0, sizeof *l);
}

int tc_a2a_routing_load(const tc_graph *g, const tc_a2a_routing *r, tc_a2a_load *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!r->first) return tc_error_set(err, TC_EINPUT, "the routing is not finished (tc_a2a_routing_finish)");
  if (g->n != r->nodes)
    return tc_error_set(err, TC_EINPUT, "the routing is for %d nodes but the graph has %d", r->nodes, g->n);
  int64_t D;
  int rc = tci_a2a_denominator(r, &D, err);
  if (rc) return rc;
  int64_t *units = calloc((size_t)(g->m ? g->m : 1), sizeof *units);
  if (!units) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int64_t p = 0; p < r->npaths && !rc; p++) {
    int64_t share = r->weight[p].num * (D / r->weight[p].den); /* <= D: the weight is <= 1 */
    for (int64_t h = r->hop_off[p]; h < r->hop_off[p + 1] && !rc; h++)
      if (tci_add64(units[r->arc[h]], share, &units[r->arc[h]]))
        rc = tc_error_set(err, TC_ERANGE, "the load of arc %lld overflows in units of 1/%lld", (long long)r->arc[h],
                          (long long)D);
  }
  int64_t best = -1;
  for (int64_t a = 0; a < g->m && !rc; a++) /* units[a]/cap[a] > units[best]/cap[best] */
    if (units[a] && (best < 0 || (__int128)units[a] * g->cap[best] > (__int128)units[best] * g->cap[a])) best = a;
  out->denom = D;
  out->units = units;
  out->max_arc = best;
  out->max_load = (tc_rat){0, 1};
  out->rate = (tc_rat){0, 1};
  if (!rc && best >= 0) {
    /* L = units / (D cap): reduce units/D first (both fit), then divide by cap */
    rc = tc_rat_make(units[best], D, &out->max_load, err);
    if (!rc) rc = tc_rat_div(out->max_load, (tc_rat){g->cap[best], 1}, &out->max_load, err);
    if (!rc) rc = tc_rat_make(out->max_load.den, out->max_load.num, &out->rate, err);
  }
  if (rc) tc_a2a_load_destroy(out);
  return rc;
}
