/*
** units.c — parsing "10us", "25Gbps", "1MiB" (contract in units.h).
**
** Every quantity is split into a decimal number and a unit. The number is kept as its
** digit string (the decimal point removed, remembered as a power of ten), so no value is
** ever rounded before the unit is applied: times and bandwidths become one strtod() call
** on "<digits>e<exponent>" (correctly rounded, and free of the locale's decimal point),
** sizes are exact integer arithmetic. Inputs are at most TEXT_MAX characters, which keeps
** every double finite (at most 10^64 times a unit), so only sizes can overflow.
*/
#include "topocoll/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/io_text.h"

#define TEXT_MAX 64

/* A number as typed: the digits before and after the point, and what follows. */
typedef struct decimal {
  const char *int_digits, *frac_digits;
  size_t int_len, frac_len;
  const char *unit;
} decimal;

typedef struct unit_def {
  const char *name;
  int pow10;       /* the unit is 10^pow10 of the base quantity (time, bandwidth) */
  int is_bits;     /* bandwidth given in bits per second */
  int64_t factor;  /* sizes: bytes per unit */
} unit_def;

/* The micro sign (U+00B5) and the Greek mu (U+03BC) both spell micro: people type either. */
static const unit_def time_units[] = {{"ns", -9, 0, 0}, {"us", -6, 0, 0}, {"\xc2\xb5s", -6, 0, 0},
                                      {"\xce\xbcs", -6, 0, 0}, {"ms", -3, 0, 0}, {"s", 0, 0, 0}};
/* A lower-case b is bits, an upper-case B bytes, in every spelling; the prefix's case is
   free ("100gbps" is how many write 100 Gbps). */
static const unit_def bandwidth_units[] = {
    {"Mbps", 6, 1, 0}, {"Gbps", 9, 1, 0}, {"mbps", 6, 1, 0}, {"gbps", 9, 1, 0}, {"Mb/s", 6, 1, 0},
    {"Gb/s", 9, 1, 0}, {"MBps", 6, 0, 0}, {"GBps", 9, 0, 0}, {"MB/s", 6, 0, 0}, {"GB/s", 9, 0, 0}};
/* K, M, G alone are binary, as nccl-tests reads them ("-b 8 -e 256M"); KB, MB, GB decimal. */
static const unit_def size_units[] = {{"", 0, 0, 1},
                                      {"B", 0, 0, 1},
                                      {"KB", 0, 0, 1000},
                                      {"MB", 0, 0, 1000000},
                                      {"GB", 0, 0, 1000000000},
                                      {"K", 0, 0, 1024},
                                      {"M", 0, 0, 1048576},
                                      {"G", 0, 0, 1073741824},
                                      {"KiB", 0, 0, 1024},
                                      {"MiB", 0, 0, 1048576},
                                      {"GiB", 0, 0, 1073741824}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char time_list[] = "ns, us, ms or s";
static const char bandwidth_list[] = "Mbps, Gbps (bits/s), MBps or GBps (bytes/s)";
static const char size_list[] = "B, KB, MB, GB, K, M, G, KiB, MiB or GiB";

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Split `text` into digits and unit; `what` ("time") and `example` name it in errors. */
static int split_decimal(const char *what, const char *text, const char *example, decimal *d, tc_error *err) {
  size_t len = strlen(text);
  tc_io_quoted q = tci_io_quote(text, len);
  if (len == 0) return tc_error_set(err, TC_EINPUT, "empty %s (expected e.g. %s)", what, example);
  if (len > TEXT_MAX) return tc_error_set(err, TC_EINPUT, "%s %s is too long (at most %d characters)", what, q.text, TEXT_MAX);
  if (text[0] == '-') return tc_error_set(err, TC_EINPUT, "%s %s must not be negative", what, q.text);
  const char *p = text;
  d->int_digits = p;
  while (is_digit(*p)) p++;
  d->int_len = (size_t)(p - d->int_digits);
  d->frac_digits = p;
  d->frac_len = 0;
  if (d->int_len > 0 && *p == '.') {
    d->frac_digits = ++p;
    while (is_digit(*p)) p++;
    d->frac_len = (size_t)(p - d->frac_digits);
    if (d->frac_len == 0)
      return tc_error_set(err, TC_EINPUT, "%s %s: expected digits after the decimal point", what, q.text);
  }
  if (d->int_len == 0)
    return tc_error_set(err, TC_EINPUT, "%s %s: expected a number followed by a unit, e.g. %s", what, q.text, example);
  d->unit = p;
  return TC_OK;
}

static const unit_def *find_unit(const unit_def *units, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(units[i].name, name) == 0) return &units[i];
  return NULL;
}

static int unit_error(const char *what, const char *text, const decimal *d, const char *list, tc_error *err) {
  tc_io_quoted q = tci_io_quote(text, strlen(text));
  if (*d->unit == '\0') return tc_error_set(err, TC_EINPUT, "%s %s: missing unit (%s)", what, q.text, list);
  tc_io_quoted u = tci_io_quote(d->unit, strlen(d->unit));
  return tc_error_set(err, TC_EINPUT, "%s %s: unknown unit %s (expected %s)", what, q.text, u.text, list);
}

static int all_zero(const decimal *d) {
  for (size_t i = 0; i < d->int_len; i++)
    if (d->int_digits[i] != '0') return 0;
  for (size_t i = 0; i < d->frac_len; i++)
    if (d->frac_digits[i] != '0') return 0;
  return 1;
}

/* The correctly rounded double of digits * 10^pow10 (digits with the point removed). */
static double decimal_value(const decimal *d, int pow10) {
  char buf[TEXT_MAX + 16];
  snprintf(buf, sizeof buf, "%.*s%.*se%d", (int)d->int_len, d->int_digits, (int)d->frac_len, d->frac_digits,
           pow10 - (int)d->frac_len);
  return strtod(buf, NULL);
}

int tc_units_parse_time(const char *text, double *seconds, tc_error *err) {
  decimal d;
  int rc = split_decimal("time", text, "10us", &d, err);
  if (rc) return rc;
  const unit_def *u = find_unit(time_units, COUNT(time_units), d.unit);
  if (!u) return unit_error("time", text, &d, time_list, err);
  *seconds = decimal_value(&d, u->pow10);
  return TC_OK;
}

int tc_units_parse_bandwidth(const char *text, double *bytes_per_s, tc_error *err) {
  decimal d;
  int rc = split_decimal("bandwidth", text, "25Gbps", &d, err);
  if (rc) return rc;
  const unit_def *u = find_unit(bandwidth_units, COUNT(bandwidth_units), d.unit);
  if (!u) return unit_error("bandwidth", text, &d, bandwidth_list, err);
  if (all_zero(&d)) {
    tc_io_quoted q = tci_io_quote(text, strlen(text));
    return tc_error_set(err, TC_EINPUT, "bandwidth %s must be positive", q.text);
  }
  /* Dividing by 8 only shifts the exponent, so the bit rate's rounding is kept exactly. */
  double v = decimal_value(&d, u->pow10);
  *bytes_per_s = u->is_bits ? v / 8 : v;
  return TC_OK;
}

/* p-adic valuation of x (x > 0) for p = 2 or 5. */
static int valuation(unsigned __int128 x, unsigned p) {
  int k = 0;
  while (x % p == 0) {
    x /= p;
    k++;
  }
  return k;
}

static unsigned __int128 power(unsigned p, int k) {
  unsigned __int128 r = 1;
  while (k-- > 0) r *= p;
  return r;
}

/*
** Bytes contributed by the fraction digits: f / 10^L units of `factor` bytes, where every
** factor here is 2^a * 5^b with a, b <= 30. With trailing zeros stripped, f is not a
** multiple of 10, so the product is whole only if L <= a + v2(f) and L <= b + v5(f) —
** which needs L <= 30, so f < 10^30 fits 128 bits. Returns -1 if not whole.
*/
static int64_t fraction_bytes(const decimal *d, int64_t factor) {
  size_t L = d->frac_len;
  while (L > 0 && d->frac_digits[L - 1] == '0') L--;
  if (L == 0) return 0;
  if (L > 30) return -1;
  unsigned __int128 f = 0;
  for (size_t i = 0; i < L; i++) f = f * 10 + (unsigned)(d->frac_digits[i] - '0');
  int a = valuation((unsigned __int128)factor, 2), b = valuation((unsigned __int128)factor, 5);
  int v2 = valuation(f, 2), v5 = valuation(f, 5), l = (int)L;
  if (l > a + v2 || l > b + v5) return -1;
  /* f * 2^a 5^b / (2^l 5^l): divide out what the fraction's denominator takes first. */
  f /= power(2, l - a > 0 ? l - a : 0) * power(5, l - b > 0 ? l - b : 0);
  f *= power(2, a - l > 0 ? a - l : 0) * power(5, b - l > 0 ? b - l : 0);
  return (int64_t)f; /* f < factor <= 2^30 because the fraction is < 1 */
}

int tc_units_parse_size(const char *text, int64_t *bytes, tc_error *err) {
  decimal d;
  int rc = split_decimal("size", text, "1MB", &d, err);
  if (rc) return rc;
  const unit_def *u = find_unit(size_units, COUNT(size_units), d.unit);
  if (!u) return unit_error("size", text, &d, size_list, err);
  tc_io_quoted q = tci_io_quote(text, strlen(text));
  if (all_zero(&d)) return tc_error_set(err, TC_EINPUT, "size %s must be positive", q.text);
  int64_t whole = 0;
  for (size_t i = 0; i < d.int_len; i++)
    if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, d.int_digits[i] - '0', &whole))
      return tc_error_set(err, TC_EINPUT, "size %s is too large (at most 2^63-1 bytes)", q.text);
  int64_t frac = fraction_bytes(&d, u->factor), total;
  if (frac < 0) return tc_error_set(err, TC_EINPUT, "size %s is not a whole number of bytes", q.text);
  if (__builtin_mul_overflow(whole, u->factor, &total) || __builtin_add_overflow(total, frac, &total))
    return tc_error_set(err, TC_EINPUT, "size %s is too large (at most 2^63-1 bytes)", q.text);
  *bytes = total;
  return TC_OK;
}

static int list_full(tc_error *err) {
  return tc_error_set(err, TC_EINPUT, "size list has more than %d sizes", TC_SIZE_LIST_MAX);
}

/* One item of a size list: "SIZE" or "LO..HI" (LO, LO*factor, ... below HI, then HI: the
   top is always run, as nccl-tests users expect of -e). Appends to list[*n]. */
static int parse_size_item(const char *item, int64_t factor, int64_t *list, int *n, tc_error *err) {
  const char *dots = strstr(item, "..");
  if (!dots) {
    if (*n >= TC_SIZE_LIST_MAX) return list_full(err);
    return tc_units_parse_size(item, &list[(*n)++], err);
  }
  char lo_text[64];
  size_t lo_len = (size_t)(dots - item);
  if (lo_len == 0 || lo_len >= sizeof lo_text || !dots[2])
    return tc_error_set(err, TC_EINPUT, "size range \"%s\" must be LO..HI, e.g. 1K..1G", item);
  memcpy(lo_text, item, lo_len);
  lo_text[lo_len] = '\0';
  int64_t lo, hi;
  int rc = tc_units_parse_size(lo_text, &lo, err);
  if (!rc) rc = tc_units_parse_size(dots + 2, &hi, err);
  if (rc) return rc;
  if (lo > hi) return tc_error_set(err, TC_EINPUT, "size range \"%s\" is empty: LO exceeds HI", item);
  for (int64_t v = lo;;) {
    if (*n >= TC_SIZE_LIST_MAX) return list_full(err);
    list[(*n)++] = v;
    if (v == hi) break;
    v = v > hi / factor ? hi : v * factor; /* v * factor > hi, or would overflow: the top */
  }
  return TC_OK;
}

int tc_units_parse_size_list(const char *text, int64_t **sizes, int *count, tc_error *err) {
  return tc_units_parse_size_list_factor(text, 2, sizes, count, err);
}

int tc_units_parse_size_list_factor(const char *text, int64_t factor, int64_t **sizes, int *count,
                                    tc_error *err) {
  *sizes = NULL;
  *count = 0;
  if (factor < 2) return tc_error_set(err, TC_EINPUT, "size range factor %lld must be at least 2", (long long)factor);
  if (!text || !*text) return tc_error_set(err, TC_EINPUT, "size list is empty (expected e.g. 4K,1M or 1K..1G)");
  int64_t *list = malloc(sizeof *list * TC_SIZE_LIST_MAX);
  char *copy = strdup(text);
  if (!list || !copy) {
    free(list);
    free(copy);
    return tc_error_set(err, TC_ENOMEM, "out of memory parsing a size list");
  }
  int n = 0, rc = TC_OK;
  char *rest = copy;
  for (;;) {
    char *comma = strchr(rest, ',');
    if (comma) *comma = '\0';
    if (!*rest) {
      rc = tc_error_set(err, TC_EINPUT, "size list \"%s\" has an empty item", text);
      break;
    }
    if ((rc = parse_size_item(rest, factor, list, &n, err))) break;
    if (!comma) break;
    rest = comma + 1;
  }
  free(copy);
  if (rc) {
    free(list);
    return rc;
  }
  *sizes = list;
  *count = n;
  return TC_OK;
}
