/*
** io_atomic.h — internal: write one output file the way output.h promises (used by every
** writer: graphs, schedules, plans, exports).
**
** tci_atomic_open() classifies the target (output.h: replaced, in place, stdout, refused)
** and hands back a stdio stream: a fresh temporary beside the file to replace (mkstemp,
** recorded in inflight.h so a signal removes it), or an anonymous spool (tmpfile) for a
** device, a FIFO or stdout. The writer writes, then calls exactly one of:
**   tci_atomic_commit() — flush and check for write errors; then, outside a batch, put the
**                        file in place: fsync and rename the temporary over the target, or
**                        send the spool to the device; inside a batch (tc_output_begin),
**                        hand the finished file to the batch, which puts it in place at
**                        tc_output_commit;
**   tci_atomic_abort()  — close and remove the temporary or spool.
** Guarantees: the target is either untouched or wholly replaced (in place: wholly
** written); the temporary never outlives a failed call; errors are TC_EIO naming the
** target path (refusals TC_EINPUT). A new file gets mode 0666 minus the process umask, a
** replaced file keeps its old mode (best effort: file systems without modes do not fail
** the write).
** The struct lives on the caller's stack; the only shared state is the calling thread's
** batch and the in-flight registry.
*/
#ifndef TC_CORE_IO_ATOMIC_H
#define TC_CORE_IO_ATOMIC_H

#include <stdio.h>

#include "topocoll/error.h"

typedef enum tci_target_kind {
  TCI_TARGET_REPLACE,  /* absent or a regular file: temporary + rename */
  TCI_TARGET_IN_PLACE, /* a character or block device or a FIFO */
  TCI_TARGET_STDOUT    /* "-" */
} tci_target_kind;

typedef struct tc_atomic_file {
  FILE *fp;             /* where the writer writes: the temporary or the spool */
  const char *path;     /* the target as given (borrowed; messages name it) */
  char *dest;           /* owned: the path renamed over or opened (symbolic links resolved) */
  char *tmp_path;       /* owned: the temporary (TCI_TARGET_REPLACE) */
  tci_target_kind kind;
  int slot;             /* in-flight registry slot of tmp_path, or -1 */
} tc_atomic_file;

int tci_atomic_open(tc_atomic_file *af, const char *path, tc_error *err);
/* Commit; on failure the temporary is removed and the target left as it was. */
int tci_atomic_commit(tc_atomic_file *af, tc_error *err);
/* Give up: remove the temporary (safe to call after a failed open or commit). */
void tci_atomic_abort(tc_atomic_file *af);

#endif
