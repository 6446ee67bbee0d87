/*
** round_flows.c — P-chunk rounding of an all-to-all (flow-semantics) schedule (contract in
** transform.h), the counterpart for flows of discretize.c's rounding (paper 000 App. E.2).
**
** An exact all-to-all schedule (tsMCF, pMCF, a fluid routing lowered hop by hop) cuts each
** shard into `units` equal units, and under flow semantics every unit of shard (s,t) travels
** one walk from s to t: a sequence of (step, arc) hops in increasing steps (sched.h). Units
** with the same walk form one *path share* of the shard, a_w units of U. Rounding to P chunks
** keeps the walks and rounds the shares, as E.2 rounds the amounts on a receiver's in-arcs:
** b_w = ⌊a_w·P/U⌋, then one more chunk to each of the P − Σ⌊·⌋ shares with the largest
** fractional parts (first walk on ties). So Σ b_w = P, every b_w < a_w·P/U + 1, and each
** walk's chunks are one consecutive range: the result moves whole 1/P chunks along the very
** walks of the input, and is a valid all-to-all whenever the input is. What an (arc, step)
** carries grows by less than one chunk per share through it; the cost model measures it.
**
** Units are found walk by walk without enumerating them: the endpoints of a shard's
** transfers cut [0, U) into elementary intervals, each covered by a fixed set of transfers
** (its walk); equal sets are merged. A shard's transfers are few (hops times shares), so the
** quadratic work per shard is small.
*/
#include "topocoll/transform.h"
#include "sched/transform_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

static int cmp_i64(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* One path share of a shard: the transfers of its walk (indices into the shard's list, in
   list order) and its units. */
typedef struct share {
  int64_t first; /* into the walk-member array */
  int32_t hops;
  int64_t units;
  int64_t chunks;
  int64_t frac; /* a·P mod U, the fractional part in 1/U */
} share;

typedef struct scratch {
  int64_t *cut;     /* endpoints of one shard's transfers */
  int32_t *member;  /* walk members of every share of one shard */
  share *shares;
  int64_t cut_room, member_room, share_room;
} scratch;

static int grow(void **p, int64_t *room, int64_t need, size_t size) {
  if (need <= *room) return 0;
  int64_t r = *room ? *room : 16;
  while (r < need) r *= 2;
  void *q = realloc(*p, size * (size_t)r);
  if (!q) return -1;
  *p = q, *room = r;
  return 0;
}

/* The shares of the shard whose transfers are x[idx[0..k-1]]. */
static int find_shares(const tc_transfer *x, const int64_t *idx, int64_t k, scratch *w, int64_t *nshares,
                       tc_error *err) {
  if (grow((void **)&w->cut, &w->cut_room, 2 * k, sizeof *w->cut))
    return tc_error_set(err, TC_ENOMEM, "chunk rounding: out of memory");
  int64_t ncut = 0;
  for (int64_t i = 0; i < k; i++) w->cut[ncut++] = x[idx[i]].lo, w->cut[ncut++] = x[idx[i]].hi;
  qsort(w->cut, (size_t)ncut, sizeof *w->cut, cmp_i64);
  int64_t uniq = 0;
  for (int64_t i = 0; i < ncut; i++)
    if (!uniq || w->cut[uniq - 1] != w->cut[i]) w->cut[uniq++] = w->cut[i];
  int64_t members = 0, count = 0;
  for (int64_t c = 0; c + 1 < uniq; c++) {
    int64_t lo = w->cut[c], hi = w->cut[c + 1];
    if (grow((void **)&w->member, &w->member_room, members + k, sizeof *w->member))
      return tc_error_set(err, TC_ENOMEM, "chunk rounding: out of memory");
    int32_t hops = 0;
    for (int64_t i = 0; i < k; i++)
      if (x[idx[i]].lo <= lo && hi <= x[idx[i]].hi) w->member[members + hops++] = (int32_t)i;
    if (!hops) continue; /* units no transfer moves: the input is not a whole all-to-all */
    int64_t same = -1;
    for (int64_t q = 0; q < count && same < 0; q++)
      if (w->shares[q].hops == hops &&
          !memcmp(w->member + w->shares[q].first, w->member + members, sizeof *w->member * (size_t)hops))
        same = q;
    if (same >= 0) {
      w->shares[same].units += hi - lo;
      continue;
    }
    if (grow((void **)&w->shares, &w->share_room, count + 1, sizeof *w->shares))
      return tc_error_set(err, TC_ENOMEM, "chunk rounding: out of memory");
    w->shares[count++] = (share){members, hops, hi - lo, 0, 0};
    members += hops;
  }
  *nshares = count;
  return TC_OK;
}

/* Largest-remainder rounding of the shares' units (of U) to chunks (of P). */
static int round_shares(share *sh, int64_t count, int64_t U, int64_t P, tc_error *err) {
  int64_t given = 0;
  for (int64_t q = 0; q < count; q++) {
    __int128 scaled = (__int128)sh[q].units * P;
    sh[q].chunks = (int64_t)(scaled / U), sh[q].frac = (int64_t)(scaled % U);
    given += sh[q].chunks;
  }
  if (given > P) return tc_error_set(err, TC_EINPUT, "chunk rounding: a shard moves more than one shard's worth");
  for (; given < P; given++) {
    int64_t best = -1;
    for (int64_t q = 0; q < count; q++)
      if (sh[q].frac >= 0 && (best < 0 || sh[q].frac > sh[best].frac)) best = q;
    if (best < 0) return tc_error_set(err, TC_EINPUT, "chunk rounding: a shard moves less than one shard's worth");
    sh[best].chunks++, sh[best].frac = -1;
  }
  return TC_OK;
}

int tc_schedule_round_flows(const tc_graph *g, const tc_schedule *s, int64_t P, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (P < 1) return tc_error_set(err, TC_EINPUT, "chunk rounding: P must be >= 1 (got %lld)", (long long)P);
  if (s->coll != TC_COLL_ALLTOALL)
    return tc_error_set(err, TC_EINPUT, "chunk rounding of flows: needs an alltoall (got %s)",
                        tc_collective_name(s->coll));
  int rc = tci_schedule_check_graph(g, s, "chunk rounding", err);
  if (rc) return rc;
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    if (x->shard < 0 || x->shard >= s->nshards || x->lo < 0 || x->lo >= x->hi || x->hi > s->units || x->step < 1)
      return tc_error_set(err, TC_EINPUT, "chunk rounding: transfer #%lld has a bad shard, step or chunk",
                          (long long)i);
  }
  /* transfers grouped by shard (counting sort, stable: list order within a shard) */
  int64_t *start = calloc((size_t)s->nshards + 1, sizeof *start), *idx = malloc(sizeof *idx * (size_t)(s->count + 1));
  scratch w = {0};
  if (!start || !idx) {
    free(start), free(idx);
    return tc_error_set(err, TC_ENOMEM, "chunk rounding: out of memory");
  }
  for (int64_t i = 0; i < s->count; i++) start[s->xfer[i].shard + 1]++;
  for (int32_t k = 0; k < s->nshards; k++) start[k + 1] += start[k];
  for (int64_t i = 0, *at = start; i < s->count; i++) idx[at[s->xfer[i].shard]++] = i; /* at moves start on */
  for (int32_t k = s->nshards; k > 0; k--) start[k] = start[k - 1];
  start[0] = 0;
  rc = tc_schedule_init(out, TC_COLL_ALLTOALL, s->nodes, P, s->algorithm, err);
  if (!rc) rc = tc_schedule_reserve(out, s->count, err);
  for (int32_t k = 0; k < s->nshards && !rc; k++) {
    int64_t n = start[k + 1] - start[k], nshares = 0;
    if (!n) continue;
    const int64_t *list = idx + start[k];
    if ((rc = find_shares(s->xfer, list, n, &w, &nshares, err)) ||
        (rc = round_shares(w.shares, nshares, s->units, P, err)))
      break;
    int64_t chunk = 0;
    for (int64_t q = 0; q < nshares && !rc; q++) {
      const share *sh = &w.shares[q];
      if (!sh->chunks) continue; /* a share rounded away: its walk is not used */
      for (int32_t h = 0; h < sh->hops && !rc; h++) {
        const tc_transfer *x = &s->xfer[list[w.member[sh->first + h]]];
        rc = tc_schedule_add(out, k, x->arc, x->step, chunk, chunk + sh->chunks, err);
      }
      chunk += sh->chunks;
    }
  }
  if (!rc && out->steps < s->steps) out->steps = s->steps;
  free(start), free(idx), free(w.cut), free(w.member), free(w.shares);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
