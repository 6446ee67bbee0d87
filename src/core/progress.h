/*
** progress.h — the library's side of topocoll/progress.h: one report, its phase formatted
** like printf. Internal header.
*/
#ifndef TC_CORE_PROGRESS_H
#define TC_CORE_PROGRESS_H

#include "topocoll/progress.h"

/* Format the phase (at most 255 characters, longer is cut) and report it through fn; nothing,
   and no formatting, when fn is NULL. */
void tci_progress(tc_progress_fn fn, void *ctx, double done, double total, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
