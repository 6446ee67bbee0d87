/*
** cmd_report.c — `topocoll report DIR`: (re)build DIR/report.html, the plan's HTML report
** with its figures, and DIR/topology.svg, from a plan directory and whatever JSON results
** the user saved in it (report_page.h does the work; `plan` builds the same report when it
** writes the directory).
*/
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "report_page.h"

void tc_cmd_report_help(void) {
  printf(
      "usage: topocoll report DIR\n"
      "\n"
      "Builds DIR/report.html from the plan directory DIR (written by 'topocoll plan', which\n"
      "builds the same report itself): one self-contained page (inline SVG, no network, no\n"
      "JavaScript needed) with the plan's numbers, the chosen topology drawn by Graphviz with\n"
      "its wiring table (the full drawing beside it: DIR/topology.svg), the Pareto frontier\n"
      "against the bound, predicted time and algorithmic bandwidth against message size for\n"
      "every member and baseline (your sizes marked), and the link utilisation per step of\n"
      "the chosen allgather.\n"
      "Results you saved in DIR as JSON are recognised by their content, whatever their names:\n"
      "  run --json        measured times, over the model's curve\n"
      "  simulate --json   simulated times and the alpha/beta fit, over the model's curve\n"
      "  forest --json     ForestColl's algorithmic bandwidth against the cut bound\n"
      "  a2a --json        the all-to-all throughput f and its certified bounds\n"
      "  train --json      one training iteration's timeline (compute and communication)\n"
      "Other JSON files are listed in the page as not understood, and not drawn.\n"
      "Both files are replaced whole or not at all. Needs Graphviz's neato.\n"
      "\n"
      "Exit status: 0 success, 1 failure (nothing written), 2 bad usage or input (not a plan\n"
      "directory, no neato).\n");
}

typedef struct report_options {
  const char *dir;
} report_options;

static const tc_cli_command report_cli = {
    .name = "report", .help = tc_cmd_report_help, .options = NULL, .noptions = 0,
    .positional = {offsetof(report_options, dir)}, .npositional = 1,
    .extra_argument = "unexpected argument '%s' (DIR already given: '%s')"};

int tc_cmd_report(int argc, char **argv) {
  report_options o;
  memset(&o, 0, sizeof o);
  int status = tc_cli_parse(&report_cli, argc, argv, &o);
  if (status) return status == TC_CLI_DONE ? TC_EXIT_OK : status;
  if (!o.dir || !*o.dir) return tc_cli_usage_error("report", "missing DIR");
  tc_error err;
  tc_error_clear(&err);
  tc_report_stats st;
  if (tc_report_build(o.dir, NULL, &st, &err)) return tc_cli_fail("report", &err);
  printf("report       %s/report.html (%d figures; %d saved results drawn, %d JSON files not understood) and "
         "%s/topology.svg\n", o.dir, st.figures, st.results, st.ignored, o.dir);
  return TC_EXIT_OK;
}
