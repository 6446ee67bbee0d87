/*
** test_error.c — the error record (error.h): tc_error_set, tc_error_prefix, tc_error_clear.
**
** Expected strings are built here independently (plain loops and snprintf into larger
** buffers, then cut by hand); lengths at the TC_ERRMSG_MAX boundary are exact: a message
** holds at most TC_ERRMSG_MAX - 1 = 511 characters and its NUL. Each record sits in a
** struct followed by a guard area, so a write past msg (which ASan cannot see inside one
** object) changes the guard and fails the test.
*/
#include <stdio.h>

#include "tc_test.h"

#define GUARD 64

typedef struct guarded {
  tc_error e;
  unsigned char guard[GUARD];
} guarded;

static void guard_init(guarded *g) {
  memset(&g->e, 0x5A, sizeof g->e);
  memset(g->guard, 0xC3, sizeof g->guard);
}

static void guard_check(const guarded *g) {
  for (int i = 0; i < GUARD; i++)
    if (g->guard[i] != 0xC3) fail_msg("byte %d past the error record was overwritten", i);
}

/* A string of n characters cycling through the alphabet, starting at letter `first`. */
static char *letters(size_t n, char first) {
  char *s = malloc(n + 1);
  assert_non_null(s);
  for (size_t i = 0; i < n; i++) s[i] = (char)('a' + (first - 'a' + (int)i) % 26);
  s[n] = '\0';
  return s;
}

static void set_formats_and_returns_code(void **state) {
  (void)state;
  guarded g;
  guard_init(&g);
  assert_int_equal(tc_error_set(&g.e, TC_EINPUT, "bad %s at column %d (%lld)", "spec", 7, -12LL), TC_EINPUT);
  assert_int_equal(g.e.code, TC_EINPUT);
  assert_string_equal(g.e.msg, "bad spec at column 7 (-12)");
  const int codes[] = {TC_OK, TC_EINPUT, TC_ENOMEM, TC_EIO, TC_ERANGE, TC_EFAIL};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    assert_int_equal(tc_error_set(&g.e, codes[i], "code %d", codes[i]), codes[i]);
    assert_int_equal(g.e.code, codes[i]);
    char want[32];
    snprintf(want, sizeof want, "code %d", codes[i]);
    assert_string_equal(g.e.msg, want);
  }
  /* a later set replaces the whole message, not a prefix of it */
  tc_error_set(&g.e, TC_EIO, "%s", "a much longer first message");
  tc_error_set(&g.e, TC_EFAIL, "short");
  assert_string_equal(g.e.msg, "short");
  assert_int_equal(g.e.code, TC_EFAIL);
  /* a "%" in an argument is text, not a format */
  tc_error_set(&g.e, TC_EIO, "%s", "100%d");
  assert_string_equal(g.e.msg, "100%d");
  guard_check(&g);
  /* the codes are distinct and TC_OK is 0 (callers test `if (rc)`) */
  assert_int_equal(TC_OK, 0);
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    for (size_t j = i + 1; j < sizeof codes / sizeof codes[0]; j++) assert_int_not_equal(codes[i], codes[j]);
  /* NULL err: documented ("if non-NULL"); the code still comes back */
  assert_int_equal(tc_error_set(NULL, TC_ERANGE, "ignored %d", 1), TC_ERANGE);
  assert_int_equal(tc_error_set(NULL, TC_OK, "ignored"), TC_OK);
}

static void set_truncates_at_max(void **state) {
  (void)state;
  /* lengths around the limit: up to 511 kept whole, anything longer cut to its first 511 */
  const size_t lens[] = {0, 1, TC_ERRMSG_MAX - 2, TC_ERRMSG_MAX - 1, TC_ERRMSG_MAX, TC_ERRMSG_MAX + 1, 3000};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    char *text = letters(lens[i], 'c');
    guarded g;
    guard_init(&g);
    assert_int_equal(tc_error_set(&g.e, TC_EIO, "%s", text), TC_EIO);
    size_t want = lens[i] < TC_ERRMSG_MAX - 1 ? lens[i] : TC_ERRMSG_MAX - 1;
    assert_int_equal(strlen(g.e.msg), want);
    assert_memory_equal(g.e.msg, text, want);
    assert_int_equal(g.e.msg[want], '\0');
    guard_check(&g);
    free(text);
  }
  /* the limit applies to the formatted result, not to the format string */
  guarded g;
  guard_init(&g);
  tc_error_set(&g.e, TC_EINPUT, "%0600d", 7);
  assert_int_equal(strlen(g.e.msg), TC_ERRMSG_MAX - 1);
  for (int i = 0; i < TC_ERRMSG_MAX - 1; i++) assert_int_equal(g.e.msg[i], '0'); /* the 7 was cut */
  guard_check(&g);
}

static void prefix_adds_context(void **state) {
  (void)state;
  guarded g;
  guard_init(&g);
  tc_error_set(&g.e, TC_EFAIL, "node %d has no in-arc", 3);
  tc_error_prefix(&g.e, "spec %s", "degree(x,2)");
  assert_string_equal(g.e.msg, "spec degree(x,2): node 3 has no in-arc");
  assert_int_equal(g.e.code, TC_EFAIL); /* the code is the nested call's */
  tc_error_prefix(&g.e, "plan");
  assert_string_equal(g.e.msg, "plan: spec degree(x,2): node 3 has no in-arc");
  assert_int_equal(g.e.code, TC_EFAIL);
  /* an empty message still gets the separator */
  tc_error_set(&g.e, TC_EIO, "%s", "");
  tc_error_prefix(&g.e, "file %s", "a.json");
  assert_string_equal(g.e.msg, "file a.json: ");
  /* an empty prefix */
  tc_error_set(&g.e, TC_EIO, "x");
  tc_error_prefix(&g.e, "%s", "");
  assert_string_equal(g.e.msg, ": x");
  guard_check(&g);
  /* NULL err: every fallible function may be called with err == NULL (error.h: it writes
     "when err is not NULL"), and such a function prefixes its callee's error, so prefix
     (and clear) must accept NULL too */
  tc_error_prefix(NULL, "context %d", 1);
  tc_error_clear(NULL);
}

/* prefix + ": " + old, cut to 511 characters in all. */
static void expect_prefixed(const char *prefix, const char *old) {
  guarded g;
  guard_init(&g);
  tc_error_set(&g.e, TC_ERANGE, "%s", old);
  tc_error_prefix(&g.e, "%s", prefix);
  assert_int_equal(g.e.code, TC_ERANGE);
  guard_check(&g);
  /* the expected line, built in a buffer large enough for everything, then cut by hand.
     old itself was first cut to 511 by tc_error_set. */
  size_t lp = strlen(prefix), lo = strlen(old);
  if (lo > TC_ERRMSG_MAX - 1) lo = TC_ERRMSG_MAX - 1;
  char *full = malloc(lp + 2 + lo + 1);
  assert_non_null(full);
  memcpy(full, prefix, lp);
  memcpy(full + lp, ": ", 2);
  memcpy(full + lp + 2, old, lo);
  full[lp + 2 + lo] = '\0';
  size_t total = lp + 2 + lo;
  if (total <= TC_ERRMSG_MAX - 1) {
    assert_string_equal(g.e.msg, full);
  } else {
    /* too long: one line of exactly 511 characters. The head of the prefix is kept, and
       when the prefix fits (with its ": ") it is kept whole, then as much of old as fits. */
    assert_int_equal(strlen(g.e.msg), TC_ERRMSG_MAX - 1);
    size_t keep = lp < TC_ERRMSG_MAX - 3 ? lp : TC_ERRMSG_MAX - 3;
    assert_memory_equal(g.e.msg, prefix, keep);
    assert_memory_equal(g.e.msg + keep, ": ", 2);
    assert_memory_equal(g.e.msg + keep + 2, old, TC_ERRMSG_MAX - 1 - keep - 2);
  }
  assert_null(strchr(g.e.msg, '\n'));
  free(full);
}

static void prefix_never_overflows(void **state) {
  (void)state;
  const size_t plens[] = {0, 1, 10, 200, TC_ERRMSG_MAX - 4, TC_ERRMSG_MAX - 3, TC_ERRMSG_MAX - 2,
                          TC_ERRMSG_MAX - 1, TC_ERRMSG_MAX, 2000};
  const size_t olens[] = {0, 1, 100, 499, 500, 509, 510, TC_ERRMSG_MAX - 1, TC_ERRMSG_MAX, 1500};
  for (size_t i = 0; i < sizeof plens / sizeof plens[0]; i++)
    for (size_t j = 0; j < sizeof olens / sizeof olens[0]; j++) {
      char *p = letters(plens[i], 'p'), *o = letters(olens[j], 'a');
      expect_prefixed(p, o);
      free(p);
      free(o);
    }
  /* the boundary by hand: a 10-character prefix and a 499-character message fill 511
     exactly (10 + 2 + 499); one more character of message is dropped */
  char *p = letters(10, 'p'), *o = letters(500, 'a');
  guarded g;
  guard_init(&g);
  tc_error_set(&g.e, TC_EIO, "%.*s", 499, o);
  tc_error_prefix(&g.e, "%s", p);
  assert_int_equal(strlen(g.e.msg), 511);
  assert_int_equal(g.e.msg[510], o[498]);
  tc_error_set(&g.e, TC_EIO, "%s", o);
  tc_error_prefix(&g.e, "%s", p);
  assert_int_equal(strlen(g.e.msg), 511);
  assert_int_equal(g.e.msg[510], o[498]); /* o[499] was cut */
  /* a prefix of 600 characters: its first 509, then ": ", nothing of the message */
  free(p);
  p = letters(600, 'p');
  tc_error_set(&g.e, TC_EIO, "lost");
  tc_error_prefix(&g.e, "%s", p);
  assert_int_equal(strlen(g.e.msg), 511);
  assert_memory_equal(g.e.msg, p, 509);
  assert_string_equal(g.e.msg + 509, ": ");
  guard_check(&g);
  free(p);
  free(o);
}

static void clear_resets(void **state) {
  (void)state;
  guarded g;
  guard_init(&g);
  tc_error_set(&g.e, TC_ENOMEM, "out of memory");
  tc_error_clear(&g.e);
  assert_int_equal(g.e.code, TC_OK);
  assert_string_equal(g.e.msg, "");
  guard_check(&g);
  /* from garbage too */
  guard_init(&g);
  tc_error_clear(&g.e);
  assert_int_equal(g.e.code, TC_OK);
  assert_int_equal(g.e.msg[0], '\0');
  guard_check(&g);
}

/* Untrusted text formatted into a message cannot break the line: C0 controls, DEL, C1
   controls (U+0080..U+009F in UTF-8) and invalid UTF-8 become '?'; valid UTF-8 stays. */
static void messages_are_neutralized(void **state) {
  (void)state;
  guarded g;
  guard_init(&g);
  tc_error_set(&g.e, TC_EINPUT, "bad \"%s\"", "a\nb\rc\x1b[2Jd\x7f\te");
  assert_string_equal(g.e.msg, "bad \"a?b?c?[2Jd??e\"");
  tc_error_set(&g.e, TC_EINPUT, "%s", "C1 \xc2\x9b and \xc2\x85, kept \xc2\xa0 \xe2\x88\xaa \xf0\x9f\x98\x80");
  assert_string_equal(g.e.msg, "C1 ?? and ??, kept \xc2\xa0 \xe2\x88\xaa \xf0\x9f\x98\x80");
  /* invalid: a stray continuation, a truncated sequence, an overlong '/', a surrogate, > U+10FFFF, 0xff */
  tc_error_set(&g.e, TC_EINPUT, "%s", "\x80|\xe2\x88|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xff");
  assert_string_equal(g.e.msg, "?|??|??|???|????|?");
  /* the prefix is neutralized too, and the old message stays as it was */
  tc_error_set(&g.e, TC_EIO, "cannot read");
  tc_error_prefix(&g.e, "file %s", "x\ny");
  assert_string_equal(g.e.msg, "file x?y: cannot read");
  assert_int_equal(g.e.code, TC_EIO);
  /* a multi-byte character cut by truncation at the end does not survive as half a one */
  char long_text[TC_ERRMSG_MAX + 8];
  memset(long_text, 'a', TC_ERRMSG_MAX - 2);
  memcpy(long_text + TC_ERRMSG_MAX - 2, "\xe2\x88\xaa", 4);
  tc_error_set(&g.e, TC_EINPUT, "%s", long_text);
  assert_int_equal(strlen(g.e.msg), TC_ERRMSG_MAX - 1);
  assert_int_equal(g.e.msg[TC_ERRMSG_MAX - 2], '?');
  guard_check(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(messages_are_neutralized),
      cmocka_unit_test(set_formats_and_returns_code),
      cmocka_unit_test(set_truncates_at_max),
      cmocka_unit_test(prefix_adds_context),
      cmocka_unit_test(prefix_never_overflows),
      cmocka_unit_test(clear_resets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
