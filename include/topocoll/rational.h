/*
** rational.h — exact rationals on int64 with overflow detection, for costs and bounds
** that the papers state as equalities (T_B = (M/B)(N-1)/N).
**
** Values are kept reduced with a positive denominator. Every operation returns TC_OK or
** TC_ERANGE (never a silently wrapped value).
*/
#ifndef TOPOCOLL_RATIONAL_H
#define TOPOCOLL_RATIONAL_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"

typedef struct tc_rat {
  int64_t num, den;
} tc_rat;

/* num/den reduced (den != 0). */
TC_API int tc_rat_make(int64_t num, int64_t den, tc_rat *out, tc_error *err);
TC_API int tc_rat_add(tc_rat a, tc_rat b, tc_rat *out, tc_error *err);
TC_API int tc_rat_sub(tc_rat a, tc_rat b, tc_rat *out, tc_error *err);
TC_API int tc_rat_mul(tc_rat a, tc_rat b, tc_rat *out, tc_error *err);
TC_API int tc_rat_div(tc_rat a, tc_rat b, tc_rat *out, tc_error *err);
/* -1, 0, 1 as a <, ==, > b (exact, no overflow: compares via 128-bit products). */
TC_API int tc_rat_cmp(tc_rat a, tc_rat b);
TC_API double tc_rat_to_double(tc_rat a);
/* "num/den" (or "num" when den == 1) into buf. */
TC_API void tc_rat_format(tc_rat a, char *buf, int size);

#endif
