/*
** baseline_common.c — what the baseline generators share (contract in baseline_common.h).
** The generators are reached by name through the algorithm registry (collective.h).
**
** Parallel arcs are ports: a chunk sent from u to v is cut into one piece per arc u -> v,
** proportional to capacity, so that every port carries the same load per unit of
** capacity. The schedule's unit is the algorithm's own unit times the lcm of all bundle
** weights, which makes every piece an integer number of units (exact, no rounding).
*/
#include "synth/baseline_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "topocoll/transform.h"

int tci_bl_bundle_find(const tc_graph *g, int32_t u, int32_t v, const char *algo, tc_bl_bundle *b, tc_error *err) {
  int64_t lo = g->out_off[u], hi = g->out_off[u + 1];
  while (lo < hi) { /* first arc of u with dst >= v */
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dst[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  b->first = lo;
  b->count = 0;
  b->weight = 0;
  for (int64_t a = lo; a < g->out_off[u + 1] && g->dst[a] == v; a++) {
    b->count++;
    if (tci_add64(b->weight, g->cap[a], &b->weight))
      return tc_error_set(err, TC_ERANGE, "%s: the capacities of the arcs %d -> %d sum beyond 2^63-1", algo, u, v);
  }
  return TC_OK;
}

int tci_bl_split_scale(const tc_graph *g, const char *algo, int64_t *scale, tc_error *err) {
  int64_t l = 1;
  for (int64_t a = 0; a < g->m;) {
    int64_t w = 0, b = a;
    for (; b < g->m && g->src[b] == g->src[a] && g->dst[b] == g->dst[a]; b++)
      if (tci_add64(w, g->cap[b], &w))
        return tc_error_set(err, TC_ERANGE, "%s: the capacities of the arcs %d -> %d sum beyond 2^63-1", algo,
                            g->src[a], g->dst[a]);
    if (tci_mul64(l / tci_gcd64(l, w), w, &l))
      return tc_error_set(err, TC_ERANGE, "%s: the common chunk unit of the parallel-arc capacities overflows",
                          algo);
    a = b;
  }
  *scale = l;
  return TC_OK;
}

int tci_bl_check_transfers(const char *algo, int64_t a, int64_t b, int64_t c, tc_error *err) {
  int64_t ab, abc;
  if (tci_mul64(a, b, &ab) || tci_mul64(ab, c, &abc) || abc > TC_BL_MAX_TRANSFERS)
    return tc_error_set(err, TC_ERANGE, "%s: the schedule would need more than %lld transfers", algo,
                        (long long)TC_BL_MAX_TRANSFERS);
  return TC_OK;
}

int64_t tci_bl_max_bundle(const tc_graph *g) {
  int64_t best = 0;
  for (int64_t a = 0; a < g->m;) {
    int64_t b = a;
    while (b < g->m && g->src[b] == g->src[a] && g->dst[b] == g->dst[a]) b++;
    if (b - a > best) best = b - a;
    a = b;
  }
  return best;
}

int tci_bl_units(const char *algo, int64_t alg_units, int64_t scale, int64_t *units, tc_error *err) {
  if (tci_mul64(alg_units, scale, units))
    return tc_error_set(err, TC_ERANGE, "%s: %lld units per shard times %lld for parallel arcs overflows", algo,
                        (long long)alg_units, (long long)scale);
  return TC_OK;
}

int tci_bl_send(tc_schedule *s, const tc_graph *g, int32_t u, int32_t v, int32_t shard, int32_t step, int64_t lo,
               int64_t hi, int64_t scale, tc_error *err) {
  tc_bl_bundle b;
  int rc = tci_bl_bundle_find(g, u, v, s->algorithm, &b, err);
  if (rc) return rc;
  if (b.count == 0) /* the topology checks rule this out; reaching it is a generator bug */
    return tc_error_set(err, TC_EFAIL, "%s: internal error: no arc %d -> %d", s->algorithm, u, v);
  /* No overflow below: hi <= the algorithm's units and units * scale was checked
     (tci_bl_units), so every product is at most the schedule's units. */
  int64_t per_cap = (hi - lo) * scale / b.weight; /* exact: scale is a multiple of b.weight */
  int64_t pos = lo * scale;
  for (int64_t a = b.first; a < b.first + b.count; a++) {
    int64_t len = per_cap * g->cap[a];
    rc = tc_schedule_add(s, shard, a, step, pos, pos + len, err);
    if (rc) return rc;
    pos += len;
  }
  return TC_OK;
}

/* Node at position p of the cycle, p taken mod len. */
static int32_t cycle_node(const tc_bl_cycle *c, int64_t p) {
  int64_t r = p % c->len;
  return c->node[r < 0 ? r + c->len : r];
}

/* Send [lo, hi) of shard from position p to position q in step. */
static int cycle_send(tc_schedule *s, const tc_graph *g, const tc_bl_cycle *c, int64_t p, int64_t q, int32_t shard,
                      int32_t step, int64_t lo, int64_t hi, int64_t scale, tc_error *err) {
  return tci_bl_send(s, g, cycle_node(c, p), cycle_node(c, q), shard, step, lo, hi, scale, err);
}

int tci_bl_ring_broadcast(tc_schedule *s, const tc_graph *g, const tc_bl_cycle *c, int32_t start,
                         tc_bl_ring_kind kind, int32_t shard, int64_t lo, int64_t hi, int32_t step0, int64_t scale,
                         tc_error *err) {
  int32_t len = c->len;
  if (len < 2) return TC_OK;
  if (len == 2) /* both directions lead to the one other node */
    return cycle_send(s, g, c, start, start + 1, shard, step0 + 1, lo, hi, scale, err);
  if ((hi - lo) % 2)
    return tc_error_set(err, TC_EFAIL, "%s: internal error: odd chunk [%lld,%lld) cannot be halved", s->algorithm,
                        (long long)lo, (long long)hi);
  int64_t mid = lo + (hi - lo) / 2;
  int rc = TC_OK;
  if (kind == TC_BL_HALVES) {
    for (int32_t t = 1; !rc && t < len; t++) {
      rc = cycle_send(s, g, c, start + t - 1, start + t, shard, step0 + t, lo, mid, scale, err);
      if (!rc) rc = cycle_send(s, g, c, start - t + 1, start - t, shard, step0 + t, mid, hi, scale, err);
    }
  } else {
    /* Fig. 17: whole chunk both ways for floor((len-1)/2) steps; for even len the opposite
       node then gets the first half from one side and the second from the other. */
    for (int32_t t = 1; !rc && t <= (len - 1) / 2; t++) {
      rc = cycle_send(s, g, c, start + t - 1, start + t, shard, step0 + t, lo, hi, scale, err);
      if (!rc) rc = cycle_send(s, g, c, start - t + 1, start - t, shard, step0 + t, lo, hi, scale, err);
    }
    if (!rc && len % 2 == 0) {
      int32_t t = len / 2;
      rc = cycle_send(s, g, c, start + t - 1, start + t, shard, step0 + t, lo, mid, scale, err);
      if (!rc) rc = cycle_send(s, g, c, start - t + 1, start - t, shard, step0 + t, mid, hi, scale, err);
    }
  }
  return rc;
}

int tci_bl_finish(const tc_graph *g, tc_collective coll, tc_schedule *ag, tc_schedule *rs, const char *algo,
                 tc_schedule *out, tc_error *err) {
  tc_schedule reversed;
  memset(&reversed, 0, sizeof reversed);
  memset(out, 0, sizeof *out);
  int rc = TC_OK;
  if (coll == TC_COLL_ALLGATHER) {
    *out = *ag; /* hand the allgather over as it is */
    memset(ag, 0, sizeof *ag);
  } else {
    if (!rs) { /* Def. 5 / Thm 1: reversing the allgather on G^T = G gives the reduce-scatter */
      rc = tc_schedule_reverse(g, ag, g, &reversed, err);
      rs = &reversed;
    }
    if (!rc && coll == TC_COLL_REDUCE_SCATTER) {
      *out = *rs;
      memset(rs, 0, sizeof *rs);
    } else if (!rc) {
      rc = tc_schedule_allreduce_compose(g, rs, ag, out, err);
    }
  }
  if (!rc) snprintf(out->algorithm, sizeof out->algorithm, "%s", algo);
  tc_schedule_destroy(&reversed);
  if (rs) tc_schedule_destroy(rs);
  tc_schedule_destroy(ag);
  return rc;
}

int tci_bl_check_rs_ag(const char *algo, tc_collective coll, tc_error *err) {
  if (coll == TC_COLL_ALLGATHER || coll == TC_COLL_REDUCE_SCATTER || coll == TC_COLL_ALLREDUCE) return TC_OK;
  return tc_error_set(err, TC_EINPUT, "%s: supports allgather, reduce-scatter and allreduce (not %s)", algo,
                      tc_collective_name(coll));
}

int tci_bl_check_bidirectional(const tc_graph *g, const char *algo, tc_error *err) {
  if (g->bidirectional) return TC_OK;
  return tc_error_set(err, TC_EINPUT, "%s: needs a bidirectional graph (every arc paired with an opposite one)",
                      algo);
}

int tci_bl_check_biring(const tc_graph *g, const char *algo, tc_error *err) {
  int32_t n = g->n;
  if (n < 3)
    return tc_error_set(err, TC_EINPUT, "%s: needs a bidirectional ring of at least 3 nodes (got %d)", algo, n);
  for (int32_t u = 0; u < n; u++) {
    int32_t next = (int32_t)((u + 1) % n), prev = (int32_t)((u + n - 1) % n);
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (g->dst[a] != next && g->dst[a] != prev)
        return tc_error_set(err, TC_EINPUT, "%s: needs a bidirectional ring, arcs i -> i±1 only (node %d has an arc "
                            "to %d)", algo, u, g->dst[a]);
    if (tc_graph_arc_multiplicity(g, u, next) == 0 || tc_graph_arc_multiplicity(g, u, prev) == 0)
      return tc_error_set(err, TC_EINPUT, "%s: needs a bidirectional ring, arcs i -> i+1 and i -> i-1 (node %d lacks "
                          "the arc to %d)", algo, u, tc_graph_arc_multiplicity(g, u, next) ? prev : next);
  }
  return tci_bl_check_bidirectional(g, algo, err);
}

int32_t *tci_bl_identity(int32_t n, tc_error *err) {
  int32_t *order = malloc((size_t)n * sizeof *order);
  if (!order) {
    tc_error_set(err, TC_ENOMEM, "out of memory");
    return NULL;
  }
  for (int32_t i = 0; i < n; i++) order[i] = i;
  return order;
}
