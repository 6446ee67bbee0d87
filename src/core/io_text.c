/*
** io_text.c — quoting untrusted text for error messages (contract in io_text.h).
*/
#include "core/io_text.h"

tc_io_quoted tci_io_quote(const char *s, size_t len) {
  tc_io_quoted q;
  size_t k = 0, keep = len < TC_IO_QUOTE_KEEP ? len : TC_IO_QUOTE_KEEP;
  q.text[k++] = '"';
  for (size_t i = 0; i < keep; i++) {
    unsigned char c = (unsigned char)s[i];
    q.text[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  q.text[k++] = '"';
  if (keep < len)
    for (int i = 0; i < 3; i++) q.text[k++] = '.';
  q.text[k] = '\0';
  return q;
}
