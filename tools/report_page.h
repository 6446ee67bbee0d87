/*
** report_page.h — report.html: one self-contained page (inline SVG and CSS, no network,
** readable without JavaScript; a few lines of script add toggling series and record each
** figure's rendered size) drawn from a plan directory: plan.json, topology.json,
** wiring.csv, the chosen allgather's schedule file, and whatever results of run,
** simulate, forest, a2a and train the user saved there as JSON (report_sniff.h). Beside
** it, topology.svg: the full drawing of the topology (report_topo.h).
**
** Written whole or not at all: both files go into a scratch directory inside DIR (removed
** on a signal too, output.h), then are renamed into place, topology.svg first.
*/
#ifndef TC_TOOLS_REPORT_PAGE_H
#define TC_TOOLS_REPORT_PAGE_H

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/sched.h"

/* What a build drew. */
typedef struct tc_report_stats {
  int figures;      /* <figure> elements written */
  int results;      /* the user's results drawn (run, simulate, forest, a2a, train) */
  int ignored;      /* JSON files not understood (listed in the page) */
} tc_report_stats;

/* What the caller already holds (plan: the graph and the allgather it has just written), so
   that the report does not read them back from DIR (allgather.json is 118 MB at 1024
   nodes). Both borrowed; NULL: read topology.json and plan.json's allgather_file. */
typedef struct tc_report_held {
  const tc_graph *graph;
  const tc_schedule *allgather; /* runs on graph */
} tc_report_held;

/* Build DIR/report.html and DIR/topology.svg. A directory without plan.json, a plan.json
   that is not one, a missing topology.json or schedule file: TC_EINPUT naming it; no
   neato: TC_EINPUT (report_topo.h), before anything is written. held may be NULL. */
int tc_report_build(const char *dir, const tc_report_held *held, tc_report_stats *stats, tc_error *err);

#endif
