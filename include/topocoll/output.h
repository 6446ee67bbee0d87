/*
** output.h — how the library writes files, and what a caller can add to it.
**
** Every writer of the library (graphs, schedules, plan files, MSCCL XML, SimGrid platforms)
** goes through one mechanism, which decides by the target (stat, following symbolic links):
**   - absent, or a regular file: written to a temporary `.tc-tmp-XXXXXX` beside the file
**     and renamed over it, so readers see the old file or the new one, never a mixture; a
**     failure leaves the target as it was. A symbolic link to a regular file replaces the
**     file it points to and stays a link;
**   - a character or block device, or a FIFO: written in place (opened for writing, never
**     created, truncated or replaced), so `/dev/null`, `/dev/stdout` or a named pipe stay
**     what they are. The contents are spooled first and sent whole at the end, so a writer
**     that fails sends nothing; a device that fails (ENOSPC of /dev/full) is TC_EIO naming
**     the path and the error;
**   - "-": standard output, in place as above (stdout's buffer is flushed first);
**   - a directory, a socket, anything else, or a symbolic link to nothing: refused with
**     TC_EINPUT naming the path and what it is, before anything is written.
** Directory writers (tc_plan_write, tc_simgrid_write_platform) refuse "-".
**
** Several files, all or nothing: between tc_output_begin() and tc_output_commit() on one
** thread, every writer's file is written completely but not put in place; the commit then
** sends the in-place targets (devices, FIFOs, stdout) their contents and renames every
** temporary over its target. Any failure before that point (a refusal, a full disk, a
** writer's error) discards every file of the batch and leaves every target as it was.
** In-place targets cannot be taken back: they are written after every temporary is ready
** and before any rename, so a failing device still leaves the renamed targets untouched;
** a device written before a later one fails keeps what it received. Batches nest: only the
** outermost commit writes; after an inner failure (tc_output_abort) the outer commit
** discards everything and fails.
**
** Signals: tc_output_catch_signals() installs handlers for SIGINT, SIGTERM, SIGHUP and
** SIGPIPE (not for one that is ignored, as under nohup) that remove every temporary file, staging
** directory and scratch directory the library has in flight, then end the process by the
** same signal with its default action. The cleaning happens on the thread that installed
** the handlers (a signal another thread takes is forwarded to it), so call it from the
** thread that writes the outputs, typically main(), which must outlive the other threads.
** Children made by fork() do not remove their parent's files. Code that installs its own handlers for these signals may save and restore ours.
*/
#ifndef TOPOCOLL_OUTPUT_H
#define TOPOCOLL_OUTPUT_H

#include "topocoll/export.h"

#include "topocoll/error.h"

/* 1 when path names standard output ("-"). */
TC_API int tc_output_is_stdout(const char *path);

/* Whether a writer would accept path as a target, checked without creating anything: the
   refusals above (TC_EINPUT), and for a file to be created or replaced a missing or
   unwritable directory (TC_EIO, as the write itself would fail). */
TC_API int tc_output_check(const char *path, tc_error *err);

/* A batch on the calling thread (see above). tc_output_commit returns the first failure
   (TC_EINPUT when no batch is open); tc_output_abort discards the batch's files. */
TC_API void tc_output_begin(void);
TC_API int tc_output_commit(tc_error *err);
TC_API void tc_output_abort(void);

/* Install the signal handlers (once per process; again is harmless). TC_EIO if sigaction
   fails. */
TC_API int tc_output_catch_signals(tc_error *err);

/* mkdtemp(templ) (templ ends in "XXXXXX" and receives the name), and have the handlers
   remove the directory and everything in it until tc_output_remove_scratch_dir(templ).
   TC_EIO naming the error. */
TC_API int tc_output_make_scratch_dir(char *templ, tc_error *err);
/* Remove a scratch directory and everything in it (symbolic links are removed, never
   followed); nothing for "". */
TC_API void tc_output_remove_scratch_dir(const char *dir);

#endif
