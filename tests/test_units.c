/*
** test_units.c — the single-quantity parsers of units.h: tc_units_parse_time,
** tc_units_parse_bandwidth and tc_units_parse_size (size lists are test_units_list.c's).
** units.h declares no formatter, so there is none to test here.
**
** What is checked, against values written out by hand:
**   - every unit of every kind at 1 and at a fractional value: ns us µs (both code points)
**     ms s; Mbps Gbps mbps gbps Mb/s Gb/s (bits, so /8) MBps GBps MB/s GB/s; B KB MB GB
**     (10^3k) K M G KiB MiB GiB (2^10k) and the bare byte count;
**   - correct rounding, the header's promise: "10us" is the double 1e-5 and not 10 * 1e-6
**     (= 9.999999999999999e-06); likewise 7ns, 3ns, 1.7us, 33us, whose naive products
**     (value * 10^-k) differ from the correctly rounded literal in the last bit — so a
**     multiply-by-unit implementation fails here;
**   - exact sizes: fractions are whole only when the unit supplies the factors of 10^L
**     ("1.5KB" = 1500, "0.5KiB" = 512, "0.0009765625MiB" = 2^-10 MiB = 1024, one byte as
**     the 30-digit fraction 2^-30 GiB), and refused otherwise ("0.3B", "1.0001KB");
**   - the top of int64: INT64_MAX = 2^63 - 1 reached as a plain count, as
**     9223372036854775.807KB and as (2^33 - 1) GiB + (2^30 - 1) B; one more byte by any
**     route (a digit, the multiply, the add of the fraction) is "too large";
**   - the 64-character limit (64 accepted, 65 refused) and every refusal with its exact
**     code (TC_EINPUT, also recorded in err.code) and its exact one-line message, including
**     the quoting of untrusted text (non-ASCII bytes as '?', long text cut at 40 characters
**     with "...");
**   - the error.h contract that err may be NULL.
*/
#include <math.h>
#include <stdio.h>

#include "tc_test.h"
#include "topocoll/units.h"

/* ---- helpers: one parser call, the value or the exact message ---- */

static void expect_time(const char *text, double want) {
  double got = -1;
  tc_error err;
  if (tc_units_parse_time(text, &got, &err)) fail_msg("time \"%s\": %s", text, err.msg);
  /* exact: the header promises the correctly rounded double */
  if (got != want) fail_msg("time \"%s\" = %.17g, want %.17g", text, got, want);
}

static void expect_bandwidth(const char *text, double want) {
  double got = -1;
  tc_error err;
  if (tc_units_parse_bandwidth(text, &got, &err)) fail_msg("bandwidth \"%s\": %s", text, err.msg);
  if (got != want) fail_msg("bandwidth \"%s\" = %.17g, want %.17g", text, got, want);
}

static void expect_size(const char *text, int64_t want) {
  int64_t got = -1;
  tc_error err;
  if (tc_units_parse_size(text, &got, &err)) fail_msg("size \"%s\": %s", text, err.msg);
  if (got != want) fail_msg("size \"%s\" = %lld, want %lld", text, (long long)got, (long long)want);
}

typedef enum { KIND_TIME, KIND_BANDWIDTH, KIND_SIZE } kind;

/* The call must fail with TC_EINPUT, record the code, and say exactly `msg`. */
static void expect_refused(kind k, const char *text, const char *msg) {
  tc_error err;
  double d = 0;
  int64_t i = 0;
  int rc = k == KIND_TIME        ? tc_units_parse_time(text, &d, &err)
           : k == KIND_BANDWIDTH ? tc_units_parse_bandwidth(text, &d, &err)
                                 : tc_units_parse_size(text, &i, &err);
  if (rc != TC_EINPUT) fail_msg("\"%s\": rc %d, want TC_EINPUT (%s)", text, rc, rc ? err.msg : "accepted");
  assert_int_equal(err.code, TC_EINPUT);
  if (strcmp(err.msg, msg)) fail_msg("\"%s\":\n  got  '%s'\n  want '%s'", text, err.msg, msg);
}

/* A string of n copies of c followed by tail (caller frees). */
static char *repeat(char c, int n, const char *tail) {
  size_t len = (size_t)n + strlen(tail);
  char *s = malloc(len + 1);
  assert_non_null(s);
  memset(s, c, (size_t)n);
  strcpy(s + n, tail);
  return s;
}

/* ---- time ---- */

static void time_units(void **state) {
  (void)state;
  expect_time("1ns", 1e-9);
  expect_time("1us", 1e-6);
  expect_time("1ms", 1e-3);
  expect_time("1s", 1.0);
  expect_time("10\xc2\xb5s", 1e-5); /* U+00B5 MICRO SIGN */
  expect_time("10\xce\xbcs", 1e-5); /* U+03BC GREEK SMALL LETTER MU */
  expect_time("10us", 1e-5); /* the header's example */
  expect_time("2.5ms", 2.5e-3);
  expect_time("0.000001s", 1e-6);
  expect_time("1500ns", 1.5e-6);
  expect_time("007us", 7e-6);  /* leading zeros are digits like any other */
  expect_time("10.000us", 1e-5); /* trailing zeros change nothing */
  /* a time may be zero (a latency-free model), in any unit and spelling */
  expect_time("0s", 0.0);
  expect_time("0us", 0.0);
  expect_time("0.0ns", 0.0);
}

/* Values whose naive product value * 10^-k is one ulp off the correctly rounded literal
   (the first three asserts show it for this compiler's doubles): the parser must hand the
   decimal and its exponent to strtod together. */
static void time_correctly_rounded(void **state) {
  (void)state;
  assert_true(10 * 1e-6 != 1e-5); /* the premise: the naive product is wrong */
  assert_true(7 * 1e-9 != 7e-9);
  assert_true(1.7 * 1e-6 != 1.7e-6);
  expect_time("10us", 1e-5);
  expect_time("7ns", 7e-9);
  expect_time("3ns", 3e-9);
  expect_time("9ns", 9e-9);
  expect_time("1.7us", 1.7e-6);
  expect_time("33us", 3.3e-5);
  expect_time("0.3s", 0.3);
}

static void time_refusals(void **state) {
  (void)state;
  expect_refused(KIND_TIME, "", "empty time (expected e.g. 10us)");
  expect_refused(KIND_TIME, "10", "time \"10\": missing unit (ns, us, ms or s)");
  expect_refused(KIND_TIME, "10US", "time \"10US\": unknown unit \"US\" (expected ns, us, ms or s)");
  expect_refused(KIND_TIME, "10 us", "time \"10 us\": unknown unit \" us\" (expected ns, us, ms or s)");
  expect_refused(KIND_TIME, "1e3us", "time \"1e3us\": unknown unit \"e3us\" (expected ns, us, ms or s)");
  expect_refused(KIND_TIME, "10min", "time \"10min\": unknown unit \"min\" (expected ns, us, ms or s)");
  /* a lone micro sign's bytes without the s, or a Latin-1 micro sign, are quoted as "?" */
  expect_refused(KIND_TIME, "10\xc2\xb5", "time \"10??\": unknown unit \"??\" (expected ns, us, ms or s)");
  expect_refused(KIND_TIME, "10\xb5s", "time \"10?s\": unknown unit \"?s\" (expected ns, us, ms or s)");
  expect_refused(KIND_TIME, "-1us", "time \"-1us\" must not be negative");
  expect_refused(KIND_TIME, "-0s", "time \"-0s\" must not be negative");
  expect_refused(KIND_TIME, "+1us", "time \"+1us\": expected a number followed by a unit, e.g. 10us");
  expect_refused(KIND_TIME, ".5us", "time \".5us\": expected a number followed by a unit, e.g. 10us");
  expect_refused(KIND_TIME, "us", "time \"us\": expected a number followed by a unit, e.g. 10us");
  expect_refused(KIND_TIME, " 1us", "time \" 1us\": expected a number followed by a unit, e.g. 10us");
  expect_refused(KIND_TIME, "1.us", "time \"1.us\": expected digits after the decimal point");
  expect_refused(KIND_TIME, "1..2us", "time \"1..2us\": expected digits after the decimal point");
  expect_refused(KIND_TIME, "1.2.3us", "time \"1.2.3us\": unknown unit \".3us\" (expected ns, us, ms or s)");
}

/* ---- bandwidth ---- */

static void bandwidth_units(void **state) {
  (void)state;
  expect_bandwidth("25Gbps", 3.125e9); /* the header's example: 25e9 bits / 8 */
  expect_bandwidth("100Gbps", 1.25e10);
  expect_bandwidth("1Gbps", 1.25e8);
  expect_bandwidth("1Mbps", 125000.0);
  expect_bandwidth("0.8Mbps", 100000.0);
  expect_bandwidth("1MBps", 1e6);
  expect_bandwidth("1GBps", 1e9);
  expect_bandwidth("12.5GBps", 1.25e10); /* = 100Gbps */
  expect_bandwidth("100gbps", 1.25e10);   /* lower-case prefix, b still bits */
  expect_bandwidth("800mbps", 1e8);
  expect_bandwidth("100Gb/s", 1.25e10);
  expect_bandwidth("8Mb/s", 1e6);
  expect_bandwidth("12.5GB/s", 1.25e10);
  expect_bandwidth("3MB/s", 3e6);
  expect_bandwidth("0.1GBps", 1e8);
  /* dividing by 8 only shifts the exponent, so the bit rate's correct rounding survives:
     1e-3 bits/s is the double nearest 1e-3, and that over 8 is the double nearest 1.25e-4 */
  expect_bandwidth("0.000000001Mbps", 1.25e-4);
  /* the largest values a 64-character text can spell stay finite: (10^60 - 1) * 10^9 B/s
     rounds to the double nearest 10^69 (its ulp there is ~10^53) */
  char *big = repeat('9', 60, "GBps");
  expect_bandwidth(big, 1e69);
  free(big);
}

static void bandwidth_refusals(void **state) {
  (void)state;
  static const char expected[] = "(expected Mbps, Gbps (bits/s), MBps or GBps (bytes/s))";
  char msg[256];
  expect_refused(KIND_BANDWIDTH, "", "empty bandwidth (expected e.g. 25Gbps)");
  expect_refused(KIND_BANDWIDTH, "0Gbps", "bandwidth \"0Gbps\" must be positive");
  expect_refused(KIND_BANDWIDTH, "0.000MBps", "bandwidth \"0.000MBps\" must be positive");
  expect_refused(KIND_BANDWIDTH, "-25Gbps", "bandwidth \"-25Gbps\" must not be negative");
  expect_refused(KIND_BANDWIDTH, "25", "bandwidth \"25\": missing unit (Mbps, Gbps (bits/s), MBps or GBps (bytes/s))");
  static const char *const unknown[][2] = {{"25gBps", "gBps"}, {"25Gb", "Gb"},       {"25Kbps", "Kbps"},
                                           {"1Tbps", "Tbps"},   {"25GiBps", "GiBps"}, {"25Gbps ", "Gbps "}};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    snprintf(msg, sizeof msg, "bandwidth \"%s\": unknown unit \"%s\" %s", unknown[i][0], unknown[i][1], expected);
    expect_refused(KIND_BANDWIDTH, unknown[i][0], msg);
  }
  /* the unit is checked before the value: "0Xbps" is an unknown unit, not a zero */
  snprintf(msg, sizeof msg, "bandwidth \"0Xbps\": unknown unit \"Xbps\" %s", expected);
  expect_refused(KIND_BANDWIDTH, "0Xbps", msg);
  expect_refused(KIND_BANDWIDTH, "Gbps", "bandwidth \"Gbps\": expected a number followed by a unit, e.g. 25Gbps");
  expect_refused(KIND_BANDWIDTH, "2.Gbps", "bandwidth \"2.Gbps\": expected digits after the decimal point");
}

/* ---- size ---- */

static void size_units(void **state) {
  (void)state;
  expect_size("1048576", 1048576); /* no unit: bytes */
  expect_size("1B", 1);
  expect_size("1KB", 1000);
  expect_size("1MB", 1000000);
  expect_size("1GB", 1000000000);
  expect_size("1KiB", 1024);
  expect_size("4MiB", 4194304);
  expect_size("1GiB", 1073741824);
  expect_size("1K", 1024); /* nccl-tests' K, M, G: binary */
  expect_size("256M", 268435456);
  expect_size("2G", 2147483648);
  expect_size("0.5K", 512);
  expect_size("00001KB", 1000);
  expect_size("7.000B", 7); /* trailing zeros after the point are not a fraction */
}

/* A fraction f/10^L of a unit of 2^a 5^b bytes is whole iff 10^L divides f * 2^a 5^b. */
static void size_fractions(void **state) {
  (void)state;
  expect_size("1.5KB", 1500);
  expect_size("1.50KB", 1500);
  expect_size("0.5KiB", 512);
  expect_size("0.001KB", 1);
  expect_size("1.25GB", 1250000000);
  expect_size("0.000000001GB", 1);
  expect_size("0.0009765625MiB", 1024);    /* 2^-10 MiB: ten fraction digits, 2^20 / 2^10 */
  expect_size("0.000244140625GiB", 262144); /* 2^-12 GiB = 2^18 */
  /* 2^-30 GiB = one byte: 9.31322574615478515625e-10, a fraction of exactly 30 digits */
  expect_size("0.000000000931322574615478515625GiB", 1);
  expect_size("0.0000000009313225746154785156250000GiB", 1); /* 34 digits, 30 after stripping zeros */
  /* refused: not a whole number of bytes */
  expect_refused(KIND_SIZE, "0.3B", "size \"0.3B\" is not a whole number of bytes");
  expect_refused(KIND_SIZE, "1.5", "size \"1.5\" is not a whole number of bytes");
  expect_refused(KIND_SIZE, "1.0001KB", "size \"1.0001KB\" is not a whole number of bytes");
  expect_refused(KIND_SIZE, "0.3KiB", "size \"0.3KiB\" is not a whole number of bytes"); /* 307.2 */
  /* 2^-31 GiB is half a byte; 31 fraction digits */
  expect_refused(KIND_SIZE, "0.0000000004656612873077392578125GiB",
                 "size \"0.0000000004656612873077392578125GiB\" is not a whole number of bytes");
}

static void size_top_of_int64(void **state) {
  (void)state;
  const int64_t max = INT64_MAX; /* 9223372036854775807 = 2^63 - 1 */
  expect_size("9223372036854775807", max);
  expect_size("9223372036854775807B", max);
  expect_size("9223372036854775.807KB", max);
  expect_size("9223372036854775KB", max - 807);
  /* 8589934591 GiB = (2^33 - 1) 2^30 = 2^63 - 2^30, plus the fraction (2^30 - 1)/2^30 GiB */
  expect_size("8589934591GiB", max - 1073741823);
  expect_size("8589934591.999999999068677425384521484375GiB", max);
  /* one past the top, by each of the three ways the arithmetic can overflow */
  expect_refused(KIND_SIZE, "9223372036854775808", "size \"9223372036854775808\" is too large (at most 2^63-1 bytes)");
  expect_refused(KIND_SIZE, "99999999999999999999B", "size \"99999999999999999999B\" is too large (at most 2^63-1 bytes)");
  expect_refused(KIND_SIZE, "8589934592GiB", "size \"8589934592GiB\" is too large (at most 2^63-1 bytes)");
  expect_refused(KIND_SIZE, "9223372036854776KB", "size \"9223372036854776KB\" is too large (at most 2^63-1 bytes)");
  expect_refused(KIND_SIZE, "9223372036854775.808KB",
                 "size \"9223372036854775.808KB\" is too large (at most 2^63-1 bytes)");
}

static void size_refusals(void **state) {
  (void)state;
  static const char expected[] = "(expected B, KB, MB, GB, K, M, G, KiB, MiB or GiB)";
  char msg[256];
  expect_refused(KIND_SIZE, "", "empty size (expected e.g. 1MB)");
  expect_refused(KIND_SIZE, "0", "size \"0\" must be positive");
  expect_refused(KIND_SIZE, "0KB", "size \"0KB\" must be positive");
  expect_refused(KIND_SIZE, "0.000GiB", "size \"0.000GiB\" must be positive");
  expect_refused(KIND_SIZE, "-1", "size \"-1\" must not be negative");
  expect_refused(KIND_SIZE, "-1KB", "size \"-1KB\" must not be negative");
  expect_refused(KIND_SIZE, "KB", "size \"KB\": expected a number followed by a unit, e.g. 1MB");
  expect_refused(KIND_SIZE, ".5KB", "size \".5KB\": expected a number followed by a unit, e.g. 1MB");
  expect_refused(KIND_SIZE, "1.", "size \"1.\": expected digits after the decimal point");
  static const char *const unknown[][2] = {{"1kB", "kB"}, {"1Mb", "Mb"}, {"1TB", "TB"},    {"1TiB", "TiB"},
                                           {"1 MB", " MB"}, {"1MB ", "MB "}, {"1e6", "e6"}, {"4XB", "XB"},
                                           {"0XB", "XB"}};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    snprintf(msg, sizeof msg, "size \"%s\": unknown unit \"%s\" %s", unknown[i][0], unknown[i][1], expected);
    expect_refused(KIND_SIZE, unknown[i][0], msg);
  }
}

/* TEXT_MAX = 64 characters: the longest accepted text and the shortest refused one. The
   message quotes only the first 40 characters, then "...". */
static void length_limit(void **state) {
  (void)state;
  char *t64 = repeat('0', 61, "1us"), *t65 = repeat('0', 62, "1us");
  assert_int_equal(strlen(t64), 64);
  expect_time(t64, 1e-6);
  char *s64 = repeat('0', 62, "KB"), *s65 = repeat('0', 63, "KB");
  s64[61] = '1'; /* "00…01KB" */
  expect_size(s64, 1000);
  char *b64 = repeat('0', 60, "Gbps"), *b65 = repeat('0', 61, "Gbps");
  b64[59] = '8';
  expect_bandwidth(b64, 1e9);
  char forty[41];
  memset(forty, '0', 40);
  forty[40] = '\0';
  char msg[256];
  snprintf(msg, sizeof msg, "time \"%s\"... is too long (at most 64 characters)", forty);
  expect_refused(KIND_TIME, t65, msg);
  snprintf(msg, sizeof msg, "size \"%s\"... is too long (at most 64 characters)", forty);
  expect_refused(KIND_SIZE, s65, msg);
  snprintf(msg, sizeof msg, "bandwidth \"%s\"... is too long (at most 64 characters)", forty);
  expect_refused(KIND_BANDWIDTH, b65, msg);
  free(t64);
  free(t65);
  free(s64);
  free(s65);
  free(b64);
  free(b65);
}

/* Control bytes in the text never reach the one-line message (they become '?'). */
static void quoting_keeps_one_line(void **state) {
  (void)state;
  expect_refused(KIND_SIZE, "1M\nB", "size \"1M?B\": unknown unit \"M?B\" (expected B, KB, MB, GB, K, M, G, KiB, MiB or GiB)");
  expect_refused(KIND_TIME, "1\tus", "time \"1?us\": unknown unit \"?us\" (expected ns, us, ms or s)");
}

/* error.h: "when it fails and err is not NULL" — a NULL err is allowed. */
static void null_error_record(void **state) {
  (void)state;
  double d;
  int64_t i;
  assert_int_equal(tc_units_parse_time("1parsec", &d, NULL), TC_EINPUT);
  assert_int_equal(tc_units_parse_bandwidth("0Gbps", &d, NULL), TC_EINPUT);
  assert_int_equal(tc_units_parse_size("0.3B", &i, NULL), TC_EINPUT);
  assert_int_equal(tc_units_parse_size("9223372036854775808", &i, NULL), TC_EINPUT);
  assert_int_equal(tc_units_parse_size("2KiB", &i, NULL), TC_OK);
  assert_int_equal(i, 2048);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(time_units),        cmocka_unit_test(time_correctly_rounded),
      cmocka_unit_test(time_refusals),     cmocka_unit_test(bandwidth_units),
      cmocka_unit_test(bandwidth_refusals), cmocka_unit_test(size_units),
      cmocka_unit_test(size_fractions),    cmocka_unit_test(size_top_of_int64),
      cmocka_unit_test(size_refusals),     cmocka_unit_test(length_limit),
      cmocka_unit_test(quoting_keeps_one_line), cmocka_unit_test(null_error_record),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
