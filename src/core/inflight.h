/*
** inflight.h — internal: what the library has in flight on disk, so that an interrupting
** signal removes it (the public side is output.h: tc_output_catch_signals and the scratch
** directories).
**
** In flight are the temporaries of io_atomic.h (`.tc-tmp-*` files), the plan's staging
** directory (`DIR.tmp-PID-i`, and the replaced `DIR.old-PID-i` while it is removed) and
** scratch directories. tci_inflight_add records a path, as a file (unlinked) or a tree
** (removed whole, tci_fs_remove_tree); tci_inflight_drop forgets it once it is renamed into
** place or removed. Create a path and record it with the signals blocked
** (tci_inflight_block / tci_inflight_unblock), so that no signal finds it created but not
** yet recorded. Dropping needs no blocking: a signal between removing (or renaming) a path
** and dropping it only removes a name that no longer exists.
**
** The handler (installed by tc_output_catch_signals for SIGINT, SIGTERM, SIGHUP and
** SIGPIPE) removes every recorded path with async-signal-safe calls only, then restores the
** default action and re-raises the signal, so the process ends "killed by signal" as it
** would have without us. In a child made by fork() (another pid than the one that installed the handler) it
** removes nothing: the files belong to the parent.
**
** Paths are kept as given (a relative one is resolved against the working directory when
** the signal comes). The registry is shared by all threads (lock-free slot states), but
** the handler cleans only on the thread that installed it (others forward the signal
** there), so create and record paths on that thread: its blocking is what closes the gap.
*/
#ifndef TC_CORE_INFLIGHT_H
#define TC_CORE_INFLIGHT_H

#include <signal.h>

#include "topocoll/error.h"

/* How many paths may be in flight at once (all threads together). */
#define TCI_INFLIGHT_MAX 32

/* Block (and later restore) the signals the handler takes, in the calling thread. */
void tci_inflight_block(sigset_t *saved);
void tci_inflight_unblock(const sigset_t *saved);

/* Record path (a tree when `tree`): its slot, or -1 with err set (TC_EIO: too many in
   flight, or a path longer than PATH_MAX). */
int tci_inflight_add(const char *path, int tree, tc_error *err);
/* Forget a slot (nothing for -1). */
void tci_inflight_drop(int slot);
/* The slot recording exactly `path`, or -1. */
int tci_inflight_find(const char *path);

#endif
