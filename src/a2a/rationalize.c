/*
** rationalize.c — a solver's floats as integers over one denominator (contract in
** a2a_internal.h), so that the certificate can check them exactly.
**
** An optimal vertex of the MCF LPs is a vector of rationals whose denominators divide the
** basis determinant, small for small graphs: each double is then within ~1e-12 of a fraction
** p/q with q <= 2^16, which the continued-fraction expansion finds (tci_lp_recover, the one
** home of that algorithm). When every value is recovered within 1e-9 and the common
** denominator stays <= 2^31, the integers are the vertex exactly. Otherwise the values are
** rounded down on a power-of-two grid: no longer exact, but the certificate's bounds stay
** valid for any input — rounding only decides whether a bound can be tight, never whether it
** is right.
*/
#include <math.h>

#include "a2a/a2a_internal.h"
#include "core/intmath.h"
#include "forest/lp_exact.h"

#define MAXDEN 65536
#define TOL 1e-9
#define MAX_COMMON ((int64_t)1 << 31)
#define TINY 1e-12

int tci_a2a_rationalize(const double *x, int64_t count, int64_t *units, int64_t *den) {
  int64_t L = 1;
  int exact = 1;
  double big = 1;
  for (int64_t i = 0; i < count; i++) {
    double v = x[i];
    if (!(v > TINY)) continue;
    if (v > big) big = v;
    if (!exact) continue;
    tc_rat r;
    if (tci_lp_recover(v, MAXDEN, &r) || fabs((double)r.num / (double)r.den - v) > TOL * (v > 1 ? v : 1)) {
      exact = 0;
      continue;
    }
    int64_t g = tci_gcd64(L, r.den), l2;
    if (tci_mul64(L / g, r.den, &l2) || l2 > MAX_COMMON) exact = 0;
    else L = l2;
  }
  for (int64_t i = 0; exact && i < count; i++) {
    units[i] = 0;
    if (!(x[i] > TINY)) continue;
    tc_rat r;
    tci_lp_recover(x[i], MAXDEN, &r);
    if (tci_mul64(r.num, L / r.den, &units[i])) exact = 0;
  }
  if (exact) {
    *den = L;
    return 1;
  }
  /* the largest power of two with big·den <= 2^30 */
  int64_t d = (int64_t)1 << 30;
  while (d > 1 && big * (double)d > 0x1p30) d >>= 1;
  for (int64_t i = 0; i < count; i++) units[i] = x[i] > TINY ? (int64_t)floor(x[i] * (double)d) : 0;
  *den = d;
  return 0;
}
