/*
** intmath.h — integer helpers shared across modules: the gcd, and the one home of checked
** 64-bit arithmetic. Internal header.
**
** Capacities, unit counts and chunk bounds come from user files and may be anything up to
** 2^63-1, so sums and products of them are computed with these helpers and an overflow is
** refused (TC_ERANGE, one line naming the value) rather than wrapped. Each returns 0 and
** stores the result, or returns 1 and leaves *out unspecified.
*/
#ifndef TC_CORE_INTMATH_H
#define TC_CORE_INTMATH_H

#include <stdint.h>

/* Greatest common divisor of |a| and |b| (gcd(0,0) = 0). */
static inline int64_t tci_gcd64(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The same on 128 bits, for exact sums and products of int64 values (gcd(0,0) = 0). */
static inline __int128 tci_gcd128(__int128 a, __int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* a + b into *out; 1 if it does not fit in int64_t. */
static inline int tci_add64(int64_t a, int64_t b, int64_t *out) { return __builtin_add_overflow(a, b, out); }

/* a * b into *out; 1 if it does not fit in int64_t. */
static inline int tci_mul64(int64_t a, int64_t b, int64_t *out) { return __builtin_mul_overflow(a, b, out); }

#endif
