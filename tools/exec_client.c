/*
** exec_client.c — asking topocoll-exec for sizes and reading its answer (contract in
** exec_client.h).
*/
#include "exec_client.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/program.h"
#include "topocoll/rank_map.h"

char *tc_exec_sizes_arg(const int64_t *sizes, int n) {
  size_t room = (size_t)n * 21 + 1, len = 0; /* 20 characters hold any int64, 1 the comma */
  char *s = malloc(room);
  if (!s) return NULL;
  s[0] = '\0';
  for (int i = 0; i < n; i++) len += (size_t)snprintf(s + len, room - len, "%s%" PRId64, i ? "," : "", sizes[i]);
  return s;
}

void tc_exec_reader_init(tc_exec_reader *r, char *out) {
  r->rest = out;
  r->line = NULL;
  r->lineno = 0;
}

/* A time or null (-1); anything else is refused. */
static int take_time(json_t *line, const char *key, double *out) {
  json_t *v = json_object_get(line, key);
  if (json_is_null(v)) {
    *out = -1;
    return 0;
  }
  if (!json_is_number(v) || json_number_value(v) < 0) return -1;
  *out = json_number_value(v);
  return 0;
}

static int read_line(const char *text, tc_exec_result *res, char *why, size_t size) {
  json_error_t jerr;
  json_t *line = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
  int ok = 0;
  if (!line) snprintf(why, size, "not JSON (%s)", jerr.text);
  else if (!json_is_object(line)) snprintf(why, size, "not a JSON object");
  else {
    json_t *sz = json_object_get(line, "size_bytes"), *cnt = json_object_get(line, "count");
    json_t *ver = json_object_get(line, "verified"), *wrong = json_object_get(line, "wrong");
    json_t *inplace = json_object_get(line, "inplace");
    if (!json_is_integer(sz) || !json_is_integer(cnt)) snprintf(why, size, "size_bytes or count is not an integer");
    else if (!json_is_boolean(inplace)) snprintf(why, size, "inplace is not a boolean");
    else if (take_time(line, "time_s", &res->time_s) || take_time(line, "mpi_time_s", &res->mpi_time_s) ||
             take_time(line, "time_min_s", &res->time_min_s) || take_time(line, "time_max_s", &res->time_max_s) ||
             take_time(line, "mpi_time_min_s", &res->mpi_time_min_s) ||
             take_time(line, "mpi_time_max_s", &res->mpi_time_max_s))
      snprintf(why, size, "a time (time_s, mpi_time_s, their _min_s or _max_s) is neither a non-negative number nor "
               "null");
    else if (!(json_is_integer(wrong) && json_integer_value(wrong) >= 0) && !json_is_null(wrong))
      snprintf(why, size, "wrong is neither a count nor null");
    else if (!json_is_boolean(ver) && !json_is_null(ver)) snprintf(why, size, "verified is neither a boolean nor null");
    else {
      res->size_bytes = json_integer_value(sz);
      res->count = json_integer_value(cnt);
      res->inplace = json_is_true(inplace);
      res->wrong = json_is_null(wrong) ? -1 : json_integer_value(wrong);
      res->verified = json_is_null(ver) ? -1 : json_is_true(ver);
      ok = 1;
    }
  }
  json_decref(line);
  return ok;
}

int tc_exec_reader_next(tc_exec_reader *r, tc_exec_result *res, char *why, size_t size) {
  char *p = r->rest;
  while (*p == '\n') p++;
  if (!*p) {
    r->rest = p;
    return 0;
  }
  char *nl = strchr(p, '\n');
  if (nl) *nl = '\0';
  r->rest = nl ? nl + 1 : p + strlen(p);
  r->line = p;
  r->lineno++;
  return read_line(p, res, why, size) ? 1 : -1;
}

int32_t tc_exec_root_rank(const tc_schedule_doc *doc) {
  tc_rank_map m;
  tc_error err;
  if (!tc_program_rooted(doc->sched.coll) || tc_rank_map_init(&m, doc->graph, &err)) return -1;
  int32_t rank = m.rank[tc_schedule_root(&doc->sched)];
  tc_rank_map_destroy(&m);
  return rank;
}
