/*
** test_cli_progress.c — the CLI's progress reporter (tools/progress.c), with a fake clock
** and the output in memory, exact strings:
**   - into a pipe (whole lines): the first report, a phase's start and end always; within a
**     phase one line per TC_PROGRESS_INTERVAL at most; the dropped last report shown by
**     tc_progress_finish with the time it was made; counts as " (done/total)", none when
**     the total is 0; notes as whole lines;
**   - on a terminal: one line per phase, overwritten with "\r" and padded over a longer
**     one, ended by "\n" when the phase ends, the next begins, a note comes or at finish;
**   - off (--quiet): nothing at all, finish included;
**   - tc_progress_init's rules: --quiet over --progress over TOPOCOLL_PROGRESS over the
**     terminal test.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "progress.h"

static double fake_now;
static double fake_clock(void) { return fake_now; }

typedef struct sink {
  char *buf;
  size_t len;
  FILE *f;
} sink;

/* A reporter for "forest", on, writing to memory; the clock starts at 100 s. */
static void open_reporter(tc_progress *p, sink *s, int tty) {
  setenv("TOPOCOLL_PROGRESS", "0", 1); /* --progress must win over it */
  tc_progress_init(p, "forest", 1, 0);
  assert_int_equal(p->on, 1);
  s->f = open_memstream(&s->buf, &s->len);
  assert_non_null(s->f);
  p->out = s->f;
  p->tty = tty;
  fake_now = 100.0;
  p->clock = fake_clock;
  p->start = 100.0;
}

static void check_output(sink *s, const char *want) {
  fflush(s->f);
  assert_string_equal(s->buf, want);
  fclose(s->f);
  free(s->buf);
}

static void at(double t) { fake_now = 100.0 + t; }

static void whole_lines(void **state) {
  (void)state;
  tc_progress p;
  sink s;
  open_reporter(&p, &s, 0);
  at(0.0);
  tc_progress_report(&p, "forest: optimality search", 0, 0);    /* first: shown */
  at(0.01);
  tc_progress_report(&p, "forest: packing trees, roots done", 0, 64); /* begins: shown */
  at(0.1);
  tc_progress_report(&p, "forest: packing trees, roots done", 5, 64); /* within 0.25 s: dropped */
  at(0.3);
  tc_progress_report(&p, "forest: packing trees, roots done", 12, 64); /* 0.29 s later: shown */
  at(0.4);
  tc_progress_report(&p, "forest: packing trees, roots done", 20, 64); /* dropped */
  at(0.42);
  tc_progress_report(&p, "forest: packing trees, roots done", 64, 64); /* ends: shown */
  at(0.5);
  tc_progress_note(&p, "a note, %d of %d", 1, 2);
  at(0.6);
  tc_progress_report(&p, "dw: round 3, gap 0.1", 3, 0); /* within 0.25 s of the note: dropped */
  at(0.7);
  tc_progress_report(&p, "dw: round 4, gap 0.01", 4, 0); /* dropped, the last: finish shows it */
  at(9.0);
  tc_progress_finish(&p);
  tc_progress_finish(&p); /* twice: nothing more */
  check_output(&s, "topocoll forest: [0.0 s] forest: optimality search\n"
                   "topocoll forest: [0.0 s] forest: packing trees, roots done (0/64)\n"
                   "topocoll forest: [0.3 s] forest: packing trees, roots done (12/64)\n"
                   "topocoll forest: [0.4 s] forest: packing trees, roots done (64/64)\n"
                   "topocoll forest: [0.5 s] a note, 1 of 2\n"
                   "topocoll forest: [0.7 s] dw: round 4, gap 0.01\n");
}

static void terminal(void **state) {
  (void)state;
  tc_progress p;
  sink s;
  open_reporter(&p, &s, 1);
  at(0.0);
  tc_progress_report(&p, "forest: removing switches", 0, 20);
  at(0.3);
  tc_progress_report(&p, "forest: removing switches", 7, 20);
  at(0.4);
  tc_progress_report(&p, "forest: removing switches", 20, 20); /* ends: kept */
  at(1.0);
  tc_progress_report(&p, "dw: round 10, gap 0.25", 10, 0); /* shown (no line open) */
  at(1.5);
  tc_progress_report(&p, "dw: round 11", 11, 0); /* shorter: padded */
  at(1.6);
  tc_progress_note(&p, "done"); /* ends the open line first */
  at(2.0);
  tc_progress_report(&p, "forest: verifying the trees", 0, 0);
  tc_progress_finish(&p); /* ends it */
  check_output(&s, "\rtopocoll forest: [0.0 s] forest: removing switches (0/20)"
                   "\rtopocoll forest: [0.3 s] forest: removing switches (7/20)"
                   "\rtopocoll forest: [0.4 s] forest: removing switches (20/20)\n"
                   "\rtopocoll forest: [1.0 s] dw: round 10, gap 0.25"
                   "\rtopocoll forest: [1.5 s] dw: round 11          "
                   "\n\rtopocoll forest: [1.6 s] done\n"
                   "\rtopocoll forest: [2.0 s] forest: verifying the trees\n");
}

static void quiet(void **state) {
  (void)state;
  tc_progress p;
  unsetenv("TOPOCOLL_PROGRESS");
  tc_progress_init(&p, "plan", 1, 1); /* --quiet wins */
  assert_int_equal(p.on, 0);
  sink s;
  s.f = open_memstream(&s.buf, &s.len);
  p.out = s.f;
  p.clock = fake_clock;
  tc_progress_report(&p, "resilience: single link failures tried", 2, 2);
  tc_progress_note(&p, "nothing");
  tc_progress_finish(&p);
  check_output(&s, "");
}

static void init_rules(void **state) {
  (void)state;
  tc_progress p;
  setenv("TOPOCOLL_PROGRESS", "1", 1);
  tc_progress_init(&p, "a2a", 0, 0);
  assert_int_equal(p.on, 1);
  tc_progress_init(&p, "a2a", 0, 1);
  assert_int_equal(p.on, 0);
  setenv("TOPOCOLL_PROGRESS", "0", 1);
  tc_progress_init(&p, "a2a", 0, 0);
  assert_int_equal(p.on, 0);
  tc_progress_init(&p, "a2a", 1, 0);
  assert_int_equal(p.on, 1);
  setenv("TOPOCOLL_PROGRESS", "yes", 1); /* neither 1 nor 0: the terminal decides */
  tc_progress_init(&p, "a2a", 0, 0);
  assert_int_equal(p.on, p.tty);
  unsetenv("TOPOCOLL_PROGRESS");
  tc_progress_init(&p, "a2a", 0, 0);
  assert_int_equal(p.on, p.tty);
  assert_string_equal(p.cmd, "a2a");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(whole_lines),
      cmocka_unit_test(terminal),
      cmocka_unit_test(quiet),
      cmocka_unit_test(init_rules),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
