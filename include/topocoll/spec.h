/*
** spec.h — the topology spec language (docs/spec.md): one string names any topology,
** e.g. "kautz(4,2)", "line(circulant(16,3,4),3)", "product(biring(2,8),power(uniring(1,4),2))",
** "kautz(d=4,n=2)", "file(path.json)".
**
** Grammar:   spec  := name '(' [arg (',' arg)*] ')'
**            arg   := [ident '='] (integer | spec | word)
** A bad spec fails with TC_EINPUT and a message "at column C: expected ..., found ...".
*/
#ifndef TOPOCOLL_SPEC_H
#define TOPOCOLL_SPEC_H

#include "topocoll/graph.h"

int tc_spec_build(const char *spec, tc_graph **out, tc_error *err);

/* Description of one spec family for `topocoll topo --list`. */
typedef struct tc_family_info {
  const char *name;        /* spec keyword */
  const char *params;      /* e.g. "d, n" */
  const char *constraints; /* e.g. "d >= 1, n >= 0, (d+1)*d^n <= 5e7" */
  const char *summary;     /* one line */
} tc_family_info;

/* Number of families and the i-th one (0-based), in listing order. */
int tc_spec_family_count(void);
const tc_family_info *tc_spec_family(int i);

#endif
