/*
** genkautz.c — the generalized Kautz digraph Π_{d,m} of Imase and Itoh (paper 000
** Def. 16, App. F.2; paper 003 §5 "GenKautz").
**
** Π_{d,m} has vertex set Z_m and, for every x, the d arcs
**
**     x -> -(d*x + a) mod m,   a = 1..d.
**
** It exists for every degree d >= 1 and every size m >= d+1 (this is its selling point:
** one unidirectional d-regular family that covers every N), its diameter is at most
** ceil(log_d m) for d >= 2, and for m = d^{n+1} + d^n it is the Kautz graph K(d,n).
**
** Rejected: d < 1 and m < d+1 (TC_EINPUT; below d+1 the d out-neighbours of a node would
** not be distinct residues); m > TC_MAX_NODES or d*m > TC_MAX_ARCS (TC_ERANGE, checked
** before anything is allocated).
**
** Guarantees:
**   - node ids are the residues 0..m-1; the d out-neighbours of a node are distinct (they
**     differ by 1..d-1 < m), so the graph never has parallel arcs;
**   - a node x carries a self-loop exactly when (d+1)*x ≡ -a (mod m) for some a in 1..d,
**     and then exactly one (two loops would need a1 ≡ a2 mod m); no node has a loop when
**     (d+1) divides m;
**   - self-loop policy (paper 000 keeps loops, paper 003 does not say; the caller chooses):
**       TC_LOOPS_KEEP  keeps every loop arc, so every node has out- and in-degree exactly d
**                      with loops counted in d. This is paper 000's convention and the one
**                      that reproduces its Table 7 BFB values (e.g. Π_{4,64}: 21/16).
**       TC_LOOPS_DROP  omits loop arcs; a looped node then has out- and in-degree d-1. The
**                      other reading of paper 003 §5.4, whose GenKautz (its ref. [21])
**                      leaves loops unmentioned.
**   - unit capacities, all nodes compute nodes, no labels (the residue is the name).
**
** Cost: O(d*m) time and memory, one arc array reserved up front; Π_{4,10^6} builds in a
** few tens of milliseconds.
*/
#include <stddef.h>

#include "topocoll/topo.h"

static int check_genkautz_params(int64_t d, int64_t m, tc_loop_policy loops, tc_error *err) {
  if (d < 1) return tc_error_set(err, TC_EINPUT, "genkautz: d must be >= 1 (got %lld)", (long long)d);
  if (m <= d) /* not m < d+1: d+1 could overflow */
    return tc_error_set(err, TC_EINPUT, "genkautz: m must be >= d+1 (got m = %lld, d = %lld)",
                        (long long)m, (long long)d);
  if (loops != TC_LOOPS_KEEP && loops != TC_LOOPS_DROP)
    return tc_error_set(err, TC_EINPUT, "genkautz: unknown self-loop policy %d", (int)loops);
  if (m > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "genkautz: m = %lld exceeds the node limit %d",
                        (long long)m, TC_MAX_NODES);
  /* d < m <= TC_MAX_NODES, so d*m < TC_MAX_NODES^2 cannot overflow int64. */
  if (d * m > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "genkautz: d*m = %lld arcs exceeds the arc limit %lld",
                        (long long)(d * m), (long long)TC_MAX_ARCS);
  return TC_OK;
}

/* Adds the d arcs of every node. `dx` tracks d*x mod m incrementally, so no product is
   ever formed and every intermediate value stays below 2m. */
static int add_genkautz_arcs(tc_graph_builder *b, int64_t d, int64_t m, tc_loop_policy loops,
                             tc_error *err) {
  int64_t dx = 0; /* d*x mod m */
  for (int64_t x = 0; x < m; x++) {
    for (int64_t a = 1; a <= d; a++) {
      int64_t s = dx + a; /* < m + d < 2m */
      if (s >= m) s -= m;
      int64_t y = s ? m - s : 0; /* -(d*x + a) mod m */
      if (y == x && loops == TC_LOOPS_DROP) continue;
      int rc = tc_graph_builder_add_arc(b, x, y, 1, err);
      if (rc) return rc;
    }
    dx += d; /* d < m, so one subtraction reduces it */
    if (dx >= m) dx -= m;
  }
  return TC_OK;
}

int tc_topo_genkautz(int64_t d, int64_t m, tc_loop_policy loops, tc_graph **out, tc_error *err) {
  *out = NULL;
  int rc = check_genkautz_params(d, m, loops, err);
  if (rc) return rc;
  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, m, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, d * m, err);
  if (!rc) rc = add_genkautz_arcs(&b, d, m, loops, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
