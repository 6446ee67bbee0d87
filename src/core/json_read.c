/*
** json_read.c — strict JSON document reading on top of jansson (contract in json_read.h).
**
** Every check reports through tci_json_fail or tc_error_set with the file name first, so
** the messages of all readers share one shape. Text from the file (keys, format names)
** is echoed only through tci_io_quote.
*/
#include "core/json_read.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/io_text.h"

/* "a string", "an array", ... as a message names the type it found. */
static const char *type_name(const json_t *j) {
  switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
  }
}

/* jansson's message, made safe for one line and free of its API flag names. */
static int syntax_error(tc_json_reader *r, const json_error_t *je) {
  static const char flag_hint[] = " without JSON_ALLOW_NUL";
  char text[sizeof je->text];
  size_t i = 0, k = 0;
  while (je->text[i] && k + 1 < sizeof text) {
    if (strncmp(je->text + i, flag_hint, sizeof flag_hint - 1) == 0) {
      i += sizeof flag_hint - 1;
      continue;
    }
    unsigned char c = (unsigned char)je->text[i++];
    text[k++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
  }
  text[k] = '\0';
  return tc_error_set(r->err, TC_EINPUT, "%s:%d:%d: %s", r->path, je->line, je->column, text);
}

static json_t *load(tc_json_reader *r, int *rc) {
  FILE *fp = fopen(r->path, "r");
  if (!fp) {
    *rc = tc_error_set(r->err, TC_EIO, "cannot read %s: %s", r->path, strerror(errno));
    return NULL;
  }
  json_error_t je;
  errno = 0;
  json_t *root = json_loadf(fp, JSON_REJECT_DUPLICATES, &je);
  int e = errno;
  if (!root && ferror(fp)) *rc = tc_error_set(r->err, TC_EIO, "cannot read %s: %s", r->path, strerror(e ? e : EIO));
  else if (!root) *rc = syntax_error(r, &je);
  fclose(fp);
  return root;
}

json_t *tci_json_load_object(tc_json_reader *r, int *rc) {
  json_t *root = load(r, rc);
  if (root && !json_is_object(root)) {
    *rc = tc_error_set(r->err, TC_EINPUT, "%s: expected an object at the top level, found %s", r->path,
                       type_name(root));
    json_decref(root);
    root = NULL;
  }
  return root;
}

int tci_json_fail(tc_json_reader *r, const char *jpath, const char *fmt, ...) {
  char problem[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  return tc_error_set(r->err, TC_EINPUT, "%s: %s: %s", r->path, jpath, problem);
}

int tci_json_expect_type(tc_json_reader *r, const char *jpath, const json_t *j, json_type t, const char *want) {
  /* jansson gives true and false distinct types; a format asks for "a boolean". */
  int any_boolean = (t == JSON_TRUE || t == JSON_FALSE) && json_is_boolean(j);
  if (json_typeof(j) == t || any_boolean) return TC_OK;
  return tci_json_fail(r, jpath, "expected %s, found %s", want, type_name(j));
}

int tci_json_get_int(tc_json_reader *r, const char *jpath, const json_t *j, const char *what, long long lo,
                    long long hi, long long *out) {
  int rc = tci_json_expect_type(r, jpath, j, JSON_INTEGER, "an integer");
  if (rc) return rc;
  long long x = (long long)json_integer_value(j);
  if (x < lo || x > hi) {
    if (hi < lo) return tci_json_fail(r, jpath, "%s%lld, but %s", what, x, r->empty_range);
    if (hi == INT64_MAX) return tci_json_fail(r, jpath, "%s%lld must be >= %lld", what, x, lo);
    return tci_json_fail(r, jpath, "%s%lld outside %lld..%lld", what, x, lo, hi);
  }
  *out = x;
  return TC_OK;
}

/* "prefix.key", or "key" at the top level. */
static void member_path(char *out, size_t size, const char *prefix, const char *key) {
  snprintf(out, size, "%s%s%s", prefix, *prefix ? "." : "", key);
}

json_t *tci_json_require(tc_json_reader *r, json_t *obj, const char *prefix, const char *key, int *rc) {
  json_t *j = json_object_get(obj, key);
  if (!j) *rc = tc_error_set(r->err, TC_EINPUT, "%s: %s%s%s: missing", r->path, prefix, *prefix ? "." : "", key);
  return j;
}

int tci_json_member_int(tc_json_reader *r, json_t *obj, const char *prefix, const char *key, long long lo,
                       long long hi, long long *out) {
  int rc = TC_OK;
  json_t *j = tci_json_require(r, obj, prefix, key, &rc);
  if (rc) return rc;
  char jpath[TC_JSON_PATH_MAX];
  member_path(jpath, sizeof jpath, prefix, key);
  return tci_json_get_int(r, jpath, j, "", lo, hi, out);
}

/* "a, b, c" from a NULL-terminated list, cut short (never overrun) if it does not fit. */
static void join_keys(char *out, size_t size, const char *const *keys) {
  size_t len = 0;
  out[0] = '\0';
  for (int k = 0; keys[k] && len + 1 < size; k++) {
    int wrote = snprintf(out + len, size - len, "%s%s", k ? ", " : "", keys[k]);
    if (wrote < 0) break;
    len += (size_t)wrote;
  }
}

int tci_json_check_keys(tc_json_reader *r, json_t *obj, const char *prefix, const char *const *known) {
  const char *key;
  json_t *value;
  json_object_foreach(obj, key, value) {
    int i = 0;
    while (known[i] && strcmp(key, known[i]) != 0) i++;
    if (known[i]) continue;
    char list[256];
    join_keys(list, sizeof list, known);
    tc_io_quoted q = tci_io_quote(key, strlen(key));
    return tc_error_set(r->err, TC_EINPUT, "%s: %s%sunknown key %s (version %d defines %s)", r->path, prefix,
                        *prefix ? ": " : "", q.text, r->version, list);
  }
  return TC_OK;
}

json_t *tci_json_member_object(tc_json_reader *r, json_t *root, const char *key, const char *const *known, int *rc) {
  json_t *j = tci_json_require(r, root, "", key, rc);
  if (*rc || (*rc = tci_json_expect_type(r, key, j, JSON_OBJECT, "an object"))) return NULL;
  if ((*rc = tci_json_check_keys(r, j, key, known))) return NULL;
  return j;
}

json_t *tci_json_optional_array(tc_json_reader *r, json_t *obj, const char *prefix, const char *key, int32_t count,
                               const char *per, int *rc) {
  json_t *a = json_object_get(obj, key);
  if (!a) return NULL;
  char jpath[TC_JSON_PATH_MAX];
  member_path(jpath, sizeof jpath, prefix, key);
  if ((*rc = tci_json_expect_type(r, jpath, a, JSON_ARRAY, "an array"))) return NULL;
  if (json_array_size(a) != (size_t)count) {
    *rc = tci_json_fail(r, jpath, "expected %d entries (one per %s), found %zu", count, per, json_array_size(a));
    return NULL;
  }
  return a;
}

/* The project's JSON documents: what each is, what to say when another reader gets it. */
static const struct document {
  const char *format, *is, *not_a, *hint;
} documents[] = {
    {"topocoll-graph", "a graph JSON (nodes/arcs)", "a graph", NULL},
    {"topocoll-schedule", "a schedule JSON (graph and transfers)", "a schedule",
     "schedules are written by 'topocoll sched --out' and 'topocoll plan'"},
};

int tci_json_check_kind(tc_json_reader *r, json_t *root) {
  const char *format = json_string_value(json_object_get(root, "format")); /* NULL unless a string */
  const struct document *got = NULL, *want = NULL;
  for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++) {
    if (format && !strcmp(format, documents[i].format)) got = &documents[i];
    if (!strcmp(r->format, documents[i].format)) want = &documents[i];
  }
  if (!got || !want || got == want) return TC_OK;
  return tc_error_set(r->err, TC_EINPUT, "%s is %s, not %s%s%s", r->path, got->is, want->not_a, want->hint ? "; " : "",
                      want->hint ? want->hint : "");
}

int tci_json_check_header(tc_json_reader *r, json_t *root) {
  int rc = TC_OK;
  json_t *format = tci_json_require(r, root, "", "format", &rc);
  if (rc || (rc = tci_json_expect_type(r, "format", format, JSON_STRING, "a string"))) return rc;
  if (strcmp(json_string_value(format), r->format) != 0) {
    tc_io_quoted q = tci_io_quote(json_string_value(format), json_string_length(format));
    return tci_json_fail(r, "format", "expected \"%s\", found %s", r->format, q.text);
  }
  json_t *version = tci_json_require(r, root, "", "version", &rc);
  if (rc || (rc = tci_json_expect_type(r, "version", version, JSON_INTEGER, "an integer"))) return rc;
  if (json_integer_value(version) != r->version)
    return tci_json_fail(r, "version", "unsupported version %lld (this reader knows version %d)",
                        (long long)json_integer_value(version), r->version);
  return TC_OK;
}

int tci_json_read_arc(tc_json_reader *r, const char *prefix, size_t i, const json_t *arc, int32_t nodes,
                     long long x[3]) {
  char jpath[TC_JSON_PATH_MAX];
  snprintf(jpath, sizeof jpath, "%s[%zu]", prefix, i);
  int rc = tci_json_expect_type(r, jpath, arc, JSON_ARRAY, "an array [u, v] or [u, v, cap]");
  if (rc) return rc;
  size_t len = json_array_size(arc);
  if (len < 2 || len > 3)
    return tci_json_fail(r, jpath, "expected [u, v] or [u, v, cap], found %zu element%s", len, len == 1 ? "" : "s");
  x[0] = x[1] = 0;
  x[2] = 1;
  for (size_t k = 0; k < len; k++) {
    snprintf(jpath, sizeof jpath, "%s[%zu][%zu]", prefix, i, k);
    if (k < 2) rc = tci_json_get_int(r, jpath, json_array_get(arc, k), "node ", 0, (long long)nodes - 1, &x[k]);
    else rc = tci_json_get_int(r, jpath, json_array_get(arc, k), "capacity ", LLONG_MIN, LLONG_MAX, &x[k]);
    if (rc) return rc;
  }
  /* checked here, not by the range above, so that the message names the arc's endpoints */
  if (x[2] < 1) return tci_json_fail(r, jpath, "capacity %lld of arc %lld->%lld must be >= 1", x[2], x[0], x[1]);
  return TC_OK;
}
