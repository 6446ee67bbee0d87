/*
** launch.h — run another program (mpirun, smpirun, ...) from a CLI command: no shell, its
** output captured, a deadline, and nothing of it left running afterwards.
**
** tc_launch_run(argv, opts, res, err) forks; the child becomes the leader of a new process
** group, reads /dev/null as stdin, writes stdout and stderr into two pipes, and execvp()s
** argv[0] (PATH is searched when argv[0] has no '/'). The parent collects
**   res->out       everything the program wrote on stdout (NUL-terminated; at most
**                  opts->max_stdout bytes are kept, res->out_truncated says if more came),
**   res->err_tail  the last TC_LAUNCH_ERR_TAIL bytes of its stderr (NUL-terminated),
** until the program (the group leader) has exited, and then fills in how it ended.
** Guarantees:
**   - Deadline: when opts->timeout_s > 0 and the program still runs after it, its process
**     group gets SIGTERM (mpirun then tears down its ranks), and after opts->grace_s more
**     seconds SIGKILL goes to the group and to every descendant the program had when the
**     SIGTERM went out — found through /proc, since mpirun puts each rank in a process
**     group of its own (a recycled pid is told apart by its start time); res->timed_out
**     is set.
**   - Interruption: a SIGINT, SIGTERM or SIGHUP sent to the caller while it waits is
**     treated like the deadline (the group is terminated) and res->interrupted holds the
**     signal number; the caller's own dispositions are restored before returning, so the
**     caller decides how to exit.
**   - Clean-up: once the leader has exited, whatever it left behind in its process group is
**     killed (SIGKILL) before the leader is reaped, so no orphan keeps running or holds the
**     pipes (the group id cannot be recycled meanwhile: the unreaped leader holds it).
**   - Return value: TC_OK whenever the program was started and has been reaped, whatever its
**     exit status — inspect res (tc_launch_describe turns it into words). TC_EFAIL when it
**     could not be started (exec failed: "cannot run 'prog': No such file or directory"),
**     TC_EIO / TC_ENOMEM for pipe, fork or allocation failures; then res holds nothing.
** One launch at a time per process (the interruption flag is process-wide); not for
** threaded callers. Linux (/proc/self/exe, /proc/PID/stat).
**
** Helpers: tc_launch_locate finds a program by environment variable, the running
** executable's directory, or PATH; tc_launch_error_line picks the line of a captured stderr
** worth showing a user.
*/
#ifndef TC_TOOLS_LAUNCH_H
#define TC_TOOLS_LAUNCH_H

#include <stddef.h>

#include "topocoll/error.h"

#define TC_LAUNCH_ERR_TAIL 65536

typedef struct tc_launch_options {
  double timeout_s;  /* > 0: terminate the program after this many seconds; <= 0: no deadline */
  double grace_s;    /* between SIGTERM and SIGKILL; <= 0 means 3 s */
  size_t max_stdout; /* stdout bytes kept; 0 means 64 MiB */
  /* When not NULL: called with each complete line of stdout (without its newline, not
     NUL-terminated) as soon as it has arrived, while the program runs — for progress
     reports. The lines still end up in res->out. */
  void (*on_line)(void *ctx, const char *line, size_t len);
  void *ctx;
} tc_launch_options;

typedef struct tc_launch_result {
  int exited;        /* 1: the program exited by itself with exit_code */
  int exit_code;
  int signal;        /* when !exited: the signal that ended it (SIGTERM / SIGKILL after a timeout) */
  int timed_out;     /* 1: the deadline passed and the group was terminated */
  int interrupted;   /* the signal the caller received while waiting, or 0 */
  char *out;         /* stdout, NUL-terminated (never NULL after TC_OK) */
  size_t out_len;
  int out_truncated; /* 1: stdout exceeded max_stdout; the rest was read and dropped */
  char *err_tail;    /* the end of stderr, NUL-terminated (never NULL after TC_OK) */
  size_t err_len;
} tc_launch_result;

/* Run argv (argv[0] the program, NULL-terminated) as described above. opts may be NULL
   (no deadline). *res is zeroed first; free it with tc_launch_result_destroy. */
int tc_launch_run(char *const argv[], const tc_launch_options *opts, tc_launch_result *res, tc_error *err);
void tc_launch_result_destroy(tc_launch_result *res);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)", "timed out after 600 s",
   "interrupted by signal 2" — how the program ended, for an error line. */
void tc_launch_describe(const tc_launch_result *res, double timeout_s, char *buf, size_t size);

/* Find program `name` and write its path into path[size]:
     1. when `env_var` is not NULL and that variable is set and non-empty, its value — which
        must then name an executable file (no fallback: an explicit choice that is wrong is
        an error, not a hint);
     2. when `beside_self`, `name` in the directory of the running executable (/proc/self/exe),
        so a build or install tree uses its own programs;
     3. `name` on PATH.
   TC_EINPUT with one line when it is not found, e.g. "cannot find topocoll-exec: TOPOCOLL_EXEC
   is '/nonexistent', which is not an executable file" or "cannot find mpirun on PATH (set
   TOPOCOLL_MPIRUN)". */
int tc_launch_locate(const char *name, const char *env_var, int beside_self, char *path, size_t size,
                     tc_error *err);

/* The line of a captured stderr to show a user, copied into buf[size] without its newline,
   by the first rule that finds one: the first line that starts with `prefix` (when prefix
   is not NULL); the first line that says "ERROR", "Error:" or "error:" (sanitizers, most
   tools); the headline (first line) of the last message framed by "-----" rules (mpirun's
   style); the last line holding a letter or digit; else "". */
void tc_launch_error_line(const char *text, const char *prefix, char *buf, size_t size);

#endif
