/*
** logical_sched.c — topology-unaware baselines on any graph (contract in
** baseline_common.h): their logical messages routed hop by hop over shortest routes
** (contention.h). On their home topology complete(n) every message is one arc and no link
** carries two messages in a round (the multi-port model's contention freedom). Elsewhere
** messages of one round may share a link: the step schedule combines them there into one
** message whose load is their sum (cost.h), so T_B counts every byte the link carries and
** T_L one α per step — what a message-combining relay would pay; a network that
** serialises them pays one α more per extra message, which tc_contention_check finds on
** the same routes. A partial of a reduction cannot be relayed by a compute node (it
** would add its own), and a block under flow semantics (alltoall, p2p) cannot be relayed
** by its own destination (it arrives there once): such a reduction is refused, such a
** block takes the shortest route that avoids its destination (refused if none does).
*/
#include <stdlib.h>
#include <string.h>

#include "synth/baseline_common.h"
#include "topocoll/contention.h" /* tc_routes_shortest */

int tci_bl_push(tc_bl_blocks *l, int32_t round, int32_t src, int32_t dst, int32_t shard, int64_t lo, int64_t hi,
               tc_error *err) {
  if (l->n == l->room) {
    int64_t room = l->room ? 2 * l->room : 64;
    tc_bl_block *b = realloc(l->b, (size_t)room * sizeof *b);
    if (!b) return tc_error_set(err, TC_ENOMEM, "out of memory for %lld blocks", (long long)room);
    l->b = b;
    l->room = room;
  }
  l->b[l->n++] = (tc_bl_block){round, src, dst, shard, lo, hi};
  return TC_OK;
}

int tci_bl_logical_init(const tc_graph *g, tc_collective coll, int32_t root, int32_t dst, int64_t units,
                       const char *algo, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (tc_graph_count_kind(g, TC_NODE_SWITCH))
    return tc_error_set(err, TC_EINPUT, "%s: needs a graph of compute nodes only (its ranks are the nodes)", algo);
  int rooted = coll == TC_COLL_BROADCAST || coll == TC_COLL_REDUCE || coll == TC_COLL_SCATTER ||
               coll == TC_COLL_GATHER || coll == TC_COLL_P2P;
  return rooted ? tc_schedule_init_rooted(out, coll, g->n, root, dst, units, algo, err)
                : tc_schedule_init(out, coll, g->n, units, algo, err);
}

static int reduce_round(const tc_schedule *s, int32_t round, int32_t rs_rounds) {
  return s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE ||
         (s->coll == TC_COLL_ALLREDUCE && round <= rs_rounds);
}

/* 1 when block i's route passes through its own destination before its end. */
static int through_dest(const tc_graph *g, const tc_schedule *s, const tc_bl_block *b, const tc_routes *r, int64_t i) {
  for (int64_t h = r->off[i]; h + 1 < r->off[i + 1]; h++)
    if (g->dst[r->arc[h]] == tc_schedule_dest(s, b->shard)) return 1;
  return 0;
}

/* A shortest route src -> dst that never enters `avoid` (breadth-first, out-arcs in id order,
   as tc_routes_shortest) into path[0..*len); 0 when there is none. pred: n scratch. */
static int route_avoiding(const tc_graph *g, int32_t src, int32_t dst, int32_t avoid, int64_t *pred, int32_t *queue,
                          int64_t *path, int64_t *len) {
  for (int32_t v = 0; v < g->n; v++) pred[v] = -1;
  int32_t head = 0, tail = 0;
  queue[tail++] = src;
  pred[src] = -2;
  while (head < tail && pred[dst] == -1) {
    int32_t u = queue[head++];
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (pred[g->dst[a]] == -1 && g->dst[a] != avoid) {
        pred[g->dst[a]] = a;
        queue[tail++] = g->dst[a];
      }
  }
  if (pred[dst] == -1) return 0;
  *len = 0;
  for (int32_t v = dst; v != src; v = g->src[pred[v]]) (*len)++;
  int64_t k = *len;
  for (int32_t v = dst; v != src; v = g->src[pred[v]]) path[--k] = pred[v];
  return 1;
}

/* Flow semantics (alltoall, p2p): a unit reaches its destination once and is never sent
   on, so a block whose shortest route passes through its own destination takes the
   shortest route that avoids it instead — the rest of its message keeps the route. r is
   rebuilt when any block moves; TC_EINPUT when no route avoids the node. */
static int avoid_destinations(const tc_graph *g, const tc_schedule *s, const tc_bl_block *b, int64_t n, tc_routes *r,
                              const char *algo, tc_error *err) {
  int64_t moved = 0;
  for (int64_t i = 0; i < n; i++) moved += through_dest(g, s, &b[i], r, i);
  if (!moved) return TC_OK;
  int64_t room = r->off[n] + moved * g->n;
  int64_t *off = malloc((size_t)(n + 1) * sizeof *off), *arc = malloc((size_t)room * sizeof *arc);
  int64_t *pred = malloc((size_t)g->n * sizeof *pred);
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  int rc = off && arc && pred && queue ? TC_OK : tc_error_set(err, TC_ENOMEM, "out of memory for rerouted blocks");
  if (!rc) off[0] = 0;
  for (int64_t i = 0; i < n && !rc; i++) {
    int64_t len = r->off[i + 1] - r->off[i];
    int32_t dest = tc_schedule_dest(s, b[i].shard);
    if (!through_dest(g, s, &b[i], r, i))
      memcpy(arc + off[i], r->arc + r->off[i], (size_t)len * sizeof *arc);
    else if (!route_avoiding(g, b[i].src, b[i].dst, dest, pred, queue, arc + off[i], &len))
      rc = tc_error_set(err, TC_EINPUT, "%s %s: no route %d -> %d (round %d) avoids node %d, where a block it carries "
                        "ends (a unit reaches its destination once, and is not sent on)", algo,
                        tc_collective_name(s->coll), b[i].src, b[i].dst, b[i].round, dest);
    off[i + 1] = off[i] + len;
  }
  free(pred);
  free(queue);
  if (rc) {
    free(off);
    free(arc);
    return rc;
  }
  tc_routes_destroy(r);
  *r = (tc_routes){n, off, arc};
  return TC_OK;
}

int tci_bl_logical(const tc_graph *g, const tc_bl_block *b, int64_t n, const char *algo, int32_t rs_rounds,
                  tc_schedule *out, tc_error *err) {
  tc_message *msg = malloc((size_t)(n ? n : 1) * sizeof *msg);
  if (!msg) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int32_t rounds = 0;
  for (int64_t i = 0; i < n; i++) {
    msg[i] = (tc_message){b[i].round, b[i].src, b[i].dst};
    if (b[i].round > rounds) rounds = b[i].round;
  }
  tc_routes r = {0};
  int64_t *base = calloc((size_t)rounds + 2, sizeof *base);
  int rc = base ? tc_routes_shortest(g, msg, n, &r, err) : tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc && tc_collective_flows(out->coll)) rc = avoid_destinations(g, out, b, n, &r, algo, err);
  for (int64_t i = 0; i < n && !rc; i++) { /* base[round] = the longest route of the round, then summed */
    int64_t len = r.off[i + 1] - r.off[i];
    if (len > 1 && reduce_round(out, b[i].round, rs_rounds))
      rc = tc_error_set(err, TC_EINPUT, "%s %s: node %d is %lld hops from node %d, and a partial cannot be relayed "
                        "through a compute node (it would add its own)", algo, tc_collective_name(out->coll),
                        b[i].dst, (long long)len, b[i].src);
    if (len > base[b[i].round]) base[b[i].round] = len;
  }
  for (int32_t t = 1; t <= rounds + 1 && !rc; t++) base[t] += base[t - 1]; /* base[t]: last step of round t */
  if (!rc) rc = tc_schedule_reserve(out, out->count + n, err);
  for (int64_t i = 0; i < n && !rc; i++)
    for (int64_t h = r.off[i]; h < r.off[i + 1] && !rc; h++)
      rc = tc_schedule_add(out, b[i].shard, r.arc[h], (int32_t)(base[b[i].round - 1] + (h - r.off[i]) + 1), b[i].lo,
                           b[i].hi, err);
  if (!rc && out->coll == TC_COLL_ALLREDUCE) out->rs_steps = (int32_t)base[rs_rounds < rounds ? rs_rounds : rounds];
  tc_routes_destroy(&r);
  free(base);
  free(msg);
  return rc;
}

int tci_bl_emit(const tc_graph *g, tc_collective coll, const tc_bl_block *b, int64_t n, const char *algo,
                int32_t rs_rounds, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int one_hop = 1;
  for (int64_t i = 0; i < n && one_hop; i++) one_hop = tc_graph_arc_multiplicity(g, b[i].src, b[i].dst) > 0;
  int64_t scale = 1, units = 1;
  int rc = one_hop ? tci_bl_split_scale(g, algo, &scale, err) : TC_OK;
  if (!rc) rc = tci_bl_units(algo, 1, scale, &units, err);
  if (!rc) rc = tci_bl_logical_init(g, coll, 0, -1, units, algo, out, err);
  if (!rc && !one_hop) rc = tci_bl_logical(g, b, n, algo, rs_rounds, out, err);
  for (int64_t i = 0; i < n && !rc && one_hop; i++)
    rc = tci_bl_send(out, g, b[i].src, b[i].dst, b[i].shard, b[i].round, b[i].lo, b[i].hi, scale, err);
  if (!rc && one_hop && coll == TC_COLL_ALLREDUCE) out->rs_steps = rs_rounds;
  if (rc) tc_schedule_destroy(out);
  return rc;
}

int tci_bl_hamiltonian_cycle(const tc_graph *g, int64_t budget, int32_t *order) {
  int32_t n = g->n;
  if (n < 2) return 0;
  int ranks = 1;
  for (int32_t u = 0; u < n && ranks; u++) ranks = tc_graph_arc_multiplicity(g, u, (int32_t)((u + 1) % n)) > 0;
  if (ranks) {
    for (int32_t u = 0; u < n; u++) order[u] = u;
    return 1;
  }
  /* iterative DFS: order[0..depth] is the path, next[depth] the arc of order[depth] to try */
  int64_t *next = malloc((size_t)n * sizeof *next);
  char *used = calloc((size_t)n, 1);
  int found = 0;
  if (next && used) {
    int32_t depth = 0;
    order[0] = 0;
    used[0] = 1;
    next[0] = g->out_off[0];
    while (depth >= 0 && !found && budget-- > 0) {
      int32_t u = order[depth];
      if (depth == n - 1 && tc_graph_arc_multiplicity(g, u, 0) > 0) {
        found = 1;
        break;
      }
      int64_t a = next[depth];
      while (a < g->out_off[u + 1] && (used[g->dst[a]] || depth == n - 1)) a++;
      if (a == g->out_off[u + 1]) { /* dead end: step back */
        used[u] = depth > 0 ? 0 : 1;
        depth--;
        continue;
      }
      next[depth] = a + 1;
      int32_t v = g->dst[a];
      order[++depth] = v;
      used[v] = 1;
      next[depth] = g->out_off[v];
    }
  }
  free(next);
  free(used);
  return found;
}
