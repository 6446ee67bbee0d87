/*
** fs_tree.h — internal: directory trees the library writes whole or not at all (the plan
** directory): a fresh sibling directory to build into, emptiness, removal.
**
** Guarantees: tci_fs_make_sibling_dir never reuses an existing path (mkdir is the test);
** tci_fs_remove_tree removes symlinks without following them, so it never reaches outside
** the tree it is given, and is async-signal-safe (no malloc, no stdio), so the signal
** handler of inflight.h may call it.
*/
#ifndef TC_CORE_FS_TREE_H
#define TC_CORE_FS_TREE_H

#include "topocoll/error.h"

/* 1 if dir is empty, 0 if not, -1 (errno set) if it cannot be read. */
int tci_fs_dir_is_empty(const char *dir);
/* dir without trailing slashes (so "out/" and "out" name the same sibling paths); malloc'ed,
   NULL if out of memory. */
char *tci_fs_trimmed_copy(const char *dir);
/* The path a writer writes to: path itself, or when path is a symbolic link to an existing
   file or directory, the real path it resolves to (so the link stays and its target is
   written); malloc'd, NULL when out of memory. */
char *tci_fs_link_target(const char *path);
/* Create a fresh directory "<base>.<tag>-<pid>-<i>" (mode 0777 less the umask); *out is the
   caller's to free. TC_EIO naming base on failure. */
int tci_fs_make_sibling_dir(const char *base, const char *tag, char **out, tc_error *err);
/* Remove a directory tree (best effort): 0, or -1 if something stayed. */
int tci_fs_remove_tree(const char *path);

#endif
