/*
** test_sched.c — the schedule IR itself (sched.h): collective names, init / init_owned /
** add / reserve / refine / sort / copy / destroy, owners, and every refusal with its exact
** code and message and empty outputs.
**
** Oracles: the header's own lists (names, fields after init); a brute-force insertion sort
** with a lexicographic comparator written here, on random schedules whose keys collide
** often; exact rationals lo/units before and after refinement; and, for "the IR only
** stores, the verifier decides", paper 000 Fig. 1's K_{2,2} allgather (T_L 2, tau 3/4)
** built by hand, which must keep its verdict and cost when refined.
*/
#include <inttypes.h>
#include <stdio.h>

#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/cost.h"
#include "topocoll/verify.h"

/* ---- names ---------------------------------------------------------------------------- */

static void collective_names(void **state) {
  (void)state;
  /* sched.h: "allgather", "reduce-scatter", "allreduce", "broadcast", "reduce" */
  const struct {
    tc_collective c;
    const char *name;
  } all[] = {{TC_COLL_ALLGATHER, "allgather"},
             {TC_COLL_REDUCE_SCATTER, "reduce-scatter"},
             {TC_COLL_ALLREDUCE, "allreduce"},
             {TC_COLL_BROADCAST, "broadcast"},
             {TC_COLL_REDUCE, "reduce"},
             {TC_COLL_ALLTOALL, "alltoall"},
             {TC_COLL_SCATTER, "scatter"},
             {TC_COLL_GATHER, "gather"},
             {TC_COLL_P2P, "p2p"}};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    assert_string_equal(tc_collective_name(all[i].c), all[i].name);
    assert_int_equal(tc_collective_parse(all[i].name), (int)all[i].c);
    assert_int_equal(tc_collective_parse(tc_collective_name(all[i].c)), (int)all[i].c);
  }
  const char *unknown[] = {"",          "Allgather",  "ALLREDUCE",   "reduce_scatter", "reducescatter",
                           "allgather ", " allgather", "all",         "allgatherx",     "reduce-scatte",
                           "Gather",     "scatterv",   "all-reduce",  "bcast",          "reduce-scatter\n"};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
    if (tc_collective_parse(unknown[i]) != -1) fail_msg("'%s' parsed as a collective", unknown[i]);
}

/* ---- init ------------------------------------------------------------------------------ */

static void expect_zeroed(const tc_schedule *s) {
  assert_null(s->owner);
  assert_null(s->xfer);
  assert_int_equal(s->count, 0);
  assert_int_equal(s->room, 0);
  assert_int_equal(s->nodes, 0);
  assert_int_equal(s->nshards, 0);
  assert_int_equal(s->units, 0);
  assert_int_equal(s->steps, 0);
  assert_int_equal(s->rs_steps, 0);
  assert_string_equal(s->algorithm, "");
}

static void init_fields(void **state) {
  (void)state;
  tc_schedule s;
  tc_error err;
  memset(&s, 0xA5, sizeof s);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_REDUCE_SCATTER, 5, 7, "ring", &err), TC_OK);
  assert_int_equal(s.coll, TC_COLL_REDUCE_SCATTER);
  assert_int_equal(s.nodes, 5);
  assert_int_equal(s.nshards, 5);
  assert_null(s.owner);
  assert_int_equal(s.units, 7);
  assert_int_equal(s.steps, 0);
  assert_int_equal(s.rs_steps, 0);
  assert_int_equal(s.count, 0);
  assert_string_equal(s.algorithm, "ring");
  for (int32_t k = 0; k < 5; k++) assert_int_equal(tc_schedule_owner(&s, k), k);
  tc_schedule_destroy(&s);
  expect_zeroed(&s);
  tc_schedule_destroy(&s); /* destroy accepts an empty value (architecture.md) */
  expect_zeroed(&s);
  /* no name: empty; an over-long name is cut to fit algorithm[32] with its NUL */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 1, 1, NULL, &err), TC_OK);
  assert_string_equal(s.algorithm, "");
  tc_schedule_destroy(&s);
  const char *longname = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF"; /* 42 characters */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 1, 1, longname, &err), TC_OK);
  assert_int_equal(strlen(s.algorithm), sizeof s.algorithm - 1);
  assert_memory_equal(s.algorithm, longname, sizeof s.algorithm - 1);
  tc_schedule_destroy(&s);

  /* init_owned copies the owners: the caller's array may change afterwards */
  int32_t owner[3] = {2, 2, 0};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLGATHER, 4, 3, owner, 5, "x", &err), TC_OK);
  owner[0] = 1;
  assert_int_equal(s.nshards, 3);
  assert_int_equal(s.nodes, 4);
  assert_non_null(s.owner);
  assert_int_equal(tc_schedule_owner(&s, 0), 2);
  assert_int_equal(tc_schedule_owner(&s, 1), 2);
  assert_int_equal(tc_schedule_owner(&s, 2), 0);
  tc_schedule_destroy(&s);
  expect_zeroed(&s);
  /* broadcast and reduce: every shard owned by the root, any number of shards */
  int32_t root[4] = {3, 3, 3, 3};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_BROADCAST, 5, 4, root, 1, "tree", &err), TC_OK);
  for (int32_t k = 0; k < 4; k++) assert_int_equal(tc_schedule_owner(&s, k), 3);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_REDUCE, 5, 1, root, 1, "tree", &err), TC_OK);
  tc_schedule_destroy(&s);
  /* owners given for the paper's layout are allowed too */
  int32_t ident[3] = {0, 1, 2};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLREDUCE, 3, 3, ident, 1, "x", &err), TC_OK);
  tc_schedule_destroy(&s);
}

/* init_owned(coll, nodes, nshards, owner, units) must fail with TC_EINPUT and exactly `msg`,
   leaving *s empty. */
static void expect_init_error(tc_collective coll, int32_t nodes, int32_t nshards, const int32_t *owner, int64_t units,
                              const char *msg) {
  tc_schedule s;
  tc_error err;
  memset(&s, 0xA5, sizeof s);
  memset(&err, 0, sizeof err);
  int rc = tc_schedule_init_owned(&s, coll, nodes, nshards, owner, units, "x", &err);
  if (rc != TC_EINPUT) fail_msg("init: code %d, expected TC_EINPUT (%s)", rc, msg);
  assert_int_equal(err.code, TC_EINPUT);
  assert_string_equal(err.msg, msg);
  expect_zeroed(&s);
  /* err may be NULL (error.h): the same code, nothing written */
  memset(&s, 0xA5, sizeof s);
  assert_int_equal(tc_schedule_init_owned(&s, coll, nodes, nshards, owner, units, "x", NULL), TC_EINPUT);
  expect_zeroed(&s);
}

static void init_errors(void **state) {
  (void)state;
  int32_t ok2[2] = {0, 1}, out_hi[2] = {0, 3}, out_lo[2] = {-1, 0}, roots[2] = {1, 2};
  expect_init_error((tc_collective)9, 3, 3, NULL, 1, "unknown collective 9");
  expect_init_error(TC_COLL_SCATTER, 3, 3, NULL, 1, "scatter has a fixed layout: start it with tc_schedule_init_rooted");
  expect_init_error((tc_collective)-1, 3, 3, NULL, 1, "unknown collective -1");
  expect_init_error(TC_COLL_ALLGATHER, 0, 0, NULL, 1, "schedule needs at least one node (got 0)");
  expect_init_error(TC_COLL_ALLGATHER, -4, 2, ok2, 1, "schedule needs at least one node (got -4)");
  expect_init_error(TC_COLL_ALLGATHER, 3, 0, ok2, 1, "schedule needs at least one shard (got 0)");
  expect_init_error(TC_COLL_ALLGATHER, 3, 3, NULL, 0, "units per shard must be >= 1 (got 0)");
  expect_init_error(TC_COLL_ALLGATHER, 3, 3, NULL, -7, "units per shard must be >= 1 (got -7)");
  expect_init_error(TC_COLL_ALLGATHER, 3, 2, NULL, 1, "2 shards on 3 nodes need explicit owners");
  expect_init_error(TC_COLL_BROADCAST, 3, 3, NULL, 1, "broadcast needs a root");
  expect_init_error(TC_COLL_REDUCE, 3, 3, NULL, 1, "reduce needs a root");
  expect_init_error(TC_COLL_ALLGATHER, 3, 2, out_hi, 1, "owner 3 of shard 1 outside 0..2");
  expect_init_error(TC_COLL_ALLGATHER, 3, 2, out_lo, 1, "owner -1 of shard 0 outside 0..2");
  expect_init_error(TC_COLL_BROADCAST, 3, 2, roots, 1, "broadcast shards must all belong to the root");
  expect_init_error(TC_COLL_REDUCE, 3, 2, ok2, 1, "reduce shards must all belong to the root");
  /* tc_schedule_init is init_owned with N shards and no owners */
  tc_schedule s;
  tc_error err;
  memset(&s, 0xA5, sizeof s);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 0, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "units per shard must be >= 1 (got 0)");
  expect_zeroed(&s);
  memset(&s, 0xA5, sizeof s);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_BROADCAST, 2, 1, "x", &err), TC_EINPUT);
  assert_string_equal(err.msg, "broadcast needs a root");
  expect_zeroed(&s);
}

/* ---- add and reserve ---------------------------------------------------------------------- */

static void add_and_reserve(void **state) {
  (void)state;
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 4, 8, "x", &err), TC_OK);
  /* 1000 transfers from an empty schedule (regrowth); stored in order, as given */
  for (int i = 0; i < 1000; i++)
    assert_int_equal(tc_schedule_add(&s, i % 4, i % 13, 1 + i % 7, i % 8, 1 + i % 8, &err), TC_OK);
  assert_int_equal(s.count, 1000);
  assert_true(s.room >= 1000);
  assert_int_equal(s.steps, 7); /* the largest step added */
  for (int i = 0; i < 1000; i++) {
    const tc_transfer *x = &s.xfer[i];
    if (x->shard != i % 4 || x->arc != i % 13 || x->step != 1 + i % 7 || x->lo != i % 8 || x->hi != 1 + i % 8)
      fail_msg("transfer %d not stored as added", i);
  }
  tc_schedule_destroy(&s);

  /* steps only grows; no semantic check at all (sched.h: the verifier decides) */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 2, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 0, 5, 0, 2, &err), TC_OK);
  assert_int_equal(s.steps, 5);
  assert_int_equal(tc_schedule_add(&s, 1, 1, 2, 0, 2, &err), TC_OK);
  assert_int_equal(s.steps, 5);
  assert_int_equal(tc_schedule_add(&s, -1, 99, 0, 3, 1, &err), TC_OK); /* bad shard, arc, step, chunk */
  assert_int_equal(s.steps, 5);
  assert_int_equal(s.count, 3);
  assert_int_equal(s.xfer[2].shard, -1);
  assert_int_equal(s.xfer[2].arc, 99);
  assert_int_equal(s.xfer[2].step, 0);
  assert_int_equal(s.xfer[2].lo, 3);
  assert_int_equal(s.xfer[2].hi, 1);
  tc_schedule_destroy(&s);

  /* reserve: room for that many in total, then no regrowth up to it */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 1, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_reserve(&s, 100, &err), TC_OK);
  assert_true(s.room >= 100);
  tc_transfer *before = s.xfer;
  int64_t room = s.room;
  assert_int_equal(tc_schedule_reserve(&s, 10, &err), TC_OK); /* smaller: nothing changes */
  assert_int_equal(tc_schedule_reserve(&s, 0, &err), TC_OK);
  assert_ptr_equal(s.xfer, before);
  assert_int_equal(s.room, room);
  for (int i = 0; i < 100; i++) assert_int_equal(tc_schedule_add(&s, i % 2, i % 2, 1, 0, 1, &err), TC_OK);
  assert_ptr_equal(s.xfer, before);
  /* a size that cannot be represented: TC_ERANGE, the schedule as it was */
  memset(&err, 0, sizeof err);
  assert_int_equal(tc_schedule_reserve(&s, INT64_MAX, &err), TC_ERANGE);
  assert_int_equal(err.code, TC_ERANGE);
  assert_string_equal(err.msg, "schedule with 9223372036854775807 transfers is too large");
  assert_int_equal(s.count, 100);
  assert_int_equal(s.room, room);
  assert_ptr_equal(s.xfer, before);
  assert_int_equal(s.xfer[99].shard, 1);
  assert_int_equal(tc_schedule_reserve(&s, INT64_MAX / 2, NULL), TC_ERANGE);
  assert_int_equal(s.count, 100);
  tc_schedule_destroy(&s);
  expect_zeroed(&s);
}

/* The IR stores what the verifier rejects; each structural fault gets TC_EFAIL and the
   verifier's exact line (verify.h). On K_2 (arcs 0: 0->1, 1: 1->0) with units 2, the valid
   allgather is one whole-shard transfer each way in step 1. */
static void expect_verify_error(const tc_graph *g, const tc_schedule *good, tc_transfer bad, const char *msg) {
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_copy(good, &s, &err), TC_OK);
  s.xfer[0] = bad;
  int rc = tc_schedule_verify(g, &s, &err);
  if (rc != TC_EFAIL) fail_msg("verify: code %d, expected TC_EFAIL (%s)", rc, msg);
  assert_string_equal(err.msg, msg);
  tc_schedule_destroy(&s);
}

static void stored_faults_are_the_verifiers(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("complete(2)");
  assert_int_equal(g->src[0], 0);
  assert_int_equal(g->dst[0], 1);
  tc_schedule s;
  tc_error err;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, 2, "k2", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 0, 1, 0, 2, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 1, 1, 1, 0, 2, &err), TC_OK);
  assert_int_equal(tc_schedule_verify(g, &s, &err), TC_OK);
  expect_verify_error(g, &s, (tc_transfer){2, 1, 0, 0, 2},
                      "transfer #0 (shard 2, 0 -> 1, step 1, units [0,2) of 2) names a shard that does not exist");
  expect_verify_error(g, &s, (tc_transfer){-1, 1, 0, 0, 2},
                      "transfer #0 (shard -1, 0 -> 1, step 1, units [0,2) of 2) names a shard that does not exist");
  expect_verify_error(g, &s, (tc_transfer){0, 1, 2, 0, 2},
                      "transfer #0 (shard 0, arc 2, step 1) uses an arc that is not in the graph");
  expect_verify_error(g, &s, (tc_transfer){0, 0, 0, 0, 2},
                      "transfer #0 (shard 0, 0 -> 1, step 0, units [0,2) of 2) has a step outside 1..steps");
  expect_verify_error(g, &s, (tc_transfer){0, 2, 0, 0, 2},
                      "transfer #0 (shard 0, 0 -> 1, step 2, units [0,2) of 2) has a step outside 1..steps");
  expect_verify_error(g, &s, (tc_transfer){0, 1, 0, 1, 1},
                      "transfer #0 (shard 0, 0 -> 1, step 1, units [1,1) of 2) has an empty or out-of-range chunk");
  expect_verify_error(g, &s, (tc_transfer){0, 1, 0, 2, 1},
                      "transfer #0 (shard 0, 0 -> 1, step 1, units [2,1) of 2) has an empty or out-of-range chunk");
  expect_verify_error(g, &s, (tc_transfer){0, 1, 0, 0, 3},
                      "transfer #0 (shard 0, 0 -> 1, step 1, units [0,3) of 2) has an empty or out-of-range chunk");
  expect_verify_error(g, &s, (tc_transfer){0, 1, 0, -1, 2},
                      "transfer #0 (shard 0, 0 -> 1, step 1, units [-1,2) of 2) has an empty or out-of-range chunk");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- sort ------------------------------------------------------------------------------- */

/* The canonical order, lexicographic on (step, shard, arc, lo, hi). */
static int key_less(const tc_transfer *a, const tc_transfer *b) {
  int64_t ka[5] = {a->step, a->shard, a->arc, a->lo, a->hi}, kb[5] = {b->step, b->shard, b->arc, b->lo, b->hi};
  for (int i = 0; i < 5; i++)
    if (ka[i] != kb[i]) return ka[i] < kb[i];
  return 0;
}

static void insertion_sort(tc_transfer *x, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    tc_transfer v = x[i];
    int64_t j = i;
    while (j > 0 && key_less(&v, &x[j - 1])) {
      x[j] = x[j - 1];
      j--;
    }
    x[j] = v;
  }
}

static void sort_is_canonical(void **state) {
  (void)state;
  tc_rng r;
  tci_rng_seed(&r, 2024);
  tc_error err;
  int64_t ties = 0;
  for (int rep = 0; rep < 300; rep++) {
    tc_schedule s;
    assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 4, 4, "random", &err), TC_OK);
    int64_t n = (int64_t)tci_rng_below(&r, 120);
    for (int64_t i = 0; i < n; i++) {
      /* small key ranges, so many transfers tie on a prefix of the key (hi included) */
      int64_t lo = (int64_t)tci_rng_below(&r, 3), hi = lo + 1 + (int64_t)tci_rng_below(&r, 2);
      assert_int_equal(tc_schedule_add(&s, (int32_t)tci_rng_below(&r, 3), (int64_t)tci_rng_below(&r, 3),
                                       1 + (int32_t)tci_rng_below(&r, 3), lo, hi, &err),
                       TC_OK);
    }
    tc_transfer *want = malloc((size_t)(n ? n : 1) * sizeof *want);
    assert_non_null(want);
    if (n) memcpy(want, s.xfer, (size_t)n * sizeof *want);
    insertion_sort(want, n);
    int32_t steps = s.steps;
    tc_schedule_sort(&s);
    assert_int_equal(s.count, n);
    assert_int_equal(s.steps, steps);
    assert_int_equal(s.units, 4);
    for (int64_t i = 0; i < n; i++) {
      const tc_transfer *a = &s.xfer[i], *b = &want[i];
      if (a->step != b->step || a->shard != b->shard || a->arc != b->arc || a->lo != b->lo || a->hi != b->hi)
        fail_msg("rep %d: position %lld differs from the canonical order", rep, (long long)i);
      if (i && a->step == a[-1].step && a->shard == a[-1].shard && a->arc == a[-1].arc && a->lo == a[-1].lo)
        ties += a->hi != a[-1].hi; /* only hi orders these two */
    }
    /* sorting is idempotent */
    tc_schedule_sort(&s);
    for (int64_t i = 0; i < n; i++) assert_memory_equal(&s.xfer[i], &want[i], sizeof want[i]);
    free(want);
    tc_schedule_destroy(&s);
  }
  /* the data must exercise the last key, or the test says nothing about it */
  assert_true(ties > 100);
  /* empty and single-transfer schedules */
  tc_schedule s;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 1, 1, "x", &err), TC_OK);
  tc_schedule_sort(&s);
  assert_int_equal(s.count, 0);
  assert_int_equal(tc_schedule_add(&s, 0, 3, 2, 0, 1, &err), TC_OK);
  tc_schedule_sort(&s);
  assert_int_equal(s.count, 1);
  assert_int_equal(s.xfer[0].arc, 3);
  tc_schedule_destroy(&s);
}

/* ---- refine ------------------------------------------------------------------------------ */



static void refine_exact(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("bipartite(2)");
  tc_schedule s, orig;
  tc_error err;
  tc_test_fig1_allgather(g, &s);
  assert_int_equal(tc_schedule_copy(&s, &orig, &err), TC_OK);
  for (int64_t k = 1; k <= 6; k++) {
    tc_schedule r;
    assert_int_equal(tc_schedule_copy(&orig, &r, &err), TC_OK);
    assert_int_equal(tc_schedule_refine(&r, k, &err), TC_OK);
    assert_int_equal(r.units, 2 * k);
    assert_int_equal(r.count, orig.count);
    assert_int_equal(r.steps, orig.steps);
    for (int64_t i = 0; i < r.count; i++) {
      const tc_transfer *a = &r.xfer[i], *b = &orig.xfer[i];
      assert_int_equal(a->shard, b->shard);
      assert_int_equal(a->arc, b->arc);
      assert_int_equal(a->step, b->step);
      /* the same chunk: lo/units and hi/units unchanged (cross-multiplied), now k units per
         old unit, i.e. every old unit split into k equal parts */
      assert_int_equal(a->lo * orig.units, b->lo * r.units);
      assert_int_equal(a->hi * orig.units, b->hi * r.units);
      assert_int_equal(a->hi - a->lo, k * (b->hi - b->lo));
    }
    /* the same schedule: same verdict and the same cost as Fig. 1 */
    assert_int_equal(tc_schedule_verify(g, &r, &err), TC_OK);
    tc_cost c;
    assert_int_equal(tc_schedule_cost(g, &r, &c, &err), TC_OK);
    assert_int_equal(c.steps, 2);
    assert_int_equal(c.tau.num, 3);
    assert_int_equal(c.tau.den, 4);
    tc_cost_destroy(&c);
    tc_schedule_destroy(&r);
  }
  /* k < 1: TC_EINPUT, unchanged */
  const int64_t bad[] = {0, -1, INT64_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char want[128];
    snprintf(want, sizeof want, "refinement factor must be >= 1 (got %" PRId64 ")", bad[i]);
    assert_int_equal(tc_schedule_refine(&s, bad[i], &err), TC_EINPUT);
    assert_string_equal(err.msg, want);
    assert_int_equal(s.units, 2);
    for (int64_t j = 0; j < s.count; j++) assert_memory_equal(&s.xfer[j], &orig.xfer[j], sizeof s.xfer[j]);
  }
  tc_schedule_destroy(&s);
  tc_schedule_destroy(&orig);
  tc_graph_destroy(g);

  /* overflow: 2^62 units by 2 is 2^63 > INT64_MAX: TC_ERANGE, unchanged */
  const int64_t big = INT64_C(1) << 62;
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, big, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 0, 1, 1, big, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&s, 2, &err), TC_ERANGE);
  assert_string_equal(err.msg, "refining 4611686018427387904 units per shard by 2 overflows");
  assert_int_equal(s.units, big);
  assert_int_equal(s.xfer[0].lo, 1);
  assert_int_equal(s.xfer[0].hi, big);
  tc_schedule_destroy(&s);
  /* 3 units by INT64_MAX / 2 = 2^62 - 1 overflows too; 2^31 by 2^31 = 2^62 does not */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 1, 3, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&s, INT64_MAX / 2, &err), TC_ERANGE);
  assert_string_equal(err.msg, "refining 3 units per shard by 4611686018427387903 overflows");
  assert_int_equal(s.units, 3);
  tc_schedule_destroy(&s);
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 2, INT64_C(1) << 31, "x", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 1, 0, 1, 1, INT64_C(1) << 31, &err), TC_OK);
  assert_int_equal(tc_schedule_refine(&s, INT64_C(1) << 31, &err), TC_OK);
  assert_int_equal(s.units, big);
  assert_int_equal(s.xfer[0].lo, INT64_C(1) << 31);
  assert_int_equal(s.xfer[0].hi, big);
  tc_schedule_destroy(&s);
}

/* ---- copy --------------------------------------------------------------------------------- */

static void copy_is_deep(void **state) {
  (void)state;
  tc_schedule s, c;
  tc_error err;
  int32_t owner[2] = {1, 0};
  assert_int_equal(tc_schedule_init_owned(&s, TC_COLL_ALLREDUCE, 2, 2, owner, 3, "comp", &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 0, 1, 1, 0, 3, &err), TC_OK);
  assert_int_equal(tc_schedule_add(&s, 1, 0, 2, 1, 2, &err), TC_OK);
  s.rs_steps = 1;
  assert_int_equal(tc_schedule_copy(&s, &c, &err), TC_OK);
  assert_int_equal(c.coll, TC_COLL_ALLREDUCE);
  assert_int_equal(c.nodes, 2);
  assert_int_equal(c.nshards, 2);
  assert_int_equal(c.units, 3);
  assert_int_equal(c.steps, 2);
  assert_int_equal(c.rs_steps, 1);
  assert_int_equal(c.count, 2);
  assert_string_equal(c.algorithm, "comp");
  assert_ptr_not_equal(c.xfer, s.xfer);
  assert_ptr_not_equal(c.owner, s.owner);
  assert_int_equal(tc_schedule_owner(&c, 0), 1);
  assert_int_equal(tc_schedule_owner(&c, 1), 0);
  for (int64_t i = 0; i < 2; i++) assert_memory_equal(&c.xfer[i], &s.xfer[i], sizeof c.xfer[i]);
  c.xfer[0].lo = 2;
  c.owner[0] = 0;
  assert_int_equal(s.xfer[0].lo, 0);
  assert_int_equal(s.owner[0], 1);
  /* the copy grows on its own */
  assert_int_equal(tc_schedule_add(&c, 1, 1, 3, 0, 1, &err), TC_OK);
  assert_int_equal(c.count, 3);
  assert_int_equal(s.count, 2);
  assert_int_equal(s.steps, 2);
  tc_schedule_destroy(&c);
  tc_schedule_destroy(&s);
  /* an empty schedule copies to an empty schedule */
  assert_int_equal(tc_schedule_init(&s, TC_COLL_ALLGATHER, 3, 1, "e", &err), TC_OK);
  assert_int_equal(tc_schedule_copy(&s, &c, &err), TC_OK);
  assert_int_equal(c.count, 0);
  assert_null(c.owner);
  assert_int_equal(tc_schedule_add(&c, 2, 0, 1, 0, 1, &err), TC_OK);
  assert_int_equal(c.count, 1);
  tc_schedule_destroy(&c);
  tc_schedule_destroy(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collective_names),
      cmocka_unit_test(init_fields),
      cmocka_unit_test(init_errors),
      cmocka_unit_test(add_and_reserve),
      cmocka_unit_test(stored_faults_are_the_verifiers),
      cmocka_unit_test(sort_is_canonical),
      cmocka_unit_test(refine_exact),
      cmocka_unit_test(copy_is_deep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
