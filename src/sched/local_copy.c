/*
** local_copy.c — the local reorder / memcpy term of the cost model (contract in cost.h,
** tc_cost.local_copy).
**
** In the IR all transfers on one arc in one step are one message (message-combine, paper
** 002 §3.1, Eq. 3.2). A combined message is one contiguous byte stream on the wire; when its
** pieces are not one contiguous range of the sender's buffer the sender packs them first,
** and when they are not one contiguous range of the receiver's buffer the receiver moves
** them into place afterwards (the dissertation's final reorder / memcpy stage for combined
** blocks, Ch. 3 §3.2). Each such message costs its size in local copies at that end.
** Buffer layout of node v, as the executors lay it out (program.h): unit j of shard k at
** position k * units + j of one buffer; alltoall: a shard v receives at owner * units + j of
** its output, one it sends at dest * units + j of its input, one it relays at k * units + j
** of its relay mirror. A message is contiguous at v when all its pieces lie in one buffer
** and their span equals their summed length (no sort: min, max and sum per arc).
** Per step the busiest node's copies count, as the busiest link's load does for T_B:
**     local_copy = Σ_t max_v copied(v, t), in units of M (shards of M / per_buffer).
** One pass over the transfers in step order: read in place when they are (every sorted
** schedule), else through a counting sort of their indices (8 bytes per transfer more);
** O(count + m + n) time.
*/
#include "sched/cost_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

/* Which buffer of node v holds shard k, and where unit 0 of it sits there. */
static int buffer_of(const tc_schedule *s, int32_t v, int32_t k, __int128 *base) {
  if (s->coll == TC_COLL_ALLTOALL) {
    int32_t from = tc_schedule_owner(s, k), to = tc_schedule_dest(s, k);
    if (to == v) { *base = (__int128)from * s->units; return 1; }  /* output, by source */
    if (from == v) { *base = (__int128)to * s->units; return 0; }  /* input, by destination */
  }
  *base = (__int128)k * s->units; /* the shard-major buffer (alltoall: the relay mirror) */
  return 2;
}

/* Per arc of the current step: the span of its pieces at each end. */
typedef struct span {
  __int128 lo[2], hi[2]; /* [0] at the sender, [1] at the receiver */
  int buf[2];            /* -1: pieces in more than one buffer */
  int64_t len;           /* summed units */
  int32_t stamp;         /* the step that last touched the arc */
} span;

int tci_schedule_local_copy(const tc_graph *g, const tc_schedule *s, int64_t per_buffer, tc_rat *out, tc_error *err) {
  *out = (tc_rat){0, 1};
  int64_t n = s->count;
  span *sp = calloc((size_t)(g->m ? g->m : 1), sizeof *sp);
  int64_t *copied = calloc((size_t)g->n, sizeof *copied), *touched = malloc((size_t)(g->m ? g->m : 1) * sizeof *touched);
  int64_t *start = calloc((size_t)s->steps + 2, sizeof *start), *order = NULL;
  int32_t *nodes = malloc((size_t)(g->n + 1) * sizeof *nodes);
  int in_order = 1;
  for (int64_t i = 1; i < n && in_order; i++) in_order = s->xfer[i - 1].step <= s->xfer[i].step;
  if (!in_order) order = malloc((size_t)n * sizeof *order);
  if (!sp || !copied || !touched || !start || !nodes || (!in_order && !order)) {
    free(sp); free(copied); free(touched); free(start); free(order); free(nodes);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int64_t i = 0; i < n; i++) start[s->xfer[i].step + 1]++;
  for (int32_t t = 0; t <= s->steps; t++) start[t + 1] += start[t];
  if (order) /* start[t] then ends step t */
    for (int64_t i = 0; i < n; i++) order[start[s->xfer[i].step]++] = i;
  else /* in place: step t is [start[t], start[t+1]); shift so it is [start[t-1], start[t]) too */
    for (int32_t t = 0; t <= s->steps; t++) start[t] = start[t + 1];
  int rc = TC_OK;
  tc_rat sum = {0, 1};
  for (int32_t t = 1; t <= s->steps && !rc; t++) {
    int64_t ntouched = 0;
    for (int64_t q = start[t - 1]; q < start[t]; q++) {
      const tc_transfer *x = &s->xfer[order ? order[q] : q];
      span *a = &sp[x->arc];
      int32_t end[2] = {g->src[x->arc], g->dst[x->arc]};
      if (a->stamp != t) {
        memset(a, 0, sizeof *a);
        a->stamp = t;
        touched[ntouched++] = x->arc;
      }
      for (int e = 0; e < 2; e++) {
        __int128 base;
        int buf = buffer_of(s, end[e], x->shard, &base);
        __int128 lo = base + x->lo, hi = base + x->hi;
        if (!a->len) {
          a->buf[e] = buf, a->lo[e] = lo, a->hi[e] = hi;
          continue;
        }
        if (a->buf[e] != buf) a->buf[e] = -1;
        if (lo < a->lo[e]) a->lo[e] = lo;
        if (hi > a->hi[e]) a->hi[e] = hi;
      }
      if (tci_add64(a->len, x->hi - x->lo, &a->len)) {
        rc = tc_error_set(err, TC_ERANGE, "load of arc %lld in step %d overflows", (long long)x->arc, t);
        break;
      }
    }
    int32_t nnodes = 0;
    int64_t worst = 0;
    for (int64_t i = 0; i < ntouched && !rc; i++) {
      const span *a = &sp[touched[i]];
      int32_t end[2] = {g->src[touched[i]], g->dst[touched[i]]};
      for (int e = 0; e < 2; e++) {
        if (a->buf[e] >= 0 && a->hi[e] - a->lo[e] == a->len) continue; /* in place: no copy */
        if (!copied[end[e]]) nodes[nnodes++] = end[e];
        if (tci_add64(copied[end[e]], a->len, &copied[end[e]]))
          rc = tc_error_set(err, TC_ERANGE, "local copies of node %d in step %d overflow", end[e], t);
      }
    }
    for (int32_t i = 0; i < nnodes; i++) {
      if (copied[nodes[i]] > worst) worst = copied[nodes[i]];
      copied[nodes[i]] = 0;
    }
    tc_rat step_copy;
    if (!rc && worst) {
      rc = tc_rat_make(worst, s->units, &step_copy, err);
      if (!rc) rc = tc_rat_add(sum, step_copy, &sum, err);
    }
  }
  if (!rc) rc = tc_rat_mul(sum, (tc_rat){1, per_buffer}, out, err);
  free(sp); free(copied); free(touched); free(start); free(order); free(nodes);
  return rc;
}
