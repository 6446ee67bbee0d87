/*
** units.h — the quantities a user types on the command line, a latency ("10us"), a link
** bandwidth ("25Gbps") and a message size ("1MB", "4MiB", "1048576"): parsing them, and
** writing them back for people (tables, summaries; the formatters at the end).
**
** Accepted forms: a non-negative decimal number (digits, optionally '.' and more digits;
** no sign, no exponent, no spaces) immediately followed by a unit, case-sensitive:
**   time       ns, us (also µs, with U+00B5 or U+03BC), ms, s
**                                                -> seconds (double)
**   bandwidth  Mbps, Gbps, mbps, gbps, Mb/s, Gb/s (bits/s), MBps, GBps, MB/s, GB/s
**              (bytes/s), decimal prefixes       -> bytes per second (double)
**   size       B or no unit, KB, MB, GB (10^3, 10^6, 10^9); K, M, G and KiB, MiB, GiB
**              (2^10, 2^20, 2^30: K, M, G as nccl-tests reads them)
**                                                -> bytes (exact int64)
** Guarantees: the double results are the correctly rounded value of the decimal quantity
** (the number and its power of ten are handed to strtod together, so "10us" is exactly
** the double 1e-5 and "25Gbps" exactly 3.125e9); sizes are computed in exact integer
** arithmetic and must be a whole number of bytes ("1.5KB" is 1500, "0.3B" is refused).
** A time may be zero (a latency-free model); a bandwidth and a size must be positive.
** Anything else — an unknown or missing unit, a sign, garbage, a value that overflows —
** fails with TC_EINPUT and one line that quotes the text and says what was expected.
*/
#ifndef TOPOCOLL_UNITS_H
#define TOPOCOLL_UNITS_H

#include "topocoll/export.h"

#include <stddef.h>
#include <stdint.h>

#include "topocoll/error.h"

TC_API int tc_units_parse_time(const char *text, double *seconds, tc_error *err);
TC_API int tc_units_parse_bandwidth(const char *text, double *bytes_per_s, tc_error *err);
TC_API int tc_units_parse_size(const char *text, int64_t *bytes, tc_error *err);

/* A list of sizes, as `--sizes` takes it: a comma list of sizes ("4K,1M") or a range
   "LO..HI" that includes both ends, as nccl-tests runs -b LO -e HI -f FACTOR: LO, LO*FACTOR,
   LO*FACTOR^2, ... while below HI, then HI itself (always run, reached or not; LO <= HI), or
   a mix ("1K..8K,1M"). tc_units_parse_size_list doubles (FACTOR 2); the _factor form takes
   FACTOR >= 2 (else TC_EINPUT). At most TC_SIZE_LIST_MAX sizes. *sizes is malloc'ed (free
   it); on failure it is NULL and the error quotes the offending item. */
#define TC_SIZE_LIST_MAX 4096
TC_API int tc_units_parse_size_list(const char *text, int64_t **sizes, int *count, tc_error *err);
TC_API int tc_units_parse_size_list_factor(const char *text, int64_t factor, int64_t **sizes, int *count,
                                           tc_error *err);

/* ---- formatting: one way to print each quantity, for the CLI's tables and plan summaries ----
   Each writes a NUL-terminated text into buf[size], cut short as snprintf does when it
   does not fit (64 bytes hold any size, and any time or bandwidth below 10^40). */

/* How tc_units_format_time writes a time. */
enum {
  TC_UNITS_TIME_MICRO_SIGN = 1 << 0, /* "µs" (UTF-8, for markdown) instead of "us" (terminals) */
  TC_UNITS_TIME_FINE = 1 << 1        /* more digits, for times compared at the ns level
                                        (simulated against modelled): see below */
};
/* A time in the largest unit below which it falls: under 1 ms in us, under 1 s in ms, else
   in s: "323.5 us", "5.369 ms", "1.234 s" (digits after the point: 1, 3, 3); with
   TC_UNITS_TIME_FINE "323.500 us", "5.3690 ms", "1.23400 s" (3, 4, 5). A negative time, which
   the tools use for "not measured", is "-". */
TC_API void tc_units_format_time(double seconds, int flags, char *buf, size_t size);
/* A size exactly and short: in the largest unit that divides it, decimal before binary on
   each level (GB, GiB, MB, MiB, KB, KiB), else in bytes: "4 KB" (4000), "1 MiB", "128 KB"
   (128000, also 125 KiB), "1500 B". */
TC_API void tc_units_format_size(int64_t bytes, char *buf, size_t size);
/* A bandwidth in GB/s (10^9 bytes per second) with 3 digits after the point: "1.250 GB/s". A
   negative bandwidth ("not measured") is "-". */
TC_API void tc_units_format_bandwidth(double bytes_per_s, char *buf, size_t size);

#endif
