/*
** progress.h — progress lines on stderr for CLI work that takes longer than a few seconds
** (`simulate`: each program at each size; `run`: each size).
**
** Whether they are printed is decided once per command (tc_progress_init), in this order:
**   --quiet                        never;
**   --progress                     always;
**   TOPOCOLL_PROGRESS=1 or =0      always or never (for scripts that want them, or not);
**   otherwise                      when stderr is a terminal.
** So a pipe, a CI log or a test sees nothing unless it asks. A line reads
**   topocoll <cmd>: [<seconds since tc_progress_init, one decimal> s] <message>
** and goes out at once (stderr is unbuffered); the report stays on stdout, untouched.
*/
#ifndef TC_TOOLS_PROGRESS_H
#define TC_TOOLS_PROGRESS_H

typedef struct tc_progress {
  const char *cmd; /* borrowed */
  int on;
  double start; /* CLOCK_MONOTONIC seconds */
} tc_progress;

void tc_progress_init(tc_progress *p, const char *cmd, int force, int quiet);

void tc_progress_note(const tc_progress *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
