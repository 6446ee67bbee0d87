/*
** test_busbw.c — tc_collective_busbw_factor (sched.h), nccl-tests' bus-bandwidth
** factors, against values worked out by hand:
**   - allreduce 2(N-1)/N: 1 at N = 2, 1.5 at N = 4, 0 at N = 1 (nothing moves);
**   - allgather, reduce-scatter, alltoall (N-1)/N: 0.875 at N = 8, 255/256 at N = 256;
**   - broadcast, reduce and p2p 1 at any N; scatter and gather (N-1)/N: 5/6 at N = 6;
**   - every collective up to TC_COLL_LAST has a row (a new collective without one fails
**     here), and an unknown collective or a rank count below 1 is -1.
*/
#include "tc_test.h"
#include "topocoll/sched.h"

static void factors(void **state) {
  (void)state;
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLREDUCE, 2) == 1.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLREDUCE, 4) == 1.5);
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLREDUCE, 1) == 0.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLGATHER, 8) == 0.875);
  assert_true(tc_collective_busbw_factor(TC_COLL_REDUCE_SCATTER, 8) == 0.875);
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLTOALL, 256) == 255.0 / 256.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_BROADCAST, 7) == 1.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_REDUCE, 1) == 1.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_P2P, 9) == 1.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_SCATTER, 6) == 5.0 / 6.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_GATHER, 6) == 5.0 / 6.0);
}

static void every_collective_and_refusals(void **state) {
  (void)state;
  for (int c = 0; c <= TC_COLL_LAST; c++)
    if (!(tc_collective_busbw_factor((tc_collective)c, 4) > 0))
      fail_msg("%s has no busbw factor", tc_collective_name((tc_collective)c));
  assert_true(tc_collective_busbw_factor((tc_collective)(TC_COLL_LAST + 1), 4) == -1.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLREDUCE, 0) == -1.0);
  assert_true(tc_collective_busbw_factor(TC_COLL_ALLGATHER, -3) == -1.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(factors), cmocka_unit_test(every_collective_and_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
