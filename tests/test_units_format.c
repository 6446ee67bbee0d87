/*
** test_units_format.c — the formatters of units.h (tc_units_format_time, _size,
** _bandwidth), every output compared with a string written out by hand:
**   - times: the unit switches at 1 ms and 1 s (1e-3 is "1.000 ms", 1 is "1.000 s"), 1/3/3
**     digits after the point, "µs" with TC_UNITS_TIME_MICRO_SIGN (milliseconds and seconds
**     unchanged), 3/4/5 digits with TC_UNITS_TIME_FINE, both flags together, "-" for a
**     negative time;
**   - sizes: the largest unit that divides exactly, decimal before binary on each level
**     (128000 is "128 KB", not "125 KiB"; 16384000000 is "16384 MB", not "15625 MiB"), a
**     higher level before a lower one (131072000 is "125 MiB", not "131072 KB"), bytes when
**     no unit divides (1500, 1536), zero, INT64_MAX;
**   - bandwidths: GB/s with 3 digits, rounded; "-" for a negative one;
**   - a buffer too small: cut short and NUL-terminated, as snprintf does.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "topocoll/units.h"

static void expect_time(double s, int flags, const char *want) {
  char buf[64];
  tc_units_format_time(s, flags, buf, sizeof buf);
  if (strcmp(buf, want)) fail_msg("time %.17g (flags %d): \"%s\", want \"%s\"", s, flags, buf, want);
}

static void expect_size(int64_t bytes, const char *want) {
  char buf[64];
  tc_units_format_size(bytes, buf, sizeof buf);
  if (strcmp(buf, want)) fail_msg("size %lld: \"%s\", want \"%s\"", (long long)bytes, buf, want);
}

static void expect_bandwidth(double bps, const char *want) {
  char buf[64];
  tc_units_format_bandwidth(bps, buf, sizeof buf);
  if (strcmp(buf, want)) fail_msg("bandwidth %.17g: \"%s\", want \"%s\"", bps, buf, want);
}

static void times_for_terminals(void **state) {
  (void)state;
  expect_time(0, 0, "0.0 us");
  expect_time(10e-6, 0, "10.0 us");
  expect_time(323.5e-6, 0, "323.5 us");
  expect_time(999.9e-6, 0, "999.9 us");
  expect_time(1e-3, 0, "1.000 ms");
  expect_time(5.369e-3, 0, "5.369 ms");
  expect_time(0.999, 0, "999.000 ms");
  expect_time(1, 0, "1.000 s");
  expect_time(1.234, 0, "1.234 s");
  expect_time(125.5, 0, "125.500 s");
  expect_time(-1, 0, "-");
  expect_time(-1e-9, TC_UNITS_TIME_FINE, "-");
}

static void times_for_markdown(void **state) {
  (void)state;
  expect_time(323.5e-6, TC_UNITS_TIME_MICRO_SIGN, "323.5 µs");
  expect_time(0, TC_UNITS_TIME_MICRO_SIGN, "0.0 µs");
  expect_time(5.369e-3, TC_UNITS_TIME_MICRO_SIGN, "5.369 ms");
  expect_time(2.458, TC_UNITS_TIME_MICRO_SIGN, "2.458 s");
}

static void fine_times(void **state) {
  (void)state;
  expect_time(323.5e-6, TC_UNITS_TIME_FINE, "323.500 us");
  expect_time(1.28e-9, TC_UNITS_TIME_FINE, "0.001 us");
  expect_time(5.369e-3, TC_UNITS_TIME_FINE, "5.3690 ms");
  expect_time(2.00000256e-3, TC_UNITS_TIME_FINE, "2.0000 ms");
  expect_time(1.234, TC_UNITS_TIME_FINE, "1.23400 s");
  expect_time(323.5e-6, TC_UNITS_TIME_FINE | TC_UNITS_TIME_MICRO_SIGN, "323.500 µs");
}

static void sizes(void **state) {
  (void)state;
  expect_size(0, "0 B");
  expect_size(999, "999 B");
  expect_size(1000, "1 KB");
  expect_size(1024, "1 KiB");
  expect_size(1500, "1500 B");
  expect_size(1536, "1536 B");
  expect_size(3072, "3 KiB");
  expect_size(4000, "4 KB");
  expect_size(128000, "128 KB");
  expect_size(524288, "512 KiB");
  expect_size(1000000, "1 MB");
  expect_size(1048576, "1 MiB");
  expect_size(64000000, "64 MB");
  expect_size(131072000, "125 MiB");
  expect_size(16384000000, "16384 MB");
  expect_size(1000000000, "1 GB");
  expect_size(INT64_C(1) << 30, "1 GiB");
  expect_size(INT64_C(3) << 30, "3 GiB");
  expect_size(INT64_MAX, "9223372036854775807 B");
}

static void bandwidths(void **state) {
  (void)state;
  expect_bandwidth(0, "0.000 GB/s");
  expect_bandwidth(1.25e9, "1.250 GB/s");
  expect_bandwidth(3.125e9, "3.125 GB/s");
  expect_bandwidth(1048576 / 0.002, "0.524 GB/s");
  expect_bandwidth(12.3456e9, "12.346 GB/s");
  expect_bandwidth(-1, "-");
}

static void small_buffers(void **state) {
  (void)state;
  char buf[4];
  tc_units_format_time(1.234, 0, buf, sizeof buf);
  assert_string_equal(buf, "1.2");
  tc_units_format_size(64000000, buf, sizeof buf);
  assert_string_equal(buf, "64 ");
  tc_units_format_bandwidth(1.25e9, buf, sizeof buf);
  assert_string_equal(buf, "1.2");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(times_for_terminals), cmocka_unit_test(times_for_markdown), cmocka_unit_test(fine_times),
      cmocka_unit_test(sizes),               cmocka_unit_test(bandwidths),         cmocka_unit_test(small_buffers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
