/*
** io_atomic.h — internal: replace a file atomically (used by every writer: graphs,
** schedules, plans, exports).
**
** tci_atomic_open() creates a fresh temporary file in the target's directory (mkstemp) and
** hands back a stdio stream on it. The writer writes, then calls exactly one of:
**   tci_atomic_commit() — flush, check for write errors, fsync, close and rename the
**                        temporary over the target;
**   tci_atomic_abort()  — close and remove the temporary.
** Guarantees: the target is either untouched or wholly replaced by the new contents; the
** temporary never outlives a failed call; errors are TC_EIO naming the target path. A new
** file gets mode 0666 minus the process umask, a replaced file keeps its old mode (best
** effort: file systems without modes do not fail the write).
** The struct lives on the caller's stack; there is no shared state.
*/
#ifndef TC_CORE_IO_ATOMIC_H
#define TC_CORE_IO_ATOMIC_H

#include <stdio.h>

#include "topocoll/error.h"

typedef struct tc_atomic_file {
  FILE *fp;         /* where the writer writes */
  char *tmp_path;   /* owned name of the temporary */
  const char *path; /* the target (borrowed) */
} tc_atomic_file;

int tci_atomic_open(tc_atomic_file *af, const char *path, tc_error *err);
/* Commit; on failure the temporary is removed and the target left as it was. */
int tci_atomic_commit(tc_atomic_file *af, tc_error *err);
/* Give up: remove the temporary (safe to call after a failed open or commit). */
void tci_atomic_abort(tc_atomic_file *af);

#endif
