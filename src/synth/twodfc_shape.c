/*
** twodfc_shape.c — recognising the m2 x m1 2dfc the 2dfc generators run on
** (twodfc_internal.h): hyperx(m2,m1) and nothing else, so a generator never "makes do" on
** a graph its schedule was not designed for.
*/
#include "synth/twodfc_internal.h"

#include "topocoll/sched.h"

/* Whether u and v (u != v) share a row or a column. */
static int adjacent(const tci_twodfc *f, int32_t u, int32_t v) {
  return u / f->m1 == v / f->m1 || u % f->m1 == v % f->m1;
}

int tci_twodfc_check(const tc_graph *g, int64_t m2, int64_t m1, const char *algo, tci_twodfc *f, tc_error *err) {
  if (!g) return tc_error_set(err, TC_EINPUT, "%s: no graph", algo);
  if (m1 < 2 || m2 < 2)
    return tc_error_set(err, TC_EINPUT, "%s: the 2dfc needs m2, m1 >= 2 (got hyperx(%lld,%lld))", algo,
                        (long long)m2, (long long)m1);
  if (m1 > TC_ALLTOALL_MAX_NODES || m2 > TC_ALLTOALL_MAX_NODES / m1)
    return tc_error_set(err, TC_ERANGE, "%s: at most %d nodes (hyperx(%lld,%lld))", algo, TC_ALLTOALL_MAX_NODES,
                        (long long)m2, (long long)m1);
  if (m1 * m2 != g->n)
    return tc_error_set(err, TC_EINPUT, "%s: hyperx(%lld,%lld) has %lld nodes but the graph has %d", algo,
                        (long long)m2, (long long)m1, (long long)(m1 * m2), g->n);
  f->m1 = (int32_t)m1;
  f->m2 = (int32_t)m2;
  f->g = g;
  for (int32_t u = 0; u < g->n; u++) {
    if (g->kind[u] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EINPUT, "%s: node %d is a switch; the 2dfc is a direct network", algo, u);
    int64_t deg = g->out_off[u + 1] - g->out_off[u];
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
      int32_t v = g->dst[a];
      if (v == u || !adjacent(f, u, v))
        return tc_error_set(err, TC_EINPUT, "%s: node %d has an arc to %d, which is not in its row or column of "
                            "hyperx(%lld,%lld)", algo, u, v, (long long)m2, (long long)m1);
      if (g->cap[a] != 1 || (a > g->out_off[u] && g->dst[a - 1] == v))
        return tc_error_set(err, TC_EINPUT, "%s: the link %d -> %d is not one unit-capacity arc", algo, u, v);
    }
    /* distinct row and column neighbours only, so the right count means all of them */
    if (deg != m1 + m2 - 2)
      return tc_error_set(err, TC_EINPUT, "%s: node %d has %lld links, not the %lld of hyperx(%lld,%lld)", algo, u,
                          (long long)deg, (long long)(m1 + m2 - 2), (long long)m2, (long long)m1);
  }
  return TC_OK;
}

int64_t tci_twodfc_arc(const tci_twodfc *f, int32_t u, int32_t v) {
  const tc_graph *g = f->g;
  int64_t lo = g->out_off[u], hi = g->out_off[u + 1];
  while (lo < hi) { /* out-arcs are sorted by destination */
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dst[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
