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
*/
#include "find_internal.h"

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

int32_t tc_frontier_choose(const tc_frontier *f, const tc_workload *w) {
  int32_t best = -1;
  double best_time = 0;
  for (int32_t i = 0; i < f->count; i++) {
    double t = tc_candidate_allreduce_time(&f->member[i], w);
    if (best < 0 || t < best_time || (t == best_time && f->member[i].steps < f->member[best].steps)) {
      best = i;
      best_time = t;
    }
  }
  return best;
}
