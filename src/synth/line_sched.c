/*
** line_sched.c — the allgather schedule of the line graph L(G) built from an allgather
** A_G on G (paper 000 Definition 1, §5.1, App. D.1).
**
** Numbering (expand.h): node a of L(G) is arc a of G, and L(G) has one arc a -> c for every
** arc c leaving the head of a; the out-arcs of node a are ordered like the out-arcs of
** dst(a) in G, so arc (a -> c) of L(G) is lg->out_off[a] + (c - g->out_off[dst(a)]).
** Node a = v'v owns shard a.
**
** Schedule (Def. 1, literally):
**   step 1      every node v'v sends its whole shard over every out-arc (v'v, vu) with
**               vu != v'v (only a self-loop of G is its own successor);
**   step t + 1  for each base transfer ((v, C), (u, w), t) over arc e = uw: node e sends
**               chunk C of shard v'v to node ww' for every in-arc v'v of v and every
**               out-arc ww' of w with v'v != ww'.
** Why it is an allgather: if u holds C of v before step t, every out-arc e = uw of u holds
** C of every in-arc of v before step t + 1 (for u = v through step 1; a node's own shard
** needs no transfer, which is exactly the excluded case v'v == ww'). Parallel arcs and
** self-loops of G are distinct nodes of L(G) and need nothing special.
** Guarantees (Thm 7): T_L = T_L(A_G) + 1 step; an arc of L(G) carries at most d times what
** its base arc carried one step earlier, so tau <= tau(A_G) + 1/N for d-regular G; with the
** optimal BFB A_G and at least two distinct out-neighbours per node it is the optimal BFB
** schedule of L(G) and tau = tau(A_G) + 1/N exactly (Thm 10). The units per shard stay
** those of A_G. The result should go through tc_schedule_verify like any generator's.
*/
#include "synth/expansion_internal.h"

#include <inttypes.h>
#include <string.h>

static const char *const LINE = "line";

/* lg must be exactly tc_graph_line(g): node a has one arc to each out-arc of dst(a), in
   that order (arcs are sorted by destination, so the order is forced). */
static int check_line_graph(const tc_graph *g, const tc_graph *lg, tc_error *err) {
  if (lg->n != g->m)
    return tc_error_set(err, TC_EINPUT, "line: the line graph has %d nodes but the base graph has %" PRId64 " arcs",
                        lg->n, g->m);
  for (int64_t a = 0; a < g->m; a++) {
    int32_t head = g->dst[a];
    int64_t first = g->out_off[head], deg = tc_graph_out_degree(g, head);
    if (tc_graph_out_degree(lg, (int32_t)a) != deg)
      return tc_error_set(err, TC_EINPUT,
                          "line: node %" PRId64 " of the line graph has %" PRId64 " out-arcs; arc %" PRId64
                          " of the base graph has %" PRId64 " successors",
                          a, tc_graph_out_degree(lg, (int32_t)a), a, deg);
    for (int64_t i = 0; i < deg; i++)
      if (lg->dst[lg->out_off[a] + i] != first + i)
        return tc_error_set(err, TC_EINPUT,
                            "line: the line graph is not L(base): node %" PRId64 " has an arc to %d instead of %"
                            PRId64,
                            a, lg->dst[lg->out_off[a] + i], first + i);
  }
  return TC_OK;
}

/* Step 1 sends along every arc of L(G) but the self-loops; step t+1 sends at most
   indeg(v) * outdeg(w) transfers per base transfer. An upper bound is enough to reserve. */
static int count_transfers(const tc_graph *g, const tc_schedule *ag, const tc_graph *lg, int64_t *count,
                           tc_error *err) {
  int64_t total = lg->m;
  for (int64_t i = 0; i < ag->count; i++) {
    const tc_transfer *x = &ag->xfer[i];
    int64_t fan;
    int rc = tci_xs_mul(LINE, "the transfer count", tc_graph_in_degree(g, x->shard),
                       tc_graph_out_degree(g, g->dst[x->arc]), &fan, err);
    if (!rc) rc = tci_xs_add(LINE, "the transfer count", total, fan, &total, err);
    if (rc) return rc;
  }
  *count = total;
  return TC_OK;
}

/* Step 1: every node's whole shard to each successor but itself. */
static int emit_first_step(const tc_graph *lg, tc_schedule *out, tc_error *err) {
  for (int32_t a = 0; a < lg->n; a++)
    for (int64_t arc = lg->out_off[a]; arc < lg->out_off[a + 1]; arc++) {
      if (lg->dst[arc] == a) continue;
      int rc = tc_schedule_add(out, a, arc, 1, 0, out->units, err);
      if (rc) return rc;
    }
  return TC_OK;
}

/* Step t+1 copies of one base transfer ((v, C), (u, w), t) over arc e. */
static int emit_shifted(const tc_graph *g, const tc_graph *lg, const tc_transfer *x, tc_schedule *out,
                        tc_error *err) {
  int64_t e = x->arc;
  int32_t v = x->shard, w = g->dst[e];
  for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) {
    int64_t shard = g->in_arc[i]; /* the node v'v of L(G) */
    for (int64_t c = g->out_off[w]; c < g->out_off[w + 1]; c++) {
      if (c == shard) continue; /* v'v == ww': the receiver's own shard */
      int64_t arc = lg->out_off[e] + (c - g->out_off[w]);
      int rc = tc_schedule_add(out, (int32_t)shard, arc, x->step + 1, x->lo, x->hi, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

int tc_schedule_line(const tc_graph *g, const tc_schedule *ag, const tc_graph *lg, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_xs_check_base(LINE, g, ag, err);
  if (!rc) rc = check_line_graph(g, lg, err);
  if (rc) return rc;
  if (ag->steps == INT32_MAX) return tc_error_set(err, TC_ERANGE, "line: the base schedule has too many steps");
  int64_t count;
  rc = count_transfers(g, ag, lg, &count, err);
  if (rc) return rc;

  tc_schedule base;
  rc = tci_xs_working_copy(ag, 1, &base, err);
  if (rc) return rc;
  rc = tci_xs_start(LINE, lg->n, ag->units, count, out, err);
  if (!rc) rc = emit_first_step(lg, out, err);
  for (int64_t i = 0; !rc && i < base.count; i++) rc = emit_shifted(g, lg, &base.xfer[i], out, err);
  tc_schedule_destroy(&base);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = ag->steps + 1; /* T_L(A_G) + 1 even if A_G ends with an idle step */
  return TC_OK;
}
