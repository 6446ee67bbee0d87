/*
** cli_fs.h — scratch directories for a command's intermediate files (`topocoll simulate`
** writes a platform, a hostfile and a plan there, and smpirun its temporary files).
**
** Guarantees: tc_cli_make_scratch_dir creates a fresh directory that did not exist
** (mkdtemp, mode 0700) under $TMPDIR, or under /tmp when TMPDIR is unset, empty or holds
** whitespace (smpirun splits some of its arguments on blanks, so no path we hand it may hold
** any). tc_cli_remove_scratch_dir removes it and everything in it without following
** symbolic links, so it never reaches outside the tree; it does nothing for "" (the
** directory was never made), so a command can call it on every way out. Until then the
** signal handlers (tc_output_catch_signals, output.h) remove it if the command is killed.
*/
#ifndef TC_TOOLS_CLI_FS_H
#define TC_TOOLS_CLI_FS_H

#include <stddef.h>

#include "topocoll/error.h"

/* Create "<base>/topocoll-<tag>-XXXXXX" and write its path into dir[size]. On failure dir is
   "" and err (TC_EIO) says why. */
int tc_cli_make_scratch_dir(const char *tag, char *dir, size_t size, tc_error *err);

/* rm -r dir, best effort; nothing when dir is "". */
void tc_cli_remove_scratch_dir(const char *dir);

#endif
