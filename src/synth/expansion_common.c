/*
** expansion_common.c — checks and arithmetic shared by the expansion schedules
** (contract in expansion_internal.h). Nothing here knows about a particular expansion:
** it only guarantees that a base schedule can be indexed safely and that every size an
** expansion computes is either exact or reported as TC_ERANGE before anything is
** allocated.
*/
#include "synth/expansion_internal.h"

#include <inttypes.h>
#include <string.h>

#include "core/intmath.h"

static int check_layout(const char *what, const tc_graph *g, const tc_schedule *ag, tc_error *err) {
  if (ag->coll != TC_COLL_ALLGATHER)
    return tc_error_set(err, TC_EINPUT, "%s: the base schedule must be an allgather (got %s)", what,
                        tc_collective_name(ag->coll));
  if (ag->nodes != g->n)
    return tc_error_set(err, TC_EINPUT, "%s: the base schedule is for %d nodes but the base graph has %d", what,
                        ag->nodes, g->n);
  if (ag->nshards != g->n)
    return tc_error_set(err, TC_EINPUT, "%s: the base schedule has %d shards; one per node (%d) is needed", what,
                        ag->nshards, g->n);
  for (int32_t k = 0; ag->owner && k < ag->nshards; k++)
    if (ag->owner[k] != k)
      return tc_error_set(err, TC_EINPUT, "%s: shard %d of the base schedule belongs to node %d, not to node %d", what,
                          k, ag->owner[k], k);
  if (ag->units < 1)
    return tc_error_set(err, TC_EINPUT, "%s: the base schedule has %" PRId64 " units per shard", what, ag->units);
  if (ag->steps < 0)
    return tc_error_set(err, TC_EINPUT, "%s: the base schedule has %d steps", what, ag->steps);
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EINPUT, "%s: node %d of the base graph is a switch; expansions need compute nodes",
                          what, u);
  return TC_OK;
}

static int check_transfers(const char *what, const tc_graph *g, const tc_schedule *ag, tc_error *err) {
  for (int64_t i = 0; i < ag->count; i++) {
    const tc_transfer *x = &ag->xfer[i];
    if (x->shard < 0 || x->shard >= g->n)
      return tc_error_set(err, TC_EINPUT, "%s: base transfer #%" PRId64 " names shard %d outside 0..%d", what, i,
                          x->shard, g->n - 1);
    if (x->arc < 0 || x->arc >= g->m)
      return tc_error_set(err, TC_EINPUT, "%s: base transfer #%" PRId64 " names arc %" PRId64 " outside 0..%" PRId64,
                          what, i, x->arc, g->m - 1);
    if (x->step < 1 || x->step > ag->steps)
      return tc_error_set(err, TC_EINPUT, "%s: base transfer #%" PRId64 " is in step %d outside 1..%d", what, i,
                          x->step, ag->steps);
    if (x->lo < 0 || x->lo >= x->hi || x->hi > ag->units)
      return tc_error_set(err, TC_EINPUT,
                          "%s: base transfer #%" PRId64 " has chunk [%" PRId64 ",%" PRId64 ") outside [0,%" PRId64 ")",
                          what, i, x->lo, x->hi, ag->units);
  }
  return TC_OK;
}

int tci_xs_check_base(const char *what, const tc_graph *g, const tc_schedule *ag, tc_error *err) {
  int rc = check_layout(what, g, ag, err);
  return rc ? rc : check_transfers(what, g, ag, err);
}

int tci_xs_mul(const char *what, const char *thing, int64_t a, int64_t b, int64_t *out, tc_error *err) {
  if (__builtin_mul_overflow(a, b, out))
    return tc_error_set(err, TC_ERANGE, "%s: %s overflows (%" PRId64 " x %" PRId64 ")", what, thing, a, b);
  return TC_OK;
}

int tci_xs_add(const char *what, const char *thing, int64_t a, int64_t b, int64_t *out, tc_error *err) {
  if (__builtin_add_overflow(a, b, out))
    return tc_error_set(err, TC_ERANGE, "%s: %s overflows (%" PRId64 " + %" PRId64 ")", what, thing, a, b);
  return TC_OK;
}

int tci_xs_lcm(const char *what, const char *thing, int64_t a, int64_t b, int64_t *out, tc_error *err) {
  return tci_xs_mul(what, thing, a / tci_gcd64(a, b), b, out, err);
}

int tci_xs_working_copy(const tc_schedule *ag, int64_t refine, tc_schedule *out, tc_error *err) {
  int rc = tc_schedule_copy(ag, out, err);
  if (!rc) rc = tc_schedule_refine(out, refine, err);
  if (rc) { tc_schedule_destroy(out); return rc; }
  tc_schedule_sort(out);
  return TC_OK;
}

int tci_xs_start(const char *what, int64_t nodes, int64_t units, int64_t count, tc_schedule *out, tc_error *err) {
  if (nodes > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "%s: the expanded schedule would have %" PRId64 " nodes (at most %d)", what,
                        nodes, TC_MAX_NODES);
  int rc = tc_schedule_init(out, TC_COLL_ALLGATHER, (int32_t)nodes, units, what, err);
  if (!rc) rc = tc_schedule_reserve(out, count > 0 ? count : 1, err);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
