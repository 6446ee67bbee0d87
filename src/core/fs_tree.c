/*
** fs_tree.c — directory trees written whole or not at all (contract in fs_tree.h).
**
** The remover is async-signal-safe (inflight.c calls it from a signal handler): it walks
** the tree with openat / getdents64 / unlinkat on fixed stack buffers, never malloc or
** stdio. Entries are removed while the directory is being read, so a directory is re-read
** from its start until a pass finds nothing left (or removes nothing, which is failure).
*/
#define _GNU_SOURCE /* getdents64 and struct dirent64 (glibc >= 2.30) */
#include "core/fs_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper trees are left in part (a plan or scratch directory is one or two levels deep);
   the bound keeps the handler's stack use at most TREE_MAX_DEPTH directory buffers. */
#define TREE_MAX_DEPTH 16

int tci_fs_dir_is_empty(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int empty = 1;
  for (struct dirent *e; empty && (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = 0;
  closedir(d);
  return empty;
}

char *tci_fs_trimmed_copy(const char *dir) {
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/') len--;
  char *s = malloc(len + 1);
  if (s) {
    memcpy(s, dir, len);
    s[len] = '\0';
  }
  return s;
}

char *tci_fs_link_target(const char *path) {
  struct stat st;
  char *real = NULL;
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL))) return real;
  return strdup(path);
}

int tci_fs_make_sibling_dir(const char *base, const char *tag, char **out, tc_error *err) {
  size_t size = strlen(base) + strlen(tag) + 48;
  char *path = malloc(size);
  if (!path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int i = 0; i < 1000; i++) {
    snprintf(path, size, "%s.%s-%ld-%d", base, tag, (long)getpid(), i);
    if (mkdir(path, 0777) == 0) {
      *out = path;
      return TC_OK;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(path);
  return tc_error_set(err, TC_EIO, "cannot create a directory beside '%s': %s", base, strerror(e));
}

static int is_dot_or_dotdot(const char *name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

static int empty_dir(int fd, int depth);

/* Remove the entry `name` of the directory open as fd: a non-directory (a symbolic link
   included: unlinkat never follows one) is unlinked, a directory emptied and removed. */
static int remove_entry(int fd, const char *name, int depth) {
  if (unlinkat(fd, name, 0) == 0) return 0;
  if (errno != EISDIR && errno != EPERM) return -1;
  int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) return -1;
  int rc = depth < TREE_MAX_DEPTH ? empty_dir(sub, depth + 1) : -1;
  close(sub);
  return unlinkat(fd, name, AT_REMOVEDIR) == 0 ? rc : -1;
}

/* Remove everything inside the directory open as fd. */
static int empty_dir(int fd, int depth) {
  char buf[2048] __attribute__((aligned(8)));
  for (;;) {
    if (lseek(fd, 0, SEEK_SET) != 0) return -1;
    int seen = 0, removed = 0;
    ssize_t n;
    while ((n = getdents64(fd, buf, sizeof buf)) > 0) {
      for (ssize_t at = 0; at < n;) {
        const struct dirent64 *e = (const struct dirent64 *)(buf + at);
        at += e->d_reclen;
        if (is_dot_or_dotdot(e->d_name)) continue;
        seen++;
        if (remove_entry(fd, e->d_name, depth) == 0) removed++;
      }
    }
    if (n < 0) return -1;
    if (seen == 0) return 0;
    if (removed == 0) return -1;
  }
}

int tci_fs_remove_tree(const char *path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOTDIR || errno == ELOOP ? unlink(path) : -1;
  int rc = empty_dir(fd, 0);
  close(fd);
  return rmdir(path) == 0 ? rc : -1;
}
