/*
** report_figs.h — the report's figures, each a <figure> with its heading, its inline SVG
** (report_svg.h) and a one-line caption saying what to read from it. The figures take the
** plan's numbers from plan.json (tc_plan_json_read) and the user's saved results as sniffed
** (report_sniff.h); every time on a curve is the α-β model's, tc_cost_time (cost.h).
*/
#ifndef TC_TOOLS_REPORT_FIGS_H
#define TC_TOOLS_REPORT_FIGS_H

#include <jansson.h>
#include <stdio.h>

#include "plan_json.h"
#include "report_sniff.h"
#include "topocoll/cost.h"
#include "topocoll/graph.h"
#include "topocoll/sched.h"

/* What the figures read of plan.json: the one reader's (plan_json.h). */
typedef tc_plan_json tc_report_plan;
typedef tc_plan_json_curve tc_report_curve;

/* The utilisation of every arc in every step of s on g: out[a * steps + (t-1)] = load(a,t) /
   max over arcs of load(a,t) (load as in cost.h: units carried / capacity), 0 for a step
   where nothing moves. *out is malloc'd (g->m * s->steps entries). TC_ENOMEM. */
int tc_report_utilisation(const tc_graph *g, const tc_schedule *s, double **out, tc_error *err);

/* The heatmap draws one row per arc up to TC_REPORT_HEAT_ROWS arcs; beyond, each row is the
   mean utilisation of *per consecutive arcs (the page stays a few MB at 1024 nodes). Returns
   the row count. */
#define TC_REPORT_HEAT_ROWS 256
int tc_report_heat_rows(int64_t m, int64_t *per);

/* The log-scale message-size range drawn: powers of ten around the workload's sizes,
   at least 1 KB .. 1 GB. */
void tc_report_size_range(const tc_report_plan *p, double *lo, double *hi);

void tc_report_fig_frontier(FILE *fp, const tc_report_plan *p);
void tc_report_fig_curves(FILE *fp, const tc_report_plan *p, int algbw);
int tc_report_fig_heatmap(FILE *fp, const tc_graph *g, const tc_schedule *s, const char *file, tc_error *err);
/* Measured (run) and simulated points over the chosen schedule's model curve, with the
   simulation's α/β fit; nothing when there are none. */
void tc_report_fig_measured(FILE *fp, const tc_report_plan *p, const tc_doc *docs, int ndocs);
/* ForestColl's algbw against the cut bound, per forest document; nothing when none. */
void tc_report_fig_forest(FILE *fp, const tc_doc *docs, int ndocs);
/* The all-to-all column: the plan's members' certified f and the a2a results. */
void tc_report_fig_alltoall(FILE *fp, const tc_report_plan *p, const tc_doc *docs, int ndocs);
/* One training iteration's timeline (Fig. 16 of paper 000): compute and communication lanes. */
void tc_report_fig_train(FILE *fp, const tc_doc *doc);

#endif
