/*
** plan_json.h — plan.json, the plan's numbers (schema in docs/report.md): written by
** `topocoll plan`, read back by `topocoll report` (its figures) and `topocoll train --plan`
** (the frontier it compares). The one home of the format: whoever reads plan.json reads it
** with tc_plan_json_read, which checks what every reader relies on.
*/
#ifndef TC_TOOLS_PLAN_JSON_H
#define TC_TOOLS_PLAN_JSON_H

#include <jansson.h>

#include "topocoll/cost.h"
#include "topocoll/plan.h"

/* Write p's plan.json to path (a file in the plan's staging directory). TC_EIO on failure. */
int tc_plan_json_write(const tc_plan *p, const char *path, tc_error *err);

/* One allreduce of "curves": steps·α + tau·M/(degree·link_bw) at M bytes (tc_cost_time). */
typedef struct tc_plan_json_curve {
  char name[320];
  char kind[16];  /* "chosen", "member", "baseline", "forestcoll" */
  tc_cost cost;   /* steps, tau, degree (nothing allocated) */
} tc_plan_json_curve;

/* One frontier member: the finder's predicted allgather, and the all-to-all f it certified
   when the plan weighed all-to-alls. */
typedef struct tc_plan_json_member {
  char spec[256];
  char label[32];
  int32_t steps;
  tc_rat tau;
  int chosen;
  int has_a2a_f;
  tc_rat a2a_f;   /* certified lower bound of the MCF value f */
} tc_plan_json_member;

/* What readers take from plan.json. */
typedef struct tc_plan_json {
  json_t *root;   /* borrowed */
  int32_t nodes;
  double alpha_s, link_bw;
  int nsizes;
  double bytes[64], weight[64];
  int ncurves;
  tc_plan_json_curve *curve;  /* owned */
  /* the frontier (absent in a fabric plan: nmembers 0) */
  int32_t degree;             /* frontier.degree; 0 in a plan.json written before it was kept */
  int32_t bound_steps;        /* the Moore bound T_L* (Def. 10) */
  tc_rat bound_tau;           /* (N-1)/N (Thm 4) */
  int nmembers;
  tc_plan_json_member *member; /* owned */
} tc_plan_json;

/* Read and check plan.json's root (`name` in messages): TC_EINPUT naming the first key
   missing or of the wrong type. On failure *out holds nothing to free. */
int tc_plan_json_read(json_t *root, const char *name, tc_plan_json *out, tc_error *err);
void tc_plan_json_destroy(tc_plan_json *p);

#endif
