/*
** huge.c — transparent huge pages for large arrays (contract in huge.h).
*/
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "core/huge.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_MIN ((size_t)8 << 20)     /* smaller arrays: a few thousand faults, not worth it */
#define HUGE_PAGE ((uintptr_t)2 << 20) /* x86-64 and arm64 with 4 KiB base pages */

void tci_advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (!p || bytes < HUGE_MIN) return;
  uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: its failure changes nothing */
#else
  (void)p;
  (void)bytes;
#endif
}
