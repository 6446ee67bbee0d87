/*
** constraint.c — a family's documented constraints, checked from the very text that
** `topocoll topo --list` prints (the `constraints` column of registry.c), so the table is
** the one home of each constraint and a spec that breaks one is refused at parse time,
** before any graph is built.
**
** The text is a list of clauses separated by top-level ", ". A clause in one of these forms
** is checked; any other clause is prose ("G loop-free", "a Table 8 name") that the family's
** generator checks itself. tests/test_spec.c pins which clauses are prose, so a typo cannot
** silently turn a checked clause into prose.
**   chain           e1 REL e2 [REL e3 ...]       "m >= d+1", "1 <= d < n"
**   even            even e1 [REL e2 ...]         "even d >= 2": e1 even, then the chain
**   parity          e even                       "n*d even"
**   each            each x_i REL e ...           "each l_i >= 2": every item of the list
**                                                parameter (x_i names the item)
**   multiple        name multiple of e           "d multiple of 4"
**   choice          name w1|w2|...               "loops keep|drop" (a word parameter)
** REL is >=, <=, >, <, = or !=; e is an integer expression over the call's integer
** parameters with + - * / ^ and parentheses, evaluated in checked 128-bit arithmetic.
** Messages follow the generators' style: "d must be >= 2 (got 1)", "needs 1 <= d < n
** (got d = 4, n = 4)", "l2 must be >= 2 (got 1)", "loops must be 'keep' or 'drop' (got "x")".
*/
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/io_text.h"
#include "spec_internal.h"

typedef __int128 wide;

/* A clause being read: its text [s, end), the cursor, the bound values, the list item an
   `each` clause is at (-1 outside one) and its name ("l" for l_i). */
typedef struct reader {
  const char *s, *p, *end;
  const tc_spec_binding *b;
  int item;
  const char *item_name;
  size_t item_len;
  int bad; /* not a checkable clause (unknown name, stray character) or overflow */
  int overflow;
} reader;

static void skip(reader *r) {
  while (r->p < r->end && *r->p == ' ') r->p++;
}

static int ident_at(const reader *r, const char *at) {
  const char *q = at;
  while (q < r->end && (isalnum((unsigned char)*q) || *q == '_')) q++;
  return isalpha((unsigned char)*at) ? (int)(q - at) : 0;
}

/* Does the identifier [at, at+len) equal word? */
static int is_word(const char *at, int len, const char *word) {
  return (size_t)len == strlen(word) && !strncmp(at, word, (size_t)len);
}

/* The integer parameter named [at, at+len), or -1. */
static int int_param(const tc_spec_binding *b, const char *at, int len) {
  for (int k = 0; k < b->np; k++)
    if (b->params[k].type == 'i' && b->params[k].mod != '*' && b->params[k].mod != '+' &&
        is_word(at, len, b->params[k].name))
      return k;
  return -1;
}

static wide expr(reader *r);

static wide checked(reader *r, int overflowed, wide v) {
  if (overflowed) r->overflow = r->bad = 1;
  return v;
}

static wide atom(reader *r) {
  skip(r);
  if (r->p < r->end && *r->p == '(') {
    r->p++;
    wide v = expr(r);
    skip(r);
    if (r->p < r->end && *r->p == ')') r->p++;
    else r->bad = 1;
    return v;
  }
  if (r->p < r->end && isdigit((unsigned char)*r->p)) {
    wide v = 0;
    while (r->p < r->end && isdigit((unsigned char)*r->p)) {
      /* two statements: the operands of | would be evaluated in no fixed order */
      int o = __builtin_mul_overflow(v, 10, &v);
      o += __builtin_add_overflow(v, *r->p++ - '0', &v);
      checked(r, o, 0);
    }
    return v;
  }
  int len = ident_at(r, r->p);
  if (!len) { r->bad = 1; return 0; }
  const char *at = r->p;
  r->p += len;
  if (r->item >= 0 && (size_t)len == r->item_len + 2 && !strncmp(at, r->item_name, r->item_len) &&
      !strncmp(at + r->item_len, "_i", 2))
    return r->b->list[r->item];
  int k = int_param(r->b, at, len);
  if (k < 0) { r->bad = 1; return 0; }
  return r->b->ints[k];
}

static wide unary(reader *r);

static wide power(reader *r) {
  wide base = atom(r);
  skip(r);
  if (r->p >= r->end || *r->p != '^') return base;
  r->p++;
  wide e = unary(r), v = 1;
  if (e < 0) { r->bad = 1; return 0; }
  for (wide i = 0; i < e && !r->bad; i++) checked(r, __builtin_mul_overflow(v, base, &v), 0);
  return v;
}

static wide unary(reader *r) {
  skip(r);
  if (r->p < r->end && *r->p == '-') {
    r->p++;
    return -unary(r);
  }
  return power(r);
}

static wide term(reader *r) {
  wide v = unary(r);
  for (;;) {
    skip(r);
    if (r->p >= r->end || (*r->p != '*' && *r->p != '/')) return v;
    char op = *r->p++;
    wide w = unary(r);
    if (op == '*') checked(r, __builtin_mul_overflow(v, w, &v), 0);
    else if (w == 0) r->bad = 1;
    else v /= w;
  }
}

static wide expr(reader *r) {
  wide v = term(r);
  for (;;) {
    skip(r);
    if (r->p >= r->end || (*r->p != '+' && *r->p != '-')) return v;
    char op = *r->p++;
    wide w = term(r);
    checked(r, op == '+' ? __builtin_add_overflow(v, w, &v) : __builtin_sub_overflow(v, w, &v), 0);
  }
}

/* A relation operator at the cursor: its text into op (consumed), or 0. */
static int relation(reader *r, char op[3]) {
  skip(r);
  static const char *const ops[] = {">=", "<=", "!=", ">", "<", "="};
  for (int i = 0; i < 6; i++) {
    size_t n = strlen(ops[i]);
    if ((size_t)(r->end - r->p) >= n && !strncmp(r->p, ops[i], n)) {
      memcpy(op, ops[i], n + 1);
      r->p += n;
      return 1;
    }
  }
  return 0;
}

static int holds(wide a, const char *op, wide b) {
  if (!strcmp(op, ">=")) return a >= b;
  if (!strcmp(op, "<=")) return a <= b;
  if (!strcmp(op, "!=")) return a != b;
  if (!strcmp(op, ">")) return a > b;
  if (!strcmp(op, "<")) return a < b;
  return a == b;
}

/* The values the clause [s, end) names, "(got 1)" when it names only `lone`, else
   "(got d = 4, n = 4)"; list items by their names ("l2"). */
static void got(const reader *r, const char *s, const char *end, int lone, char *buf, size_t size) {
  const tc_spec_binding *b = r->b;
  int seen[TC_SPEC_MAX_PARAMS] = {0}, count = 0, only = -1;
  size_t k = 0;
  buf[0] = '\0';
  for (const char *q = s; q < end;) {
    int len = ident_at(r, q), p = len ? int_param(b, q, len) : -1;
    if (p >= 0 && !seen[p]) {
      seen[p] = 1;
      only = count++ ? -2 : p;
      k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s%s = %lld", k ? ", " : "", b->params[p].name,
                            (long long)b->ints[p]);
    }
    q += len ? len : 1;
  }
  if (lone >= 0 && only == lone) snprintf(buf, size, "%lld", (long long)b->ints[lone]);
}

/* The integer parameter that [from, to) is, trimmed, or -1 (an expression, a literal). */
static int bare_name(const reader *r, const char *from, const char *to) {
  while (from < to && *from == ' ') from++;
  while (to > from && to[-1] == ' ') to--;
  int len = ident_at(r, from);
  return len && from + len == to ? int_param(r->b, from, len) : -1;
}

/* The rest of a chain whose first operand, [lhs, cursor), was `first`: the first relation
   that fails is reported, naming `subject` (a list item, worth `shown`) when given. */
static int chain(reader *r, const char *fam, const char *lhs, wide first, const char *subject, long long shown,
                 tc_error *err) {
  const char *lhs_end = r->p;
  wide left = first;
  int links = 0, failed = 0;
  char op[3], fop[3] = "";
  const char *rhs = NULL;
  while (relation(r, op)) {
    const char *at = r->p;
    wide right = expr(r);
    if (r->bad) return TC_OK;
    if (!failed && !holds(left, op, right)) {
      failed = 1;
      memcpy(fop, op, 3);
      rhs = at;
    }
    left = right;
    links++;
  }
  skip(r);
  if (!links || r->p != r->end) r->bad = 1;
  if (r->bad || !failed) return TC_OK;
  while (*rhs == ' ') rhs++;
  int rhs_len = (int)(r->end - rhs);
  if (subject && links == 1)
    return tc_error_set(err, TC_EINPUT, "%s: %s must be %s %.*s (got %lld)", fam, subject, fop, rhs_len, rhs, shown);
  int lone = links == 1 ? bare_name(r, lhs, lhs_end) : -1;
  char values[160];
  got(r, r->s, r->end, lone, values, sizeof values);
  if (lone >= 0)
    return tc_error_set(err, TC_EINPUT, "%s: %s must be %s %.*s (got %s)", fam, r->b->params[lone].name, fop, rhs_len,
                        rhs, values);
  return tc_error_set(err, TC_EINPUT, "%s: needs %.*s (got %s)", fam, (int)(r->end - r->s), r->s, values);
}

static int list_index(const tc_spec_binding *b) {
  for (int k = 0; k < b->np; k++)
    if (b->params[k].mod == '*' || b->params[k].mod == '+') return k;
  return -1;
}

/* each x_i REL e ...: every item of the list parameter. An empty list is still parsed (on
   a dummy item, its verdict dropped) so that the clause counts as checked, not prose. */
static int check_each(reader *r, const char *fam, tc_error *err) {
  skip(r);
  int n = ident_at(r, r->p);
  if (n < 3 || strncmp(r->p + n - 2, "_i", 2) || list_index(r->b) < 0) return r->bad = 1, TC_OK;
  const tc_spec_binding *b = r->b;
  static const int64_t dummy = 0;
  const int64_t *items = b->list_len ? b->list : &dummy;
  int count = b->list_len ? b->list_len : 1, rc = TC_OK;
  tc_error dropped;
  r->item_name = r->p;
  r->item_len = (size_t)n - 2;
  const char *lhs = r->p;
  for (int i = 0; i < count && !rc && !r->bad; i++) {
    tc_spec_binding one = *b;
    one.list = &items[i];
    r->b = &one;
    r->item = 0;
    r->p = lhs;
    wide v = expr(r);
    char subject[40];
    snprintf(subject, sizeof subject, "%.*s%d", (int)r->item_len, r->item_name, i + 1);
    rc = chain(r, fam, lhs, v, subject, (long long)v, b->list_len ? err : &dropped);
    r->b = b;
  }
  return b->list_len ? rc : TC_OK;
}

/* even e [REL e ...]: e even, then the chain. */
static int check_even(reader *r, const char *fam, tc_error *err) {
  skip(r);
  const char *lhs = r->p;
  wide v = expr(r);
  if (r->bad) return TC_OK;
  skip(r);
  if (v % 2) {
    int lone = bare_name(r, lhs, r->p);
    char values[160];
    got(r, lhs, r->p, lone, values, sizeof values);
    if (lone >= 0)
      return tc_error_set(err, TC_EINPUT, "%s: %s must be even (got %s)", fam, r->b->params[lone].name, values);
    return tc_error_set(err, TC_EINPUT, "%s: needs %.*s (got %s)", fam, (int)(r->end - r->s), r->s, values);
  }
  return r->p == r->end ? TC_OK : chain(r, fam, lhs, v, NULL, 0, err);
}

/* name w1|w2|...: the word parameter k is one of the alternatives. */
static int check_choice(const tc_spec_binding *b, int k, const char *fam, const char *alt, const char *end,
                        tc_error *err) {
  const char *w = b->words[k];
  char alts[160];
  size_t used = 0;
  for (const char *q = alt; q < end;) {
    const char *bar = memchr(q, '|', (size_t)(end - q)), *stop = bar ? bar : end;
    if (strlen(w) == (size_t)(stop - q) && !strncmp(w, q, (size_t)(stop - q))) return TC_OK;
    used += (size_t)snprintf(alts + used, used < sizeof alts ? sizeof alts - used : 0, "%s'%.*s'",
                             !used ? "" : bar ? ", " : " or ", (int)(stop - q), q);
    q = bar ? bar + 1 : end;
  }
  tc_io_quoted qw = tci_io_quote(w, strlen(w));
  return tc_error_set(err, TC_EINPUT, "%s: %s must be %s (got %s)", fam, b->params[k].name, alts, qw.text);
}

/* Check one clause [s, end); sets *prose when it is none of the checked forms. */
static int check_clause(const tc_family *f, const tc_spec_binding *b, const char *s, const char *end, int *prose,
                        tc_error *err) {
  const char *fam = f->info.name;
  reader r = {.s = s, .p = s, .end = end, .b = b, .item = -1};
  int len = ident_at(&r, s), rc = TC_OK;
  const char *after = s + len;
  while (after < end && *after == ' ') after++;
  int p = len ? int_param(b, s, len) : -1;
  if (len && is_word(s, len, "each")) {
    r.p = after;
    rc = check_each(&r, fam, err);
  } else if (len && is_word(s, len, "even")) {
    r.p = after;
    rc = check_even(&r, fam, err);
  } else if (p >= 0 && (size_t)(end - after) > 12 && !strncmp(after, "multiple of ", 12)) {
    r.p = after + 12;
    wide m = expr(&r);
    skip(&r);
    if (r.p != r.end || m == 0) r.bad = 1;
    else if (!r.bad && b->ints[p] % m)
      rc = tc_error_set(err, TC_EINPUT, "%s: %s must be a multiple of %.*s (got %lld)", fam, b->params[p].name,
                        (int)(end - after - 12), after + 12, (long long)b->ints[p]);
  } else {
    for (int k = 0; len && k < b->np; k++)
      if (b->params[k].type == 'w' && b->params[k].mod != '*' && b->params[k].mod != '+' &&
          is_word(s, len, b->params[k].name) && after < end && b->words[k])
        return check_choice(b, k, fam, after, end, err);
    wide v = expr(&r);
    skip(&r);
    const char *stop = r.p;
    int n = ident_at(&r, stop);
    if (!r.bad && n && is_word(stop, n, "even") && stop + n == end) { /* e even */
      if (v % 2) {
        char values[160];
        got(&r, s, stop, -1, values, sizeof values);
        rc = tc_error_set(err, TC_EINPUT, "%s: needs %.*s (got %s)", fam, (int)(end - s), s, values);
      }
    } else if (!r.bad) {
      rc = chain(&r, fam, s, v, NULL, 0, err);
    }
  }
  if (!rc && r.overflow)
    return tc_error_set(err, TC_ERANGE, "%s: arguments too large to check %.*s", fam, (int)(end - s), s);
  *prose = !rc && r.bad;
  return rc;
}

/* The clauses of text at top-level ", " (not inside parentheses): calls each(s, end),
   stopping at the first that fails. */
static int clauses(const char *text, int (*each)(const char *, const char *, void *), void *ctx) {
  int depth = 0;
  const char *start = text;
  for (const char *q = text;; q++) {
    if (*q == '(') depth++;
    if (*q == ')') depth--;
    if (!*q || (!depth && q[0] == ',' && q[1] == ' ')) {
      if (q > start) {
        int rc = each(start, q, ctx);
        if (rc) return rc;
      }
      if (!*q) return TC_OK;
      start = q + 2;
    }
  }
}

typedef struct check_ctx {
  const tc_family *f;
  const tc_spec_binding *b;
  tc_error *err;
  char *prose;
  size_t prose_size, prose_len;
} check_ctx;

static int check_one(const char *s, const char *end, void *vctx) {
  check_ctx *c = vctx;
  int prose = 0, rc = check_clause(c->f, c->b, s, end, &prose, c->err);
  if (!c->prose) return rc;
  if (prose) /* collecting the prose: every clause is visited, verdicts dropped */
    c->prose_len += (size_t)snprintf(c->prose + c->prose_len, c->prose_len < c->prose_size ? c->prose_size - c->prose_len : 0,
                                     "%s%.*s", c->prose_len ? "; " : "", (int)(end - s), s);
  return TC_OK;
}

int tci_family_check(const tc_family *f, const tc_spec_binding *b, tc_error *err) {
  check_ctx c = {f, b, err, NULL, 0, 0};
  return clauses(f->info.constraints, check_one, &c);
}

void tci_family_prose(const tc_family *f, const tc_spec_binding *b, char *buf, size_t size) {
  tc_error ignored;
  check_ctx c = {f, b, &ignored, buf, size, 0};
  if (size) buf[0] = '\0';
  clauses(f->info.constraints, check_one, &c);
}
