/*
** spec.c — parser of the topology spec language (grammar in spec.h and docs/spec.md): text
** to a parse tree whose calls are bound to their families' signatures. Evaluation (building
** the graphs) is spec_eval.c.
**
** The parser is recursive descent. It reads the whole spec before anything is built, so a
** syntax or binding error costs nothing however large the topologies named before it are.
** Every error names the column (1-based) of the offending token and what was expected, and
** tc_spec_parse prefixes it with the whole spec, so the CLI can print it as one line.
** Nesting is limited to 32 levels and specs to 4096 bytes, so no input can exhaust the
** stack.
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

typedef struct parser {
  const char *s;
  size_t pos, len;
  int depth;
  tc_error *err;
} parser;

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

static void node_clear(tc_spec_node *v) {
  free(v->text);
  for (int i = 0; i < v->nargs; i++) node_clear(&v->args[i]);
  free(v->args);
  memset(v, 0, sizeof *v);
}

static int parse_call(parser *p, tc_spec_node *v);

static int parse_integer(parser *p, tc_spec_node *v) {
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
  v->kind = TC_SPEC_INT;
  v->value = x;
  v->text = strdup(buf);
  if (!v->text) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

static int parse_quoted(parser *p, tc_spec_node *v) {
  size_t start = ++p->pos;
  while (!at_end(p) && peek(p) != '"') p->pos++;
  if (at_end(p)) {
    p->pos = start - 1;
    return tc_error_set(p->err, TC_EINPUT, "column %zu: unterminated string", start);
  }
  v->kind = TC_SPEC_WORD;
  v->text = strndup(p->s + start, p->pos - start);
  p->pos++;
  if (!v->text) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

static int parse_value_body(parser *p, tc_spec_node *v) {
  char c = peek(p);
  if (isdigit((unsigned char)c) || (c == '-' && p->pos + 1 < p->len && isdigit((unsigned char)p->s[p->pos + 1])))
    return parse_integer(p, v);
  if (c == '"') return parse_quoted(p, v);
  size_t id = ident_len(p, p->pos);
  if (id) {
    size_t after = p->pos + id;
    while (after < p->len && isspace((unsigned char)p->s[after])) after++;
    if (after < p->len && p->s[after] == '(') return parse_call(p, v);
  }
  size_t start = p->pos;
  while (is_word_char(peek(p))) p->pos++;
  if (p->pos == start) return syntax_error(p, "an argument (integer, word or nested spec)");
  v->kind = TC_SPEC_WORD;
  v->text = strndup(p->s + start, p->pos - start);
  if (!v->text) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  return TC_OK;
}

static int parse_value(parser *p, tc_spec_node *v) {
  skip_space(p);
  v->col = p->pos + 1;
  v->start = p->pos;
  int rc = parse_value_body(p, v);
  v->len = p->pos - v->start;
  return rc;
}

/* arg := [ident '='] value */
static int parse_arg(parser *p, tc_spec_node *v) {
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

int tci_spec_signature(const char *sig, tc_spec_param *params) {
  int k = 0;
  const char *s = sig;
  while (*s && k < TC_SPEC_MAX_PARAMS) {
    while (*s == ' ') s++;
    if (!*s) break;
    tc_spec_param *q = &params[k++];
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
  return k;
}

static int is_list(const tc_spec_param *q) { return q->mod == '*' || q->mod == '+'; }

static void format_usage(const tc_family *f, char *buf, size_t size) {
  snprintf(buf, size, "%s(%s)", f->info.name, f->info.params);
}

static int type_error(parser *p, const tc_family *f, const tc_spec_param *q, const tc_spec_node *v) {
  static const char *const what[] = {"an integer", "a word", "a nested spec"};
  const char *want = q->type == 'i' ? what[0] : q->type == 'w' ? what[1] : what[2];
  const char *got = v->kind == TC_SPEC_INT ? what[0] : v->kind == TC_SPEC_WORD ? what[1] : what[2];
  char usage[128];
  format_usage(f, usage, sizeof usage);
  return tc_error_set(p->err, TC_EINPUT, "column %zu: %s: argument '%s' must be %s, found %s (usage: %s)",
                      v->col, f->info.name, q->name, want, got, usage);
}

static int check_type(parser *p, const tc_family *f, const tc_spec_param *q, const tc_spec_node *v) {
  if (q->type == 'i' && v->kind != TC_SPEC_INT) return type_error(p, f, q, v);
  if (q->type == 'g' && v->kind != TC_SPEC_CALL) return type_error(p, f, q, v);
  if (q->type == 'w' && v->kind == TC_SPEC_CALL) return type_error(p, f, q, v);
  return TC_OK;
}

/* The parameter slot value v binds to (positional or named), or -1 after an error. A
   positional argument after a named one is refused: it would bind to the next positional
   slot, which may be the very parameter just named. `named` is the last name seen. */
static int slot_of(parser *p, const tc_family *f, const tc_spec_param *params, int np, const int *filled,
                   int *positional, const tc_spec_node *v, const char **named, const char *usage) {
  if (!v->name[0] && *named) {
    tc_error_set(p->err, TC_EINPUT, "column %zu: %s: positional argument after named argument '%s' (usage: %s)", v->col,
                 f->info.name, *named, usage);
    return -1;
  }
  if (v->name[0]) {
    *named = v->name;
    for (int k = 0; k < np; k++)
      if (!strcmp(params[k].name, v->name)) {
        if (filled[k] && !is_list(&params[k])) {
          tc_error_set(p->err, TC_EINPUT, "column %zu: %s: parameter '%s' given twice", v->col, f->info.name,
                       v->name);
          return -1;
        }
        return k;
      }
    tc_error_set(p->err, TC_EINPUT, "column %zu: %s has no parameter '%s' (usage: %s)", v->col, f->info.name,
                 v->name, usage);
    return -1;
  }
  int slot = *positional < np ? *positional : np - 1;
  if (*positional >= np && (np == 0 || !is_list(&params[np - 1]))) {
    tc_error_set(p->err, TC_EINPUT, "column %zu: %s takes at most %d argument%s (usage: %s)", v->col, f->info.name,
                 np, np == 1 ? "" : "s", usage);
    return -1;
  }
  if (!is_list(&params[slot])) (*positional)++;
  return slot;
}

/* Check the call's bound values against its family's documented constraints (the
   registry's constraints text, constraint.c), defaults included. */
static int check_constraints(parser *p, const tc_spec_node *call, const tc_spec_param *params, int np,
                             const int *filled) {
  tc_spec_binding b = {.params = params, .np = np};
  int64_t list[TC_SPEC_MAX_LIST];
  char defaults[TC_SPEC_MAX_PARAMS][32];
  for (int i = 0; i < call->nargs; i++) {
    const tc_spec_node *v = &call->args[i];
    const tc_spec_param *q = &params[v->param];
    if (is_list(q) && q->type == 'i') list[b.list_len++] = v->value;
    else if (q->type == 'i') b.ints[v->param] = v->value;
    else if (q->type == 'w') b.words[v->param] = v->text;
  }
  for (int k = 0; k < np; k++)
    if (!filled[k] && params[k].mod == '=') {
      snprintf(defaults[k], sizeof defaults[k], "%.*s", (int)params[k].def_len, params[k].def);
      if (params[k].type == 'i') b.ints[k] = strtoll(defaults[k], NULL, 10);
      else b.words[k] = defaults[k];
    }
  b.list = list;
  int rc = tci_family_check(call->family, &b, p->err);
  if (rc) tc_error_prefix(p->err, "column %zu", call->col);
  return rc;
}

/* Bind the call's arguments to its family's parameters (each arg's `param`), checking
   names, types, arity, list length, that every parameter without a default is given, and
   the family's constraints. */
static int bind_call(parser *p, tc_spec_node *call) {
  const tc_family *f = call->family;
  tc_spec_param params[TC_SPEC_MAX_PARAMS];
  int np = tci_spec_signature(f->signature, params), filled[TC_SPEC_MAX_PARAMS] = {0}, positional = 0, listed = 0;
  const char *named = NULL;
  char usage[128];
  format_usage(f, usage, sizeof usage);
  for (int i = 0; i < call->nargs; i++) {
    tc_spec_node *v = &call->args[i];
    int slot = slot_of(p, f, params, np, filled, &positional, v, &named, usage);
    if (slot < 0) return p->err->code;
    int rc = check_type(p, f, &params[slot], v);
    if (rc) return rc;
    if (is_list(&params[slot]) && ++listed > TC_SPEC_MAX_LIST)
      return tc_error_set(p->err, TC_EINPUT, "column %zu: %s: more than %d values for '%s'", v->col, f->info.name,
                          TC_SPEC_MAX_LIST, params[slot].name);
    filled[slot] = 1;
    v->param = slot;
  }
  for (int k = 0; k < np; k++)
    if (!filled[k] && params[k].mod != '*' && params[k].mod != '=')
      return tc_error_set(p->err, TC_EINPUT, "column %zu: %s: missing argument '%s' (usage: %s)", call->col,
                          f->info.name, params[k].name, usage);
  return check_constraints(p, call, params, np, filled);
}

/* Closest family name by edit distance, for "did you mean" hints. */
static const char *closest_family(const char *name, size_t len) {
  const char *best = NULL;
  size_t best_d = 3;
  for (int i = 0; i < tci_family_table_size(); i++) {
    const char *cand = tci_family_at(i)->info.name;
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

/* The arguments between '(' and ')' into call->args. */
static int parse_args(parser *p, tc_spec_node *call) {
  tc_spec_node vals[MAX_ARGS];
  int n = 0, rc = TC_OK;
  memset(vals, 0, sizeof vals);
  skip_space(p);
  if (peek(p) == ')') p->pos++;
  else
    for (;;) {
      if (n == MAX_ARGS) { rc = tc_error_set(p->err, TC_EINPUT, "column %zu: too many arguments", p->pos + 1); break; }
      rc = parse_arg(p, &vals[n++]);
      if (rc) break;
      skip_space(p);
      if (peek(p) == ',') { p->pos++; continue; }
      if (peek(p) == ')') { p->pos++; break; }
      rc = syntax_error(p, "',' or ')'");
      break;
    }
  if (!rc && n > 0 && !(call->args = malloc((size_t)n * sizeof *call->args)))
    rc = tc_error_set(p->err, TC_ENOMEM, "out of memory");
  if (rc) {
    for (int i = 0; i < n; i++) node_clear(&vals[i]);
    return rc;
  }
  if (n > 0) memcpy(call->args, vals, (size_t)n * sizeof *vals);
  call->nargs = n;
  return TC_OK;
}

/* spec := name '(' [arg (',' arg)*] ')' */
static int parse_call(parser *p, tc_spec_node *v) {
  skip_space(p);
  size_t col = p->pos + 1, id = ident_len(p, p->pos);
  if (!id) return syntax_error(p, "a topology name such as kautz(4,2)");
  if (++p->depth > MAX_DEPTH)
    return tc_error_set(p->err, TC_EINPUT, "column %zu: specs nest deeper than %d levels", col, MAX_DEPTH);
  const tc_family *f = tci_family_find(p->s + p->pos, id);
  if (!f) {
    const char *hint = closest_family(p->s + p->pos, id);
    return tc_error_set(p->err, TC_EINPUT, "column %zu: unknown topology '%.*s'%s%s%s (see 'topocoll topo --list')",
                        col, (int)id, p->s + p->pos, hint ? "; did you mean '" : "", hint ? hint : "",
                        hint ? "'?" : "");
  }
  v->kind = TC_SPEC_CALL;
  v->family = f;
  v->col = col;
  if (!(v->text = strdup(f->info.name))) return tc_error_set(p->err, TC_ENOMEM, "out of memory");
  p->pos += id;
  skip_space(p);
  if (peek(p) != '(') return syntax_error(p, "'(' after the topology name");
  p->pos++;
  int rc = parse_args(p, v);
  if (!rc) rc = bind_call(p, v);
  p->depth--;
  return rc;
}

int tc_spec_parse(const char *text, tc_spec **out, tc_error *err) {
  *out = NULL;
  size_t len = strlen(text);
  if (len > MAX_SPEC_LEN)
    return tc_error_set(err, TC_EINPUT, "spec is %zu bytes long (at most %d)", len, MAX_SPEC_LEN);
  tc_spec *s = calloc(1, sizeof *s);
  if (s) s->root = calloc(1, sizeof *s->root);
  if (s && s->root) s->text = strdup(text);
  if (!s || !s->root || !s->text) {
    tc_spec_destroy(s);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  parser p = {s->text, 0, len, 0, err};
  skip_space(&p);
  s->root->col = p.pos + 1;
  s->root->start = p.pos;
  int rc = parse_call(&p, s->root);
  s->root->len = p.pos - s->root->start;
  if (!rc) {
    skip_space(&p);
    if (!at_end(&p)) rc = syntax_error(&p, "end of spec");
  }
  if (rc) {
    if (len <= 80) tc_error_prefix(err, "bad spec \"%s\"", text);
    else tc_error_prefix(err, "bad spec \"%.77s...\"", text);
    tc_spec_destroy(s);
    return rc;
  }
  *out = s;
  return TC_OK;
}

void tc_spec_destroy(tc_spec *s) {
  if (!s) return;
  if (s->root) node_clear(s->root);
  free(s->root);
  free(s->text);
  free(s);
}

/* ---- walking the tree ---- */

/* Index of parameter `param` in call's signature, or -1; its description in *q. */
static int param_index(const tc_spec_node *call, const char *param, tc_spec_param *q) {
  if (!call || call->kind != TC_SPEC_CALL) return -1;
  tc_spec_param params[TC_SPEC_MAX_PARAMS];
  int np = tci_spec_signature(((const tc_family *)call->family)->signature, params);
  for (int k = 0; k < np; k++)
    if (!strcmp(params[k].name, param)) {
      if (q) *q = params[k];
      return k;
    }
  return -1;
}

const tc_spec_node *tc_spec_arg(const tc_spec_node *call, const char *param) {
  int k = param_index(call, param, NULL);
  for (int i = 0; k >= 0 && i < call->nargs; i++)
    if (call->args[i].param == k) return &call->args[i];
  return NULL;
}

int tc_spec_arg_int(const tc_spec_node *call, const char *param, int64_t *out, tc_error *err) {
  tc_spec_param q;
  if (param_index(call, param, &q) < 0 || q.type != 'i')
    return tc_error_set(err, TC_EINPUT, "%s has no integer parameter '%s'", call ? call->text : "(null)", param);
  const tc_spec_node *v = tc_spec_arg(call, param);
  if (v) *out = v->value;
  else if (q.mod == '=') *out = strtoll(q.def, NULL, 10);
  else return tc_error_set(err, TC_EINPUT, "%s: parameter '%s' was not given", call->text, param);
  return TC_OK;
}

int tc_spec_arg_list(const tc_spec_node *call, const char *param, const tc_spec_node **items, int max) {
  int k = param_index(call, param, NULL), n = 0;
  for (int i = 0; k >= 0 && i < call->nargs; i++)
    if (call->args[i].param == k && n < max) items[n++] = &call->args[i];
  return n;
}

char *tc_spec_node_text(const tc_spec *s, const tc_spec_node *node) {
  return strndup(s->text + node->start, node->len);
}

int tc_spec_family_count(void) { return tci_family_table_size(); }
const tc_family_info *tc_spec_family(int i) {
  return i >= 0 && i < tci_family_table_size() ? &tci_family_at(i)->info : NULL;
}
