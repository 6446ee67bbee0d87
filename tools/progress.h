/*
** progress.h — progress on stderr for CLI work that takes longer than a few seconds: the
** library's reports (topocoll/progress.h) and the CLI's own notes (`simulate`: each program
** at each size; `run`: each size).
**
** Whether anything is printed is decided once per command (tc_progress_init), in this order:
**   --quiet                        never;
**   --progress                     always;
**   TOPOCOLL_PROGRESS=1 or =0      always or never (for scripts that want them, or not);
**   otherwise                      when stderr is a terminal.
** So a pipe, a CI log or a test sees nothing unless it asks. A line reads
**   topocoll <cmd>: [<seconds since tc_progress_init, one decimal> s] <text>
** where <text> is a note, or a report's phase followed by " (done/total)" when its total is
** known. The report stays on stdout, untouched.
**
** Reports are rate-limited here, not in the library: one is shown when it is the first, when
** it begins a phase (done 0), when it ends one (done == total), or when TC_PROGRESS_INTERVAL
** has passed since the last line; the others are dropped, except that the last report, if it
** was dropped, is shown by tc_progress_finish. So a command prints at most a few lines a
** second however often the library reports, and the state it ended in. On a terminal the
** lines of one phase overwrite each other ("\r", padded with spaces over a longer line) and a
** phase's line is kept (ended by "\n") when the phase ends or the next begins; elsewhere
** (--progress into a pipe or a file) every line shown is a whole line.
*/
#ifndef TC_TOOLS_PROGRESS_H
#define TC_TOOLS_PROGRESS_H

#include <stdio.h>

/* Seconds between two lines within a phase. */
#define TC_PROGRESS_INTERVAL 0.25

typedef struct tc_progress {
  const char *cmd; /* borrowed */
  int on;
  int tty;               /* overwrite a phase's line with "\r" (stderr is a terminal) */
  FILE *out;             /* stderr */
  double (*clock)(void); /* CLOCK_MONOTONIC seconds; a test sets its own after init */
  double start;          /* clock() at init */
  /* what has been shown */
  int shown;      /* lines (or line updates) written */
  double last;    /* clock() when the last was written */
  int open;       /* tty: the length of the line being overwritten, not yet ended (0: none) */
  /* the last report, when it was dropped */
  int pending;
  double pending_at;
  char text[320];
} tc_progress;

void tc_progress_init(tc_progress *p, const char *cmd, int force, int quiet);

/* A whole line (ends a line being overwritten first). */
void tc_progress_note(tc_progress *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A tc_progress_fn (topocoll/progress.h): ctx is the tc_progress. */
void tc_progress_report(void *ctx, const char *phase, double done, double total);

/* The last report if it was dropped, and the end of a line being overwritten. Call it when
   the work is over (success or not), before anything else goes to stderr. */
void tc_progress_finish(tc_progress *p);

#endif
