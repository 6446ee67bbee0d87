/*
** compose.c — allreduce as reduce-scatter followed by allgather (paper 000 §3, App. B
** after Thm 2; contract in transform.h).
**
** The allreduce schedule holds the reduce-scatter's transfers in steps 1..t_RS and the
** allgather's shifted by t_RS, so T_L adds; loads of different steps never mix, so T_B adds
** as well (2 T_L and 2 T_B when the halves come from one allgather through Theorem 2). The
** halves may use different chunk units; both are rewritten in their least common multiple
** (overflow-checked) so that the result keeps one exact denominator.
*/
#include "topocoll/transform.h"
#include "sched/transform_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/intmath.h"

static int same_shards(const tc_schedule *rs, const tc_schedule *ag, tc_error *err) {
  if (rs->nodes != ag->nodes || rs->nshards != ag->nshards)
    return tc_error_set(err, TC_EINPUT,
                        "allreduce: reduce-scatter (%d nodes, %d shards) and allgather (%d nodes, %d shards) differ",
                        rs->nodes, rs->nshards, ag->nodes, ag->nshards);
  for (int32_t k = 0; k < rs->nshards; k++)
    if (tc_schedule_owner(rs, k) != tc_schedule_owner(ag, k))
      return tc_error_set(err, TC_EINPUT, "allreduce: shard %d is owned by node %d in the reduce-scatter but by %d "
                          "in the allgather", k, tc_schedule_owner(rs, k), tc_schedule_owner(ag, k));
  return TC_OK;
}

/* Least common multiple of the two unit counts, TC_ERANGE if it overflows. */
static int common_units(int64_t a, int64_t b, int64_t *lcm, tc_error *err) {
  if (__builtin_mul_overflow(a / tci_gcd64(a, b), b, lcm))
    return tc_error_set(err, TC_ERANGE, "allreduce: common chunk unit of %lld and %lld overflows", (long long)a,
                        (long long)b);
  return TC_OK;
}

/* Append s's transfers scaled to `units` and shifted by `shift` steps. */
static int append_half(tc_schedule *out, const tc_schedule *s, int32_t shift, tc_error *err) {
  int64_t k = out->units / s->units;
  int rc = TC_OK;
  for (int64_t i = 0; !rc && i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    rc = tc_schedule_add(out, x->shard, x->arc, x->step + shift, x->lo * k, x->hi * k, err);
  }
  return rc;
}

int tc_schedule_allreduce_compose(const tc_graph *g, const tc_schedule *rs, const tc_schedule *ag,
                                  tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (rs->coll != TC_COLL_REDUCE_SCATTER || ag->coll != TC_COLL_ALLGATHER)
    return tc_error_set(err, TC_EINPUT, "allreduce: needs a reduce-scatter then an allgather (got %s then %s)",
                        tc_collective_name(rs->coll), tc_collective_name(ag->coll));
  int rc = tci_schedule_check_graph(g, rs, "allreduce (reduce-scatter half)", err);
  if (!rc) rc = tci_schedule_check_graph(g, ag, "allreduce (allgather half)", err);
  if (!rc) rc = same_shards(rs, ag, err);
  if (rc) return rc;
  if (rs->steps > INT32_MAX - ag->steps)
    return tc_error_set(err, TC_ERANGE, "allreduce: %d + %d steps overflow", rs->steps, ag->steps);
  if (rs->count > INT64_MAX / 2 - ag->count)
    return tc_error_set(err, TC_ERANGE, "allreduce: too many transfers");
  int64_t units;
  rc = common_units(rs->units, ag->units, &units, err);
  if (rc) return rc;
  char name[sizeof out->algorithm];
  if (!strcmp(rs->algorithm, ag->algorithm)) snprintf(name, sizeof name, "%s", ag->algorithm);
  else snprintf(name, sizeof name, "%.15s+%.15s", rs->algorithm, ag->algorithm);
  rc = tc_schedule_init_owned(out, TC_COLL_ALLREDUCE, rs->nodes, rs->nshards, rs->owner, units, name, err);
  if (!rc) rc = tc_schedule_reserve(out, rs->count + ag->count + 1, err);
  if (!rc) rc = append_half(out, rs, 0, err);
  if (!rc) rc = append_half(out, ag, rs->steps, err);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->rs_steps = rs->steps;
  out->steps = rs->steps + ag->steps;
  return TC_OK;
}

int tc_schedule_allreduce_by(const tc_graph *g, tc_schedule_generator gen, void *ctx, tc_schedule *out,
                             tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!gen) return tc_error_set(err, TC_EINPUT, "allreduce: no allgather generator given");
  tc_schedule rs, ag;
  memset(&rs, 0, sizeof rs);
  memset(&ag, 0, sizeof ag);
  int rc = gen(g, ctx, &ag, err);
  if (!rc && ag.coll != TC_COLL_ALLGATHER)
    rc = tc_error_set(err, TC_EINPUT, "allreduce: the generator built a %s schedule, not an allgather",
                      tc_collective_name(ag.coll));
  if (!rc) rc = tc_schedule_reduce_scatter_by(g, &ag, gen, ctx, &rs, err);
  if (!rc) rc = tc_schedule_allreduce_compose(g, &rs, &ag, out, err);
  tc_schedule_destroy(&rs);
  tc_schedule_destroy(&ag);
  return rc;
}
