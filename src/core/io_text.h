/*
** io_text.h — internal: quoting untrusted text for one-line error messages.
**
** Readers echo the offending token back to the user ("found \"12abc\""). The token comes
** from an arbitrary file, so it is shortened and stripped of anything that could break
** the one-line message contract (control bytes, non-ASCII bytes become '?'). This file is
** the one home of that rule; the error record applies its looser form (below) to every
** message as a net for text echoed without tci_io_quote (spec text, file names, options).
*/
#ifndef TC_CORE_IO_TEXT_H
#define TC_CORE_IO_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Room for a quoted token: 2 quotes, TC_IO_QUOTE_KEEP characters, "...", NUL. */
#define TC_IO_QUOTE_KEEP 40
#define TC_IO_QUOTE_SIZE (TC_IO_QUOTE_KEEP + 6)

typedef struct tc_io_quoted {
  char text[TC_IO_QUOTE_SIZE];
} tc_io_quoted;

/* Quote the first `len` bytes of `s` (returned by value, so it fits in a printf call). */
tc_io_quoted tci_io_quote(const char *s, size_t len);

/* Make a message safe to print as one line, in place: C0 control bytes (newline, ESC...),
   DEL, C1 controls (U+0080..U+009F, which terminals may read as CSI) and every byte that
   is not part of a valid UTF-8 sequence become '?'; valid UTF-8 (our own "∪", "±") stays.
   tc_error_set and tc_error_prefix apply it to every message, so no error line can carry
   raw control characters whatever text was formatted into it. */
void tci_text_neutralize(char *s);

/* Write s as one CSV field (RFC 4180, the rule of wiring.csv and ranks.csv): bare unless it
   holds a comma, quote, CR or LF, else quoted with every quote doubled. NULL writes nothing
   (an empty field). */
void tci_csv_put_field(FILE *fp, const char *s);

#endif
