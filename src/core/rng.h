/*
** rng.h — a small deterministic PRNG (xoshiro256**, seeded by splitmix64) so random
** topologies are reproducible from their seed on every platform. Internal header.
*/
#ifndef TC_CORE_RNG_H
#define TC_CORE_RNG_H

#include <stdint.h>

typedef struct tc_rng { uint64_t s[4]; } tc_rng;

static inline uint64_t tci_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline void tci_rng_seed(tc_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = tci_splitmix64(&seed);
}

static inline uint64_t tci_rng_next(tc_rng *r) {
  uint64_t *s = r->s;
  uint64_t x = s[1] * 5, result = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return result;
}

/* Uniform integer in [0, bound), bound >= 1, without modulo bias. */
static inline uint64_t tci_rng_below(tc_rng *r, uint64_t bound) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t x;
  do x = tci_rng_next(r); while (x >= limit);
  return x % bound;
}

#endif
