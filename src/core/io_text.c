/*
** io_text.c — quoting untrusted text for error messages (contract in io_text.h).
*/
#include "core/io_text.h"

#include <string.h>

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

/* Length of the valid UTF-8 sequence of 2..4 bytes at s (NUL-terminated), else 0. Overlong
   forms, surrogates and code points beyond U+10FFFF are invalid. */
static size_t utf8_sequence(const unsigned char *s) {
  unsigned char c = s[0];
  size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (!n) return 0;
  unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
  if (c == 0xe0) lo = 0xa0;
  if (c == 0xed) hi = 0x9f;
  if (c == 0xf0) lo = 0x90;
  if (c == 0xf4) hi = 0x8f;
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xbf) return 0;
  return n;
}

void tci_text_neutralize(char *s) {
  unsigned char *p = (unsigned char *)s;
  while (*p) {
    size_t n = *p >= 0x80 ? utf8_sequence(p) : 1;
    int c1 = n == 2 && p[0] == 0xc2 && p[1] < 0xa0; /* U+0080..U+009F */
    if (n == 0 || c1 || *p < 0x20 || *p == 0x7f) {
      for (size_t i = 0; i < (c1 ? 2 : 1); i++) *p++ = '?';
      continue;
    }
    p += n;
  }
}

void tci_csv_put_field(FILE *fp, const char *s) {
  if (!s) return;
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"') fputc('"', fp);
    fputc(*s, fp);
  }
  fputc('"', fp);
}
