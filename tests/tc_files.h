/*
** tc_files.h — file helpers shared by the cmocka programs that read and write files
** (test_graph_io.c, test_sched_io.c): a fresh mkdtemp directory per test, removed with
** everything in it afterwards, paths inside it, and whole-file reads and writes.
**
** The directory is made under $TMPDIR (or /tmp) by a cmocka setup function and removed
** by tc_tmpdir_teardown, which deletes the files (and empty subdirectories) a test left
** there; teardown fails, and so does the test, if anything else remains. Helpers that
** cannot go on assert (fail the test) rather than return errors, except tc_files_slurp,
** whose NULL the caller may expect.
*/
#ifndef TC_FILES_H
#define TC_FILES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The per-test state: the temporary directory's path. */
typedef struct tc_tmpdir {
  char dir[PATH_MAX];
} tc_tmpdir;

/* Setup body: *state = a new directory "$TMPDIR/<prefix>-XXXXXX"; -1 (test not run) on failure. */
static inline int tc_tmpdir_setup(void **state, const char *prefix) {
  tc_tmpdir *f = calloc(1, sizeof *f);
  if (!f) return -1;
  const char *base = getenv("TMPDIR");
  snprintf(f->dir, sizeof f->dir, "%s/%s-XXXXXX", base && *base ? base : "/tmp", prefix);
  if (!mkdtemp(f->dir)) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

/* cmocka teardown: remove the directory's entries, then the directory itself. */
static inline int tc_tmpdir_teardown(void **state) {
  tc_tmpdir *f = *state;
  DIR *d = opendir(f->dir);
  struct dirent *e;
  char p[PATH_MAX + 256];
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", f->dir, e->d_name);
    if (unlink(p) != 0) rmdir(p);
  }
  if (d) closedir(d);
  int rc = rmdir(f->dir);
  free(f);
  return rc;
}

/* out = "<dir>/<name>", asserting that it fits. */
static inline void tc_tmpdir_path(const tc_tmpdir *f, const char *name, char *out, size_t size) {
  int k = snprintf(out, size, "%s/%s", f->dir, name);
  assert_true(k > 0 && (size_t)k < size);
}

/* Entries of `dir` other than "." and "..". */
static inline int tc_files_count(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int k = 0;
  struct dirent *e;
  while ((e = readdir(d))) k += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return k;
}

/* Whole file as a NUL-terminated string (caller frees); NULL if it cannot be read. */
static inline char *tc_files_slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t room = 256, len = 0, got;
  char *s = malloc(room);
  while (s && (got = fread(s + len, 1, room - len - 1, fp)) > 0) {
    len += got;
    if (len + 1 == room) {
      char *t = realloc(s, room *= 2);
      if (!t) free(s);
      s = t;
    }
  }
  fclose(fp);
  if (s) s[len] = '\0';
  return s;
}

/* Write exactly `len` bytes (NULs included) to `path`, replacing it. */
static inline void tc_files_spill(const char *path, const char *bytes, size_t len) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  assert_int_equal(fwrite(bytes, 1, len, fp), len);
  assert_int_equal(fclose(fp), 0);
}

#endif
