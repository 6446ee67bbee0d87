/*
** error.h — error codes and the error record every fallible topocoll call fills.
**
** Contract: a function that can fail returns an int code (TC_OK == 0 on success) and,
** when it fails and `err` is not NULL, writes one human-readable line into err->msg
** (no trailing newline). The CLI prints that line and maps the code to an exit status:
** TC_EINPUT or TC_ERANGE -> 2 (bad usage or input), everything else -> 1. No function
** prints. The line is always safe to print: tc_error_set and tc_error_prefix replace
** control characters (newline, ESC, DEL, C1), and bytes that are not valid UTF-8, by '?',
** so untrusted text formatted into a message (a spec, a file name) cannot break it.
*/
#ifndef TOPOCOLL_ERROR_H
#define TOPOCOLL_ERROR_H

#include "topocoll/export.h"

#include <stdarg.h>

enum {
  TC_OK = 0,
  TC_EINPUT = 1,   /* malformed spec/file, impossible parameters: the user's to fix */
  TC_ENOMEM = 2,   /* allocation failed */
  TC_EIO = 3,      /* a file could not be read or written */
  TC_ERANGE = 4,   /* a size or count would overflow the representation */
  TC_EFAIL = 5     /* an algorithm could not produce a result (e.g. search exhausted) */
};

#define TC_ERRMSG_MAX 512

typedef struct tc_error {
  int code;
  char msg[TC_ERRMSG_MAX];
} tc_error;

/* Record code and a printf-style message in err (if non-NULL); returns code. */
TC_API int tc_error_set(tc_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
           __attribute__((format(printf, 3, 4)))
#endif
           ;

/* Prefix err->msg with "prefix: " (used when a nested call's error needs context). */
TC_API void tc_error_prefix(tc_error *err, const char *fmt, ...)
#if defined(__GNUC__)
           __attribute__((format(printf, 2, 3)))
#endif
           ;

/* Clear err to TC_OK with an empty message. */
TC_API void tc_error_clear(tc_error *err);

#endif
