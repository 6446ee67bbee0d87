/*
** run_calibration.h — `run --calibration-out FILE` (issue #14 §8): α and the link bandwidth
** fitted to the measured times of the schedule that ran, written for `plan --calibration`.
*/
#ifndef TC_TOOLS_RUN_CALIBRATION_H
#define TC_TOOLS_RUN_CALIBRATION_H

#include "exec_client.h"
#include "topocoll/sched_io.h"

/* Fit (tc_calibration_fit) the schedule's cost to results[0..n) (time_s of every size) and
   write path; `file` names the schedule in the file's "source". Prints one line on stdout
   (unless quiet) or the error line; returns an exit code (1 when the times do not fit). */
int tc_run_write_calibration(const char *path, const tc_schedule_doc *doc, const tc_exec_result *results, int n,
                             const char *file, int quiet);

#endif
