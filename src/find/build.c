/*
** build.c — building a finder member: its topology and its allgather schedule by the
** construction its prediction rests on (construct.h, paper 000 §5), then holding the built
** member to its prediction.
**
** tc_candidate_measure holds a built member to its prediction: steps exactly, tau exactly
** (or <= for a Thm 7 bound), diameter when predicted. Any difference is a bug in how a
** theorem was applied and fails loudly (TC_EFAIL naming the member and both values).
*/
#include <stdio.h>
#include <string.h>

#include "find_internal.h"
#include "topocoll/construct.h"
#include "topocoll/cost.h"
#include "topocoll/metrics.h"
#include "topocoll/verify.h"

int tci_find_build_spec(const char *spec, tc_graph **g, tc_schedule *ag, tc_error *err) {
  int rc = tc_schedule_construct_text(spec, g, ag, err);
  if (rc) tc_error_prefix(err, "find: building %s", spec);
  return rc;
}

int tc_candidate_build(const tc_candidate *c, tc_graph **g, tc_schedule *ag, tc_error *err) {
  if (!c || !g || !ag) return tc_error_set(err, TC_EINPUT, "find: build needs a candidate and outputs");
  int rc = tci_find_build_spec(c->spec, g, ag, err);
  if (!rc) rc = tc_schedule_verify(*g, ag, err);
  if (rc && *g) {
    tc_error_prefix(err, "find: %s: the allgather failed verification", c->spec);
    tc_graph_destroy(*g);
    *g = NULL;
    tc_schedule_destroy(ag);
    memset(ag, 0, sizeof *ag);
  }
  return rc;
}

static int mismatch(const tc_candidate *c, const char *what, const char *measured, const char *predicted,
                    tc_error *err) {
  return tc_error_set(err, TC_EFAIL, "find: %s (%s): measured %s %s but the prediction is %s — a bug", c->spec,
                      c->source, what, measured, predicted);
}

/* Compare the measured cost with the prediction (see the header). */
static int check_cost(const tc_candidate *c, const tc_cost *cost, tc_error *err) {
  char m[48], p[48];
  if (cost->steps != c->steps) {
    snprintf(m, sizeof m, "%d", (int)cost->steps);
    snprintf(p, sizeof p, "%d", (int)c->steps);
    return mismatch(c, "steps", m, p, err);
  }
  int cmp = tc_rat_cmp(cost->tau, c->tau);
  if (cmp > 0 || (cmp < 0 && !c->tau_is_bound)) {
    tc_rat_format(cost->tau, m, sizeof m);
    tc_rat_format(c->tau, p, sizeof p);
    return mismatch(c, "tau", m, p, err);
  }
  if (cost->degree != c->degree) {
    snprintf(m, sizeof m, "%lld", (long long)cost->degree);
    snprintf(p, sizeof p, "%d", (int)c->degree);
    return mismatch(c, "degree", m, p, err);
  }
  return TC_OK;
}

int tc_candidate_measure(tc_candidate *c, const tc_graph *g, const tc_schedule *ag, tc_error *err) {
  if (!c || !g || !ag) return tc_error_set(err, TC_EINPUT, "find: measure needs a candidate, a graph and a schedule");
  if (g->n != c->nodes)
    return tc_error_set(err, TC_EFAIL, "find: %s has %d nodes, not the predicted %d — a bug", c->spec, g->n,
                        c->nodes);
  int rc = tc_schedule_verify(g, ag, err);
  if (rc) {
    tc_error_prefix(err, "find: %s: the allgather failed verification", c->spec);
    return rc;
  }
  c->built = 1;
  c->verified = 1;
  tc_cost cost;
  rc = tc_schedule_cost(g, ag, &cost, err);
  if (rc) return rc;
  c->measured_steps = cost.steps;
  c->measured_tau = cost.tau;
  rc = check_cost(c, &cost, err);
  tc_cost_destroy(&cost);
  if (rc) return rc;
  tc_distance_stats st;
  rc = tc_graph_distance_stats(g, &st, err);
  if (rc) return rc;
  int32_t diameter = st.strongly_connected ? st.diameter : -1;
  c->avg_distance = st.pairs ? (double)st.distance_sum / (double)st.pairs : 0.0;
  tc_distance_stats_destroy(&st);
  if (c->diameter >= 0 && c->diameter != diameter)
    return tc_error_set(err, TC_EFAIL, "find: %s has diameter %d, not the predicted %d — a bug", c->spec,
                        (int)diameter, (int)c->diameter);
  c->diameter = diameter;
  return tci_find_forest_allreduce(c, g, err);
}
