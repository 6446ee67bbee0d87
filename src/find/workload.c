/*
** workload.c — choosing a frontier member for a workload (paper 000 §5.4, last
** paragraph; App. A.3).
**
** An allreduce is reduce-scatter + allgather, each costing T_L + T_B, so a member's
** allreduce of M bytes takes 2(steps·α + tau·M/B) with B = d · (one link's bandwidth)
** (paper 000 §3.2; Table 4's column). A training job keeps one topology for all its
** collectives, so a workload is a weighted list of sizes (e.g. DDP bucket sizes) and the
** member with the least weighted mean time wins; on equal times the one with fewer steps
** (the frontier is sorted that way, so the first minimum is kept).
**
** All-to-all (paper 000 §5.4: "all-to-all ... favour low-hop" topologies; App. A.5): a job
** that also runs all-to-alls of a2a_bytes per node, a2a_weight of them per allreduce, adds
** a2a_weight · T_a2a, T_a2a = (M/N)/(f·b) at the member's certified lower bound of f
** (a2a_column.c). A member whose f was not certified cannot be weighed, so it loses.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "find_internal.h"
#include "topocoll/units.h"

#define MAX_SIZES ((int)(sizeof(((tc_workload *)0)->bytes) / sizeof(double)))

double tc_candidate_allreduce_time(const tc_candidate *c, const tc_workload *w) {
  double latency = 2.0 * c->steps * w->alpha_s;
  double node_bw = (double)c->degree * w->link_bw;
  double tau = tc_rat_to_double(c->tau), sum = 0, weights = 0;
  for (int32_t i = 0; i < w->count && i < 64; i++) {
    sum += w->weight[i] * (latency + 2.0 * tau * w->bytes[i] / node_bw);
    weights += w->weight[i];
  }
  /* No sizes (or no weight): the allreduce of nothing, which costs only its latency. */
  return weights > 0 ? sum / weights : latency;
}

double tc_candidate_workload_time(const tc_candidate *c, const tc_workload *w) {
  double t = tc_candidate_allreduce_time(c, w);
  if (!(w->a2a_bytes > 0) || !(w->a2a_weight > 0)) return t;
  double a2a = tc_candidate_alltoall_time(c, w);
  return a2a < 0 ? INFINITY : t + w->a2a_weight * a2a;
}

int32_t tc_frontier_choose(const tc_frontier *f, const tc_workload *w) {
  int32_t best = -1;
  double best_time = 0;
  for (int32_t i = 0; i < f->count; i++) {
    double t = tc_candidate_workload_time(&f->member[i], w);
    if (best < 0 || t < best_time || (t == best_time && f->member[i].steps < f->member[best].steps)) {
      best = i;
      best_time = t;
    }
  }
  return best;
}

/* ---- the size list (tc_workload_parse_sizes) ---- */

/* A weight: a positive decimal number (digits, optionally '.' and digits). */
static int parse_weight(const char *text, double *out) {
  const char *p = text;
  int digits = 0;
  while (*p >= '0' && *p <= '9') p++, digits++;
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9'; p++) digits++;
  if (!digits || *p) return 0;
  *out = strtod(text, NULL);
  return *out > 0 && isfinite(*out);
}

/* One item "SIZE" or "SIZE:WEIGHT" (item is a writable copy). */
static int parse_size_item(char *item, int index, tc_workload *w, tc_error *err) {
  char *colon = strchr(item, ':');
  double weight = 1;
  if (colon) {
    *colon = '\0';
    if (!parse_weight(colon + 1, &weight))
      return tc_error_set(err, TC_EINPUT, "item %d ('%s:%s'): the weight after ':' must be a positive number",
                          index + 1, item, colon + 1);
  }
  int64_t bytes = 0;
  int rc = tc_units_parse_size(item, &bytes, err);
  if (rc) {
    tc_error_prefix(err, "item %d", index + 1);
    return rc;
  }
  w->bytes[index] = (double)bytes;
  w->weight[index] = weight;
  return TC_OK;
}

int tc_workload_parse_sizes(const char *text, tc_workload *w, tc_error *err) {
  char item[128];
  w->count = 0;
  if (!text || !*text) return tc_error_set(err, TC_EINPUT, "empty size list (e.g. 1MB or 1MB:3,64MB:1)");
  for (const char *p = text;; p++) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0) return tc_error_set(err, TC_EINPUT, "item %d of '%s' is empty", w->count + 1, text);
    if (w->count == MAX_SIZES) return tc_error_set(err, TC_EINPUT, "more than %d sizes in '%s'", MAX_SIZES, text);
    if (len >= sizeof item)
      return tc_error_set(err, TC_EINPUT, "item %d of '%s' is too long", w->count + 1, text);
    memcpy(item, p, len);
    item[len] = '\0';
    int rc = parse_size_item(item, w->count, w, err);
    if (rc) return rc;
    w->count++;
    if (!end) return TC_OK;
    p = end;
  }
}
