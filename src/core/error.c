/*
** error.c — filling tc_error records (see include/topocoll/error.h). Every message is
** neutralized as it is written (core/io_text.h), so a record never holds a control
** character or invalid UTF-8, whatever untrusted text was formatted into it.
*/
#include "topocoll/error.h"

#include <stdio.h>
#include <string.h>

#include "core/io_text.h"

int tc_error_set(tc_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    tci_text_neutralize(err->msg); /* one line whatever was formatted in (io_text.h) */
    err->code = code;
  }
  return code;
}

void tc_error_prefix(tc_error *err, const char *fmt, ...) {
  if (!err) return;
  char prefix[TC_ERRMSG_MAX], old[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, err->msg, sizeof old);
  /* Truncation of an over-long message is acceptable: it stays one readable line. */
  size_t k = strlen(prefix);
  if (k > sizeof err->msg - 3) k = sizeof err->msg - 3;
  memcpy(err->msg, prefix, k);
  memcpy(err->msg + k, ": ", 2);
  size_t room = sizeof err->msg - k - 3, len = strlen(old);
  if (len > room) len = room;
  memcpy(err->msg + k + 2, old, len);
  err->msg[k + 2 + len] = '\0';
  tci_text_neutralize(err->msg);
}

void tc_error_clear(tc_error *err) {
  if (!err) return;
  err->code = TC_OK;
  err->msg[0] = '\0';
}
