/*
** progress.c — progress lines on stderr (contract in progress.h).
*/
#include "progress.h"

#include <stdarg.h>
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
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->out = stderr;
  p->clock = now_s;
  p->start = now_s();
  p->tty = isatty(STDERR_FILENO);
  if (quiet) p->on = 0;
  else if (force) p->on = 1;
  else if (env && (!strcmp(env, "1") || !strcmp(env, "0"))) p->on = env[0] == '1';
  else p->on = p->tty;
}

/* End the line being overwritten, if any. */
static void end_line(tc_progress *p) {
  if (p->open) fputc('\n', p->out);
  p->open = 0;
}

/* Write text as of time t: a whole line, or on a terminal over the open line (new_line: on a
   line of its own; keep: ended, not to be overwritten). */
static void show(tc_progress *p, double t, const char *text, int new_line, int keep) {
  char line[400];
  int len = snprintf(line, sizeof line, "topocoll %s: [%.1f s] %s", p->cmd, t - p->start, text);
  if (len >= (int)sizeof line) len = (int)sizeof line - 1;
  if (!p->tty) fprintf(p->out, "%s\n", line);
  else {
    if (new_line) end_line(p);
    fprintf(p->out, "\r%s%*s", line, p->open > len ? p->open - len : 0, "");
    p->open = len;
    if (keep) end_line(p);
  }
  fflush(p->out);
  p->shown++;
  p->last = t;
  p->pending = 0;
}

void tc_progress_note(tc_progress *p, const char *fmt, ...) {
  if (!p || !p->on) return;
  char msg[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  show(p, p->clock(), msg, 1, 1);
}

void tc_progress_report(void *ctx, const char *phase, double done, double total) {
  tc_progress *p = ctx;
  if (!p || !p->on) return;
  double t = p->clock();
  int begins = done <= 0, ends = total > 0 && done >= total;
  if (total > 0) snprintf(p->text, sizeof p->text, "%s (%.0f/%.0f)", phase, done, total);
  else snprintf(p->text, sizeof p->text, "%s", phase);
  if (!p->shown || begins || ends || t - p->last >= TC_PROGRESS_INTERVAL) show(p, t, p->text, begins, ends);
  else {
    p->pending = 1;
    p->pending_at = t;
  }
}

void tc_progress_finish(tc_progress *p) {
  if (!p || !p->on) return;
  if (p->pending) show(p, p->pending_at, p->text, 0, 0);
  end_line(p);
  fflush(p->out);
}
