/*
** reverse.c — the reverse schedule A^T of paper 000 Def. 5 (contract in transform.h).
**
** ((v,C),(u,w), t_max - t + 1) ∈ A^T  iff  ((v,C),(w,u),t) ∈ A: every transfer runs
** backwards over the opposite arc of G^T, and the step order is mirrored. By Theorem 1 an
** allgather becomes a reduce-scatter and vice versa; the same mirror turns a broadcast into
** a reduce to the same root, and an allreduce (RS in 1..r, AG in r+1..t_max) into an
** allreduce whose reduce-scatter half is the mirrored allgather (steps 1..t_max - r). An
** alltoall stays an alltoall with every shard transposed, (s,t) -> (t,s): under its flow
** semantics a unit's walk s -> t, run backwards in time over reversed arcs, is a walk
** t -> s of G^T that still relays only what arrived earlier. A scatter from root R becomes
** a gather to R (shard k still node k's: it now starts there and ends at R) and back, and a
** p2p S -> T a p2p T -> S, by the same argument as alltoall's.
** Per-step loads are the same multiset of numbers, so T_L and T_B are kept exactly.
**
** The arc of G^T that reverses arc a of G is found by endpoints and capacity, never by
** assuming how tc_graph_transpose numbers its arcs; parallel arcs map one to one.
*/
#include "topocoll/transform.h"
#include "sched/transform_internal.h"

#include <stdlib.h>
#include <string.h>

static tc_collective reversed_collective(tc_collective c) {
  switch (c) {
    case TC_COLL_ALLGATHER: return TC_COLL_REDUCE_SCATTER;
    case TC_COLL_REDUCE_SCATTER: return TC_COLL_ALLGATHER;
    case TC_COLL_BROADCAST: return TC_COLL_REDUCE;
    case TC_COLL_REDUCE: return TC_COLL_BROADCAST;
    case TC_COLL_SCATTER: return TC_COLL_GATHER;
    case TC_COLL_GATHER: return TC_COLL_SCATTER;
    default: return c; /* allreduce stays allreduce, alltoall alltoall, p2p p2p */
  }
}

/* gt must have g's nodes (with their kinds) and as many arcs; the arc map checks the rest. */
static int check_transpose_shape(const tc_graph *g, const tc_graph *gt, tc_error *err) {
  if (g->n != gt->n || g->m != gt->m)
    return tc_error_set(err, TC_EINPUT,
                        "reverse: target graph (%d nodes, %lld arcs) is not the transpose of one with %d nodes, "
                        "%lld arcs",
                        gt->n, (long long)gt->m, g->n, (long long)g->m);
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] != gt->kind[u])
      return tc_error_set(err, TC_EINPUT, "reverse: node %d changes kind (compute/switch) in the target graph", u);
  return TC_OK;
}

static int check_steps(const tc_schedule *s, tc_error *err) {
  for (int64_t i = 0; i < s->count; i++)
    if (s->xfer[i].step < 1 || s->xfer[i].step > s->steps)
      return tc_error_set(err, TC_EINPUT, "reverse: transfer #%lld has step %d outside 1..%d", (long long)i,
                          s->xfer[i].step, s->steps);
  if (s->coll == TC_COLL_ALLREDUCE && (s->rs_steps < 0 || s->rs_steps > s->steps))
    return tc_error_set(err, TC_EINPUT, "reverse: allreduce has rs_steps %d outside 0..%d", s->rs_steps, s->steps);
  return TC_OK;
}

int tc_schedule_reverse(const tc_graph *g, const tc_schedule *s, const tc_graph *gt, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_schedule_check_graph(g, s, "reverse", err);
  if (!rc) rc = check_transpose_shape(g, gt, err);
  if (!rc) rc = check_steps(s, err);
  if (rc) return rc;
  int64_t *arcmap = malloc(((size_t)g->m + 1) * sizeof *arcmap);
  if (!arcmap) return tc_error_set(err, TC_ENOMEM, "out of memory");
  rc = tci_graph_map_arcs(g, gt, NULL, 1, NULL, arcmap, err);
  if (rc) tc_error_prefix(err, "reverse: target graph is not the transpose");
  if (!rc && (s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER || s->coll == TC_COLL_P2P))
    rc = tc_schedule_init_rooted(out, reversed_collective(s->coll), s->nodes,
                                 s->coll == TC_COLL_P2P ? s->dest : tc_schedule_root(s), tc_schedule_root(s), s->units,
                                 s->algorithm, err);
  else if (!rc)
    rc = tc_schedule_init_owned(out, reversed_collective(s->coll), s->nodes, s->nshards, s->owner, s->units,
                                s->algorithm, err);
  if (!rc) rc = tc_schedule_reserve(out, s->count ? s->count : 1, err);
  for (int64_t i = 0; !rc && i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int32_t shard = s->coll == TC_COLL_ALLTOALL ? tc_schedule_dest(s, x->shard) * s->nodes + tc_schedule_owner(s, x->shard)
                                                : x->shard;
    rc = tc_schedule_add(out, shard, arcmap[x->arc], s->steps - x->step + 1, x->lo, x->hi, err);
  }
  free(arcmap);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = s->steps; /* an idle first step of A is an idle last step of A^T: T_L is kept */
  out->rs_steps = s->coll == TC_COLL_ALLREDUCE ? s->steps - s->rs_steps : 0;
  return TC_OK;
}
