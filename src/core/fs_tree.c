/*
** fs_tree.c — directory trees written whole or not at all (contract in fs_tree.h).
*/
#include "core/fs_tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int tci_fs_remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return -1;
  if (!S_ISDIR(st.st_mode)) return unlink(path);
  DIR *d = opendir(path);
  int rc = 0;
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      size_t size = strlen(path) + strlen(e->d_name) + 2;
      char *child = malloc(size);
      if (!child) { rc = -1; break; }
      snprintf(child, size, "%s/%s", path, e->d_name);
      if (tci_fs_remove_tree(child)) rc = -1;
      free(child);
    }
    closedir(d);
  }
  return rmdir(path) || rc ? -1 : 0;
}
