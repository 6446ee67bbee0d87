/*
** intmath.h — integer helpers shared across modules. Internal header.
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

#endif
