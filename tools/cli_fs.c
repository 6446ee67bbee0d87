/*
** cli_fs.c — scratch directories (contract in cli_fs.h). Creation and removal are the
** library's (output.h), so an interrupting signal removes the directory too.
*/
#include "cli_fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/output.h"

int tc_cli_make_scratch_dir(const char *tag, char *dir, size_t size, tc_error *err) {
  const char *base = getenv("TMPDIR");
  if (!base || !*base || strpbrk(base, " \t\n")) base = "/tmp";
  dir[0] = '\0';
  if (snprintf(dir, size, "%s/topocoll-%s-XXXXXX", base, tag) >= (int)size) {
    dir[0] = '\0';
    return tc_error_set(err, TC_EIO, "TMPDIR is too long a path");
  }
  if (tc_output_make_scratch_dir(dir, err)) {
    dir[0] = '\0';
    return err->code;
  }
  return TC_OK;
}

void tc_cli_remove_scratch_dir(const char *dir) { tc_output_remove_scratch_dir(dir); }
