/*
** test_units_list.c — size lists as `--sizes` takes them (tc_units_parse_size_list,
** units.h), against values written out by hand:
**   - comma lists ("4KB,1MB" = 4000, 1000000), units mixed, a bare byte count;
**   - doubling ranges, both ends included as nccl-tests' -b/-e: 1KB..8KB = 1000..8000;
**     1KiB..1GiB = 1K..1G = 2^10..2^30 (21 sizes); 1KB..1GB = 1000 ... 524288000 and then
**     1000000000 (the top is always run); 3..10 = 3, 6, 10; 5..5 = 5; 1K..64M ends at 2^26;
**     ranges mixed with single sizes, in the order given, repeats kept;
**   - other factors (tc_units_parse_size_list_factor): 1K..1M by 4 = 1K, 4K, ..., 256K, 1M;
**     1..100 by 10 = 1, 10, 100; 1..99 by 10 = 1, 10, 99; factor < 2 refused;
**   - the top of int64: 2^62..INT64_MAX is 2^62 then INT64_MAX (no overflow while
**     doubling), and exactly TC_SIZE_LIST_MAX sizes are accepted;
**   - refusals, each TC_EINPUT with sizes NULL and count 0 and a message quoting the item:
**     empty text, empty items (",4KB", "4KB,", "4KB,,1MB"), LO > HI, a missing end of a
**     range, a range of ranges, bad sizes (0, 1.5B, 4XB, -1KB), one size too many.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/units.h"

static void expect_list(const char *text, const int64_t *want, int n) {
  int64_t *sizes = NULL;
  int count = -1;
  tc_error err;
  int rc = tc_units_parse_size_list(text, &sizes, &count, &err);
  if (rc) fail_msg("\"%s\": %s", text, err.msg);
  assert_int_equal(count, n);
  for (int i = 0; i < n; i++)
    if (sizes[i] != want[i]) fail_msg("\"%s\"[%d] = %lld, want %lld", text, i, (long long)sizes[i], (long long)want[i]);
  free(sizes);
}

#define LIST(text, ...)                                                                                              \
  do {                                                                                                               \
    const int64_t want_[] = {__VA_ARGS__};                                                                           \
    expect_list(text, want_, (int)(sizeof want_ / sizeof want_[0]));                                                 \
  } while (0)

static void expect_error(const char *text, const char *fragment) {
  int64_t *sizes = (int64_t *)&sizes; /* must be reset to NULL */
  int count = -1;
  tc_error err;
  assert_int_equal(tc_units_parse_size_list(text, &sizes, &count, &err), TC_EINPUT);
  assert_null(sizes);
  assert_int_equal(count, 0);
  if (!strstr(err.msg, fragment)) fail_msg("\"%s\": message \"%s\" lacks \"%s\"", text, err.msg, fragment);
}

static void comma_lists(void **state) {
  (void)state;
  LIST("4KB,1MB", 4000, 1000000);
  LIST("1048576", 1048576);
  LIST("1KiB,1MiB,1GiB,2GB,7", 1024, 1048576, 1073741824, 2000000000, 7);
  LIST("1.5KB,0.5MiB", 1500, 524288);
  LIST("8KB,1KB,8KB", 8000, 1000, 8000);
}

static void doubling_ranges(void **state) {
  (void)state;
  LIST("1KB..8KB", 1000, 2000, 4000, 8000);
  LIST("3..10", 3, 6, 10);
  LIST("5..5", 5);
  LIST("1KB..1GB", 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 1024000, 2048000, 4096000,
       8192000, 16384000, 32768000, 65536000, 131072000, 262144000, 524288000, 1000000000);
  int64_t want[21];
  for (int i = 0; i < 21; i++) want[i] = INT64_C(1) << (10 + i);
  expect_list("1KiB..1GiB", want, 21);
  expect_list("1K..1G", want, 21);
  expect_list("1K..64M", want, 17); /* the example: 1 KiB .. 64 MiB, 17 sizes */
  LIST("1KB..64MB", 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000, 1024000, 2048000, 4096000,
       8192000, 16384000, 32768000, 64000000);
  LIST("1KB..4KB,1MB", 1000, 2000, 4000, 1000000);
  LIST("1MB,1..4", 1000000, 1, 2, 4);
  LIST("1..2,1..2", 1, 2, 1, 2);
}

static void expect_factor(const char *text, int64_t factor, const int64_t *want, int n) {
  int64_t *sizes = NULL;
  int count = -1;
  tc_error err;
  if (tc_units_parse_size_list_factor(text, factor, &sizes, &count, &err)) fail_msg("\"%s\": %s", text, err.msg);
  assert_int_equal(count, n);
  for (int i = 0; i < n; i++) assert_int_equal(sizes[i], want[i]);
  free(sizes);
}

static void other_factors(void **state) {
  (void)state;
  const int64_t by4[] = {1024, 4096, 16384, 65536, 262144, 1048576};
  expect_factor("1K..1M", 4, by4, 6);
  const int64_t by10[] = {1, 10, 100}, by10_top[] = {1, 10, 99};
  expect_factor("1..100", 10, by10, 3);
  expect_factor("1..99", 10, by10_top, 3);
  const int64_t single[] = {7, 7}; /* single sizes are as given */
  expect_factor("7,7", 3, single, 2);
  int64_t *sizes = (int64_t *)&sizes;
  int count = -1;
  tc_error err;
  assert_int_equal(tc_units_parse_size_list_factor("1K..1M", 1, &sizes, &count, &err), TC_EINPUT);
  assert_null(sizes);
  assert_int_equal(count, 0);
  assert_string_equal(err.msg, "size range factor 1 must be at least 2");
}

static void top_of_int64(void **state) {
  (void)state;
  LIST("4611686018427387904..9223372036854775807", INT64_C(4611686018427387904), INT64_MAX);
  LIST("1..4611686018427387904", 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
       131072, 262144, 524288, 1048576, 2097152, 4194304, 8388608, 16777216, 33554432, 67108864, 134217728, 268435456,
       536870912, 1073741824, 2147483648, 4294967296, 8589934592, 17179869184, 34359738368, 68719476736,
       137438953472, 274877906944, 549755813888, 1099511627776, 2199023255552, 4398046511104, 8796093022208,
       17592186044416, 35184372088832, 70368744177664, 140737488355328, 281474976710656, 562949953421312,
       1125899906842624, 2251799813685248, 4503599627370496, 9007199254740992, 18014398509481984,
       36028797018963968, 72057594037927936, 144115188075855872, 288230376151711744, 576460752303423488,
       1152921504606846976, 2305843009213693952, 4611686018427387904);
  LIST("3..9223372036854775807", 3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144, 12288, 24576, 49152, 98304,
       196608, 393216, 786432, 1572864, 3145728, 6291456, 12582912, 25165824, 50331648, 100663296, 201326592,
       402653184, 805306368, 1610612736, 3221225472, 6442450944, 12884901888, 25769803776, 51539607552,
       103079215104, 206158430208, 412316860416, 824633720832, 1649267441664, 3298534883328, 6597069766656,
       13194139533312, 26388279066624, 52776558133248, 105553116266496, 211106232532992, 422212465065984,
       844424930131968, 1688849860263936, 3377699720527872, 6755399441055744, 13510798882111488,
       27021597764222976, 54043195528445952, 108086391056891904, 216172782113783808, 432345564227567616,
       864691128455135232, 1729382256910270464, 3458764513820540928, 6917529027641081856, INT64_MAX);
}

/* "1,2,3,...,n" */
static char *count_list(int n) {
  char *s = malloc((size_t)n * 6 + 1), *p = s;
  for (int i = 1; i <= n; i++) p += sprintf(p, "%s%d", i > 1 ? "," : "", i);
  return s;
}

static void at_most_max(void **state) {
  (void)state;
  char *full = count_list(TC_SIZE_LIST_MAX), *over = count_list(TC_SIZE_LIST_MAX + 1);
  int64_t *sizes = NULL;
  int count = 0;
  tc_error err;
  assert_int_equal(tc_units_parse_size_list(full, &sizes, &count, &err), TC_OK);
  assert_int_equal(count, TC_SIZE_LIST_MAX);
  for (int i = 0; i < count; i++) assert_int_equal(sizes[i], i + 1);
  free(sizes);
  expect_error(over, "more than 4096 sizes");
  /* a range that would pass the limit: 4095 sizes, then 1..4 adds three */
  char *almost = count_list(TC_SIZE_LIST_MAX - 1);
  size_t len = strlen(almost);
  char *mixed = malloc(len + 8);
  snprintf(mixed, len + 8, "%s,1..4", almost);
  expect_error(mixed, "more than 4096 sizes");
  free(mixed);
  free(almost);
  free(full);
  free(over);
}

static void refusals(void **state) {
  (void)state;
  expect_error("", "empty");
  expect_error(",4KB", "empty item");
  expect_error("4KB,", "empty item");
  expect_error("4KB,,1MB", "empty item");
  expect_error("8KB..1KB", "8KB..1KB");
  expect_error("8KB..1KB", "LO exceeds HI");
  expect_error("..1KB", "..1KB");
  expect_error("1KB..", "size range \"1KB..\" must be LO..HI, e.g. 1K..1G");
  expect_error("1KB..2KB..4KB", "2KB..4KB");
  expect_error("4KB,0", "\"0\"");
  expect_error("1.5B", "1.5B");
  expect_error("4KB,4XB", "4XB");
  expect_error("-1KB", "-1KB");
  expect_error("1KB..4XB", "4XB");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(comma_lists),  cmocka_unit_test(doubling_ranges), cmocka_unit_test(other_factors),
      cmocka_unit_test(top_of_int64),
      cmocka_unit_test(at_most_max),  cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
