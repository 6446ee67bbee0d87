/*
** discretize.c — chunk discretization of step schedules (paper 000 App. E.2; contract in
** transform.h).
**
** Exact LCM chunking needs no work at run time: the IR already writes every chunk endpoint
** over one common denominator `units`, which generators pick as the LCM of their
** fractions. tc_schedule_chunk_count reports the least such denominator and
** tc_schedule_normalize rewrites a schedule in it.
**
** P-chunk rounding turns a fractional schedule into one that moves whole 1/P chunks. Its
** input is the LP relaxation of IP (13): for each receiver u, step t and shard v the amounts
** y_a (in chunks) on u's in-arcs a sum to P. The paper's rounding floors every y_a and gives
** one more chunk to P - Σ⌊y_a⌋ of the fractional entries; we pick those with the largest
** fractional parts (lowest arc id on ties), so every rounded amount is < y_a + 1 and the
** amounts still sum to P. Every sender holds the whole shard (it received all of it in an
** earlier step, or owns it), so only amounts matter: the in-arcs take consecutive chunk
** ranges in arc-id order, which cover the shard exactly once. A link at step t carries at
** most |N^-_{t-1}(w)| <= d^{t-1} sources in a BFB schedule, each rounded up by < 1 chunk,
** which gives Theorem 20's bound T_B <= T_B^LP + (M/B) d(d^D - 1)/((d - 1) P N).
**
** The input's shape is checked, not assumed: each receiving node gets each shard in one
** step, exactly one whole shard's worth, and senders hold what they forward.
*/
#include "topocoll/transform.h"
#include "sched/transform_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

int64_t tc_schedule_chunk_count(const tc_schedule *s) {
  int64_t g = s->units;
  for (int64_t i = 0; i < s->count && g > 1; i++) g = tci_gcd64(tci_gcd64(g, s->xfer[i].lo), s->xfer[i].hi);
  return g > 0 ? s->units / g : s->units;
}

void tc_schedule_normalize(tc_schedule *s) {
  int64_t least = tc_schedule_chunk_count(s);
  if (least < 1 || least == s->units) return;
  int64_t g = s->units / least;
  for (int64_t i = 0; i < s->count; i++) {
    s->xfer[i].lo /= g;
    s->xfer[i].hi /= g;
  }
  s->units = least;
}

/* One transfer seen from its receiver, for grouping by (receiver, shard, step, arc). */
typedef struct arrival {
  int32_t dst, shard, step;
  int64_t arc, len;
} arrival;

static int cmp_arrival(const void *pa, const void *pb) {
  const arrival *a = pa, *b = pb;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  if (a->shard != b->shard) return a->shard < b->shard ? -1 : 1;
  if (a->step != b->step) return a->step < b->step ? -1 : 1;
  return (a->arc > b->arc) - (a->arc < b->arc);
}

/* Input contract for rounding: copy semantics, P >= 1, sane chunks. */
static int check_round_input(const tc_graph *g, const tc_schedule *s, int64_t P, tc_error *err) {
  if (P < 1) return tc_error_set(err, TC_EINPUT, "chunk rounding: P must be >= 1 (got %lld)", (long long)P);
  if (s->coll != TC_COLL_ALLGATHER && s->coll != TC_COLL_BROADCAST)
    return tc_error_set(err, TC_EINPUT,
                        "chunk rounding: needs an allgather or broadcast (got %s; round the allgather, then reverse "
                        "or compose)",
                        tc_collective_name(s->coll));
  int rc = tci_schedule_check_graph(g, s, "chunk rounding", err);
  if (rc) return rc;
  if ((int64_t)s->nodes * s->nshards > INT64_MAX / 8)
    return tc_error_set(err, TC_ERANGE, "chunk rounding: %d nodes x %d shards is too large", s->nodes, s->nshards);
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    if (x->shard < 0 || x->shard >= s->nshards || x->lo < 0 || x->lo >= x->hi || x->hi > s->units || x->step < 1)
      return tc_error_set(err, TC_EINPUT, "chunk rounding: transfer #%lld has a bad shard, step or chunk",
                          (long long)i);
  }
  return TC_OK;
}

/* Arrivals sorted by receiver; also fills recv_step[u * nshards + k] = the one step in
   which u receives shard k (0 = never), failing if that is not one whole shard. */
static int collect_arrivals(const tc_graph *g, const tc_schedule *s, arrival *arr, int32_t *recv_step,
                            tc_error *err) {
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    arr[i] = (arrival){g->dst[x->arc], x->shard, x->step, x->arc, x->hi - x->lo};
  }
  if (s->count > 1) qsort(arr, (size_t)s->count, sizeof *arr, cmp_arrival);
  for (int64_t i = 0, j; i < s->count; i = j) {
    int64_t total = 0;
    for (j = i; j < s->count && arr[j].dst == arr[i].dst && arr[j].shard == arr[i].shard; j++) {
      if (arr[j].step != arr[i].step)
        return tc_error_set(err, TC_EINPUT, "chunk rounding: node %d receives shard %d in steps %d and %d (needs one "
                            "step per shard, as in BFB)", arr[i].dst, arr[i].shard, arr[i].step, arr[j].step);
      if (arr[j].len > s->units - total) { total = s->units + 1; break; } /* more than a shard: no overflow */
      total += arr[j].len;
    }
    if (arr[i].dst == tc_schedule_owner(s, arr[i].shard))
      return tc_error_set(err, TC_EINPUT, "chunk rounding: node %d receives its own shard %d", arr[i].dst,
                          arr[i].shard);
    if (total != s->units)
      return tc_error_set(err, TC_EINPUT,
                          "chunk rounding: node %d receives %s one whole shard %d at step %d (needs exactly one, "
                          "split over its in-arcs)",
                          arr[i].dst, total > s->units ? "more than" : "less than", arr[i].shard, arr[i].step);
    recv_step[(int64_t)arr[i].dst * s->nshards + arr[i].shard] = arr[i].step;
  }
  return TC_OK;
}

/* Every sender must own the shard or have received all of it in an earlier step. */
static int check_senders_hold(const tc_graph *g, const tc_schedule *s, const int32_t *recv_step, tc_error *err) {
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int32_t w = g->src[x->arc], got = recv_step[(int64_t)w * s->nshards + x->shard];
    if (w != tc_schedule_owner(s, x->shard) && (got == 0 || got >= x->step))
      return tc_error_set(err, TC_EINPUT, "chunk rounding: node %d forwards shard %d at step %d before it holds all "
                          "of it", w, x->shard, x->step);
  }
  return TC_OK;
}

/* One in-arc's share of a (receiver, step, shard) group. */
typedef struct share {
  int64_t arc, chunks, frac; /* floor(P y / units) and the remainder P y mod units */
} share;

static int by_frac_desc(const void *pa, const void *pb) {
  const share *a = pa, *b = pb;
  if (a->frac != b->frac) return a->frac > b->frac ? -1 : 1;
  return (a->arc > b->arc) - (a->arc < b->arc);
}
static int by_arc(const void *pa, const void *pb) {
  const share *a = pa, *b = pb;
  return (a->arc > b->arc) - (a->arc < b->arc);
}

/* Round one group's shares (sum of y = units) to whole chunks summing to P and emit them. */
static int round_group(tc_schedule *out, const arrival *grp, int64_t len, int64_t units, share *sh, tc_error *err) {
  int64_t n = 0, floors = 0;
  for (int64_t i = 0; i < len; i++) {
    if (n && sh[n - 1].arc == grp[i].arc) { sh[n - 1].frac += grp[i].len; continue; } /* same arc twice */
    sh[n++] = (share){grp[i].arc, 0, grp[i].len};
  }
  for (int64_t i = 0; i < n; i++) { /* frac holds y in units here; P y fits in 128 bits */
    __int128 scaled = (__int128)out->units * sh[i].frac;
    sh[i].chunks = (int64_t)(scaled / units);
    sh[i].frac = (int64_t)(scaled % units);
    floors += sh[i].chunks;
  }
  qsort(sh, (size_t)n, sizeof *sh, by_frac_desc);
  for (int64_t i = 0; i < out->units - floors; i++) sh[i].chunks++; /* Σ frac = (P - floors) units: enough */
  qsort(sh, (size_t)n, sizeof *sh, by_arc);
  int64_t at = 0;
  int rc = TC_OK;
  for (int64_t i = 0; i < n && !rc; i++) {
    if (sh[i].chunks) rc = tc_schedule_add(out, grp[0].shard, sh[i].arc, grp[0].step, at, at + sh[i].chunks, err);
    at += sh[i].chunks;
  }
  return rc;
}

static int emit_rounded(const tc_schedule *s, const arrival *arr, tc_schedule *out, tc_error *err) {
  int64_t widest = 1;
  for (int64_t i = 0, j; i < s->count; i = j) {
    for (j = i; j < s->count && arr[j].dst == arr[i].dst && arr[j].shard == arr[i].shard; j++) {}
    if (j - i > widest) widest = j - i;
  }
  share *sh = malloc((size_t)widest * sizeof *sh);
  if (!sh) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = TC_OK;
  for (int64_t i = 0, j; i < s->count && !rc; i = j) {
    for (j = i; j < s->count && arr[j].dst == arr[i].dst && arr[j].shard == arr[i].shard; j++) {}
    rc = round_group(out, arr + i, j - i, s->units, sh, err);
  }
  free(sh);
  return rc;
}

int tc_schedule_round_chunks(const tc_graph *g, const tc_schedule *s, int64_t P, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_round_input(g, s, P, err);
  if (rc) return rc;
  arrival *arr = malloc(((size_t)s->count + 1) * sizeof *arr);
  int32_t *recv_step = calloc((size_t)s->nodes * (size_t)s->nshards, sizeof *recv_step);
  if (!arr || !recv_step) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc) rc = collect_arrivals(g, s, arr, recv_step, err);
  if (!rc) rc = check_senders_hold(g, s, recv_step, err);
  if (!rc) rc = tc_schedule_init_owned(out, s->coll, s->nodes, s->nshards, s->owner, P, s->algorithm, err);
  if (!rc) rc = tc_schedule_reserve(out, s->count + 1, err);
  if (!rc) rc = emit_rounded(s, arr, out, err);
  free(arr);
  free(recv_step);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = s->steps;
  return TC_OK;
}
