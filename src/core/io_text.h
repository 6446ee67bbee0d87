/*
** io_text.h — internal: quoting untrusted text for one-line error messages.
**
** Readers echo the offending token back to the user ("found \"12abc\""). The token comes
** from an arbitrary file, so it is shortened and stripped of anything that could break
** the one-line message contract (control bytes, non-ASCII bytes become '?').
*/
#ifndef TC_CORE_IO_TEXT_H
#define TC_CORE_IO_TEXT_H

#include <stddef.h>

/* Room for a quoted token: 2 quotes, TC_IO_QUOTE_KEEP characters, "...", NUL. */
#define TC_IO_QUOTE_KEEP 40
#define TC_IO_QUOTE_SIZE (TC_IO_QUOTE_KEEP + 6)

typedef struct tc_io_quoted {
  char text[TC_IO_QUOTE_SIZE];
} tc_io_quoted;

/* Quote the first `len` bytes of `s` (returned by value, so it fits in a printf call). */
tc_io_quoted tci_io_quote(const char *s, size_t len);

#endif
