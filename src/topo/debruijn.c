/*
** debruijn.c — the de Bruijn digraph B(d,n) (paper 000 Table 9 row 11).
**
** B(d,n) has the d^n words of n letters over {0..d-1} as nodes and the arcs
** x_1..x_n -> x_2..x_n y. Reading a word as a base-d number (x_1 most significant) turns
** this into the arithmetic form used here:
**
**     x -> d*x + a (mod d^n),   a = 0..d-1.
**
** Guarantees: node id = the word's base-d value; every node has out- and in-degree d with
** self-loops kept and counted (exactly d of them, at the constant words 00..0, 11..1, ...,
** for n >= 1); no parallel arcs for n >= 1; diameter n for d >= 2; reverse-symmetric via
** word reversal. This is the definition that reproduces paper 000 Table 7's DBJ(4,4) row
** (D = 4, BFB tau = 85/64). Unit capacities, no labels.
**
** Degenerate but accepted, because the formula still defines them: n = 0 (one node with
** d parallel loops) and d = 1 (B(1,n) is one node with one loop).
**
** Rejected: d < 1, n < 0 (TC_EINPUT); d^n > TC_MAX_NODES or d^{n+1} > TC_MAX_ARCS
** (TC_ERANGE, with overflow guards, before allocating).
*/
#include <stddef.h>

#include "topocoll/topo.h"

/* d^n into *nodes, or TC_ERANGE. d == 1 returns at once, so a huge n cannot loop long. */
static int debruijn_size(int64_t d, int64_t n, int64_t *nodes, tc_error *err) {
  int64_t p = 1;
  for (int64_t i = 0; i < n && d > 1; i++) {
    if (p > TC_MAX_NODES / d)
      return tc_error_set(err, TC_ERANGE, "debruijn: B(%lld,%lld) has more than %d nodes",
                          (long long)d, (long long)n, TC_MAX_NODES);
    p *= d;
  }
  if (d > TC_MAX_ARCS / p)
    return tc_error_set(err, TC_ERANGE, "debruijn: B(%lld,%lld) has more than %lld arcs",
                        (long long)d, (long long)n, (long long)TC_MAX_ARCS);
  *nodes = p;
  return TC_OK;
}

static int add_debruijn_arcs(tc_graph_builder *b, int64_t d, int64_t nodes, tc_error *err) {
  for (int64_t x = 0; x < nodes; x++) {
    int64_t shifted = (d * x) % nodes; /* d*x <= d*nodes <= TC_MAX_ARCS: no overflow */
    for (int64_t a = 0; a < d; a++) {
      int rc = tc_graph_builder_add_arc(b, x, (shifted + a) % nodes, 1, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

int tc_topo_debruijn(int64_t d, int64_t n, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (d < 1) return tc_error_set(err, TC_EINPUT, "debruijn: d must be >= 1 (got %lld)", (long long)d);
  if (n < 0) return tc_error_set(err, TC_EINPUT, "debruijn: n must be >= 0 (got %lld)", (long long)n);
  int64_t nodes = 0;
  int rc = debruijn_size(d, n, &nodes, err);
  if (rc) return rc;
  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * d, err);
  if (!rc) rc = add_debruijn_arcs(&b, d, nodes, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
