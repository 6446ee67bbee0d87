/*
** kautz_switch.c — the size switch from Kautz-C to Kautz-M (paper 002 §3.2.2; contract in
** kautz.h).
**
** Why measured costs and not Table 3.2: in the α-β model the two variants have the same
** bandwidth term, so Kautz-C would win at every size; what makes the dissertation fall back
** to Kautz-M for large messages is the final memcpy that puts combined blocks in order
** ("proportional to the message size"), which the cost model measures on each schedule as
** its local_copy (cost.h). Both predicted times are lines in M, so the switch is where they
** cross.
*/
#include <math.h>
#include <string.h>

#include "topocoll/cost.h"
#include "topocoll/kautz.h"
#include "topocoll/verify.h"

/* Variant v's schedule, sorted, verified and costed. */
static int measured(const tc_graph *g, tc_kautz_variant v, tc_collective coll, int32_t root, tc_cost *c,
                    tc_error *err) {
  tc_schedule s;
  int rc = tc_kautz_collective(g, v, coll, root, &s, err);
  if (!rc) {
    tc_schedule_sort(&s);
    rc = tc_schedule_verify(g, &s, err);
  }
  if (!rc) rc = tc_schedule_cost(g, &s, c, err);
  tc_schedule_destroy(&s);
  return rc;
}

int tc_kautz_switch_size(const tc_graph *g, tc_collective coll, int32_t root, double alpha_s, double link_bw,
                         double copy_bw, double *bytes, tc_error *err) {
  *bytes = INFINITY;
  if (!(alpha_s >= 0) || !(link_bw > 0))
    return tc_error_set(err, TC_EINPUT, "kautz switch: needs alpha >= 0 and a link bandwidth > 0 (got %g s, %g B/s)",
                        alpha_s, link_bw);
  tc_cost c, m;
  memset(&c, 0, sizeof c);
  memset(&m, 0, sizeof m);
  int rc = measured(g, TC_KAUTZ_COMBINE, coll, root, &c, err);
  if (!rc) rc = measured(g, TC_KAUTZ_MULTITREE, coll, root, &m, err);
  if (!rc) {
    double per_byte_c = tc_cost_time_copy(&c, 0, link_bw, 1, copy_bw);
    double per_byte_m = tc_cost_time_copy(&m, 0, link_bw, 1, copy_bw);
    double extra_latency = (double)(m.steps - c.steps) * alpha_s, saving = per_byte_c - per_byte_m;
    if (saving > 0) *bytes = extra_latency / saving;
  }
  tc_cost_destroy(&c);
  tc_cost_destroy(&m);
  return rc;
}
