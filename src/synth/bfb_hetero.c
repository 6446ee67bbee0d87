/*
** bfb_hetero.c — a heterogeneous BFB allgather *schedule* from LP (14) (paper 000 App. E.3).
**
** LP (14) is solved by GLPK per (u, t) (bfb_glpk.c, with the re-solve that deletes idle
** slow links); its x are floating point, so every source's shard is cut into P equal
** units and each job's amounts are rounded to whole units by the largest-remainder rule of
** App. E.2 (floor all, then +1 to the largest fractional parts until the job sums to P).
** Each job's arcs get consecutive unit ranges, so the chunks cover the shard exactly and
** the schedule is a BFB allgather whatever the rounding; only its time moves, by at most
** one unit per (job, arc) relative to the LP. Deleted arcs carry nothing.
*/
#include <math.h>
#include <stdlib.h>

#include "topocoll/bfb.h"
#include "synth/bfb_internal.h"

/* Round one job's amounts x[0..k-1] (summing to 1) to units summing to P. */
static void round_job(const double *x, int32_t k, int64_t P, int64_t *units, double *frac) {
  int64_t given = 0;
  for (int32_t i = 0; i < k; i++) {
    double want = x[i] > 0 ? x[i] * (double)P : 0;
    units[i] = (int64_t)floor(want);
    frac[i] = want - (double)units[i];
    given += units[i];
  }
  while (given < P) { /* +1 to the largest remaining fractional part (ties: lowest index) */
    int32_t best = 0;
    for (int32_t i = 1; i < k; i++)
      if (frac[i] > frac[best]) best = i;
    units[best]++;
    frac[best] = -1;
    given++;
  }
  while (given > P) { /* floating noise can overshoot: take back from the largest */
    int32_t best = 0;
    for (int32_t i = 1; i < k; i++)
      if (units[i] > units[best]) best = i;
    units[best]--;
    given--;
  }
}

/* Emit the transfers of receiver r at step t. */
static int emit_step(const tci_bfb_receiver *r, int32_t t, const tci_bfb_hetero_step *h, int64_t P, tc_schedule *out,
                     tc_error *err) {
  const tci_bfb_step *st = &r->step[t - 1];
  int rc = TC_OK;
  for (int32_t j = 0; j < st->njobs && !rc; j++) {
    int64_t first = st->allow_off[j];
    int32_t k = (int32_t)(st->allow_off[j + 1] - first);
    int64_t *units = malloc((size_t)k * sizeof *units);
    double *frac = malloc((size_t)k * sizeof *frac);
    if (!units || !frac) rc = tc_error_set(err, TC_ENOMEM, "bfb-hetero: out of memory");
    if (!rc) round_job(h->x + first, k, P, units, frac);
    int64_t lo = 0;
    for (int32_t i = 0; i < k && !rc; i++) {
      if (!units[i]) continue;
      rc = tc_schedule_add(out, st->job[j], r->arc[st->allow[first + i]], t, lo, lo + units[i], err);
      lo += units[i];
    }
    free(units);
    free(frac);
  }
  return rc;
}

int tc_bfb_allgather_hetero(const tc_graph *g, const double *alpha, const double *bw, double shard_bytes, int64_t P,
                            tc_schedule *out, tc_error *err) {
  if (P < 1) return tc_error_set(err, TC_EINPUT, "bfb-hetero: chunks per shard must be >= 1 (got %lld)", (long long)P);
  int rc = tc_schedule_init(out, TC_COLL_ALLGATHER, g->n, P, "bfb-hetero", err);
  for (int32_t u = 0; !rc && u < g->n; u++) {
    tci_bfb_receiver r;
    rc = tci_bfb_receiver_build(g, u, &r, err);
    if (rc) break;
    for (int32_t t = 1; !rc && t <= r.depth; t++) {
      tci_bfb_hetero_step h;
      rc = tci_bfb_hetero_step_solve(g, &r, t, alpha, bw, shard_bytes, &h, err);
      if (rc) break;
      rc = emit_step(&r, t, &h, P, out, err);
      tci_bfb_hetero_step_destroy(&h);
    }
    tci_bfb_receiver_destroy(&r);
  }
  if (rc) tc_schedule_destroy(out);
  else tc_schedule_sort(out);
  return rc;
}
