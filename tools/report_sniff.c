/*
** report_sniff.c — deciding what each JSON file of a plan directory is (contract in
** report_sniff.h). The checks look at the keys each command's --json is documented to
** write (docs/formats.md, docs/report.md), so a renamed file is still recognised and a
** file named like a result but holding something else is not drawn.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_sniff.h"

/* 1 when root[key] is an array whose first element is an object holding `inner`. */
static int array_of(json_t *root, const char *key, const char *inner) {
  json_t *a = json_object_get(root, key);
  if (!json_is_array(a) || json_array_size(a) == 0) return 0;
  return json_is_object(json_array_get(a, 0)) && json_object_get(json_array_get(a, 0), inner) != NULL;
}

tc_doc_kind tc_report_sniff(json_t *root, char *note, size_t size) {
  const char *format = json_string_value(json_object_get(root, "format"));
  const char *command = json_string_value(json_object_get(root, "command"));
  if (format && !strcmp(format, "topocoll-plan")) return TC_DOC_PLAN;
  if (format && !strcmp(format, "topocoll-forest")) return TC_DOC_FOREST;
  if (format && (!strcmp(format, "topocoll-graph") || !strcmp(format, "topocoll-schedule"))) return TC_DOC_OWN;
  if (command && !strcmp(command, "train")) {
    if (array_of(root, "timeline", "start_s") && json_is_number(json_object_get(root, "iteration_time_s")))
      return TC_DOC_TRAIN;
    snprintf(note, size, "\"command\": \"train\" without a \"timeline\" of {\"start_s\", ...} and \"iteration_time_s\"");
    return TC_DOC_UNKNOWN;
  }
  if (array_of(root, "results", "sim_time_s")) return TC_DOC_SIMULATE;
  if (json_object_get(root, "np") && array_of(root, "results", "time_s")) return TC_DOC_RUN;
  if (json_is_object(json_object_get(root, "optimum")) && json_is_array(json_object_get(root, "k_scan")))
    return TC_DOC_FOREST;
  if (json_object_get(root, "f") && json_object_get(root, "method") && json_is_object(json_object_get(root, "bounds")))
    return TC_DOC_A2A;
  if (format) snprintf(note, size, "a \"%.60s\" document, which the report does not draw", format);
  else snprintf(note, size, "no key of a run, simulate, forest, a2a or train result");
  return TC_DOC_UNKNOWN;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const tc_doc *)a)->name, ((const tc_doc *)b)->name);
}

static int is_json_name(const char *name) {
  size_t n = strlen(name);
  return n > 5 && !strcmp(name + n - 5, ".json") && name[0] != '.';
}

/* 1 when the file opens with "format": "topocoll-graph" or "topocoll-schedule" as its first
   key, as those writers put it: a plan's own files (megabytes of schedule at 256 nodes) are
   told by their head, not parsed whole, since the report does not draw them (the heatmap's
   schedule is read, and checked, by tc_schedule_read_json). */
static int own_by_head(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  char head[128];
  size_t n = fread(head, 1, sizeof head - 1, fp);
  fclose(fp);
  head[n] = '\0';
  const char *p = head;
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  if (*p++ != '{') return 0;
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  return !strncmp(p, "\"format\": \"topocoll-graph\"", 26) || !strncmp(p, "\"format\": \"topocoll-schedule\"", 29);
}

static void read_one(const char *dir, tc_doc *d) {
  size_t size = strlen(dir) + strlen(d->name) + 2;
  char *path = malloc(size);
  if (!path) {
    snprintf(d->note, sizeof d->note, "out of memory");
    return;
  }
  snprintf(path, size, "%s/%s", dir, d->name);
  struct stat st;
  json_error_t je;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(d->note, sizeof d->note, "not a regular file");
  } else if (own_by_head(path)) {
    d->kind = TC_DOC_OWN;
  } else if (!(d->root = json_load_file(path, JSON_REJECT_DUPLICATES, &je))) {
    snprintf(d->note, sizeof d->note, "not valid JSON (line %d: %.100s)", je.line, je.text);
  } else if (!json_is_object(d->root)) {
    snprintf(d->note, sizeof d->note, "not a JSON object");
  } else {
    d->kind = tc_report_sniff(d->root, d->note, sizeof d->note);
  }
  if (d->kind == TC_DOC_UNKNOWN && d->root) {
    json_decref(d->root);
    d->root = NULL;
  }
  free(path);
}

int tc_report_read_dir(const char *dir, tc_doc **docs, int *count, tc_error *err) {
  *docs = NULL;
  *count = 0;
  DIR *dp = opendir(dir);
  if (!dp) return tc_error_set(err, TC_EIO, "cannot read directory '%s': %s", dir, strerror(errno));
  tc_doc *v = NULL;
  int n = 0, room = 0;
  struct dirent *e;
  while ((e = readdir(dp))) {
    if (!is_json_name(e->d_name)) continue;
    if (n == room) {
      room = room ? 2 * room : 16;
      tc_doc *w = realloc(v, (size_t)room * sizeof *v);
      if (!w) break;
      v = w;
    }
    v[n] = (tc_doc){.name = strdup(e->d_name), .kind = TC_DOC_UNKNOWN};
    if (!v[n].name) break;
    n++;
  }
  int oom = e != NULL;
  closedir(dp);
  if (oom) {
    tc_report_docs_destroy(v, n);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  if (n) qsort(v, (size_t)n, sizeof *v, by_name);
  for (int i = 0; i < n; i++) read_one(dir, &v[i]);
  *docs = v;
  *count = n;
  return TC_OK;
}

void tc_report_docs_destroy(tc_doc *docs, int count) {
  for (int i = 0; i < count; i++) {
    free(docs[i].name);
    json_decref(docs[i].root);
  }
  free(docs);
}
