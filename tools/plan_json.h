/*
** plan_json.h — plan.json: the numbers of a tc_plan the report draws (docs/report.md).
*/
#ifndef TC_TOOLS_PLAN_JSON_H
#define TC_TOOLS_PLAN_JSON_H

#include "topocoll/plan.h"

/* Write p's plan.json to path (a file in the plan's staging directory). TC_EIO on failure. */
int tc_plan_json_write(const tc_plan *p, const char *path, tc_error *err);

#endif
