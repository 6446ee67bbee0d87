/*
** path_set.c — the names of pMCF's candidate path sets (a2a_flows.h): the one table the
** CLI's parsing and its error line come from.
*/
#include "topocoll/a2a_flows.h"

#include <string.h>

static const char *const names[] = {"disjoint", "shortest", "lmax"};
#define COUNT ((int)(sizeof names / sizeof names[0]))

const char *tc_a2a_path_set_name(tc_a2a_path_set p) { return (int)p >= 0 && (int)p < COUNT ? names[p] : NULL; }

int tc_a2a_path_set_parse(const char *name, tc_a2a_path_set *out, tc_error *err) {
  for (int i = 0; i < COUNT; i++)
    if (name && !strcmp(name, names[i])) {
      *out = (tc_a2a_path_set)i;
      return TC_OK;
    }
  return tc_error_set(err, TC_EINPUT, "unknown path set '%s' (disjoint, shortest or lmax)", name ? name : "");
}
