/*
** huge.h — transparent huge pages for large arrays. Internal header.
**
** Faulting in a large fresh array 4 KiB at a time costs more kernel time than filling it:
** the 200 MB of transfers of BFB on torus(50,50) took 51 000 page faults and 0.17 s of
** system time in `topocoll sched`. tci_advise_huge asks Linux to back the whole 2 MiB pages
** inside an array with huge pages (madvise MADV_HUGEPAGE), which must happen before the
** array is first written. It is advice: it does nothing for arrays under 8 MiB, where THP
** is disabled, or off Linux, and it never fails.
*/
#ifndef TC_CORE_HUGE_H
#define TC_CORE_HUGE_H

#include <stddef.h>

void tci_advise_huge(void *p, size_t bytes);

#endif
