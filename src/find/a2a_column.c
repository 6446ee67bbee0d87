/*
** a2a_column.c — the all-to-all column of the finder's tables (paper 000 App. A.5, Tables
** 4 and 7): every member's maximum concurrent multi-commodity flow value f, certified
** (a2a.h), its all-to-all time, and the time the workload choice weighs.
**
** The method is column generation ("dw", docs/alltoall.md "Scaling") at every size: measured
** on the members of d = 4 (docs/alltoall.md, "In find and plan") it is the fastest certified
** method from N = 8 up — 0.02–0.07 s where the master LP takes 0.04–1.2 s on N <= 32, and
** the master LP is out of reach from N ≈ 100 — and it reaches the same exact values where
** the LP does. So there is no size switch to tune: one method, stopped at the caller's gap
** or time limit, whose bounds are certified either way.
**
** Nothing here trusts a float: the member keeps the certificate's exact rationals (lower
** from checked flows, upper from dual lengths), and every time is computed at the lower
** bound — a rate the checked flow achieves — so a time is never optimistic.
*/
#include <math.h>
#include <string.h>

#include "core/progress.h"
#include "find_internal.h"
#include "topocoll/spec.h"

void tc_find_a2a_options_default(tc_find_a2a_options *o) {
  memset(o, 0, sizeof *o);
  o->gap = 1e-6;
  o->time_limit = TC_FIND_A2A_TIME_LIMIT;
}

/* The column generation's rounds, passed on with the member they belong to. */
typedef struct round_ctx {
  const tc_find_a2a_options *o;
  const tc_candidate *c;
} round_ctx;

static void on_round(void *ctx, const char *phase, double done, double total) {
  const round_ctx *rc = ctx;
  tci_progress(rc->o->progress, rc->o->ctx, done, total, "all-to-all MCF of %s: %s", rc->c->spec, phase);
}

static int solve(tc_candidate *c, const tc_graph *g, const tc_find_a2a_options *o, round_ctx *rctx, tc_error *err) {
  tc_a2a_options ao;
  tc_a2a_options_default(&ao);
  ao.method = TC_A2A_DW;
  ao.gap = o->gap;
  ao.time_limit = o->time_limit;
  if (rctx && o->progress) {
    ao.progress = on_round;
    ao.progress_ctx = rctx;
  }
  tc_a2a_result r;
  int rc = tc_a2a_solve(g, &ao, &r, err);
  if (rc) {
    tc_error_prefix(err, "all-to-all of %s", c->spec);
    return rc;
  }
  c->a2a = 1;
  c->a2a_exact = r.exact;
  c->a2a_lower = r.exact ? r.f_exact : r.lower_exact;
  c->a2a_upper = r.exact ? r.f_exact : r.upper_exact;
  c->a2a_gap = r.exact ? 0.0 : r.gap;
  c->a2a_stopped = r.stopped;
  tc_a2a_result_destroy(&r);
  return TC_OK;
}

static int member_a2a(tc_candidate *c, const tc_graph *g, const tc_find_a2a_options *o, round_ctx *rctx,
                      tc_error *err) {
  tc_find_a2a_options dflt;
  if (!o) {
    tc_find_a2a_options_default(&dflt);
    o = &dflt;
  }
  if (!(o->gap >= 0) || !(o->time_limit >= 0) || !isfinite(o->time_limit))
    return tc_error_set(err, TC_EINPUT, "find: the all-to-all gap and time limit must be >= 0");
  if (g) return solve(c, g, o, rctx, err);
  tc_graph *built = NULL;
  int rc = tc_spec_build(c->spec, &built, err);
  if (rc) tc_error_prefix(err, "find: building %s", c->spec);
  else rc = solve(c, built, o, rctx, err);
  tc_graph_destroy(built);
  return rc;
}

int tc_candidate_a2a(tc_candidate *c, const tc_graph *g, const tc_find_a2a_options *o, tc_error *err) {
  if (!c) return tc_error_set(err, TC_EINPUT, "find: all-to-all needs a candidate");
  return member_a2a(c, g, o, NULL, err);
}

int tc_frontier_a2a(tc_frontier *f, const tc_find_a2a_options *o, tc_error *err) {
  if (!f) return tc_error_set(err, TC_EINPUT, "find: all-to-all needs a frontier");
  tc_find_a2a_options dflt;
  if (!o) {
    tc_find_a2a_options_default(&dflt);
    o = &dflt;
  }
  for (int32_t i = 0; i < f->count; i++) {
    const tc_candidate *c = &f->member[i];
    round_ctx rctx = {o, c};
    tci_progress(o->progress, o->ctx, i, f->count, "all-to-all MCF: certifying %s (%d nodes)", c->spec, (int)c->nodes);
    int rc = member_a2a(&f->member[i], NULL, o, &rctx, err);
    if (rc) return rc;
    tci_progress(o->progress, o->ctx, i + 1, f->count, "all-to-all MCF: %s: f %s %.6g, gap %.2g", c->spec,
                 c->a2a_exact ? "=" : ">=", tc_rat_to_double(c->a2a_lower), c->a2a_gap);
  }
  return TC_OK;
}

double tc_candidate_alltoall_time(const tc_candidate *c, const tc_workload *w) {
  if (!c->a2a || c->a2a_lower.num <= 0) return -1.0;
  return (w->a2a_bytes / c->nodes) / (tc_rat_to_double(c->a2a_lower) * w->link_bw);
}
