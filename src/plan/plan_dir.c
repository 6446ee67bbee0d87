/*
** plan_dir.c — writing a plan into a directory that appears whole or not at all (contract
** in plan.h): the files are written into a fresh temporary directory beside DIR, which is
** renamed into place last; on any failure the temporary is removed and DIR is left as it
** was.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fs_tree.h"
#include "plan/plan_internal.h"
#include "topocoll/graph_io.h"
#include "topocoll/plan.h"
#include "topocoll/sched_io.h"

int tc_plan_check_dir(const char *dir, int force, tc_error *err) {
  struct stat st;
  if (!dir || !*dir) return tc_error_set(err, TC_EINPUT, "empty output directory name");
  if (stat(dir, &st) != 0) {
    if (errno == ENOENT) return TC_OK;
    return tc_error_set(err, TC_EIO, "cannot access '%s': %s", dir, strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) return tc_error_set(err, TC_EINPUT, "'%s' exists and is not a directory", dir);
  int empty = tci_fs_dir_is_empty(dir);
  if (empty < 0) return tc_error_set(err, TC_EIO, "cannot read directory '%s': %s", dir, strerror(errno));
  if (!empty && !force)
    return tc_error_set(err, TC_EINPUT, "output directory '%s' exists and is not empty (--force replaces it)",
                        dir);
  return TC_OK;
}

static int write_one(const tc_plan *p, const char *dir, const char *name, tc_error *err) {
  const char *spec = p->frontier.member[p->chosen].spec;
  size_t size = strlen(dir) + strlen(name) + 2;
  char *path = malloc(size);
  if (!path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  snprintf(path, size, "%s/%s", dir, name);
  int rc;
  if (!strcmp(name, "topology.json")) rc = tc_graph_write_json(p->graph, spec, path, err);
  else if (!strcmp(name, "topology.dot")) rc = tc_graph_write_dot(p->graph, spec, path, err);
  else if (!strcmp(name, "wiring.csv")) rc = tc_graph_write_wiring(p->graph, path, err);
  else if (!strcmp(name, "allgather.json")) rc = tc_schedule_write_json(p->graph, spec, &p->allgather, path, err);
  else if (!strcmp(name, "reduce-scatter.json"))
    rc = tc_schedule_write_json(p->graph, spec, &p->reduce_scatter, path, err);
  else if (!strcmp(name, "allreduce.json")) rc = tc_schedule_write_json(p->graph, spec, &p->allreduce, path, err);
  else rc = tc_plan_write_summary(p, path, err);
  free(path);
  return rc;
}

/* Put the finished temporary directory at target: a rename onto nothing or onto an empty
   directory; with `force` an existing tree is moved aside first and removed after. */
static int move_into_place(const char *tmp, const char *target, int force, tc_error *err) {
  if (rename(tmp, target) == 0) return TC_OK;
  if (!force || (errno != ENOTEMPTY && errno != EEXIST))
    return tc_error_set(err, TC_EIO, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
  char *old = NULL;
  int rc = tci_fs_make_sibling_dir(target, "old", &old, err);
  if (rc) return rc;
  if (rename(target, old) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot move '%s' aside: %s", target, strerror(errno));
    rmdir(old);
  } else if (rename(tmp, target) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
    rename(old, target); /* put the old tree back */
  } else if (tci_fs_remove_tree(old) != 0) {
    rc = tc_error_set(err, TC_EIO, "wrote '%s' but could not remove the replaced tree '%s'", target, old);
  }
  free(old);
  return rc;
}

int tc_plan_write(const tc_plan *p, const char *dir, int force, tc_plan_progress progress, void *ctx,
                  tc_error *err) {
  static const char *const files[] = {"topology.json", "topology.dot", "wiring.csv", "allgather.json",
                                      "reduce-scatter.json", "allreduce.json", "summary.md"};
  int rc = tc_plan_check_dir(dir, force, err);
  if (rc) return rc;
  char *target = tci_fs_trimmed_copy(dir), *tmp = NULL;
  if (!target) return tc_error_set(err, TC_ENOMEM, "out of memory");
  tci_plan_progress_line(progress, ctx, "writing %s", target);
  rc = tci_fs_make_sibling_dir(target, "tmp", &tmp, err);
  for (size_t i = 0; !rc && i < sizeof files / sizeof files[0]; i++) rc = write_one(p, tmp, files[i], err);
  if (!rc) rc = move_into_place(tmp, target, force, err);
  if (rc && tmp) tci_fs_remove_tree(tmp);
  free(tmp);
  free(target);
  return rc;
}
