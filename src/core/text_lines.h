/*
** text_lines.h — internal: the bounded line reader of the '#'-commented text formats
** (topocoll's edge list, networkx's edge list).
**
** Contract: tci_text_read_lines calls on_line(ctx, line, s, len) for every line of fp in
** order, with s[0..len) the line up to its first '#' (no newline; s is writable and stays
** valid only during the call; blank and comment-only lines are passed too, as len = 0 or
** blanks). A line never costs more than max_line bytes: the rest of an over-long comment is
** skipped, and anything else that long stops the reader at once with
** "path:line: line longer than <max_line> bytes (not <kind>?)", a NUL byte anywhere with
** "path:line: NUL byte in line (not a text file?)" (both TC_EINPUT) — so a binary file or an
** endless stream costs neither memory nor time. The first non-zero return of on_line stops
** the reading and is returned; a read error is TC_EIO "cannot read path: reason".
*/
#ifndef TC_CORE_TEXT_LINES_H
#define TC_CORE_TEXT_LINES_H

#include <stddef.h>
#include <stdio.h>

#include "topocoll/error.h"

typedef int (*tci_line_fn)(void *ctx, long long line, char *s, size_t len);

int tci_text_read_lines(FILE *fp, const char *path, size_t max_line, const char *kind, tci_line_fn on_line,
                        void *ctx, tc_error *err);

#endif
