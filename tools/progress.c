/*
** progress.c — progress lines on stderr (contract in progress.h).
*/
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tc_progress_init(tc_progress *p, const char *cmd, int force, int quiet) {
  const char *env = getenv("TOPOCOLL_PROGRESS");
  p->cmd = cmd;
  p->start = now_s();
  if (quiet) p->on = 0;
  else if (force) p->on = 1;
  else if (env && (!strcmp(env, "1") || !strcmp(env, "0"))) p->on = env[0] == '1';
  else p->on = isatty(STDERR_FILENO);
}

void tc_progress_note(const tc_progress *p, const char *fmt, ...) {
  if (!p || !p->on) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "topocoll %s: [%.1f s] %s\n", p->cmd, now_s() - p->start, msg);
}
