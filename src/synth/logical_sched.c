/*
** logical_sched.c — topology-unaware baselines on any graph (contract in
** baseline_common.h): their logical messages routed hop by hop, after the contention check
** of the multi-port model (contention.h), so a baseline either runs contention-free — as
** on its home topology complete(n), where every message is one arc — or says where it
** contends instead of hiding it behind the step schedule's message-combine.
*/
#include <stdlib.h>
#include <string.h>

#include "synth/baseline_common.h"
#include "topocoll/contention.h"

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
  if (!rc && (rc = tc_contention_check(g, msg, n, &r, err)) == TC_EFAIL) {
    rc = err->code = TC_EINPUT; /* the request, not our schedule: this baseline contends here */
    tc_error_prefix(err, "%s %s is not contention-free on this graph", algo, tc_collective_name(out->coll));
  }
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
