/*
** budget.h — the memory a topocoll call may spend, decided before it spends it.
**
** Work whose size grows with N² (the transfers of a collective, the plan, the finder's
** --build) or N·(N+M) (all-pairs distances) is estimated from its inputs before anything
** is allocated; when the estimate exceeds the memory limit the call fails at once with
** TC_ERANGE and one line naming the estimate and the limit, e.g.
**   "bfb allgather on 16384 nodes needs about 9.4 GB (268 M transfers) but 7.1 GB is
**    available; raise the limit with tc_memory_limit_set"
** instead of thrashing for hours. The limit is process-wide (set once, by the program, not
** per call: it describes the machine and the user's wish, not the call):
**   - by default it is the memory available now: the smaller of MemAvailable in
**     /proc/meminfo and what the process's cgroup (v2 memory.max or v1
**     memory.limit_in_bytes, on the way up to the root, minus its usage) leaves; where
**     neither is readable (not Linux), sysconf's available pages, else 4 GiB;
**   - tc_memory_limit_set(bytes, how) replaces it (bytes <= 0 returns to the default) and
**     says how a user raises it: `how` ends the refusal after "; " ("raise the limit with
**     --max-memory SIZE" in the CLI); NULL keeps "raise the limit with tc_memory_limit_set".
** Estimates are measured, not guessed: each one's formula and how it was measured is a
** comment at its one home, beside the code that spends it. They are meant to be within
** about 2x of the peak resident memory; the limit is a guard against hours of swapping,
** not an accounting.
** Not thread-safe against concurrent tc_memory_limit_set; reading is.
*/
#ifndef TOPOCOLL_BUDGET_H
#define TOPOCOLL_BUDGET_H

#include "topocoll/export.h"

#include <stdint.h>

/* Bytes the machine (and the cgroup) can give this process now. */
TC_API int64_t tc_memory_available(void);
/* The limit in force: the one set, else tc_memory_available(). */
TC_API int64_t tc_memory_limit(void);
/* Set the process's limit (bytes <= 0: back to the default) and the hint that ends a
   refusal (copied; NULL: the library's own). */
TC_API void tc_memory_limit_set(int64_t bytes, const char *how_to_raise);

#endif
