/*
** run_calibration.c — `run --calibration-out FILE` (contract in run_calibration.h): the
** schedule's own cost (tc_schedule_cost on its verified graph) is the model the times are
** fitted to, so α comes out per step and the bandwidth per link, as `plan` uses them.
** A size the executor did not time (time_s null) is left out of the fit.
*/
#include "run_calibration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "topocoll/cost.h"
#include "topocoll/fit.h"
#include "topocoll/units.h"

int tc_run_write_calibration(const char *path, const tc_schedule_doc *doc, const tc_exec_result *results, int n,
                             const char *file, int quiet) {
  double *bytes = malloc((size_t)(n ? n : 1) * sizeof *bytes), *times = malloc((size_t)(n ? n : 1) * sizeof *times);
  tc_error err;
  tc_error_clear(&err);
  tc_cost c;
  memset(&c, 0, sizeof c);
  int k = 0, rc = !bytes || !times ? tc_error_set(&err, TC_ENOMEM, "out of memory") : TC_OK;
  for (int i = 0; !rc && i < n; i++)
    if (results[i].time_s > 0) {
      bytes[k] = (double)results[i].size_bytes;
      times[k++] = results[i].time_s;
    }
  tc_calibration cal;
  if (!rc) rc = tc_schedule_cost(doc->graph, &doc->sched, &c, &err);
  if (!rc) rc = tc_calibration_fit(&c, bytes, times, k, &cal, &err);
  char source[1024];
  snprintf(source, sizeof source, "run %s", file);
  if (!rc) rc = tc_calibration_write(&cal, source, path, &err);
  tc_cost_destroy(&c);
  free(bytes);
  free(times);
  if (rc) {
    tc_error_prefix(&err, "--calibration-out");
    tc_cli_fail("run", &err);
    return TC_EXIT_FAIL;
  }
  if (!quiet) {
    char t[64];
    tc_units_format_time(cal.alpha_s, 0, t, sizeof t);
    printf("calibration: alpha %s, link bandwidth %.6g Gbit/s (fitted to %d sizes, largest error %.1f %%) -> %s\n", t,
           cal.link_bw * 8e-9, (int)cal.sizes, 100 * cal.max_rel_err, path);
  }
  return TC_EXIT_OK;
}
