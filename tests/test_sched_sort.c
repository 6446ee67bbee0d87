/*
** test_sched_sort.c — tc_schedule_sort, the canonical order of transfers.
**
** Oracle: qsort with a comparator written here, (step, shard, arc, lo, hi) ascending. The
** radix sort must produce the same bytes on random schedules of every shape it treats
** differently: random order, step order (runs sorted in place), steps descending (the
** reduce-scatter transforms), already canonical, few and many transfers (one thread and
** several), fields whose ranges together exceed 64 bits (the field-by-field path),
** negative and extreme values (the sort runs before verification, so it must not assume
** a valid schedule), and many duplicates. Every case runs with 1, 2 and 3 OpenMP threads.
** Nothing here is timed (bench/ does that).
*/
#include <omp.h>

#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/sched.h"

static int cmp_ref(const void *pa, const void *pb) {
  const tc_transfer *a = pa, *b = pb;
  if (a->step != b->step) return a->step < b->step ? -1 : 1;
  if (a->shard != b->shard) return a->shard < b->shard ? -1 : 1;
  if (a->arc != b->arc) return a->arc < b->arc ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  return 0;
}

static int cmp_step(const void *pa, const void *pb) {
  const tc_transfer *a = pa, *b = pb;
  return (a->step > b->step) - (a->step < b->step);
}

static int cmp_step_desc(const void *pa, const void *pb) { return cmp_step(pb, pa); }

/* A field value: uniform in lo..lo+span-1 (span 0: the whole int64 range). */
static int64_t draw(tc_rng *r, int64_t lo, uint64_t span) {
  return span ? (int64_t)((uint64_t)lo + tci_rng_below(r, span)) : (int64_t)tci_rng_next(r);
}

typedef struct shape {
  const char *name;
  int64_t count;
  int32_t step_lo, shard_lo;
  uint32_t step_span, shard_span; /* values lo..lo+span-1; span 0: the whole type */
  int64_t arc_lo, lo_lo;
  uint64_t arc_span, lo_span;
  int order; /* 0 random, 1 by step, 2 by step descending, 3 canonical */
} shape;

static void fill(tc_rng *r, const shape *sh, tc_schedule *s) {
  tc_error err;
  assert_int_equal(tc_schedule_init(s, TC_COLL_ALLGATHER, 1, 1, "test", &err), TC_OK);
  assert_int_equal(tc_schedule_reserve(s, sh->count ? sh->count : 1, &err), TC_OK);
  for (int64_t i = 0; i < sh->count; i++) {
    tc_transfer x;
    x.step = sh->step_span ? (int32_t)(sh->step_lo + (int64_t)tci_rng_below(r, sh->step_span)) : (int32_t)tci_rng_next(r);
    x.shard = sh->shard_span ? (int32_t)(sh->shard_lo + (int64_t)tci_rng_below(r, sh->shard_span)) : (int32_t)tci_rng_next(r);
    x.arc = draw(r, sh->arc_lo, sh->arc_span);
    x.lo = draw(r, sh->lo_lo, sh->lo_span);
    x.hi = draw(r, sh->lo_lo, sh->lo_span); /* lo < hi is the verifier's business, not the sort's */
    s->xfer[s->count++] = x;
  }
  if (sh->order == 1) qsort(s->xfer, (size_t)s->count, sizeof *s->xfer, cmp_step);
  if (sh->order == 2) qsort(s->xfer, (size_t)s->count, sizeof *s->xfer, cmp_step_desc);
  if (sh->order == 3) qsort(s->xfer, (size_t)s->count, sizeof *s->xfer, cmp_ref);
}

static void check_shape(tc_rng *r, const shape *sh) {
  tc_schedule s, want;
  tc_error err;
  int threads_before = omp_get_max_threads();
  fill(r, sh, &s);
  assert_int_equal(tc_schedule_copy(&s, &want, &err), TC_OK);
  qsort(want.xfer, (size_t)want.count, sizeof *want.xfer, cmp_ref);
  for (int threads = 1; threads <= 3; threads++) {
    tc_schedule got;
    assert_int_equal(tc_schedule_copy(&s, &got, &err), TC_OK);
    omp_set_num_threads(threads);
    tc_schedule_sort(&got);
    assert_int_equal(got.count, want.count);
    if (want.count && memcmp(got.xfer, want.xfer, (size_t)want.count * sizeof *want.xfer))
      fail_msg("%s (%lld transfers, %d threads): differs from the comparison sort", sh->name, (long long)sh->count, threads);
    tc_schedule_sort(&got); /* sorting a sorted schedule changes nothing */
    if (want.count && memcmp(got.xfer, want.xfer, (size_t)want.count * sizeof *want.xfer))
      fail_msg("%s: sorting twice changed the order", sh->name);
    tc_schedule_destroy(&got);
  }
  omp_set_num_threads(threads_before);
  tc_schedule_destroy(&s);
  tc_schedule_destroy(&want);
}

static void same_order_as_comparison_sort(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 2024);
  const int64_t counts[] = {0, 1, 2, 3, 17, 1000, 70000}; /* 70000: above the one-thread limit of sort.c */
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    int64_t n = counts[c];
    for (int order = 0; order < 4; order++) {
      /* a real schedule's ranges: steps 1..40, shards 0..N-1, arcs 0..4N-1, units 1..12 */
      shape real = {"schedule-like", n, 1, 0, 40, 500, 0, 0, 2000, 13, order};
      /* few distinct values: long runs of equal keys, equal transfers */
      shape dup = {"duplicates", n, 1, 0, 3, 2, 0, 0, 2, 2, order};
      /* one step: a single run */
      shape one = {"one step", n, 7, 0, 1, 300, 0, 0, 100, 5, order};
      /* negative and shifted values */
      shape neg = {"negative", n, -50, -1000, 100, 2000, -((int64_t)1 << 40), -3, (uint64_t)1 << 20, 7, order};
      /* arcs and units that need more than 64 bits together */
      shape wide = {"wide", n, 1, 0, 10, 100, 0, 0, (uint64_t)1 << 40, (uint64_t)1 << 30, order};
      /* every field over its whole type */
      shape full = {"full range", n, 0, 0, 0, 0, 0, 0, 0, 0, order};
      /* many steps, few transfers each (many runs) */
      shape runs = {"many steps", n, 1, 0, 100000, 3, 0, 0, 4, 2, order};
      const shape *all[] = {&real, &dup, &one, &neg, &wide, &full, &runs};
      for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) check_shape(&r, all[k]);
    }
  }
}

/* The extremes of each type side by side, where an offset or a shift could overflow. */
static void extreme_values(void **state) {
  (void)state;
  const int32_t i32[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
  const int64_t i64[] = {INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX};
  tc_rng r;
  tci_rng_seed(&r, 5);
  tc_schedule s, want;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 1, 1, "test", &err), TC_OK);
  for (int i = 0; i < 5000; i++)
    assert_int_equal(tc_schedule_add(&s, i32[tci_rng_below(&r, 7)], i64[tci_rng_below(&r, 7)], i32[tci_rng_below(&r, 7)],
                                     i64[tci_rng_below(&r, 7)], i64[tci_rng_below(&r, 7)], &err), TC_OK);
  assert_int_equal(tc_schedule_copy(&s, &want, &err), TC_OK);
  qsort(want.xfer, (size_t)want.count, sizeof *want.xfer, cmp_ref);
  tc_schedule_sort(&s);
  assert_memory_equal(s.xfer, want.xfer, (size_t)want.count * sizeof *want.xfer);
  tc_schedule_destroy(&s);
  tc_schedule_destroy(&want);
}

/* Called from inside a parallel region, the sort's own parallel regions get a team of one
   (nested parallelism is off) while omp_get_max_threads() still says more: every part of
   the schedule must be read and sorted all the same. */
static void inside_a_parallel_region(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 99);
  shape sh = {"nested", 200000, 1, 0, 40, 500, 0, 0, 2000, 13, 0};
  tc_schedule s, want;
  tc_error err;
  fill(&r, &sh, &s);
  assert_int_equal(tc_schedule_copy(&s, &want, &err), TC_OK);
  qsort(want.xfer, (size_t)want.count, sizeof *want.xfer, cmp_ref);
  tc_schedule step_sorted;
  assert_int_equal(tc_schedule_copy(&s, &step_sorted, &err), TC_OK);
  qsort(step_sorted.xfer, (size_t)step_sorted.count, sizeof *step_sorted.xfer, cmp_step);
  int before = omp_get_max_threads();
  omp_set_num_threads(2);
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      tc_schedule_sort(&s);
      tc_schedule_sort(&step_sorted);
    }
  }
  omp_set_num_threads(before);
  assert_memory_equal(s.xfer, want.xfer, (size_t)want.count * sizeof *want.xfer);
  assert_memory_equal(step_sorted.xfer, want.xfer, (size_t)want.count * sizeof *want.xfer);
  tc_schedule_destroy(&s);
  tc_schedule_destroy(&step_sorted);
  tc_schedule_destroy(&want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_order_as_comparison_sort),
      cmocka_unit_test(extreme_values),
      cmocka_unit_test(inside_a_parallel_region),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
