/*
** cli_fs.c — scratch directories (contract in cli_fs.h). Removal is the library's
** tci_fs_remove_tree (src/core/fs_tree.h), the one the plan directory uses.
*/
#include "cli_fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fs_tree.h"

int tc_cli_make_scratch_dir(const char *tag, char *dir, size_t size, tc_error *err) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base || strpbrk(base, " \t\n")) base = "/tmp";
  dir[0] = '\0';
  if (snprintf(dir, size, "%s/topocoll-%s-XXXXXX", base, tag) >= (int)size) {
    dir[0] = '\0';
    return tc_error_set(err, TC_EIO, "TMPDIR is too long a path");
  }
  if (!mkdtemp(dir)) {
    int e = errno;
    dir[0] = '\0';
    return tc_error_set(err, TC_EIO, "cannot create a directory in %s: %s", base, strerror(e));
  }
  return TC_OK;
}

void tc_cli_remove_scratch_dir(const char *dir) {
  if (dir[0]) tci_fs_remove_tree(dir);
}
