/*
** sort.c — the canonical order of a schedule's transfers (contract in sched.h): ascending
** (step, shard, arc, lo, hi), the order of schedule files, of `topocoll sched` and of
** everything that compares schedules.
**
** Why not qsort: the BFB allgather of torus(50,50) has 6.26 M transfers, and glibc's merge
** sort through an indirect comparator spent 1.3 s on them, more than generating and
** verifying the schedule. Every field of a transfer is an integer, so the order is computed
** by radix sort in linear time:
**   1. one pass, split over OpenMP threads, finds each field's minimum and maximum, whether
**      the transfers are already in order (then nothing moves: a schedule sorted twice
**      costs one read) and whether they are at least in step order (every generator that
**      builds step by step), noting where each step's run starts;
**   2. field f, offset by its minimum, needs bits(max - min) bits. When the five fields fit
**      in 64 bits together (in practice they do: BFB on torus(50,50) needs 36), a transfer
**      packs into one 64-bit key whose order is the canonical order and which encodes the
**      transfer completely, so keys are sorted and transfers decoded back from them;
**   3. in step order, each step's run is sorted on its own: keys built from the run, LSD
**      radix sorted in a per-thread buffer (a run of 10^5 transfers stays in cache; digits
**      of up to 15 bits, so the 30 bits below the step of torus(50,50) take two passes;
**      short runs by insertion), and decoded back into place — no scratch the size of the
**      schedule, and runs go to OpenMP threads. Out of step order (the reduce-scatter
**      transforms reverse the steps), all keys are built first and one stable radix sort
**      on their step bits groups the runs, which are then sorted the same way (so too
**      when a few huge runs would need per-thread buffers larger than all the keys);
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

#include "core/huge.h"

#define NFIELDS 5          /* significance order: step, shard, arc, lo, hi */
#define DIGIT_MAX 15       /* bits per radix pass: a step run's keys and 2^15 counters stay in L2 */
#define DIGIT_MIN 8        /* ... and no fewer, however short the run */
#define CNT_WORDS (((64 + DIGIT_MAX - 1) / DIGIT_MAX) << DIGIT_MAX) /* counters of all passes */
#define INSERTION_MAX 24   /* runs this short are sorted by insertion */
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
   in 0..max-min for every value in min..max, in bits[f] bits starting at bit shift[f]; a
   field with one value has 0 bits, difference 0 and shift 0, so it adds nothing. `low` is
   the number of bits below the step. */
typedef struct packing {
  uint64_t min[NFIELDS], mask[NFIELDS];
  int bits[NFIELDS], shift[NFIELDS], total, low;
} packing;

static inline uint64_t field_norm(const tc_transfer *x, int f, const packing *p) { return field_raw(x, f) - p->min[f]; }

static inline uint64_t pack(const tc_transfer *x, const packing *p) {
  return ((uint64_t)(int64_t)x->step - p->min[0]) << p->shift[0] | ((uint64_t)(int64_t)x->shard - p->min[1]) << p->shift[1] |
         ((uint64_t)x->arc - p->min[2]) << p->shift[2] | ((uint64_t)x->lo - p->min[3]) << p->shift[3] |
         ((uint64_t)x->hi - p->min[4]) << p->shift[4];
}

/* Back to signed: each field is the two's-complement image of a value of its type. */
static inline tc_transfer unpack(uint64_t k, const packing *p) {
  return (tc_transfer){(int32_t)(int64_t)(((k >> p->shift[1]) & p->mask[1]) + p->min[1]),
                       (int32_t)(int64_t)(((k >> p->shift[0]) & p->mask[0]) + p->min[0]),
                       (int64_t)(((k >> p->shift[2]) & p->mask[2]) + p->min[2]),
                       (int64_t)(((k >> p->shift[3]) & p->mask[3]) + p->min[3]),
                       (int64_t)(((k >> p->shift[4]) & p->mask[4]) + p->min[4])};
}

static inline uint64_t step_of_key(uint64_t k, const packing *p) { return p->low < 64 ? k >> p->low : 0; }

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
  int oom;
} runs;

static void runs_push(runs *r, int64_t i) {
  if (r->oom) return;
  if (r->count == r->room) {
    int64_t room = r->room ? 2 * r->room : 64;
    int64_t *p = realloc(r->start, (size_t)room * sizeof *p);
    if (!p) { r->oom = 1; return; }
    r->start = p;
    r->room = room;
  }
  r->start[r->count++] = i;
}

/* What pass 1 learns about x[lo..hi) (pairs (i-1, i) for i in lo..hi-1 with i > 0). */
typedef struct scan_part {
  int64_t min[NFIELDS], max[NFIELDS]; /* if any */
  int any, sorted, step_sorted;
  runs run; /* while in step order: the i where a step run starts */
} scan_part;

static void scan_range(const tc_transfer *x, int64_t lo, int64_t hi, scan_part *r) {
  memset(r, 0, sizeof *r);
  r->sorted = r->step_sorted = 1;
  if (lo >= hi) return;
  r->any = 1;
  int64_t mn0 = x[lo].step, mx0 = mn0, mn1 = x[lo].shard, mx1 = mn1, mn2 = x[lo].arc, mx2 = mn2, mn3 = x[lo].lo, mx3 = mn3,
          mn4 = x[lo].hi, mx4 = mn4;
  int sorted = 1, step_sorted = 1;
  if (lo == 0) runs_push(&r->run, 0);
  for (int64_t i = lo ? lo : 1; i < hi; i++) {
    const tc_transfer *a = &x[i];
    if (sorted) sorted = !before(a, a - 1);
    if (step_sorted && a->step != a[-1].step) {
      if (a->step < a[-1].step) step_sorted = 0;
      else runs_push(&r->run, i);
    }
    mn0 = a->step < mn0 ? a->step : mn0;
    mx0 = a->step > mx0 ? a->step : mx0;
    mn1 = a->shard < mn1 ? a->shard : mn1;
    mx1 = a->shard > mx1 ? a->shard : mx1;
    mn2 = a->arc < mn2 ? a->arc : mn2;
    mx2 = a->arc > mx2 ? a->arc : mx2;
    mn3 = a->lo < mn3 ? a->lo : mn3;
    mx3 = a->lo > mx3 ? a->lo : mx3;
    mn4 = a->hi < mn4 ? a->hi : mn4;
    mx4 = a->hi > mx4 ? a->hi : mx4;
  }
  int64_t mn[NFIELDS] = {mn0, mn1, mn2, mn3, mn4}, mx[NFIELDS] = {mx0, mx1, mx2, mx3, mx4};
  memcpy(r->min, mn, sizeof mn);
  memcpy(r->max, mx, sizeof mx);
  r->sorted = sorted;
  r->step_sorted = step_sorted && !r->run.oom;
}

/* Ranges, order, and (in step order) the starts of the step runs of x[0..n): one
   contiguous range per thread, combined in range order. */
static void scan(const tc_transfer *x, int64_t n, int nthreads, scan_part *all) {
  scan_part *part = calloc((size_t)nthreads, sizeof *part);
  if (!part) nthreads = 1;
  scan_part one;
  if (!part) part = &one;
  /* A loop over the ranges rather than one range per thread id: the team may be smaller
     than asked for (inside another parallel region, say), and every range must be read. */
#pragma omp parallel for num_threads(nthreads) schedule(static, 1)
  for (int t = 0; t < nthreads; t++) scan_range(x, n * t / nthreads, n * (t + 1) / nthreads, &part[t]);
  *all = part[0];
  for (int t = 1; t < nthreads; t++) {
    scan_part *q = &part[t];
    all->sorted &= q->sorted;
    all->step_sorted &= q->step_sorted;
    for (int f = 0; f < NFIELDS && q->any; f++) {
      if (!all->any || q->min[f] < all->min[f]) all->min[f] = q->min[f];
      if (!all->any || q->max[f] > all->max[f]) all->max[f] = q->max[f];
    }
    all->any |= q->any;
    for (int64_t i = 0; all->step_sorted && i < q->run.count; i++) runs_push(&all->run, q->run.start[i]);
    all->step_sorted &= !all->run.oom;
    free(q->run.start);
  }
  if (part != &one) free(part);
}

/* ---- radix passes ---- */

/* The digit passes over `bits` bits of n keys: as few as DIGIT_MAX allows, of equal width,
   but with no more counters per pass than about 2n (whose clearing and prefix sums would
   cost more than the keys). */
static void plan_digits(int bits, int64_t n, int *passes, int *width) {
  int cap = bits_of((uint64_t)n) + 1;
  cap = cap < DIGIT_MIN ? DIGIT_MIN : cap > DIGIT_MAX ? DIGIT_MAX : cap;
  *passes = (bits + cap - 1) / cap;
  *width = *passes ? (bits + *passes - 1) / *passes : 0;
}

/* Stable LSD radix sort of key[0..n) by bits lo..hi-1, tmp[0..n) as scratch; cnt holds
   CNT_WORDS counters. Returns the array that holds the result (key or tmp). One thread:
   every pass's counts come from one read, as order does not change them. */
static uint64_t *lsd_keys(uint64_t *key, uint64_t *tmp, int64_t n, int lo, int hi, int64_t *cnt) {
  if (hi <= lo) return key;
  if (n <= INSERTION_MAX) { /* stable too; bits above hi are absent or (a run's step) equal, so key >> lo decides */
    for (int64_t i = 1; i < n; i++) {
      uint64_t k = key[i], d = k >> lo;
      int64_t j = i;
      for (; j > 0 && (key[j - 1] >> lo) > d; j--) key[j] = key[j - 1];
      key[j] = k;
    }
    return key;
  }
  int passes, width;
  plan_digits(hi - lo, n, &passes, &width);
  int64_t B = (int64_t)1 << width;
  uint64_t mask = (uint64_t)B - 1;
  memset(cnt, 0, (size_t)passes * (size_t)B * sizeof *cnt);
  if (passes == 1) /* the usual counts, spelt out: the general loop costs twice as much */
    for (int64_t i = 0; i < n; i++) cnt[(key[i] >> lo) & mask]++;
  else if (passes == 2)
    for (int64_t i = 0; i < n; i++) {
      cnt[(key[i] >> lo) & mask]++;
      cnt[B + (int64_t)((key[i] >> (lo + width)) & mask)]++;
    }
  else
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

/* One step run x[0..n): its keys (built here, into tmp + n, when key is NULL), sorted on the
   bits below the step, decoded back into x. Keys already in order leave x untouched. */
static void sort_run(tc_transfer *x, uint64_t *key, uint64_t *tmp, int64_t n, const packing *pp, int64_t *cnt) {
  const packing p = *pp; /* a local copy: stores to keys and transfers cannot alias it, so it stays in registers */
  if (!key) {
    key = tmp + n; /* the caller gave 2n words */
    uint64_t prev = 0, out_of_order = 0;
    for (int64_t i = 0; i < n; i++) {
      uint64_t k = pack(&x[i], &p);
      out_of_order |= k < prev;
      key[i] = prev = k;
    }
    if (!out_of_order) return;
  }
  uint64_t *k = lsd_keys(key, tmp, n, 0, p.low, cnt);
  for (int64_t i = 0; i < n; i++) x[i] = unpack(k[i], &p);
}

/* The longest run. */
static int64_t longest_run(const runs *run, int64_t n) {
  int64_t longest = 0;
  for (int64_t r = 0; r < run->count; r++) {
    int64_t len = (r + 1 < run->count ? run->start[r + 1] : n) - run->start[r];
    if (len > longest) longest = len;
  }
  return longest;
}

/* Steps 2 and 3. Returns -1 (x untouched) if memory is short. */
static int sort_packed(tc_transfer *x, int64_t n, const packing *p, int step_sorted, runs *run, int nthreads) {
  if (step_sorted && nthreads > run->count) nthreads = (int)run->count; /* no more threads than runs */
  /* In step order each thread builds a run's keys in a buffer of its own, twice the longest
     run, unless those buffers together would outgrow keys for the whole schedule (a few
     huge runs on many threads): then, as out of step order, all keys are built up front. */
  int per_thread_keys = step_sorted && (int64_t)nthreads * longest_run(run, n) <= n;
  uint64_t *key = NULL, *tmp = NULL;
  if (!per_thread_keys) {
    key = malloc((size_t)n * sizeof *key);
    tmp = malloc((size_t)n * sizeof *tmp);
    int64_t *cnt = step_sorted ? NULL : malloc((size_t)CNT_WORDS * sizeof *cnt);
    if (!key || !tmp || (!step_sorted && !cnt)) {
      free(key); free(tmp); free(cnt);
      return -1;
    }
    tci_advise_huge(key, (size_t)n * sizeof *key);
    tci_advise_huge(tmp, (size_t)n * sizeof *tmp);
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t i = 0; i < n; i++) key[i] = pack(&x[i], p);
    if (!step_sorted) { /* group the keys by step: a stable LSD sort on the step bits alone */
      uint64_t *by_step = lsd_keys(key, tmp, n, p->low, p->total, cnt);
      free(cnt);
      if (by_step != key) {
        tmp = key;
        key = by_step;
      }
      run->count = 0;
      run->oom = 0;
      for (int64_t i = 0; i < n; i++)
        if (!i || step_of_key(key[i], p) != step_of_key(key[i - 1], p)) runs_push(run, i);
      if (run->oom) {
        free(key); free(tmp);
        return -1;
      }
    }
  }
  /* Per thread: counters, and with per-thread keys 2 * longest words for a run's keys. */
  size_t per_thread = (size_t)CNT_WORDS + (per_thread_keys ? 2 * (size_t)longest_run(run, n) : 0);
  int64_t *buf = malloc((size_t)nthreads * per_thread * sizeof *buf);
  if (!buf) {
    free(key); free(tmp);
    return -1;
  }
  tci_advise_huge(buf, (size_t)nthreads * per_thread * sizeof *buf);
#pragma omp parallel num_threads(nthreads)
  {
    int64_t *cnt = buf + (size_t)omp_get_thread_num() * per_thread;
    uint64_t *mine = (uint64_t *)(cnt + CNT_WORDS);
#pragma omp for schedule(dynamic, 1)
    for (int64_t r = 0; r < run->count; r++) {
      int64_t a = run->start[r], len = (r + 1 < run->count ? run->start[r + 1] : n) - a;
      if (per_thread_keys) sort_run(x + a, NULL, mine, len, p, cnt);
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
    plan_digits(p->bits[f], n, &passes, &width);
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
  int nthreads = n < PARALLEL_MIN ? 1 : omp_get_max_threads();
  if (nthreads < 1) nthreads = 1;
  scan_part r;
  scan(s->xfer, n, nthreads, &r);
  int rc = 0;
  if (!r.sorted) {
    packing p;
    p.total = 0;
    for (int f = NFIELDS - 1; f >= 0; f--) {
      p.min[f] = (uint64_t)r.min[f];
      p.bits[f] = bits_of((uint64_t)r.max[f] - (uint64_t)r.min[f]);
      p.shift[f] = p.bits[f] && p.total < 64 ? p.total : 0;
      p.mask[f] = p.bits[f] ? ~(uint64_t)0 >> (64 - p.bits[f]) : 0;
      p.total += p.bits[f];
    }
    p.low = p.total - p.bits[0];
    rc = p.total <= 64 ? sort_packed(s->xfer, n, &p, r.step_sorted, &r.run, nthreads) : sort_fields(s->xfer, n, &p);
  }
  free(r.run.start);
  if (rc) qsort(s->xfer, (size_t)n, sizeof *s->xfer, cmp_transfer);
}
