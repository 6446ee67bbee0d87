/*
** exec_client.h — the CLI's side of topocoll-exec (src/run/exec_driver.c, docs/running.md),
** shared by `topocoll run` (the executor under mpirun) and `topocoll simulate` (its SMPI
** build, topocoll-smpi-exec, under smpirun): how to ask it for sizes, and how to read its
** answer.
**
** The answer: rank 0 prints one line per requested size and variant, in order (a size out
** of place, then in place, as the executor's --inplace 0|1|both asks and the collective
** has: tc_program_has_inplace),
**   {"size_bytes": M, "count": c, "inplace": b, "time_s": t, "time_min_s": t, "time_max_s": t,
**    "mpi_time_s": t, "mpi_time_min_s": t, "mpi_time_max_s": t, "wrong": w, "verified": b}
** where M is the size it ran (the requested one rounded down to whole elements per rank),
** t a time in seconds — the median, fastest and slowest iteration of the schedule and of
** MPI's own collective — or null (that side not measured, e.g. with --only), w the
** number of result elements that differ from MPI's over all ranks and b whether there were
** none (both null: not checked). Its error lines on stderr start with
** TC_EXEC_NAME ":", whichever build runs.
** Guarantees of the reader: a line is accepted only when it is one JSON object (no
** duplicate keys) with exactly those types; empty lines are skipped and not counted. What
** the sizes must be, and how many, is the caller's to check: run and simulate differ.
*/
#ifndef TC_TOOLS_EXEC_CLIENT_H
#define TC_TOOLS_EXEC_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/sched_io.h"

#define TC_EXEC_NAME "topocoll-exec"

/* The value of the executor's --sizes: "B1,B2,..." in plain bytes, so it runs exactly these
   (no unit parsing on the other side). malloc'ed; NULL when out of memory. */
char *tc_exec_sizes_arg(const int64_t *sizes, int n);

/* One line of the answer. */
typedef struct tc_exec_result {
  int64_t size_bytes, count;
  int inplace;               /* the variant: 1 in place (MPI_IN_PLACE), 0 out of place */
  double time_s, mpi_time_s; /* medians; < 0: null (not measured) */
  double time_min_s, time_max_s, mpi_time_min_s, mpi_time_max_s; /* the spread; < 0: null */
  int64_t wrong;             /* elements that differ from MPI's; -1: null (not checked) */
  int verified;              /* 1 true, 0 false, -1 null (not checked) */
} tc_exec_result;

/* Reads the executor's stdout, which it cuts into lines in place. */
typedef struct tc_exec_reader {
  char *rest;       /* what is left to read */
  const char *line; /* the line read last */
  int lineno;       /* its number, 1 for the first non-empty line */
} tc_exec_reader;

void tc_exec_reader_init(tc_exec_reader *r, char *out);

/* The next line: 1 with *res filled in; 0 when there is none; -1 when the line is not a
   result, with why[size] saying what is wrong ("not JSON (...)", "size_bytes or count is not
   an integer", ...). */
int tc_exec_reader_next(tc_exec_reader *r, tc_exec_result *res, char *why, size_t size);

/* The rank of the schedule's root (broadcast, reduce, scatter, gather; p2p: its source),
   as the executor's ranks number it (rank_map.h); -1 for the other collectives (and when
   out of memory). The reports' root column. */
int32_t tc_exec_root_rank(const tc_schedule_doc *doc);

#endif
