/*
** units.h — parsing the quantities a user types on the command line: a latency ("10us"),
** a link bandwidth ("25Gbps") and a message size ("1MB", "4MiB", "1048576").
**
** Accepted forms: a non-negative decimal number (digits, optionally '.' and more digits;
** no sign, no exponent, no spaces) immediately followed by a unit, case-sensitive:
**   time       ns, us, ms, s                     -> seconds (double)
**   bandwidth  Mbps, Gbps (bits/s), MBps, GBps (bytes/s), decimal prefixes
**                                                -> bytes per second (double)
**   size       B or no unit, KB, MB, GB (10^3, 10^6, 10^9) and KiB, MiB, GiB
**              (2^10, 2^20, 2^30)                -> bytes (exact int64)
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

#include <stdint.h>

#include "topocoll/error.h"

int tc_units_parse_time(const char *text, double *seconds, tc_error *err);
int tc_units_parse_bandwidth(const char *text, double *bytes_per_s, tc_error *err);
int tc_units_parse_size(const char *text, int64_t *bytes, tc_error *err);

/* A list of sizes, as `--sizes` takes it: a comma list of sizes ("4KB,1MB") or a doubling
   range "LO..HI" (LO, 2 LO, 4 LO, ... while <= HI; HI itself need not be reached, LO <= HI),
   or a mix ("1KB..8KB,1MB"). At most TC_SIZE_LIST_MAX sizes. *sizes is malloc'ed (free it);
   on failure it is NULL and the error quotes the offending item. */
#define TC_SIZE_LIST_MAX 4096
int tc_units_parse_size_list(const char *text, int64_t **sizes, int *count, tc_error *err);

#endif
