/*
** plan_dir.c — writing a plan into a directory that appears whole or not at all (contract
** in plan.h): the files are written into a fresh staging directory beside DIR, which is
** renamed into place last; on any failure the staging directory is removed and DIR is left
** as it was.
**
** Only what topocoll wrote is ever replaced: a plan directory carries the marker file
** TC_PLAN_MARKER, and --force replaces an occupied DIR only when it has one. The staging
** directory (and, while it is removed, the replaced one) is recorded in flight
** (core/inflight.h), so an interrupting signal removes it. The swap of a forced
** replacement — DIR moved aside, the new one renamed in — runs with the signals blocked,
** so DIR is never seen missing by a handler.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fs_tree.h"
#include "core/inflight.h"
#include "core/io_atomic.h"
#include "plan/plan_internal.h"
#include "topocoll/forest.h"
#include "topocoll/graph_io.h"
#include "topocoll/output.h"
#include "topocoll/plan.h"
#include "topocoll/sched_io.h"

/* 1 if dir holds the marker as a regular file (a symbolic link of that name does not count). */
static int has_marker(const char *dir) {
  size_t size = strlen(dir) + sizeof TC_PLAN_MARKER + 1;
  char *path = malloc(size);
  if (!path) return 0;
  snprintf(path, size, "%s/%s", dir, TC_PLAN_MARKER);
  struct stat st;
  int marked = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
  free(path);
  return marked;
}

int tc_plan_check_dir(const char *dir, int force, tc_error *err) {
  struct stat st;
  if (!dir || !*dir) return tc_error_set(err, TC_EINPUT, "empty output directory name");
  if (tc_output_is_stdout(dir))
    return tc_error_set(err, TC_EINPUT, "a plan is a directory of files; '-' (standard output) cannot receive it");
  if (stat(dir, &st) != 0) {
    if (errno == ENOENT && lstat(dir, &st) == 0)
      return tc_error_set(err, TC_EINPUT, "'%s' is a symbolic link to nothing", dir);
    if (errno == ENOENT) return TC_OK;
    return tc_error_set(err, TC_EIO, "cannot access '%s': %s", dir, strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) return tc_error_set(err, TC_EINPUT, "'%s' exists and is not a directory", dir);
  int empty = tci_fs_dir_is_empty(dir);
  if (empty < 0) return tc_error_set(err, TC_EIO, "cannot read directory '%s': %s", dir, strerror(errno));
  if (empty) return TC_OK;
  int marked = has_marker(dir);
  if (!force && marked)
    return tc_error_set(err, TC_EINPUT, "output directory '%s' exists and is not empty (--force replaces it)", dir);
  if (!force)
    return tc_error_set(err, TC_EINPUT,
                        "output directory '%s' exists and is not empty, and is not a plan directory written by "
                        "topocoll plan",
                        dir);
  if (!marked)
    return tc_error_set(err, TC_EINPUT,
                        "'%s' is not a plan directory written by topocoll plan (no %s); refusing to replace it", dir,
                        TC_PLAN_MARKER);
  return TC_OK;
}

static int write_marker(const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  fputs("This directory was written by `topocoll plan`; `topocoll plan --force` may replace it.\n", af.fp);
  return tci_atomic_commit(&af, err);
}

/* One file of a plan directory and what goes into it. */
typedef enum { F_GRAPH_JSON, F_DOT, F_WIRING, F_SCHEDULE, F_FOREST, F_SUMMARY, F_MARKER, F_ROUTES } file_kind;
typedef struct plan_file {
  const char *name;
  file_kind kind;
  const tc_schedule *s; /* F_SCHEDULE */
} plan_file;

#define MAX_FILES 16

/* The plan's files, in writing order (summary and marker last); returns how many. */
static int plan_files(const tc_plan *p, plan_file *files) {
  int n = 0;
  files[n++] = (plan_file){"topology.json", F_GRAPH_JSON, NULL};
  files[n++] = (plan_file){"topology.dot", F_DOT, NULL};
  files[n++] = (plan_file){"wiring.csv", F_WIRING, NULL};
  if (p->fabric) {
    static const char *const fc_names[3] = {"allgather-forestcoll.json", "reduce-scatter-forestcoll.json",
                                            "allreduce-forestcoll.json"};
    files[n++] = (plan_file){"forest.json", F_FOREST, NULL};
    for (int i = 0; i < p->forestcoll.ncoll; i++) files[n++] = (plan_file){fc_names[i], F_SCHEDULE, &p->forestcoll.sched[i]};
    if (p->has_member) {
      files[n++] = (plan_file){"allgather-bfb.json", F_SCHEDULE, &p->allgather};
      files[n++] = (plan_file){"reduce-scatter-bfb.json", F_SCHEDULE, &p->reduce_scatter};
      files[n++] = (plan_file){"allreduce-bfb.json", F_SCHEDULE, &p->allreduce};
    }
  } else {
    files[n++] = (plan_file){"allgather.json", F_SCHEDULE, &p->allgather};
    files[n++] = (plan_file){"reduce-scatter.json", F_SCHEDULE, &p->reduce_scatter};
    files[n++] = (plan_file){"allreduce.json", F_SCHEDULE, &p->allreduce};
    if (tci_plan_forestcoll_wins(p)) files[n++] = (plan_file){"allreduce-forestcoll.json", F_SCHEDULE, &p->forestcoll.sched[0]};
    if (p->has_a2a) files[n++] = (plan_file){"alltoall.json", F_SCHEDULE, &p->alltoall};
    if (p->has_a2a_routing) files[n++] = (plan_file){"alltoall.routes", F_ROUTES, NULL};
  }
  files[n++] = (plan_file){"summary.md", F_SUMMARY, NULL};
  files[n++] = (plan_file){TC_PLAN_MARKER, F_MARKER, NULL};
  return n;
}

static int write_one(const tc_plan *p, const char *dir, const plan_file *file, tc_error *err) {
  size_t size = strlen(dir) + strlen(file->name) + 2;
  char *path = malloc(size);
  if (!path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  snprintf(path, size, "%s/%s", dir, file->name);
  int rc = TC_OK;
  switch (file->kind) {
  case F_GRAPH_JSON: rc = tc_graph_write_json(p->graph, p->spec, path, err); break;
  case F_DOT: rc = tc_graph_write_dot(p->graph, p->spec, path, err); break;
  case F_WIRING: rc = tc_graph_write_wiring_as(p->graph, tc_plan_wiring_links(p), path, err); break;
  case F_SCHEDULE: rc = tc_schedule_write_json(p->graph, p->spec, file->s, path, err); break;
  case F_FOREST: rc = tc_forest_write_json(p->graph, p->spec, &p->forestcoll.forest, 1, path, err); break;
  case F_SUMMARY: rc = tc_plan_write_summary(p, path, err); break;
  case F_MARKER: rc = write_marker(path, err); break;
  case F_ROUTES: rc = tc_a2a_routing_write(p->graph, p->spec, &p->alltoall_routing, path, err); break;
  }
  free(path);
  return rc;
}

/* A fresh sibling directory "<target>.<tag>-PID-i", recorded in flight as a tree. */
static int make_recorded_sibling(const char *target, const char *tag, char **dir, int *slot, tc_error *err) {
  sigset_t saved;
  tci_inflight_block(&saved);
  int rc = tci_fs_make_sibling_dir(target, tag, dir, err);
  if (!rc && (*slot = tci_inflight_add(*dir, 1, err)) < 0) {
    rmdir(*dir);
    free(*dir);
    *dir = NULL;
    rc = err->code;
  }
  tci_inflight_unblock(&saved);
  return rc;
}

/* Put the finished staging directory (slot *tmp_slot) at target: a rename onto nothing or
   onto an empty directory; with `force` the existing tree is moved aside first and removed
   after. */
static int move_into_place(const char *tmp, int *tmp_slot, const char *target, int force, tc_error *err) {
  if (rename(tmp, target) == 0) {
    tci_inflight_drop(*tmp_slot);
    *tmp_slot = -1;
    return TC_OK;
  }
  if (!force || (errno != ENOTEMPTY && errno != EEXIST))
    return tc_error_set(err, TC_EIO, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
  char *old = NULL;
  int old_slot = -1;
  int rc = make_recorded_sibling(target, "old", &old, &old_slot, err);
  if (rc) return rc;
  sigset_t saved;
  tci_inflight_block(&saved);
  if (rename(target, old) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot move '%s' aside: %s", target, strerror(errno));
    rmdir(old);
  } else if (rename(tmp, target) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
    rename(old, target); /* put the old tree back */
  } else {
    tci_inflight_drop(*tmp_slot);
    *tmp_slot = -1;
  }
  tci_inflight_unblock(&saved);
  if (!rc && tci_fs_remove_tree(old) != 0)
    rc = tc_error_set(err, TC_EIO, "wrote '%s' but could not remove the replaced tree '%s'", target, old);
  tci_inflight_drop(old_slot);
  free(old);
  return rc;
}

/* The directory to write: dir without trailing slashes, or the directory a symbolic link
   named dir points to (the link stays); malloc'd, NULL when out of memory. */
static char *target_dir(const char *dir) {
  char *trimmed = tci_fs_trimmed_copy(dir), *target = trimmed ? tci_fs_link_target(trimmed) : NULL;
  free(trimmed);
  return target;
}

int tc_plan_write(const tc_plan *p, const char *dir, int force, tc_progress_fn progress, void *ctx,
                  tc_error *err) {
  return tc_plan_write_extra(p, dir, force, progress, ctx, NULL, NULL, err);
}

int tc_plan_write_extra(const tc_plan *p, const char *dir, int force, tc_progress_fn progress, void *ctx,
                        tc_plan_extra_files extra, void *extra_ctx, tc_error *err) {
  plan_file files[MAX_FILES];
  int nfiles = plan_files(p, files);
  int rc = tc_plan_check_dir(dir, force, err);
  if (rc) return rc;
  char *target = target_dir(dir), *tmp = NULL;
  if (!target) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int tmp_slot = -1;
  rc = make_recorded_sibling(target, "tmp", &tmp, &tmp_slot, err);
  /* the caller's files go in before the summary and the marker: all of them, or none. The
     schedules of 1024 nodes take seconds each: a counted phase of the files. */
  for (int i = 0; !rc && i < nfiles; i++) {
    tci_progress(progress, ctx, i, nfiles, "writing %s: %s", target, files[i].name);
    if (extra && files[i].kind == F_SUMMARY) rc = extra(p, tmp, extra_ctx, err);
    if (!rc) rc = write_one(p, tmp, &files[i], err);
  }
  if (!rc) rc = move_into_place(tmp, &tmp_slot, target, force, err);
  if (!rc) tci_progress(progress, ctx, nfiles, nfiles, "wrote %s", target);
  if (rc && tmp) tci_fs_remove_tree(tmp);
  tci_inflight_drop(tmp_slot);
  free(tmp);
  free(target);
  return rc;
}
