/*
** plan_forest.c — ForestColl in a plan (contract in plan.h, tc_plan_forestcoll): the
** optimal forest of each collective on the plan's graph (tc_forest_build, verified), lowered
** to step schedules at every pipelining depth the plan tries for pipelined algorithms
** (P = 1, 2, 4, ..., TC_PIPELINE_MAX), each verified by tc_forest_lower and costed by
** tc_schedule_cost. The plan compares these costs per workload size; it keeps one schedule
** per collective, the one fastest at the workload's largest size (where a schedule's
** bandwidth term, ForestColl's strength, matters most), so that what is written is
** something the summary says wins somewhere.
**
** The allreduce is built twice when the links are unequal: with equal shares, and with the
** water-filling weights of tc_forest_allreduce_weights (forest.h), which give the buffer to
** the nodes whose links are thin (on genkautz(4,64), the four nodes with a self-loop). The
** weights are only a proposal — the cuts decide what they allow — so both are lowered and
** measured, and the weighting faster at the largest size is kept, whole (forest, depths,
** schedule): the summary then names the other one's time beside it.
**
** A forest is built once per collective (per weighting) and lowered seven times: the forest
** is the expensive part (its max-flows), each lowering is linear in the transfers.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "topocoll/collective.h"
#include "topocoll/cost.h"

/* The predicted time of one measured variant at `bytes` (plan.h's model). */
static double variant_time(const tc_plan *p, const tc_plan_baseline *b, double bytes) {
  return tc_plan_baseline_time(p, b, bytes);
}

static double largest_size(const tc_workload *w) {
  double m = 0;
  for (int32_t i = 0; i < w->count; i++)
    if (w->bytes[i] > m) m = w->bytes[i];
  return m;
}

/* One weighting's lowered allreduce (or any collective): the rows of every depth, the
   schedule fastest at the largest size, its cost and P, and that time. */
typedef struct lowered {
  tc_plan_baseline depth[TC_PLAN_DEPTHS];
  tc_schedule sched;
  tc_cost cost;
  int64_t chunks;
  int best_j; /* its row */
  double best;
} lowered;

/* Lower forest f at every depth into *lo; keep the schedule fastest at the largest size. */
static int lower_depths(const tc_plan *p, const tc_forest *f, lowered *lo, tc_error *err) {
  double big = largest_size(&p->workload);
  memset(lo, 0, sizeof *lo);
  for (int j = 0; j < TC_PLAN_DEPTHS; j++) {
    int64_t P = (int64_t)1 << j;
    tc_schedule s;
    tc_cost c;
    int rc = tc_forest_lower(p->graph, f, P, &s, err);
    if (!rc) rc = tc_schedule_cost(p->graph, &s, &c, err);
    else memset(&c, 0, sizeof c);
    if (rc) {
      tc_schedule_destroy(&s);
      tc_schedule_destroy(&lo->sched);
      tc_cost_destroy(&lo->cost);
      return rc;
    }
    tc_plan_baseline *b = &lo->depth[j];
    snprintf(b->name, sizeof b->name, "forestcoll");
    snprintf(b->topology, sizeof b->topology, "%.*s", (int)sizeof b->topology - 1, p->spec); /* a long spec is cut */
    b->chunks = (int32_t)P;
    b->available = 1;
    b->steps = c.steps;
    b->tau = c.tau;
    b->degree = c.degree;
    double t = variant_time(p, b, big);
    if (j == 0 || t < lo->best) {
      lo->best = t;
      tc_schedule_destroy(&lo->sched);
      tc_cost_destroy(&lo->cost);
      lo->sched = s;
      lo->cost = c;
      lo->chunks = P;
      lo->best_j = j;
    } else {
      tc_schedule_destroy(&s);
      tc_cost_destroy(&c);
    }
  }
  return TC_OK;
}

/* Move *lo into row i of the plan's ForestColl. */
static void take_lowered(tc_plan_forestcoll *fc, int i, lowered *lo) {
  memcpy(fc->depth[i], lo->depth, sizeof lo->depth);
  fc->sched[i] = lo->sched;
  fc->cost[i] = lo->cost;
  fc->chunks[i] = lo->chunks;
  memset(lo, 0, sizeof *lo);
}

static void lowered_destroy(lowered *lo) {
  tc_schedule_destroy(&lo->sched);
  tc_cost_destroy(&lo->cost);
  memset(lo, 0, sizeof *lo);
}

/* *f is the equal-share allreduce forest and *eq_lo its lowerings; build the weighted one and
   keep whichever is faster at the largest size in *f and *eq_lo. Weights ForestColl refuses (TC_EINPUT,
   TC_ERANGE: too many shares) leave equal shares with the reason in fc->other.note. */
static int try_weights(tc_plan *p, tc_forest *f, lowered *eq_lo, tc_progress_fn progress, void *ctx, tc_error *err) {
  tc_plan_forestcoll *fc = &p->forestcoll;
  int64_t *w = calloc((size_t)p->graph->n, sizeof *w);
  if (!w) return tc_error_set(err, TC_ENOMEM, "plan: out of memory for %d weights", p->graph->n);
  int uniform = 0;
  tc_error why;
  tc_error_clear(&why);
  int wrc = tc_forest_allreduce_weights(p->graph, w, &uniform, &why);
  if (!wrc && uniform) {
    free(w);
    return TC_OK;
  }
  fc->weights_tried = 1;
  for (int32_t v = 0; v < p->graph->n; v++) fc->weight_owners += w[v] > 0;
  tc_forest fw;
  memset(&fw, 0, sizeof fw);
  lowered wlo;
  memset(&wlo, 0, sizeof wlo);
  tc_forest_options fo = {.coll = TC_COLL_ALLREDUCE, .weights = w, .progress = progress, .progress_ctx = ctx};
  if (!wrc) wrc = tc_forest_build(p->graph, &fo, &fw, &why);
  free(w);
  if (!wrc) {
    wrc = lower_depths(p, &fw, &wlo, &why);
    if (wrc) tc_forest_destroy(&fw);
  }
  if (wrc == TC_EINPUT || wrc == TC_ERANGE) {
    memset(&fc->other, 0, sizeof fc->other); /* available 0 */
    snprintf(fc->other.note, sizeof fc->other.note, "%s", why.msg);
    return TC_OK;
  }
  if (wrc) {
    *err = why;
    return wrc;
  }
  if (wlo.best < eq_lo->best) {
    fc->weighted = 1;
    fc->other = eq_lo->depth[eq_lo->best_j];
    tc_forest_destroy(f);
    *f = fw;
    lowered_destroy(eq_lo);
    *eq_lo = wlo;
  } else {
    fc->other = wlo.depth[wlo.best_j];
    tc_forest_destroy(&fw);
    lowered_destroy(&wlo);
  }
  return TC_OK;
}

int tci_plan_forestcoll(tc_plan *p, int all_three, tc_progress_fn progress, void *ctx, tc_error *err) {
  static const tc_collective three[3] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  tc_plan_forestcoll *fc = &p->forestcoll;
  fc->ncoll = all_three ? 3 : 1;
  for (int i = 0; i < fc->ncoll; i++) fc->coll[i] = all_three ? three[i] : TC_COLL_ALLREDUCE;
  int rc = tc_forest_ring_bound(p->graph, &fc->ring_algbw, &fc->ring_min_cut, err);
  for (int i = 0; !rc && i < fc->ncoll; i++) {
    tc_forest_options fo = {.coll = fc->coll[i], .progress = progress, .progress_ctx = ctx};
    tc_forest f;
    lowered lo;
    rc = tc_forest_build(p->graph, &fo, &f, err);
    if (rc) break;
    rc = lower_depths(p, &f, &lo, err);
    if (!rc && fc->coll[i] == TC_COLL_ALLREDUCE) rc = try_weights(p, &f, &lo, progress, ctx, err);
    if (!rc) take_lowered(fc, i, &lo);
    else lowered_destroy(&lo);
    if (!rc && fc->coll[i] == TC_COLL_ALLREDUCE) fc->forest = f; /* the certificate the plan writes */
    else tc_forest_destroy(&f);
  }
  if (!rc) fc->built = 1;
  else tci_plan_forestcoll_destroy(fc);
  return rc;
}

void tci_plan_forestcoll_weights_line(FILE *f, const tc_plan *p) {
  const tc_plan_forestcoll *fc = &p->forestcoll;
  if (!fc->built || !fc->weights_tried) return;
  int i = tci_plan_forestcoll_index(p, TC_COLL_ALLREDUCE);
  char kept[64], other[64];
  tc_rat_format(fc->cost[i].tau, kept, sizeof kept);
  tc_rat_format(fc->other.tau, other, sizeof other);
  int32_t nc = tc_graph_count_kind(p->graph, TC_NODE_COMPUTE);
  if (!fc->other.available)
    fprintf(f, "ForestColl's allreduce has equal shares: the auto weights (water-filling) were refused: %s\n\n",
            fc->other.note);
  else if (fc->weighted)
    fprintf(f, "ForestColl's allreduce has weighted roots: the auto weights (water-filling: %d of %d compute nodes "
            "own the buffer, forest.h) measure T_B = %s M/B at P = %" PRId64 ", against %s M/B at P = %d with "
            "equal shares, so the plan keeps them.\n\n", fc->weight_owners, nc, kept, fc->chunks[i], other,
            fc->other.chunks);
  else
    fprintf(f, "ForestColl's allreduce has equal shares: the auto weights (water-filling: %d of %d compute nodes "
            "own the buffer) measure T_B = %s M/B at P = %d, against %s M/B at P = %" PRId64 ".\n\n",
            fc->weight_owners, nc, other, fc->other.chunks, kept, fc->chunks[i]);
}

void tci_plan_forestcoll_destroy(tc_plan_forestcoll *fc) {
  tc_forest_destroy(&fc->forest);
  for (int i = 0; i < 3; i++) {
    tc_schedule_destroy(&fc->sched[i]);
    tc_cost_destroy(&fc->cost[i]);
  }
  char note[TC_ERRMSG_MAX];
  memcpy(note, fc->note, sizeof note);
  memset(fc, 0, sizeof *fc);
  memcpy(fc->note, note, sizeof note);
}
