/*
** spec.c — parser and evaluator of the topology spec language (grammar in spec.h and
** docs/spec.md).
**
** The parser is recursive descent and evaluates as it goes: each call's arguments are
** parsed (nested specs built into graphs), bound to the family's signature, the family is
** built, and the argument graphs are released. Every error names the column (1-based) of
** the offending token and what was expected, and is prefixed with the whole spec, so the
** CLI can print it as one line. Nesting is limited to 32 levels and specs to 4096 bytes,
** so no input can exhaust the stack.
*/
#include "spec_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define MAX_SPEC_LEN 4096
#define MAX_ARGS (TC_SPEC_MAX_PARAMS + TC_SPEC_MAX_LIST)

typedef enum { V_INT, V_WORD, V_GRAPH } value_kind;

typedef struct value {
  value_kind kind;
  int64_t i;
  char *text;        /* the token as written (words, integers); owned */
  tc_graph *g;       /* owned */
  size_t col;        /* 1-based column where the value starts */
  char name[32];     /* parameter name when given as name=value */
} value;

typedef struct parser {
  const char *s;
  size_t pos, len;
  int depth;
  tc_error *err;
} parser;

/* A parsed signature parameter. */
typedef struct param {
  char name[32];
  char type;       /* 'i', 'g', 'w' */
  char mod;        /* 0, '=', '*', '+' */
  const char *def; /* default text after '=' */
  size_t def_len;
} param;

static int at_end(const parser *p) { return p->pos >= p->len; }
static char peek(const parser *p) { return at_end(p) ? '\0' : p->s[p->pos]; }
static void skip_space(parser *p) {
  while (!at_end(p) && isspace((unsigned char)p->s[p->pos])) p->pos++;
}

/* Describe the token at the cursor for "found ..." in messages. */
static void describe_here(const parser *p, char *buf, size_t size) {
  if (at_end(p)) { snprintf(buf, size, "end of spec"); return; }
  snprintf(buf, size, "'%c'", p->s[p->pos]);
}

static int syntax_error(parser *p, const char *expected) {
  char found[32];
  describe_here(p, found, sizeof found);
  return tc_error_set(p->err, TC_EINPUT, "column %zu: expected %s, found %s", p->pos + 1, expected, found);
}

static int is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }
static int is_word_char(char c) {
  return c && !isspace((unsigned char)c) && !strchr(",()=\"", c);
}

static size_t ident_len(const parser *p, size_t at) {
  size_t k = at;
  if (k < p->len && is_ident_start(p->s[k]))
    while (k < p->len && is_ident_char(p->s[k])) k++;
  return k - at;
}

static void value_free(value *v) {
  free(v->text);
  tc_graph_destroy(v->g);
  memset(v, 0, sizeof *v);
}

static int parse_spec(parser *p, tc_graph **out);

static int parse_integer(parser *p, value *v) {
  size_t start = p->pos;
  if (peek(p) == '-') p->pos++;
  while (!at_end(p) && isdigit((unsigned char)peek(p))) p->pos++;
  if (is_word_char(peek(p))) {
    p->pos = start;
    return syntax_error(p, "an integer");
  }
  char buf[32];
  size_t n = p->pos - start;
  if (n >= sizeof buf) {
    p->pos = start;
    return tc_error_set(p->err, TC_EINPUT, "column %zu: integer too large", start + 1);
  }
  memcpy(buf, p->s + start, n);
  buf[n] = '\0';
  errno = 0;
  long long x = strtoll(buf, NULL, 10);
  if (errno == ERANGE)
    return tc_error_set(p->err, TC_EINPUT, "column %zu: integer %s out of range", start + 1, buf);
  v->kind = V_INT;
  v->i = x;
  v->text = strdup(buf);
  if (!v->text) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

static int parse_quoted(parser *p, value *v) {
  size_t start = ++p->pos;
  while (!at_end(p) && peek(p) != '"') p->pos++;
  if (at_end(p)) {
    p->pos = start - 1;
    return tc_error_set(p->err, TC_EINPUT, "column %zu: unterminated string", start);
  }
  v->kind = V_WORD;
  v->text = strndup(p->s + start, p->pos - start);
  p->pos++;
  if (!v->text) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

static int parse_value(parser *p, value *v) {
  skip_space(p);
  v->col = p->pos + 1;
  char c = peek(p);
  if (isdigit((unsigned char)c) || (c == '-' && p->pos + 1 < p->len && isdigit((unsigned char)p->s[p->pos + 1])))
    return parse_integer(p, v);
  if (c == '"') return parse_quoted(p, v);
  size_t id = ident_len(p, p->pos);
  if (id) {
    size_t after = p->pos + id;
    while (after < p->len && isspace((unsigned char)p->s[after])) after++;
    if (after < p->len && p->s[after] == '(') {
      v->kind = V_GRAPH;
      return parse_spec(p, &v->g);
    }
  }
  size_t start = p->pos;
  while (is_word_char(peek(p))) p->pos++;
  if (p->pos == start) return syntax_error(p, "an argument (integer, word or nested spec)");
  v->kind = V_WORD;
  v->text = strndup(p->s + start, p->pos - start);
  if (!v->text) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

/* arg := [ident '='] value */
static int parse_arg(parser *p, value *v) {
  skip_space(p);
  size_t id = ident_len(p, p->pos), after = p->pos + id;
  while (id && after < p->len && isspace((unsigned char)p->s[after])) after++;
  if (id && after < p->len && p->s[after] == '=') {
    if (id >= sizeof v->name)
      return tc_error_set(p->err, TC_EINPUT, "column %zu: parameter name too long", p->pos + 1);
    memcpy(v->name, p->s + p->pos, id);
    v->name[id] = '\0';
    p->pos = after + 1;
  }
  return parse_value(p, v);
}

static int parse_signature(const char *sig, param *params, int *count) {
  int k = 0;
  const char *s = sig;
  while (*s) {
    while (*s == ' ') s++;
    if (!*s) break;
    param *q = &params[k++];
    memset(q, 0, sizeof *q);
    size_t n = strcspn(s, ":");
    memcpy(q->name, s, n < sizeof q->name - 1 ? n : sizeof q->name - 1);
    s += n + 1;
    q->type = *s++;
    if (*s == '*' || *s == '+') q->mod = *s++;
    else if (*s == '=') {
      q->mod = '=';
      q->def = ++s;
      q->def_len = strcspn(s, " ");
      s += q->def_len;
    }
  }
  *count = k;
  return TC_OK;
}

static void format_usage(const tc_family *f, char *buf, size_t size) {
  snprintf(buf, size, "%s(%s)", f->info.name, f->info.params);
}

static int type_error(parser *p, const tc_family *f, const param *q, const value *v) {
  static const char *const what[] = {"an integer", "a word", "a nested spec"};
  const char *want = q->type == 'i' ? what[0] : q->type == 'w' ? what[1] : what[2];
  const char *got = v->kind == V_INT ? what[0] : v->kind == V_WORD ? what[1] : what[2];
  char usage[128];
  format_usage(f, usage, sizeof usage);
  return tc_error_set(p->err, TC_EINPUT, "column %zu: %s: argument '%s' must be %s, found %s (usage: %s)",
                      v->col, f->info.name, q->name, want, got, usage);
}

/* Store one value into parameter slot `slot` (or the variadic list) of `args`. */
static int bind_value(parser *p, const tc_family *f, const param *q, int slot, value *v, tc_spec_args *args) {
  if (q->type == 'i' && v->kind != V_INT) return type_error(p, f, q, v);
  if (q->type == 'g' && v->kind != V_GRAPH) return type_error(p, f, q, v);
  if (q->type == 'w' && v->kind == V_GRAPH) return type_error(p, f, q, v);
  if (q->mod == '*' || q->mod == '+') {
    if (args->list_len == TC_SPEC_MAX_LIST)
      return tc_error_set(p->err, TC_EINPUT, "column %zu: %s: more than %d values for '%s'", v->col,
                          f->info.name, TC_SPEC_MAX_LIST, q->name);
    if (q->type == 'i') args->list_ints[args->list_len] = v->i;
    else args->list_graphs[args->list_len] = v->g;
    args->list_len++;
    return TC_OK;
  }
  if (q->type == 'i') args->ints[slot] = v->i;
  else if (q->type == 'w') args->words[slot] = v->text;
  else args->graphs[slot] = v->g;
  return TC_OK;
}

/* Bind parsed values to the family's parameters and build the graph. */
static int bind_and_build(parser *p, const tc_family *f, size_t call_col, value *vals, int nvals, tc_graph **out) {
  param params[TC_SPEC_MAX_PARAMS];
  int np = 0, filled[TC_SPEC_MAX_PARAMS] = {0};
  char usage[128];
  value defaults[TC_SPEC_MAX_PARAMS];
  memset(defaults, 0, sizeof defaults);
  tc_spec_args args;
  memset(&args, 0, sizeof args);
  parse_signature(f->signature, params, &np);
  format_usage(f, usage, sizeof usage);
  int positional = 0, rc = TC_OK;
  for (int i = 0; i < nvals && !rc; i++) {
    value *v = &vals[i];
    int slot = -1;
    if (v->name[0]) {
      for (int k = 0; k < np; k++)
        if (!strcmp(params[k].name, v->name)) slot = k;
      if (slot < 0)
        rc = tc_error_set(p->err, TC_EINPUT, "column %zu: %s has no parameter '%s' (usage: %s)", v->col,
                          f->info.name, v->name, usage);
      else if (filled[slot] && params[slot].mod != '*' && params[slot].mod != '+')
        rc = tc_error_set(p->err, TC_EINPUT, "column %zu: %s: parameter '%s' given twice", v->col,
                          f->info.name, v->name);
    } else {
      slot = positional < np ? positional : np - 1;
      if (positional >= np && (np == 0 || (params[np - 1].mod != '*' && params[np - 1].mod != '+')))
        rc = tc_error_set(p->err, TC_EINPUT, "column %zu: %s takes at most %d argument%s (usage: %s)", v->col,
                          f->info.name, np, np == 1 ? "" : "s", usage);
      else if (params[slot].mod != '*' && params[slot].mod != '+') positional++;
    }
    if (!rc) {
      filled[slot] = 1;
      rc = bind_value(p, f, &params[slot], slot, v, &args);
    }
  }
  for (int k = 0; k < np && !rc; k++) {
    if (filled[k] || params[k].mod == '*') continue;
    if (params[k].mod != '=')
      rc = tc_error_set(p->err, TC_EINPUT, "column %zu: %s: missing argument '%s' (usage: %s)", call_col,
                        f->info.name, params[k].name, usage);
    else {
      defaults[k].text = strndup(params[k].def, params[k].def_len);
      if (!defaults[k].text) rc = tc_error_set(p->err, TC_ENOMEM, "out of memory");
      else if (params[k].type == 'i') args.ints[k] = strtoll(defaults[k].text, NULL, 10);
      else args.words[k] = defaults[k].text;
    }
  }
  if (!rc) {
    rc = f->build(&args, out, p->err);
    size_t nl = strlen(f->info.name);
    int named = !strncmp(p->err->msg, f->info.name, nl) && p->err->msg[nl] == ':';
    if (rc && named) tc_error_prefix(p->err, "column %zu", call_col);
    else if (rc) tc_error_prefix(p->err, "column %zu: %s", call_col, f->info.name);
  }
  for (int k = 0; k < np; k++) value_free(&defaults[k]);
  return rc;
}

/* Closest family name by edit distance, for "did you mean" hints. */
static const char *closest_family(const char *name, size_t len) {
  const char *best = NULL;
  size_t best_d = 3;
  for (int i = 0; i < tc_family_table_size(); i++) {
    const char *cand = tc_family_at(i)->info.name;
    size_t m = strlen(cand), row[64];
    if (m >= 63 || len >= 63) continue;
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t a = 1; a <= len; a++) {
      size_t diag = row[0];
      row[0] = a;
      for (size_t j = 1; j <= m; j++) {
        size_t up = row[j], cost = tolower((unsigned char)name[a - 1]) != cand[j - 1];
        size_t d = diag + cost;
        if (row[j] + 1 < d) d = row[j] + 1;
        if (row[j - 1] + 1 < d) d = row[j - 1] + 1;
        row[j] = d;
        diag = up;
      }
    }
    if (row[m] < best_d) { best_d = row[m]; best = cand; }
  }
  return best;
}

/* spec := name '(' [arg (',' arg)*] ')' */
static int parse_spec(parser *p, tc_graph **out) {
  *out = NULL;
  skip_space(p);
  size_t col = p->pos + 1, id = ident_len(p, p->pos);
  if (!id) return syntax_error(p, "a topology name such as kautz(4,2)");
  if (++p->depth > MAX_DEPTH)
    return tc_error_set(p->err, TC_EINPUT, "column %zu: specs nest deeper than %d levels", col, MAX_DEPTH);
  const tc_family *f = tc_family_find(p->s + p->pos, id);
  if (!f) {
    const char *hint = closest_family(p->s + p->pos, id);
    return tc_error_set(p->err, TC_EINPUT, "column %zu: unknown topology '%.*s'%s%s%s (see 'topocoll topo --list')", col,
                        (int)id, p->s + p->pos, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
  }
  p->pos += id;
  skip_space(p);
  if (peek(p) != '(') return syntax_error(p, "'(' after the topology name");
  p->pos++;
  value vals[MAX_ARGS];
  int nvals = 0, rc = TC_OK;
  memset(vals, 0, sizeof vals);
  skip_space(p);
  if (peek(p) == ')') p->pos++;
  else
    for (;;) {
      if (nvals == MAX_ARGS) { rc = tc_error_set(p->err, TC_EINPUT, "column %zu: too many arguments", p->pos + 1); break; }
      rc = parse_arg(p, &vals[nvals++]);
      if (rc) break;
      skip_space(p);
      if (peek(p) == ',') { p->pos++; continue; }
      if (peek(p) == ')') { p->pos++; break; }
      rc = syntax_error(p, "',' or ')'");
      break;
    }
  if (!rc) rc = bind_and_build(p, f, col, vals, nvals, out);
  for (int i = 0; i < nvals; i++) value_free(&vals[i]);
  p->depth--;
  return rc;
}

int tc_spec_build(const char *spec, tc_graph **out, tc_error *err) {
  *out = NULL;
  tc_error local;
  if (!err) err = &local; /* the parser reads messages back to add context */
  size_t len = strlen(spec);
  if (len > MAX_SPEC_LEN)
    return tc_error_set(err, TC_EINPUT, "spec is %zu bytes long (at most %d)", len, MAX_SPEC_LEN);
  parser p = {spec, 0, len, 0, err};
  int rc = parse_spec(&p, out);
  if (!rc) {
    skip_space(&p);
    if (!at_end(&p)) {
      tc_graph_destroy(*out);
      *out = NULL;
      rc = syntax_error(&p, "end of spec");
    }
  }
  if (rc && len <= 80) tc_error_prefix(err, "bad spec \"%s\"", spec);
  else if (rc) tc_error_prefix(err, "bad spec \"%.77s...\"", spec);
  return rc;
}

int tc_spec_family_count(void) { return tc_family_table_size(); }
const tc_family_info *tc_spec_family(int i) {
  return i >= 0 && i < tc_family_table_size() ? &tc_family_at(i)->info : NULL;
}
