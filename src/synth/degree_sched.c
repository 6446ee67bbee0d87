/*
** degree_sched.c — the allgather schedule of the degree expansion G*n built from an
** allgather A_G on G (paper 000 Definition 2, §5.2, App. D.2).
**
** Numbering (expand.h): copy i of node v is node i*N + v (i = 0..n-1), and every arc
** e = (u, w) of G gives one arc (u_i, w_j) for each pair of copies. The out-arcs of u_i are
** sorted by destination j*N + w, i.e. by copy j first and then like u's out-arcs in G, so
** the arc (u_i, w_j) of base arc e is dg->out_off[u_i] + j*outdeg(u) + (e - out_off[u]).
** Parallel base arcs keep their order (arcs are sorted by (src, dst, cap) in both graphs).
**
** Schedule (Def. 2):
**   part 1  for each base transfer ((v, C), (u, w), t) and all copies i, j: u_j sends C of
**           shard v_j to w_i in step t. Copy j's data is forwarded only inside copy j, but
**           every hop also delivers it to the corresponding node of every other copy, so
**           afterwards every node holds every shard except its twins' (v_i lacks v_j);
**   part 2  one extra step T+1: u_j has K = n*indeg(u) in-arcs; u_i's shard (i != j) is
**           cut into K equal chunks and the k-th in-arc carries the k-th chunk. Each
**           sender is a copy of an in-neighbour v != u (G has no self-loops), which holds
**           u_i's shard after part 1.
** Units: part 2 needs the shard split into n*indeg(u) pieces, so the base units are
** refined to a common multiple (LCM, overflow-checked); part 1 keeps the base chunks.
** Guarantees (Thm 11, for d-regular loop-free G): T_L = T_L(A_G) + 1 step and
** tau = tau(A_G) + (n-1)/(nN): part 1 loads each arc of G*n exactly like its base arc, and
** in part 2 every in-link carries n-1 chunks of 1/(nd) shard. A BW-optimal A_G stays
** BW-optimal (Cor. 11.1). n == 1 returns A_G itself (G*1 is G, there are no twins).
** The result should go through tc_schedule_verify like any generator's.
*/
#include "synth/expansion_internal.h"

#include <inttypes.h>
#include <string.h>

static const char *const DEGREE = "degree";

/* dg must be tc_graph_degree_expand(g, n) arc for arc. */
static int check_degree_graph(const tc_graph *g, int64_t n, const tc_graph *dg, tc_error *err) {
  int64_t N = g->n;
  if (dg->n != n * N)
    return tc_error_set(err, TC_EINPUT, "degree: the expanded graph has %d nodes, not %" PRId64 " x %" PRId64, dg->n,
                        n, N);
  for (int64_t i = 0; i < n; i++)
    for (int32_t u = 0; u < N; u++) {
      int32_t ui = (int32_t)(i * N + u);
      int64_t deg = tc_graph_out_degree(g, u);
      if (tc_graph_out_degree(dg, ui) != n * deg)
        return tc_error_set(err, TC_EINPUT,
                            "degree: node %d of the expanded graph has %" PRId64 " out-arcs, not %" PRId64
                            " x %" PRId64,
                            ui, tc_graph_out_degree(dg, ui), n, deg);
      for (int64_t j = 0; j < n; j++)
        for (int64_t k = 0; k < deg; k++) {
          int64_t e = g->out_off[u] + k, a = dg->out_off[ui] + j * deg + k;
          if (dg->dst[a] != j * N + g->dst[e] || dg->cap[a] != g->cap[e])
            return tc_error_set(err, TC_EINPUT,
                                "degree: the expanded graph is not G*%" PRId64 ": node %d lacks its arc to %" PRId64, n,
                                ui, j * N + g->dst[e]);
        }
    }
  return TC_OK;
}

/* Every node needs an in-arc to collect its twins' shards from (checked so that the
   failure names the node instead of the verifier naming a missing byte). */
static int check_in_arcs(const tc_graph *g, tc_error *err) {
  for (int32_t u = 0; u < g->n; u++)
    if (tc_graph_in_degree(g, u) == 0)
      return tc_error_set(err, TC_EINPUT, "degree: node %d of the base graph has no in-arc", u);
  return TC_OK;
}

/* The refinement that makes every node's shard divisible into n*indeg(u) equal chunks. */
static int twin_refinement(const tc_graph *g, int64_t n, int64_t units, int64_t *refine, tc_error *err) {
  int64_t common = units;
  for (int32_t u = 0; u < g->n; u++) {
    int64_t pieces;
    int rc = tci_xs_mul(DEGREE, "the chunk count", n, tc_graph_in_degree(g, u), &pieces, err);
    if (!rc) rc = tci_xs_lcm(DEGREE, "the units per shard", common, pieces, &common, err);
    if (rc) return rc;
  }
  *refine = common / units;
  return TC_OK;
}

/* n^2 transfers per base transfer, then n-1 chunks over each of the n*indeg in-arcs of
   each of the nN nodes. */
static int count_transfers(const tc_graph *g, const tc_schedule *ag, int64_t n, int64_t *count, tc_error *err) {
  int64_t nn, nnn, part1, part2;
  int rc = tci_xs_mul(DEGREE, "the transfer count", n, n, &nn, err);
  if (!rc) rc = tci_xs_mul(DEGREE, "the transfer count", nn, ag->count, &part1, err);
  if (!rc) rc = tci_xs_mul(DEGREE, "the transfer count", nn, n - 1, &nnn, err);
  if (!rc) rc = tci_xs_mul(DEGREE, "the transfer count", nnn, g->m, &part2, err);
  if (!rc) rc = tci_xs_add(DEGREE, "the transfer count", part1, part2, count, err);
  return rc;
}

static int emit_copies(const tc_graph *g, int64_t n, const tc_graph *dg, const tc_transfer *x, tc_schedule *out,
                       tc_error *err) {
  int64_t N = g->n, e = x->arc;
  int32_t u = g->src[e];
  int64_t deg = tc_graph_out_degree(g, u), k = e - g->out_off[u];
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++) {
      int64_t arc = dg->out_off[j * N + u] + i * deg + k; /* (u_j, w_i) */
      int rc = tc_schedule_add(out, (int32_t)(j * N + x->shard), arc, x->step, x->lo, x->hi, err);
      if (rc) return rc;
    }
  return TC_OK;
}

/* Step `step`: u_j collects every twin's shard, one chunk per in-arc. */
static int emit_twins(const tc_graph *g, int64_t n, const tc_graph *dg, int32_t step, tc_schedule *out,
                      tc_error *err) {
  int64_t N = g->n;
  for (int64_t j = 0; j < n; j++)
    for (int32_t u = 0; u < N; u++) {
      int32_t uj = (int32_t)(j * N + u);
      int64_t pieces = tc_graph_in_degree(dg, uj), len = out->units / pieces;
      for (int64_t k = 0; k < pieces; k++) {
        int64_t arc = dg->in_arc[dg->in_off[uj] + k];
        for (int64_t i = 0; i < n; i++) {
          if (i == j) continue;
          int rc = tc_schedule_add(out, (int32_t)(i * N + u), arc, step, k * len, (k + 1) * len, err);
          if (rc) return rc;
        }
      }
    }
  return TC_OK;
}

static int check_arguments(const tc_graph *g, const tc_schedule *ag, int64_t n, const tc_graph *dg, tc_error *err) {
  if (n < 1)
    return tc_error_set(err, TC_EINPUT, "degree: the expansion factor must be >= 1 (got %" PRId64 ")", n);
  if (n > TC_MAX_NODES) return tc_error_set(err, TC_ERANGE, "degree: the expansion factor %" PRId64 " is too large", n);
  int64_t loops = tc_graph_count_self_loops(g);
  if (loops)
    return tc_error_set(err, TC_EINPUT,
                        "degree: the base graph has %" PRId64 " self-loops; degree expansion needs a loop-free graph",
                        loops);
  int rc = tci_xs_check_base(DEGREE, g, ag, err);
  if (!rc) rc = check_degree_graph(g, n, dg, err);
  if (!rc && n > 1) rc = check_in_arcs(g, err);
  if (!rc && ag->steps == INT32_MAX) rc = tc_error_set(err, TC_ERANGE, "degree: the base schedule has too many steps");
  return rc;
}

int tc_schedule_degree(const tc_graph *g, const tc_schedule *ag, int64_t n, const tc_graph *dg, tc_schedule *out,
                       tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_arguments(g, ag, n, dg, err);
  if (rc) return rc;
  int64_t refine = 1, count;
  if (n > 1) rc = twin_refinement(g, n, ag->units, &refine, err);
  if (!rc) rc = count_transfers(g, ag, n, &count, err);
  if (rc) return rc;

  tc_schedule base;
  rc = tci_xs_working_copy(ag, refine, &base, err);
  if (rc) return rc;
  rc = tci_xs_start(DEGREE, (int64_t)dg->n, base.units, count, out, err);
  for (int64_t i = 0; !rc && i < base.count; i++) rc = emit_copies(g, n, dg, &base.xfer[i], out, err);
  if (!rc && n > 1) rc = emit_twins(g, n, dg, ag->steps + 1, out, err);
  tc_schedule_destroy(&base);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = n > 1 ? ag->steps + 1 : ag->steps;
  return TC_OK;
}
