/*
** units_format.c — times, sizes and bandwidths written for people (contract in units.h).
** The one place that decides how the CLI's tables and the plan summary print them.
*/
#include <inttypes.h>
#include <stdio.h>

#include "topocoll/units.h"

void tc_units_format_time(double s, int flags, char *buf, size_t size) {
  const char *us = flags & TC_UNITS_TIME_MICRO_SIGN ? "µs" : "us";
  int fine = flags & TC_UNITS_TIME_FINE;
  if (s < 0) snprintf(buf, size, "-");
  else if (s < 1e-3) snprintf(buf, size, "%.*f %s", fine ? 3 : 1, s * 1e6, us);
  else if (s < 1) snprintf(buf, size, "%.*f ms", fine ? 4 : 3, s * 1e3);
  else snprintf(buf, size, "%.*f s", fine ? 5 : 3, s);
}

void tc_units_format_size(int64_t bytes, char *buf, size_t size) {
  /* Decimal first: the sizes people type are mostly decimal ("1MB", "64MB"). */
  static const struct { const char *name; int64_t bytes; } units[] = {
      {"GB", 1000000000}, {"GiB", INT64_C(1) << 30}, {"MB", 1000000}, {"MiB", INT64_C(1) << 20},
      {"KB", 1000},       {"KiB", INT64_C(1) << 10}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (bytes >= units[i].bytes && bytes % units[i].bytes == 0) {
      snprintf(buf, size, "%" PRId64 " %s", bytes / units[i].bytes, units[i].name);
      return;
    }
  snprintf(buf, size, "%" PRId64 " B", bytes);
}

void tc_units_format_bandwidth(double bytes_per_s, char *buf, size_t size) {
  if (bytes_per_s < 0) snprintf(buf, size, "-");
  else snprintf(buf, size, "%.3f GB/s", bytes_per_s / 1e9);
}
