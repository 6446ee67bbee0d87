/*
** rational.c — exact int64 rationals with overflow detection (contract in rational.h).
** Products are formed in 128 bits and reduced before narrowing, so intermediate growth
** does not cause false overflows.
*/
#include "topocoll/rational.h"

#include <stdio.h>

#include "core/intmath.h"

typedef __int128 wide;

/* Reduce num/den given in 128 bits and narrow to int64. */
static int narrow(wide num, wide den, tc_rat *out, tc_error *err) {
  if (den == 0) return tc_error_set(err, TC_ERANGE, "rational with zero denominator");
  if (den < 0) { num = -num; den = -den; }
  wide g = tci_gcd128(num, den);
  if (g > 1) { num /= g; den /= g; }
  if (num > INT64_MAX || num < -INT64_MAX || den > INT64_MAX)
    return tc_error_set(err, TC_ERANGE, "exact rational arithmetic overflowed 64 bits");
  out->num = (int64_t)num;
  out->den = (int64_t)den;
  return TC_OK;
}

int tc_rat_make(int64_t num, int64_t den, tc_rat *out, tc_error *err) { return narrow(num, den, out, err); }

int tc_rat_add(tc_rat a, tc_rat b, tc_rat *out, tc_error *err) {
  return narrow((wide)a.num * b.den + (wide)b.num * a.den, (wide)a.den * b.den, out, err);
}

int tc_rat_sub(tc_rat a, tc_rat b, tc_rat *out, tc_error *err) {
  return narrow((wide)a.num * b.den - (wide)b.num * a.den, (wide)a.den * b.den, out, err);
}

int tc_rat_mul(tc_rat a, tc_rat b, tc_rat *out, tc_error *err) {
  return narrow((wide)a.num * b.num, (wide)a.den * b.den, out, err);
}

int tc_rat_div(tc_rat a, tc_rat b, tc_rat *out, tc_error *err) {
  if (b.num == 0) return tc_error_set(err, TC_ERANGE, "division by zero");
  return narrow((wide)a.num * b.den, (wide)a.den * b.num, out, err);
}

int tc_rat_cmp(tc_rat a, tc_rat b) {
  wide l = (wide)a.num * b.den, r = (wide)b.num * a.den;
  return (l > r) - (l < r);
}

double tc_rat_to_double(tc_rat a) { return (double)a.num / (double)a.den; }

void tc_rat_format(tc_rat a, char *buf, int size) {
  if (a.den == 1) snprintf(buf, (size_t)size, "%lld", (long long)a.num);
  else snprintf(buf, (size_t)size, "%lld/%lld", (long long)a.num, (long long)a.den);
}
