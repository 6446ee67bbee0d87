/*
** test_rational.c — exact int64 rationals (rational.h): the arithmetic that every exact
** cost (tau = T_B / (M/B)) is computed in.
**
** What is checked:
**   - known values: 1/2 + 1/3 = 5/6, 1/3 - 1/2 = -1/6, (2/3)(3/4) = 1/2, (1/2)/(1/4) = 2,
**     and results that must reduce (1/6 + 1/3 = 1/2, 1/2 - 1/2 = 0/1);
**   - normalisation: the sign lives in the numerator, the denominator is positive, gcd 1,
**     zero is 0/1 whatever the denominator (tc_rat_make(0, -5) = 0/1);
**   - the contract's "TC_OK or TC_ERANGE, never a wrapped value": a zero denominator, a
**     division by zero, results beyond int64 (2^32 * 2^32, INT64_MAX + 1, a denominator
**     past INT64_MAX) and -2^63 itself, which the narrowing refuses so that every stored
**     value can be negated (|num| <= INT64_MAX);
**   - no false overflow: products are formed in 128 bits and reduced before narrowing, so
**     (2^62/3)(3/2^62) = 1 and 1/2^62 + 1/2^62 = 1/2^61 although the unreduced products
**     do not fit 64 bits;
**   - comparison exact where doubles are not: 1 + 1/(2^63-2) and 1 + 1/(2^63-3) are both
**     1.0 as doubles, and tc_rat_cmp still orders them;
**   - tc_rat_to_double on values exact in binary and on 1/3; tc_rat_format;
**   - an oracle: for every pair of rationals with numerators and denominators in -7..7
**     (15 * 14 inputs each, all 44100 pairs), add/sub/mul/div/cmp agree with
**     cross-multiplication in __int128, and every result is reduced with den > 0; then
**     200000 random pairs with components of random bit length up to 63, where the oracle
**     (reduce the exact 128-bit result, then see whether it fits) decides between a value
**     and TC_ERANGE — both outcomes must occur many times, so neither path is untested.
*/
#include <stdio.h>

#include "tc_test.h"
#include "core/rng.h"
#include "topocoll/rational.h"

typedef __int128 wide;

static tc_rat rat(int64_t num, int64_t den) {
  tc_rat r;
  tc_error err;
  if (tc_rat_make(num, den, &r, &err)) fail_msg("make %lld/%lld: %s", (long long)num, (long long)den, err.msg);
  return r;
}

#define ASSERT_RAT(r, n, d)                                                                                       \
  do {                                                                                                            \
    tc_rat r_ = (r);                                                                                              \
    if (r_.num != (n) || r_.den != (d))                                                                           \
      fail_msg("%s = %lld/%lld, want %lld/%lld", #r, (long long)r_.num, (long long)r_.den, (long long)(n),        \
               (long long)(d));                                                                                   \
  } while (0)

typedef int (*binop)(tc_rat a, tc_rat b, tc_rat *out, tc_error *err);

static tc_rat apply(binop op, tc_rat a, tc_rat b) {
  tc_rat r = {-99, -99};
  tc_error err;
  if (op(a, b, &r, &err)) fail_msg("%lld/%lld op %lld/%lld: %s", (long long)a.num, (long long)a.den,
                                   (long long)b.num, (long long)b.den, err.msg);
  return r;
}

static void expect_erange(int rc, const tc_error *err, const char *msg) {
  if (rc != TC_ERANGE) fail_msg("rc %d, want TC_ERANGE", rc);
  assert_int_equal(err->code, TC_ERANGE);
  assert_string_equal(err->msg, msg);
}

static const char OVERFLOW_MSG[] = "exact rational arithmetic overflowed 64 bits";

/* ---- known values ---- */

static void make_normalises(void **state) {
  (void)state;
  ASSERT_RAT(rat(6, 4), 3, 2);
  ASSERT_RAT(rat(6, -4), -3, 2);
  ASSERT_RAT(rat(-6, -4), 3, 2);
  ASSERT_RAT(rat(-6, 4), -3, 2);
  ASSERT_RAT(rat(0, 7), 0, 1);
  ASSERT_RAT(rat(0, -5), 0, 1);
  ASSERT_RAT(rat(15, 16), 15, 16);
  ASSERT_RAT(rat(5, 1), 5, 1);
  ASSERT_RAT(rat(INT64_MAX, INT64_MAX), 1, 1);
  ASSERT_RAT(rat(INT64_MAX, -1), -INT64_MAX, 1);
  /* -2^63 as a numerator is fine once it reduces: -2^63 / 2 = -2^62; and -2^63/-2^63 = 1
     (the gcd, 2^63, exists only in 128 bits) */
  ASSERT_RAT(rat(INT64_MIN, 2), -(INT64_C(1) << 62), 1);
  ASSERT_RAT(rat(INT64_MIN, INT64_MIN), 1, 1);
  ASSERT_RAT(rat(INT64_MIN, 6), -(INT64_C(1) << 62), 3); /* gcd(2^63, 6) = 2 */
}

static void arithmetic_known_values(void **state) {
  (void)state;
  ASSERT_RAT(apply(tc_rat_add, rat(1, 2), rat(1, 3)), 5, 6);
  ASSERT_RAT(apply(tc_rat_add, rat(1, 6), rat(1, 3)), 1, 2);
  ASSERT_RAT(apply(tc_rat_add, rat(1, 2), rat(-1, 2)), 0, 1);
  ASSERT_RAT(apply(tc_rat_add, rat(-3, 4), rat(-1, 4)), -1, 1);
  ASSERT_RAT(apply(tc_rat_sub, rat(1, 3), rat(1, 2)), -1, 6);
  ASSERT_RAT(apply(tc_rat_sub, rat(15, 16), rat(15, 16)), 0, 1);
  ASSERT_RAT(apply(tc_rat_mul, rat(2, 3), rat(3, 4)), 1, 2);
  ASSERT_RAT(apply(tc_rat_mul, rat(-2, 3), rat(-3, 2)), 1, 1);
  ASSERT_RAT(apply(tc_rat_mul, rat(7, 9), rat(0, 1)), 0, 1);
  ASSERT_RAT(apply(tc_rat_div, rat(1, 2), rat(1, 4)), 2, 1);
  ASSERT_RAT(apply(tc_rat_div, rat(1, 3), rat(-1, 2)), -2, 3); /* the divisor's sign moves up */
  ASSERT_RAT(apply(tc_rat_div, rat(0, 1), rat(-5, 7)), 0, 1);
  /* the cost model's shapes: tau = (d/N) Σ_t load_t; here d = 4, N = 16, loads 1 and 11/4
     (an allgather on a 16-node degree-4 graph of diameter 2 that is BW-optimal): 15/16 */
  tc_rat sum = apply(tc_rat_add, rat(1, 1), rat(11, 4));
  ASSERT_RAT(apply(tc_rat_mul, sum, rat(4, 16)), 15, 16);
  /* allreduce doubles it: 2(N-1)/N */
  ASSERT_RAT(apply(tc_rat_add, rat(15, 16), rat(15, 16)), 15, 8);
}

static void zero_and_overflow_are_erange(void **state) {
  (void)state;
  tc_rat r;
  tc_error err;
  expect_erange(tc_rat_make(1, 0, &r, &err), &err, "rational with zero denominator");
  expect_erange(tc_rat_make(0, 0, &r, &err), &err, "rational with zero denominator");
  expect_erange(tc_rat_div(rat(1, 2), rat(0, 1), &r, &err), &err, "division by zero");
  /* -2^63 cannot be a reduced numerator, nor 2^63 a denominator */
  expect_erange(tc_rat_make(INT64_MIN, 1, &r, &err), &err, OVERFLOW_MSG);
  expect_erange(tc_rat_make(INT64_MIN, 3, &r, &err), &err, OVERFLOW_MSG);
  expect_erange(tc_rat_make(1, INT64_MIN, &r, &err), &err, OVERFLOW_MSG); /* -1/2^63 */
  expect_erange(tc_rat_make(3, INT64_MIN, &r, &err), &err, OVERFLOW_MSG);
  /* results one step past the range */
  expect_erange(tc_rat_add(rat(INT64_MAX, 1), rat(1, 1), &r, &err), &err, OVERFLOW_MSG);
  expect_erange(tc_rat_sub(rat(-INT64_MAX, 1), rat(1, 1), &r, &err), &err, OVERFLOW_MSG); /* -2^63 */
  expect_erange(tc_rat_mul(rat(INT64_C(1) << 32, 1), rat(INT64_C(1) << 32, 1), &r, &err), &err, OVERFLOW_MSG);
  expect_erange(tc_rat_mul(rat(1, INT64_MAX), rat(1, 2), &r, &err), &err, OVERFLOW_MSG);
  expect_erange(tc_rat_div(rat(INT64_MAX, 1), rat(1, 2), &r, &err), &err, OVERFLOW_MSG);
  expect_erange(tc_rat_add(rat(1, INT64_MAX), rat(1, INT64_MAX - 1), &r, &err), &err, OVERFLOW_MSG);
  /* ... and exactly at its edges, fine */
  ASSERT_RAT(apply(tc_rat_add, rat(INT64_MAX - 1, 1), rat(1, 1)), INT64_MAX, 1);
  ASSERT_RAT(apply(tc_rat_sub, rat(-INT64_MAX + 1, 1), rat(1, 1)), -INT64_MAX, 1);
  ASSERT_RAT(apply(tc_rat_mul, rat(1, INT64_C(1) << 31), rat(1, INT64_C(1) << 31)), 1, INT64_C(1) << 62);
  /* err may be NULL (error.h) */
  assert_int_equal(tc_rat_make(1, 0, &r, NULL), TC_ERANGE);
  assert_int_equal(tc_rat_mul(rat(INT64_MAX, 1), rat(2, 1), &r, NULL), TC_ERANGE);
}

/* Intermediate products beyond 64 bits that reduce back into range. */
static void no_false_overflow(void **state) {
  (void)state;
  const int64_t p62 = INT64_C(1) << 62;
  ASSERT_RAT(apply(tc_rat_mul, rat(p62, 3), rat(3, p62)), 1, 1);           /* 3 * 2^62 > INT64_MAX */
  ASSERT_RAT(apply(tc_rat_add, rat(1, p62), rat(1, p62)), 1, p62 / 2);     /* den product 2^124 */
  ASSERT_RAT(apply(tc_rat_sub, rat(1, p62), rat(1, p62)), 0, 1);
  ASSERT_RAT(apply(tc_rat_div, rat(p62, 5), rat(p62, 7)), 7, 5);           /* 7 * 2^62 > INT64_MAX */
  ASSERT_RAT(apply(tc_rat_mul, rat(INT64_MAX, 2), rat(2, INT64_MAX)), 1, 1);
  ASSERT_RAT(apply(tc_rat_add, rat(INT64_MAX, 3), rat(-INT64_MAX, 3)), 0, 1);
}

static void comparison(void **state) {
  (void)state;
  assert_int_equal(tc_rat_cmp(rat(1, 3), rat(1, 2)), -1);
  assert_int_equal(tc_rat_cmp(rat(1, 2), rat(1, 3)), 1);
  assert_int_equal(tc_rat_cmp(rat(2, 4), rat(1, 2)), 0);
  assert_int_equal(tc_rat_cmp(rat(-1, 2), rat(1, -3)), -1);
  assert_int_equal(tc_rat_cmp(rat(0, 5), rat(0, -1)), 0);
  assert_int_equal(tc_rat_cmp(rat(15, 16), rat(21, 16)), -1);
  /* a = 1 + 1/(M-1) and b = 1 + 1/(M-2), M = 2^63 - 1: as doubles both are exactly 1.0,
     but a < b because M(M-2) = M^2 - 2M < M^2 - 2M + 1 = (M-1)^2 */
  tc_rat a = rat(INT64_MAX, INT64_MAX - 1), b = rat(INT64_MAX - 1, INT64_MAX - 2);
  assert_true(tc_rat_to_double(a) == tc_rat_to_double(b));
  assert_int_equal(tc_rat_cmp(a, b), -1);
  assert_int_equal(tc_rat_cmp(b, a), 1);
  assert_int_equal(tc_rat_cmp(a, a), 0);
  /* the extremes of the representable range */
  assert_int_equal(tc_rat_cmp(rat(-INT64_MAX, 1), rat(INT64_MAX, 1)), -1);
  assert_int_equal(tc_rat_cmp(rat(1, INT64_MAX), rat(0, 1)), 1);
  assert_int_equal(tc_rat_cmp(rat(-1, INT64_MAX), rat(0, 1)), -1);
}

static void to_double_and_format(void **state) {
  (void)state;
  assert_true(tc_rat_to_double(rat(15, 16)) == 0.9375);
  assert_true(tc_rat_to_double(rat(-7, 8)) == -0.875);
  assert_true(tc_rat_to_double(rat(63, 32)) == 1.96875);
  assert_true(tc_rat_to_double(rat(0, 3)) == 0.0);
  assert_true(tc_rat_to_double(rat(1, 3)) == 1.0 / 3.0);  /* one correctly rounded division */
  assert_true(tc_rat_to_double(rat(341, 256)) == 1.33203125);
  char buf[64];
  tc_rat_format(rat(3, 4), buf, sizeof buf);
  assert_string_equal(buf, "3/4");
  tc_rat_format(rat(6, -8), buf, sizeof buf);
  assert_string_equal(buf, "-3/4");
  tc_rat_format(rat(10, 2), buf, sizeof buf);
  assert_string_equal(buf, "5");
  tc_rat_format(rat(0, -9), buf, sizeof buf);
  assert_string_equal(buf, "0");
  tc_rat_format(rat(-INT64_MAX, INT64_MAX - 1), buf, sizeof buf);
  assert_string_equal(buf, "-9223372036854775807/9223372036854775806");
  /* a short buffer is never overrun and stays terminated */
  char small[8];
  memset(small, 'x', sizeof small);
  tc_rat_format(rat(1234567, 89), small, 5);
  assert_int_equal(strlen(small), 4);
  assert_memory_equal(small, "1234", 4);
  assert_int_equal(small[5], 'x');
}

/* ---- oracles ---- */

/* Stein's binary gcd: a different algorithm from the library's Euclid, so the oracle does
   not share the code it checks. */
static wide gcd_w(wide a, wide b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  if (a == 0) return b;
  if (b == 0) return a;
  int shift = 0;
  while (((a | b) & 1) == 0) a >>= 1, b >>= 1, shift++;
  while ((a & 1) == 0) a >>= 1;
  while (b) {
    while ((b & 1) == 0) b >>= 1;
    if (a > b) {
      wide t = a;
      a = b;
      b = t;
    }
    b -= a;
  }
  return a << shift;
}

/* r must be reduced with a positive denominator and equal n/d (d != 0) exactly. */
static void assert_equals_fraction(tc_rat r, wide n, wide d, const char *what) {
  if (r.den <= 0 || gcd_w(r.num, r.den) != 1) fail_msg("%s: %lld/%lld not normalised", what, (long long)r.num, (long long)r.den);
  if ((wide)r.num * d != n * (wide)r.den) fail_msg("%s: %lld/%lld is the wrong value", what, (long long)r.num, (long long)r.den);
}

static int sign_w(wide x) { return (x > 0) - (x < 0); }

/* Every pair of small rationals: exact results by cross-multiplication. */
static void small_oracle(void **state) {
  (void)state;
  tc_rat vals[15 * 14];
  int nv = 0;
  for (int n = -7; n <= 7; n++)
    for (int d = -7; d <= 7; d++) {
      if (!d) continue;
      tc_rat r = rat(n, d);
      assert_equals_fraction(r, n, d, "make");
      vals[nv++] = r;
    }
  assert_int_equal(nv, 15 * 14);
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++) {
      tc_rat a = vals[i], b = vals[j], r;
      tc_error err;
      wide an = a.num, ad = a.den, bn = b.num, bd = b.den;
      assert_int_equal(tc_rat_add(a, b, &r, &err), TC_OK);
      assert_equals_fraction(r, an * bd + bn * ad, ad * bd, "add");
      assert_int_equal(tc_rat_sub(a, b, &r, &err), TC_OK);
      assert_equals_fraction(r, an * bd - bn * ad, ad * bd, "sub");
      assert_int_equal(tc_rat_mul(a, b, &r, &err), TC_OK);
      assert_equals_fraction(r, an * bn, ad * bd, "mul");
      if (b.num) {
        assert_int_equal(tc_rat_div(a, b, &r, &err), TC_OK);
        assert_equals_fraction(r, an * bd, ad * bn, "div");
      } else {
        assert_int_equal(tc_rat_div(a, b, &r, &err), TC_ERANGE);
      }
      assert_int_equal(tc_rat_cmp(a, b), sign_w(an * bd - bn * ad));
    }
}

/* A random int64 of random bit length 0..63 and random sign (never -2^63). */
static int64_t random_component(tc_rng *rng) {
  int bits = (int)tci_rng_below(rng, 64);
  int64_t v = bits ? (int64_t)(tci_rng_next(rng) >> (64 - bits)) : 0;
  return tci_rng_below(rng, 2) ? -v : v;
}

static tc_rat random_rat(tc_rng *rng) {
  for (;;) {
    int64_t n = random_component(rng), d = random_component(rng);
    tc_rat r;
    if (d && tc_rat_make(n, d, &r, NULL) == TC_OK) return r;
  }
}

/* What the exact result n/d (d != 0, both < 2^127 in magnitude) should give: 1 and *want
   when it reduces into int64 (|num| <= INT64_MAX, den <= INT64_MAX), else 0. */
static int oracle_narrow(wide n, wide d, tc_rat *want) {
  if (d < 0) { n = -n; d = -d; }
  wide g = gcd_w(n, d);
  if (g > 1) { n /= g; d /= g; }
  if (n > INT64_MAX || n < -INT64_MAX || d > INT64_MAX) return 0;
  want->num = (int64_t)n;
  want->den = (int64_t)d;
  return 1;
}

static void check_op(const char *name, int rc, tc_rat got, int fits, tc_rat want, tc_rat a, tc_rat b, int *ok,
                     int *range) {
  if (fits) {
    if (rc != TC_OK || got.num != want.num || got.den != want.den)
      fail_msg("%s(%lld/%lld, %lld/%lld): rc %d %lld/%lld, want %lld/%lld", name, (long long)a.num, (long long)a.den,
               (long long)b.num, (long long)b.den, rc, (long long)got.num, (long long)got.den, (long long)want.num,
               (long long)want.den);
    (*ok)++;
  } else {
    if (rc != TC_ERANGE)
      fail_msg("%s(%lld/%lld, %lld/%lld): rc %d, want TC_ERANGE", name, (long long)a.num, (long long)a.den,
               (long long)b.num, (long long)b.den, rc);
    (*range)++;
  }
}

static void random_oracle(void **state) {
  (void)state;
  tc_rng rng;
  tci_rng_seed(&rng, 20240601);
  int ok = 0, range = 0;
  for (int i = 0; i < 200000; i++) {
    tc_rat a = random_rat(&rng), b = random_rat(&rng), got = {0, 0}, want = {0, 0};
    wide an = a.num, ad = a.den, bn = b.num, bd = b.den;
    int fits = oracle_narrow(an * bd + bn * ad, ad * bd, &want);
    check_op("add", tc_rat_add(a, b, &got, NULL), got, fits, want, a, b, &ok, &range);
    fits = oracle_narrow(an * bd - bn * ad, ad * bd, &want);
    check_op("sub", tc_rat_sub(a, b, &got, NULL), got, fits, want, a, b, &ok, &range);
    fits = oracle_narrow(an * bn, ad * bd, &want);
    check_op("mul", tc_rat_mul(a, b, &got, NULL), got, fits, want, a, b, &ok, &range);
    if (b.num) {
      fits = oracle_narrow(an * bd, ad * bn, &want);
      check_op("div", tc_rat_div(a, b, &got, NULL), got, fits, want, a, b, &ok, &range);
    }
    int s = sign_w(an * bd - bn * ad);
    if (tc_rat_cmp(a, b) != s)
      fail_msg("cmp(%lld/%lld, %lld/%lld) != %d", (long long)a.num, (long long)a.den, (long long)b.num,
               (long long)b.den, s);
  }
  /* both paths exercised many times (the bit lengths are uniform, so roughly half the
     products of two components exceed 63 bits) */
  if (ok < 100000 || range < 100000) fail_msg("oracle coverage: %d in range, %d TC_ERANGE", ok, range);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(make_normalises),     cmocka_unit_test(arithmetic_known_values),
      cmocka_unit_test(zero_and_overflow_are_erange), cmocka_unit_test(no_false_overflow),
      cmocka_unit_test(comparison),          cmocka_unit_test(to_double_and_format),
      cmocka_unit_test(small_oracle),        cmocka_unit_test(random_oracle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
