/*
** options.c — the options of tc_a2a_solve (a2a.h): defaults and the names of methods and
** engines, the one table the CLI's parsing and error lines come from.
*/
#include <string.h>

#include "lp/lp.h"
#include "topocoll/a2a.h"

static const char *const method_names[TC_A2A_METHODS] = {"lp", "full", "dw"};

void tc_a2a_options_default(tc_a2a_options *o) {
  memset(o, 0, sizeof *o);
  o->method = TC_A2A_LP;
  o->engine = TC_A2A_CLP;
  o->host_cap.num = 0;
  o->host_cap.den = 1;
  o->gap = 1e-6;
  o->threads = 0;
  o->children = 1;
  o->time_limit = 0;
  o->symmetry = 1;
}

const char *tc_a2a_method_name(tc_a2a_method m) {
  return (m >= 0 && m < TC_A2A_METHODS) ? method_names[m] : NULL;
}

int tc_a2a_method_parse(const char *name, tc_a2a_method *out, tc_error *err) {
  for (int m = 0; m < TC_A2A_METHODS; m++)
    if (name && strcmp(name, method_names[m]) == 0) {
      *out = (tc_a2a_method)m;
      return TC_OK;
    }
  char list[128] = "";
  for (int m = 0; m < TC_A2A_METHODS; m++) {
    if (m) strncat(list, "|", sizeof list - strlen(list) - 1);
    strncat(list, method_names[m], sizeof list - strlen(list) - 1);
  }
  return tc_error_set(err, TC_EINPUT, "unknown all-to-all method '%s' (%s)", name ? name : "", list);
}

/* The engines are the LP engine's (lp.h): its names, its parser. */
const char *tc_a2a_engine_name(tc_a2a_engine e) { return tci_lp_engine_name(e == TC_A2A_GLPK ? TCI_LP_GLPK : TCI_LP_CLP); }

int tc_a2a_engine_parse(const char *name, tc_a2a_engine *out, tc_error *err) {
  tci_lp_engine e;
  int rc = tci_lp_engine_parse(name, &e, err);
  if (!rc) *out = e == TCI_LP_GLPK ? TC_A2A_GLPK : TC_A2A_CLP;
  return rc;
}
