/*
** candidate.c — starting and naming the finder's working candidates (find_internal.h).
**
** A candidate is born either as a base topology (bases.c, generative.c) or as an expansion
** of others (expand_predict.c); both start here so every field a caller may read — the
** measured fields included — has a defined value ("not built": built = verified = 0,
** measured_steps = -1, avg_distance = -1; no all-to-all value: a2a = 0, bounds 0/1). A spec that does not fit tc_candidate.spec is
** refused rather than truncated, because a truncated spec would rebuild a different
** topology (or none).
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "find_internal.h"

tc_rat tci_find_bw_tau(int64_t n) {
  tc_rat r = {n - 1, n};
  tc_rat_make(n - 1, n, &r, NULL); /* reduces; n >= 2 so it cannot fail */
  return r;
}

void tci_find_cand_init(tc_find_cand *fc, int32_t nodes, int32_t degree, int32_t steps, tc_rat tau,
                       uint32_t flags, int reverse_symmetric, int bidirectional, int32_t diameter) {
  memset(fc, 0, sizeof *fc);
  tc_candidate *c = &fc->c;
  c->nodes = nodes;
  c->degree = degree;
  c->steps = steps;
  c->tau = tau;
  c->flags = flags;
  c->reverse_symmetric = reverse_symmetric;
  c->bidirectional = bidirectional;
  c->diameter = diameter;
  c->measured_steps = -1;
  c->measured_tau = (tc_rat){0, 1};
  c->avg_distance = -1.0;
  c->forest_allreduce_tau = (tc_rat){0, 1};
  c->a2a_lower = (tc_rat){0, 1};
  c->a2a_upper = (tc_rat){0, 1};
}

int tci_find_cand_name(tc_find_cand *fc, const char *label, const char *source, const char *spec_fmt, ...) {
  va_list ap;
  va_start(ap, spec_fmt);
  int len = vsnprintf(fc->c.spec, sizeof fc->c.spec, spec_fmt, ap);
  va_end(ap);
  if (len < 0 || (size_t)len >= sizeof fc->c.spec) return 0;
  snprintf(fc->c.label, sizeof fc->c.label, "%s", label);
  snprintf(fc->c.source, sizeof fc->c.source, "%s", source);
  return 1;
}
