/*
** cli_options.c — reading a subcommand's command line against its option table (contract
** in cli_options.h).
*/
#include "cli_options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "topocoll/budget.h"
#include "topocoll/find.h"
#include "topocoll/units.h"

/* The field at `offset` of the options struct, as a T. */
#define FIELD(T, opts, offset) ((T *)((char *)(opts) + (offset)))

static const tc_cli_option *find_option(const tc_cli_command *cmd, const char *name) {
  for (size_t i = 0; i < cmd->noptions; i++)
    if (!strcmp(cmd->options[i].name, name)) return &cmd->options[i];
  return NULL;
}

static int takes_value(const tc_cli_option *o) { return o->kind != TC_CLI_FLAG && o->kind != TC_CLI_ACTION; }

static int take_positional(const tc_cli_command *cmd, void *opts, const char *arg) {
  for (int k = 0; k < cmd->npositional; k++) {
    const char **slot = FIELD(const char *, opts, cmd->positional[k]);
    if (!*slot) {
      *slot = arg;
      return TC_EXIT_OK;
    }
  }
  const char *first = cmd->npositional ? *FIELD(const char *, opts, cmd->positional[0]) : "";
  return tc_cli_usage_error(cmd->name, cmd->extra_argument, arg, first);
}

/* --max-memory SIZE: the process's memory limit (topocoll/budget.h), the same for every
   command, so it is read here rather than listed in each table. Without it the limit is
   the memory available, and a refusal still says how to raise it. */
static int set_memory_limit(const char *cmd, const char *text) {
  int64_t bytes = 0;
  if (text) {
    tc_error err;
    tc_error_clear(&err);
    if (tc_units_parse_size(text, &bytes, &err)) {
      tc_error_prefix(&err, "--max-memory");
      return tc_cli_fail(cmd, &err);
    }
  }
  tc_memory_limit_set(bytes, "raise the limit with --max-memory SIZE");
  return TC_EXIT_OK;
}

int tc_cli_parse(const tc_cli_command *cmd, int argc, char **argv, void *opts) {
  const char *max_memory = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      cmd->help();
      return TC_CLI_DONE;
    }
    const tc_cli_option *o = find_option(cmd, a);
    if (!o && !strcmp(a, TC_CLI_MAX_MEMORY)) {
      if (i + 1 >= argc) return tc_cli_usage_error(cmd->name, "%s needs a size", a);
      max_memory = argv[++i];
    } else if (!o) {
      if (a[0] == '-' && a[1] == '-') return tc_cli_usage_error(cmd->name, "unknown option '%s'", a);
      int status = take_positional(cmd, opts, a);
      if (status) return status;
    } else if (o->kind == TC_CLI_ACTION) {
      o->action();
      return TC_CLI_DONE;
    } else if (o->kind == TC_CLI_FLAG) {
      *FIELD(int, opts, o->value) = 1;
    } else {
      if (i + 1 >= argc) return tc_cli_usage_error(cmd->name, "%s needs %s", a, o->needs ? o->needs : "a value");
      if (o->kind == TC_CLI_PATH && !argv[i + 1][0]) /* "" would reach the writer as a path */
        return tc_cli_usage_error(cmd->name, "%s needs %s, not an empty string", a, o->needs ? o->needs : "a file name");
      *FIELD(const char *, opts, o->text) = argv[++i];
    }
  }
  return set_memory_limit(cmd->name, max_memory);
}

/* ---- conversions ---- */

int tc_cli_parse_integer(const char *cmd, const char *what, const char *text, long long lo, long long hi,
                         long long *out) {
  char *end = NULL;
  long long v = 0;
  int ok = text[0] >= '0' && text[0] <= '9';
  errno = 0;
  if (ok) v = strtoll(text, &end, 10);
  if (!ok || *end || errno == ERANGE || v < lo || v > hi)
    return tc_cli_usage_error(cmd, "%s expects an integer in %lld..%lld, got '%s'", what, lo, hi, text);
  *out = v;
  return TC_EXIT_OK;
}

int tc_cli_is_bare_number(const char *text) { return text[0] && strspn(text, "0123456789.") == strlen(text); }

/* A time with a unit, or a bare number of seconds (given the unit "s" before parsing, so a
   bad one is quoted as "1.2.3s"). */
static int parse_seconds(const char *text, double *out, tc_error *err) {
  char with_unit[64];
  if (tc_cli_is_bare_number(text) && strlen(text) + 2 <= sizeof with_unit) {
    snprintf(with_unit, sizeof with_unit, "%ss", text);
    text = with_unit;
  }
  return tc_units_parse_time(text, out, err);
}

static int convert_choice(const char *cmd, const tc_cli_option *o, const char *text, const char **out) {
  char names[256] = "";
  size_t n = 0;
  while (o->choices[n]) n++;
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(text, o->choices[i])) {
      *out = o->choices[i];
      return TC_EXIT_OK;
    }
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
             o->choices[i]);
  }
  return tc_cli_usage_error(cmd, "%s must be %s, got '%s'", o->name, names, text);
}

/* The quantities units.h (and find.h) parse: a bad one is "--name: <their message>". */
static int convert_quantity(const char *cmd, const tc_cli_option *o, const char *text, void *value) {
  tc_error err;
  tc_error_clear(&err);
  int rc = TC_OK;
  switch (o->kind) {
  case TC_CLI_TIME: rc = tc_units_parse_time(text, value, &err); break;
  case TC_CLI_SECONDS: rc = parse_seconds(text, value, &err); break;
  case TC_CLI_BANDWIDTH: rc = tc_units_parse_bandwidth(text, value, &err); break;
  case TC_CLI_SIZE: rc = tc_units_parse_size(text, value, &err); break;
  case TC_CLI_SIZE_LIST: {
    tc_cli_size_list *list = value;
    rc = tc_units_parse_size_list_factor(text, list->factor ? list->factor : 2, &list->bytes, &list->count, &err);
    break;
  }
  case TC_CLI_WEIGHTED_SIZES: rc = tc_workload_parse_sizes(text, value, &err); break;
  default: rc = tc_error_set(&err, TC_EFAIL, "internal error: %s is no quantity", o->name);
  }
  if (!rc) return TC_EXIT_OK;
  tc_error_prefix(&err, "%s", o->name);
  return tc_cli_fail(cmd, &err);
}

static int convert_one(const tc_cli_command *cmd, const tc_cli_option *o, void *opts) {
  if (!takes_value(o) || o->kind == TC_CLI_STRING || o->kind == TC_CLI_PATH)
    return TC_EXIT_OK; /* nothing to convert */
  const char *text = *FIELD(const char *, opts, o->text);
  if (!text) text = o->fallback;
  if (!text) return TC_EXIT_OK;
  void *value = FIELD(char, opts, o->value);
  long long v;
  int status;
  switch (o->kind) {
  case TC_CLI_CHOICE: return convert_choice(cmd->name, o, text, value);
  case TC_CLI_INT:
    if ((status = tc_cli_parse_integer(cmd->name, o->name, text, o->lo, o->hi, &v))) return status;
    *(int *)value = (int)v;
    return TC_EXIT_OK;
  case TC_CLI_INT64:
    if ((status = tc_cli_parse_integer(cmd->name, o->name, text, o->lo, o->hi, &v))) return status;
    *(int64_t *)value = v;
    return TC_EXIT_OK;
  default: return convert_quantity(cmd->name, o, text, value);
  }
}

int tc_cli_convert(const tc_cli_command *cmd, void *opts, ...) {
  va_list ap;
  va_start(ap, opts);
  int status = TC_EXIT_OK;
  for (const char *name; !status && (name = va_arg(ap, const char *));) {
    const tc_cli_option *o = find_option(cmd, name);
    if (!o) {
      fprintf(stderr, "topocoll %s: internal error: no option %s to convert\n", cmd->name, name);
      status = TC_EXIT_FAIL;
    } else {
      status = convert_one(cmd, o, opts);
    }
  }
  va_end(ap);
  return status;
}

int tc_cli_progress_check(const char *cmd, int progress, int quiet) {
  return progress && quiet ? tc_cli_usage_error(cmd, "--progress and --quiet exclude each other") : TC_EXIT_OK;
}

int tc_cli_progress_init(tc_progress *p, const char *cmd, int progress, int quiet) {
  int status = tc_cli_progress_check(cmd, progress, quiet);
  if (!status) tc_progress_init(p, cmd, progress, quiet);
  return status;
}
