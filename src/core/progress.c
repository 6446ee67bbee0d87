/*
** progress.c — one progress report with a formatted phase (contract in topocoll/progress.h).
*/
#include "core/progress.h"

#include <stdarg.h>
#include <stdio.h>

void tci_progress(tc_progress_fn fn, void *ctx, double done, double total, const char *fmt, ...) {
  if (!fn) return;
  char phase[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(phase, sizeof phase, fmt, ap);
  va_end(ap);
  fn(ctx, phase, done, total);
}
