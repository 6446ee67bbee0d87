/*
** tc_redundant.h — test-side: verified schedules with redundant transfers added, the
** fuzzer's finding (fuzz/regressions/msccl/) made systematic for test_program.c (the
** program interpreters) and test_msccl.c (the MSCCL executor).
**
** A redundant transfer carries data that is already counted or that reaches nobody: a
** receive-reduce whose receiver is not the owner and forwards none of it later (or forwards
** it only to such receivers), a copy-receive of data the receiver holds, an owner sending
** its own shard during the reduction. The verifier accepts them (nothing is counted twice,
** everyone still gets everything), so the lowering must turn them into programs that still
** compute the exact result without deadlock. tc_redundant_add adds seeded random transfers
** to a verified schedule and keeps exactly those the verifier still accepts; whatever it
** keeps is, by construction, redundant.
** The cases: BFB on torus(3,3) and kautz(2,1) (= K_3), the bidirectional ring on
** biring(2,5) (2 units per shard), each as allgather, reduce-scatter and allreduce.
*/
#ifndef TC_REDUNDANT_H
#define TC_REDUNDANT_H

#include <stdio.h>
#include <stdlib.h>

#include "tc_test.h"
#include "topocoll/sched.h"
#include "topocoll/verify.h"

static inline uint64_t tc_redundant_rand(uint64_t *seed) {
  *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return *seed >> 33;
}

/* Add random transfers (any step, arc, shard and unit range) to s, which g's verifier
   accepts, until `want` are kept or `tries` were drawn; a transfer is kept when the
   schedule with it still verifies. Returns how many were kept. */
static inline int tc_redundant_add(const tc_graph *g, tc_schedule *s, int want, int tries, uint64_t *seed) {
  int kept = 0;
  tc_error err;
  for (int i = 0; i < tries && kept < want; i++) {
    int32_t step = 1 + (int32_t)(tc_redundant_rand(seed) % (uint64_t)s->steps);
    int64_t arc = (int64_t)(tc_redundant_rand(seed) % (uint64_t)g->m);
    int32_t shard = (int32_t)(tc_redundant_rand(seed) % (uint64_t)s->nshards);
    int64_t lo = (int64_t)(tc_redundant_rand(seed) % (uint64_t)s->units);
    int64_t hi = lo + 1 + (int64_t)(tc_redundant_rand(seed) % (uint64_t)(s->units - lo));
    if (tc_schedule_add(s, shard, arc, step, lo, hi, &err)) fail_msg("adding a transfer: %s", err.msg);
    if (tc_schedule_verify(g, s, &err)) s->count--; /* double counting: not redundant, drop it */
    else kept++;
  }
  return kept;
}

typedef struct tc_redundant_case {
  const char *algo, *spec;
} tc_redundant_case;

static const tc_redundant_case tc_redundant_cases[] = {
    {"bfb", "torus(3,3)"}, {"biring", "biring(2,5)"}, {"bfb", "kautz(2,1)"}};

/* The verified base schedule of case i for collective coll, on *g (a new graph). */
static inline void tc_redundant_base(size_t i, tc_collective coll, tc_graph **g, tc_schedule *s) {
  tc_error err;
  *g = tc_test_spec(tc_redundant_cases[i].spec);
  if (tc_test_generate(tc_redundant_cases[i].algo, tc_redundant_cases[i].spec, *g, coll, -1, 0, s, &err))
    fail_msg("%s %s on %s: %s", tc_redundant_cases[i].algo, tc_collective_name(coll), tc_redundant_cases[i].spec,
             err.msg);
  if (tc_schedule_verify(*g, s, &err))
    fail_msg("%s %s on %s: verifier: %s", tc_redundant_cases[i].algo, tc_collective_name(coll),
             tc_redundant_cases[i].spec, err.msg);
}

/* The fuzzer's reproducers, replayed by bench/fuzz.sh too. */
static const char *const tc_redundant_regressions[] = {"redundant-reduce-receive-garbage.json",
                                                       "redundant-reduce-receive-deadlock.json"};

/* Path of fuzz/regressions/msccl/<name>, found from $TC_TEST_DATA (tests/data). */
static inline void tc_redundant_regression_path(const char *name, char *buf, size_t size) {
  const char *dir = getenv("TC_TEST_DATA");
  assert_non_null(dir);
  snprintf(buf, size, "%s/../../fuzz/regressions/msccl/%s", dir, name);
}

#endif
