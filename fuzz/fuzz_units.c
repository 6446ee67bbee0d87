/*
** fuzz_units.c — the unit parsers (core/units.c) on any text: time, bandwidth, size and
** size list, each on the same input, and the formatters (core/units_format.c) on what
** they accept.
**
** Invariants: the error contract (harness.h); a failure leaves no list behind; values are
** in their documented ranges (time >= 0, bandwidth and sizes > 0, finite, at most
** TC_SIZE_LIST_MAX sizes); what the formatters write parses back, with its space removed
** (and "GB/s" written "GBps"), to the same size exactly and to the same time or bandwidth
** within half a unit of the last digit printed.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "topocoll/units.h"

/* buf with its one space removed and `from` (if present at the end) replaced by `to`. */
static void unformat(char *buf, const char *from, const char *to) {
  char *sp = strchr(buf, ' ');
  if (sp) memmove(sp, sp + 1, strlen(sp));
  size_t n = strlen(buf), k = strlen(from);
  if (n >= k && !strcmp(buf + n - k, from)) strcpy(buf + n - k, to);
}

static void check_close(const char *what, double got, double want, double half_digit, const char *text) {
  if (!(fabs(got - want) <= half_digit + 1e-12 * fabs(want)))
    tcf_fail("%s: \"%s\" parses back to %.17g, not %.17g", what, text, got, want);
}

static void check_size(const char *text) {
  int64_t bytes = 0, back = 0;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_units_parse_size(text, &bytes, &err);
  tcf_check_result("tc_units_parse_size", rc, &err);
  if (rc) return;
  if (bytes <= 0) tcf_fail("size \"%s\" parsed to %lld", text, (long long)bytes);
  char buf[64];
  tc_units_format_size(bytes, buf, sizeof buf);
  unformat(buf, "", "");
  if (tc_units_parse_size(buf, &back, &err) || back != bytes)
    tcf_fail("size %lld is written \"%s\", which does not parse back to it", (long long)bytes, buf);
}

static void check_time(const char *text) {
  double s = -1, back = -1;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_units_parse_time(text, &s, &err);
  tcf_check_result("tc_units_parse_time", rc, &err);
  if (rc) return;
  if (!(s >= 0) || !isfinite(s)) tcf_fail("time \"%s\" parsed to %g", text, s);
  if (s >= 1e30) return; /* the formatter's 64 bytes hold times below 10^40 */
  char buf[64];
  tc_units_format_time(s, TC_UNITS_TIME_FINE, buf, sizeof buf);
  unformat(buf, "", "");
  if (tc_units_parse_time(buf, &back, &err)) tcf_fail("time %.17g is written \"%s\", which does not parse", s, buf);
  double half = s < 1e-3 ? 0.5e-9 : s < 1 ? 0.5e-7 : 0.5e-5; /* 3, 4, 5 digits in us, ms, s */
  check_close("time", back, s, half, buf);
}

static void check_bandwidth(const char *text) {
  double b = -1, back = -1;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_units_parse_bandwidth(text, &b, &err);
  tcf_check_result("tc_units_parse_bandwidth", rc, &err);
  if (rc) return;
  if (!(b > 0) || !isfinite(b)) tcf_fail("bandwidth \"%s\" parsed to %g", text, b);
  if (b < 1e6 || b >= 1e30) return; /* below 0.001 GB/s it prints as 0.000, which no parser takes */
  char buf[64];
  tc_units_format_bandwidth(b, buf, sizeof buf);
  unformat(buf, "GB/s", "GBps");
  if (tc_units_parse_bandwidth(buf, &back, &err))
    tcf_fail("bandwidth %.17g is written \"%s\", which does not parse", b, buf);
  check_close("bandwidth", back, b, 0.5e6, buf);
}

static void check_size_list(const char *text) {
  int64_t *sizes = (int64_t *)&sizes, *back = NULL;
  int count = -1, nback = -1;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_units_parse_size_list(text, &sizes, &count, &err);
  tcf_check_result("tc_units_parse_size_list", rc, &err);
  if (rc) {
    if (sizes) tcf_fail("a failed size list parse left a list");
    return;
  }
  if (count < 1 || count > TC_SIZE_LIST_MAX) tcf_fail("size list \"%s\" has %d sizes", text, count);
  /* The list written back as plain byte counts. */
  char *joined = malloc((size_t)count * 21 + 1), *p = joined;
  if (!joined) tcf_fail("out of memory");
  for (int i = 0; i < count; i++) {
    if (sizes[i] <= 0) tcf_fail("size list \"%s\" holds %lld", text, (long long)sizes[i]);
    p += sprintf(p, "%s%lld", i ? "," : "", (long long)sizes[i]);
  }
  if (tc_units_parse_size_list(joined, &back, &nback, &err) || nback != count ||
      memcmp(back, sizes, sizeof *sizes * (size_t)count))
    tcf_fail("size list \"%s\" written as bytes does not parse back to the same list", text);
  free(joined);
  free(back);
  free(sizes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = tcf_cstring(data, size);
  check_size(text);
  check_time(text);
  check_bandwidth(text);
  check_size_list(text);
  free(text);
  return 0;
}
