/*
** sort.c — the canonical order of a schedule's transfers (contract in sched.h): ascending
** (step, shard, arc, lo, hi), the order of schedule files, of `topocoll sched` and of
** everything that compares schedules.
**
** Why not qsort: the BFB allgather of torus(50,50) has 6.26 M transfers, and glibc's merge
** sort through an indirect comparator spent 1.3 s on them, more than generating and
** verifying the schedule. Every field of a transfer is an integer, so the order is computed
** by radix sort in linear time:
**   1. one pass finds each field's minimum and maximum, whether the transfers are already
**      in order (then nothing moves: a schedule sorted twice costs one read) and whether
**      they are at least in step order (every generator that builds step by step), noting
**      where each step's run starts;
**   2. field f, offset by its minimum, needs bits(max - min) bits. When the five fields fit
**      in 64 bits together (in practice they do: BFB on torus(50,50) needs 36), a transfer
**      packs into one 64-bit key whose order is the canonical order and which encodes the
**      transfer completely, so keys are sorted and transfers decoded back from them;
**   3. in step order, each step's run is sorted on its own: keys built from the run, LSD
**      radix sorted in a per-thread buffer (a run of 10^5 transfers stays in cache), and
**      decoded back into place — no scratch the size of the schedule, and runs go to
**      OpenMP threads. Out of step order, all keys are built first and one stable radix
**      sort on their step bits groups the runs, which are then sorted the same way;
**   4. fields that do not fit in 64 bits (unit counts or arc ids far beyond any real
**      schedule) are handled by a stable LSD radix sort of the transfers themselves, least
**      significant field first: linear, just slower.
** Transfers with equal keys are equal in every field, so the result is *the* sorted
** sequence: the same bytes any correct comparison sort gives, whatever the thread count
** (tests/test_sched_sort.c checks it against qsort on random schedules). If scratch memory
** cannot be had, the sort falls back to qsort with the comparator: slower, same result.
** Every buffer is allocated before the first transfer is rewritten, so a fallback never
** sees a half-rewritten schedule.
*/
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/sched.h"

#define NFIELDS 5         /* significance order: step, shard, arc, lo, hi */
#ifndef DIGIT_MAX
#define DIGIT_MAX 11      /* bits per radix pass: 2048 counters stay in L1 */
#endif
#define MAX_PASSES 6      /* ceil(64 / DIGIT_MAX) */
#define PARALLEL_MIN 65536 /* fewer transfers: one thread (starting threads costs more) */

/* ---- fields and keys ---- */

/* Field f of x as the unsigned image of its signed value. */
static inline uint64_t field_raw(const tc_transfer *x, int f) {
  switch (f) {
    case 0: return (uint64_t)(int64_t)x->step;
    case 1: return (uint64_t)(int64_t)x->shard;
    case 2: return (uint64_t)x->arc;
    case 3: return (uint64_t)x->lo;
    default: return (uint64_t)x->hi;
  }
}

/* How the fields pack: field f is stored as (value - min[f]), an exact unsigned difference
   in 0..max-min for every value in min..max, in bits[f] bits starting at bit shift[f]. */
typedef struct packing {
  int64_t min[NFIELDS];
  int bits[NFIELDS], shift[NFIELDS], total;
  uint64_t mask[NFIELDS];
} packing;

static inline uint64_t field_norm(const tc_transfer *x, int f, const packing *p) {
  return field_raw(x, f) - (uint64_t)p->min[f];
}

static inline uint64_t pack(const tc_transfer *x, const packing *p) {
  uint64_t k = 0;
  for (int f = 0; f < NFIELDS; f++)
    if (p->bits[f]) k |= field_norm(x, f, p) << p->shift[f];
  return k;
}

static inline tc_transfer unpack(uint64_t k, const packing *p) {
  uint64_t v[NFIELDS];
  for (int f = 0; f < NFIELDS; f++) v[f] = (p->bits[f] ? (k >> p->shift[f]) & p->mask[f] : 0) + (uint64_t)p->min[f];
  /* each v[f] is the two's-complement image of a value of that field's type */
  return (tc_transfer){(int32_t)(int64_t)v[1], (int32_t)(int64_t)v[0], (int64_t)v[2], (int64_t)v[3], (int64_t)v[4]};
}

static inline uint64_t step_of_key(uint64_t k, const packing *p) { return p->bits[0] ? k >> p->shift[0] : 0; }

static inline int before(const tc_transfer *a, const tc_transfer *b) {
  if (a->step != b->step) return a->step < b->step;
  if (a->shard != b->shard) return a->shard < b->shard;
  if (a->arc != b->arc) return a->arc < b->arc;
  if (a->lo != b->lo) return a->lo < b->lo;
  return a->hi < b->hi;
}

static int cmp_transfer(const void *pa, const void *pb) {
  const tc_transfer *a = pa, *b = pb;
  return before(b, a) - before(a, b);
}

static int bits_of(uint64_t range) { return range ? 64 - __builtin_clzll(range) : 0; }

/* ---- pass 1 ---- */

/* Growable list of step-run starts. */
typedef struct runs {
  int64_t *start, count, room;
} runs;

static int runs_push(runs *r, int64_t i) {
  if (r->count == r->room) {
    int64_t room = r->room ? 2 * r->room : 64;
    int64_t *p = realloc(r->start, (size_t)room * sizeof *p);
    if (!p) return -1;
    r->start = p;
    r->room = room;
  }
  r->start[r->count++] = i;
  return 0;
}

typedef struct scan_result {
  int sorted, step_sorted, oom;
  int64_t min[NFIELDS], max[NFIELDS];
} scan_result;

/* Ranges, order, and (while in step order) the starts of the step runs. */
static void scan(const tc_transfer *x, int64_t n, scan_result *r, runs *run) {
  for (int f = 0; f < NFIELDS; f++) r->min[f] = r->max[f] = (int64_t)field_raw(&x[0], f);
  r->sorted = r->step_sorted = 1;
  r->oom = runs_push(run, 0);
  for (int64_t i = 1; i < n; i++) {
    const tc_transfer *a = &x[i];
    if (r->sorted && before(a, a - 1)) r->sorted = 0;
    if (r->step_sorted && a->step != a[-1].step) {
      if (a->step < a[-1].step) r->step_sorted = 0;
      else if (runs_push(run, i)) r->oom = 1;
    }
    int64_t v[NFIELDS] = {a->step, a->shard, a->arc, a->lo, a->hi};
    for (int f = 0; f < NFIELDS; f++) {
      if (v[f] < r->min[f]) r->min[f] = v[f];
      if (v[f] > r->max[f]) r->max[f] = v[f];
    }
  }
}

/* ---- radix passes ---- */

/* The digit passes over `bits` bits: as few as DIGIT_MAX allows, of equal width. */
static void plan_digits(int bits, int *passes, int *width) {
  *passes = (bits + DIGIT_MAX - 1) / DIGIT_MAX;
  *width = *passes ? (bits + *passes - 1) / *passes : 0;
}

/* Stable LSD radix sort of key[0..n) by bits lo..hi-1, tmp[0..n) as scratch; cnt holds
   MAX_PASSES << DIGIT_MAX counters. Returns the array that holds the result (key or tmp).
   One thread: every pass's counts come from one read, as order does not change them. */
static uint64_t *lsd_keys(uint64_t *key, uint64_t *tmp, int64_t n, int lo, int hi, int64_t *cnt) {
  int passes, width;
  plan_digits(hi - lo, &passes, &width);
  int64_t B = (int64_t)1 << width;
  uint64_t mask = (uint64_t)B - 1;
  memset(cnt, 0, (size_t)passes * (size_t)B * sizeof *cnt);
  for (int64_t i = 0; i < n; i++)
    for (int p = 0; p < passes; p++) cnt[p * B + (int64_t)((key[i] >> (lo + p * width)) & mask)]++;
  uint64_t *src = key, *dst = tmp;
  for (int p = 0; p < passes; p++) {
    int64_t *c = cnt + p * B, sum = 0, uniform = 0;
    for (int64_t d = 0; d < B; d++) {
      int64_t k = c[d];
      if (k == n) uniform = 1; /* every key has this digit: the pass would move nothing */
      c[d] = sum;
      sum += k;
    }
    if (uniform) continue;
    int s = lo + p * width;
    for (int64_t i = 0; i < n; i++) dst[c[(src[i] >> s) & mask]++] = src[i];
    uint64_t *swap = src;
    src = dst;
    dst = swap;
  }
  return src;
}

/* One step run x[0..n): its keys (built here into kbuf when key is NULL), sorted on the
   bits below the step, decoded back into x. Keys already in order leave x untouched. */
static void sort_run(tc_transfer *x, uint64_t *key, uint64_t *tmp, int64_t n, const packing *p, int64_t *cnt) {
  int in_order = 1;
  if (!key) {
    key = tmp + n; /* the caller gave 2n words */
    for (int64_t i = 0; i < n; i++) {
      key[i] = pack(&x[i], p);
      if (i && key[i] < key[i - 1]) in_order = 0;
    }
    if (in_order) return;
  }
  uint64_t *k = lsd_keys(key, tmp, n, 0, p->shift[0], cnt);
  for (int64_t i = 0; i < n; i++) x[i] = unpack(k[i], p);
}

/* Steps 2 and 3. Returns -1 (x untouched) if memory is short. */
static int sort_packed(tc_transfer *x, int64_t n, const packing *p, int step_sorted, runs *run) {
  int nthreads = n < PARALLEL_MIN ? 1 : omp_get_max_threads();
  if (nthreads < 1) nthreads = 1;
  uint64_t *key = NULL, *tmp = NULL;
  if (!step_sorted) {
    /* All keys, then group them by step: a stable LSD sort on the step bits alone. */
    key = malloc((size_t)n * sizeof *key);
    tmp = malloc((size_t)n * sizeof *tmp);
    int64_t *cnt = malloc(((size_t)MAX_PASSES << DIGIT_MAX) * sizeof *cnt);
    if (!key || !tmp || !cnt) {
      free(key); free(tmp); free(cnt);
      return -1;
    }
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t i = 0; i < n; i++) key[i] = pack(&x[i], p);
    uint64_t *by_step = lsd_keys(key, tmp, n, p->shift[0], p->total, cnt);
    free(cnt);
    if (by_step != key) {
      tmp = key;
      key = by_step;
    }
    run->count = 0;
    for (int64_t i = 0; i < n; i++)
      if ((!i || step_of_key(key[i], p) != step_of_key(key[i - 1], p)) && runs_push(run, i)) {
        free(key); free(tmp);
        return -1;
      }
  }
  int64_t longest = 0;
  for (int64_t r = 0; r < run->count; r++) {
    int64_t len = (r + 1 < run->count ? run->start[r + 1] : n) - run->start[r];
    if (len > longest) longest = len;
  }
  /* Per thread: counters, and in step order 2 * longest words for a run's keys. */
  size_t per_thread = ((size_t)MAX_PASSES << DIGIT_MAX) + (step_sorted ? 2 * (size_t)longest : 0);
  int64_t *buf = malloc((size_t)nthreads * per_thread * sizeof *buf);
  if (!buf) {
    free(key); free(tmp);
    return -1;
  }
#pragma omp parallel num_threads(nthreads)
  {
    int64_t *cnt = buf + (size_t)omp_get_thread_num() * per_thread;
    uint64_t *mine = (uint64_t *)(cnt + ((size_t)MAX_PASSES << DIGIT_MAX));
#pragma omp for schedule(dynamic, 1)
    for (int64_t r = 0; r < run->count; r++) {
      int64_t a = run->start[r], len = (r + 1 < run->count ? run->start[r + 1] : n) - a;
      if (step_sorted) sort_run(x + a, NULL, mine, len, p, cnt);
      else sort_run(x + a, key + a, tmp + a, len, p, cnt);
    }
  }
  free(buf);
  free(key);
  free(tmp);
  return 0;
}

/* Step 4: stable LSD radix sort of the transfers, one digit of one field per pass, from
   the low digits of hi up to the high digits of step. Returns -1 (x untouched) if memory
   is short. */
static int sort_fields(tc_transfer *x, int64_t n, const packing *p) {
  tc_transfer *tmp = malloc((size_t)n * sizeof *tmp);
  int64_t *cnt = malloc(((size_t)1 << DIGIT_MAX) * sizeof *cnt);
  if (!tmp || !cnt) {
    free(tmp); free(cnt);
    return -1;
  }
  tc_transfer *src = x, *dst = tmp;
  for (int f = NFIELDS - 1; f >= 0; f--) {
    int passes, width;
    plan_digits(p->bits[f], &passes, &width);
    int64_t B = (int64_t)1 << width;
    uint64_t mask = (uint64_t)B - 1;
    for (int q = 0; q < passes; q++) {
      int s = q * width;
      memset(cnt, 0, (size_t)B * sizeof *cnt);
      for (int64_t i = 0; i < n; i++) cnt[(field_norm(&src[i], f, p) >> s) & mask]++;
      int64_t sum = 0, uniform = 0;
      for (int64_t d = 0; d < B; d++) {
        int64_t k = cnt[d];
        if (k == n) uniform = 1;
        cnt[d] = sum;
        sum += k;
      }
      if (uniform) continue;
      for (int64_t i = 0; i < n; i++) dst[cnt[(field_norm(&src[i], f, p) >> s) & mask]++] = src[i];
      tc_transfer *swap = src;
      src = dst;
      dst = swap;
    }
  }
  if (src != x) memcpy(x, src, (size_t)n * sizeof *x);
  free(tmp);
  free(cnt);
  return 0;
}

void tc_schedule_sort(tc_schedule *s) {
  int64_t n = s->count;
  if (n < 2) return;
  scan_result r;
  runs run = {0};
  scan(s->xfer, n, &r, &run);
  if (r.sorted) {
    free(run.start);
    return;
  }
  packing p;
  p.total = 0;
  for (int f = NFIELDS - 1; f >= 0; f--) {
    p.min[f] = r.min[f];
    p.bits[f] = bits_of((uint64_t)r.max[f] - (uint64_t)r.min[f]);
    p.shift[f] = p.total;
    p.mask[f] = p.bits[f] ? ~(uint64_t)0 >> (64 - p.bits[f]) : 0;
    p.total += p.bits[f];
  }
  int rc = r.oom && r.step_sorted ? -1 : p.total <= 64 ? sort_packed(s->xfer, n, &p, r.step_sorted, &run) : sort_fields(s->xfer, n, &p);
  free(run.start);
  if (rc) qsort(s->xfer, (size_t)n, sizeof *s->xfer, cmp_transfer);
}
