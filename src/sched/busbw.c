/*
** busbw.c — the bus-bandwidth factor of each collective (contract in sched.h), as
** nccl-tests defines it (its doc/PERFORMANCE.md): busbw = algbw * factor, where algbw =
** M / time and the factor turns the collective's size into what the busiest link of an
** optimal ring carries, so that busbw is comparable across collectives and rank counts
** and tops out at the hardware's link bandwidth.
**
** One row per collective; a new collective adds its row here and nowhere else. The
** factors, for N ranks:
**   allreduce       2(N-1)/N   a reduce-scatter then an allgather, each (N-1)/N of M
**   allgather       (N-1)/N    each rank receives the N-1 blocks it lacks, of M/N each
**   reduce-scatter  (N-1)/N    the mirror of allgather
**   alltoall        (N-1)/N    each rank sends N-1 of its N blocks of M/N away
**   broadcast       1          every byte of M leaves the root once
**   reduce          1          every byte of M reaches the root once
**   scatter         (N-1)/N    the root sends N-1 of its N blocks of M/N away
**   gather          (N-1)/N    the mirror of scatter
**   p2p             1          every byte of M crosses once (nccl-tests' sendrecv)
*/
#include "topocoll/sched.h"

#include <stddef.h>

typedef struct busbw_row {
  tc_collective coll;
  int64_t num_mul, num_sub, den_mul; /* factor = (num_mul * N - num_sub) / (den_mul * N) */
} busbw_row;

static const busbw_row rows[] = {
    {TC_COLL_ALLREDUCE, 2, 2, 1},      {TC_COLL_ALLGATHER, 1, 1, 1}, {TC_COLL_REDUCE_SCATTER, 1, 1, 1},
    {TC_COLL_ALLTOALL, 1, 1, 1},       {TC_COLL_BROADCAST, 1, 0, 1}, {TC_COLL_REDUCE, 1, 0, 1},
    {TC_COLL_SCATTER, 1, 1, 1},        {TC_COLL_GATHER, 1, 1, 1},    {TC_COLL_P2P, 1, 0, 1},
};

double tc_collective_busbw_factor(tc_collective coll, int32_t ranks) {
  if (ranks < 1) return -1;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (rows[i].coll == coll)
      return (double)(rows[i].num_mul * ranks - rows[i].num_sub) / (double)(rows[i].den_mul * ranks);
  return -1;
}
