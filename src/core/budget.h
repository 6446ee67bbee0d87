/*
** budget.h — the memory limit's internals (the public side is topocoll/budget.h). Internal
** header.
**
** tci_budget_read is the reader behind tc_memory_available, taking the file-system root so
** that tests can give it fixture trees: <root>/proc/meminfo, <root>/proc/self/cgroup and
** the cgroup files under <root>/sys/fs/cgroup. tci_budget_check is the one place that
** compares an estimate with the limit and words the refusal; the estimates themselves live
** beside the code that spends the memory.
*/
#ifndef TC_CORE_BUDGET_H
#define TC_CORE_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/error.h"

/* The memory available under `root` ("" for the real one): MemAvailable, lowered to what
   the cgroup of /proc/self leaves (limit - usage, the least over its ancestors with a
   limit). Returns 0 and *bytes, or -1 when /proc/meminfo gives no MemAvailable and no
   cgroup limit is readable. */
int tci_budget_read(const char *root, int64_t *bytes);

/* TC_OK when `need` bytes fit the limit; else TC_ERANGE with
   "<what> needs about 9.4 GB (<detail>) but 7.1 GB is available; <hint>" ("but the memory
   limit is 10 MB" when it was set). `detail` may be NULL. */
int tci_budget_check(double need, const char *what, const char *detail, tc_error *err);

/* A size to two significant digits in decimal units: "9.4 GB", "21 GB", "512 KB", "0 B". */
void tci_budget_format_bytes(double bytes, char *buf, size_t size);
/* A count the same way: "268 M", "4.3 G", "1.2 K", "12". */
void tci_budget_format_count(double count, char *buf, size_t size);

#endif
