/*
** text_lines.c — the bounded line reader of the '#'-commented text formats (contract in
** text_lines.h).
*/
#include "core/text_lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum { LINE_OK, LINE_EOF, LINE_TOO_LONG, LINE_NUL } line_status;

/* The next line up to its first '#' into buf[0..*len), at most max bytes of it. */
static line_status next_line(FILE *fp, char *buf, size_t max, size_t *len) {
  size_t k = 0;
  int c, comment = 0, any = 0, nul = 0;
  while ((c = getc_unlocked(fp)) != EOF && c != '\n') {
    any = 1;
    nul |= c == '\0';
    comment |= c == '#';
    if (comment) continue;
    if (k < max) buf[k++] = (char)c;
    else return LINE_TOO_LONG;
  }
  *len = k;
  if (nul) return LINE_NUL;
  return c == EOF && !any ? LINE_EOF : LINE_OK;
}

int tci_text_read_lines(FILE *fp, const char *path, size_t max_line, const char *kind, tci_line_fn on_line,
                        void *ctx, tc_error *err) {
  char *buf = malloc(max_line ? max_line : 1);
  if (!buf) return tc_error_set(err, TC_ENOMEM, "%s: out of memory", path);
  size_t len;
  line_status st;
  long long line = 0;
  int rc = TC_OK;
  flockfile(fp);
  errno = 0;
  while (!rc && (st = next_line(fp, buf, max_line, &len)) != LINE_EOF) {
    line++;
    if (st == LINE_TOO_LONG)
      rc = tc_error_set(err, TC_EINPUT, "%s:%lld: line longer than %zu bytes (not %s?)", path, line, max_line, kind);
    else if (st == LINE_NUL)
      rc = tc_error_set(err, TC_EINPUT, "%s:%lld: NUL byte in line (not a text file?)", path, line);
    else rc = on_line(ctx, line, buf, len);
    errno = 0;
  }
  int e = errno;
  funlockfile(fp);
  free(buf);
  if (!rc && ferror(fp)) rc = tc_error_set(err, TC_EIO, "cannot read %s: %s", path, strerror(e ? e : EIO));
  return rc;
}
