/*
** plan_internal.h — what the plan's files share (src/plan). Internal header.
*/
#ifndef TC_PLAN_INTERNAL_H
#define TC_PLAN_INTERNAL_H

#include "topocoll/plan.h"

/* One progress line through the caller's callback (nothing when progress is NULL). */
void tci_plan_progress_line(tc_plan_progress progress, void *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
