/*
** launch.c — fork/exec a program with captured output and a deadline (contract in
** launch.h).
**
** How the wait works: the parent polls the two output pipes in slices of at most 50 ms and,
** between slices, asks waitid(WNOWAIT) whether the leader has exited — without reaping it,
** so its pid, which is also the group id, stays reserved while the group is killed. Output
** is drained until both pipes reach end-of-file; after the leader's exit that takes at most
** DRAIN_S seconds (a descendant that escaped the group could keep a pipe open forever).
** The exec result travels through a close-on-exec pipe: it closes silently on success and
** carries errno when execvp fails, so "cannot run" is told apart from "ran and failed".
*/
#include "launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SLICE_MS 50
#define DRAIN_S 2.0
#define DEFAULT_GRACE_S 3.0
#define DEFAULT_MAX_STDOUT ((size_t)64 << 20)

/* ---- interruption: the caller's SIGINT / SIGTERM / SIGHUP while it waits ---- */

static volatile sig_atomic_t caught_signal;
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
#define NFORWARDED (int)(sizeof forwarded / sizeof forwarded[0])

static void on_signal(int sig) { caught_signal = sig; }

static void catch_signals(struct sigaction *saved) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; /* no SA_RESTART: poll() returns EINTR at once */
  caught_signal = 0;
  for (int i = 0; i < NFORWARDED; i++) sigaction(forwarded[i], &sa, &saved[i]);
}

static void restore_signals(const struct sigaction *saved) {
  for (int i = 0; i < NFORWARDED; i++) sigaction(forwarded[i], &saved[i], NULL);
}

/* ---- small helpers ---- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

static int cloexec_pipe(int fds[2]) {
  if (pipe(fds)) return -1;
  for (int i = 0; i < 2; i++) fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  return 0;
}

/* Has the leader exited? Leaves it unreaped (WNOWAIT). */
static int leader_exited(pid_t pid) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT)) return errno == ECHILD;
  return info.si_pid == pid;
}

/* Wait up to `seconds` for the leader to exit (unreaped). */
static int wait_leader(pid_t pid, double seconds) {
  double end = now_s() + seconds;
  while (!leader_exited(pid)) {
    if (now_s() >= end) return 0;
    struct timespec ts = {0, SLICE_MS * 1000000L};
    nanosleep(&ts, NULL);
  }
  return 1;
}

/* ---- output buffers ---- */

typedef struct sink {
  char *buf;
  size_t len, cap; /* cap excludes the NUL */
  size_t limit;    /* bytes kept */
  int tail;        /* 1: keep the last `limit` bytes; 0: keep the first and flag the rest */
  int truncated;
} sink;

static int sink_init(sink *s, size_t limit, int tail) {
  memset(s, 0, sizeof *s);
  s->limit = limit;
  s->tail = tail;
  s->cap = 4096;
  s->buf = malloc(s->cap + 1);
  if (!s->buf) return -1;
  s->buf[0] = '\0';
  return 0;
}

static int sink_add(sink *s, const char *data, size_t n) {
  if (!s->tail && s->len + n > s->limit) {
    s->truncated = 1;
    n = s->limit - s->len;
  }
  if (s->len + n > s->cap) {
    size_t cap = s->cap;
    while (cap < s->len + n) cap *= 2;
    char *grown = realloc(s->buf, cap + 1);
    if (!grown) return -1;
    s->buf = grown;
    s->cap = cap;
  }
  memcpy(s->buf + s->len, data, n);
  s->len += n;
  if (s->tail && s->len > s->limit) { /* keep the last `limit` bytes */
    memmove(s->buf, s->buf + s->len - s->limit, s->limit);
    s->len = s->limit;
  }
  s->buf[s->len] = '\0';
  return 0;
}

/* Read what is available on *fd into s; closes *fd at end-of-file. -1 on allocation failure. */
static int drain_fd(int *fd, sink *s) {
  char chunk[65536];
  ssize_t got = read(*fd, chunk, sizeof chunk);
  if (got > 0) return sink_add(s, chunk, (size_t)got);
  if (got == 0 || (errno != EINTR && errno != EAGAIN)) close_fd(fd);
  return 0;
}

/* One poll slice over the open pipes (or a sleep when both are closed). */
static int pump(int fds[2], sink *sinks, int ms) {
  struct pollfd p[2];
  int n = 0, which[2];
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0) {
      p[n].fd = fds[i];
      p[n].events = POLLIN;
      p[n].revents = 0;
      which[n++] = i;
    }
  int ready = poll(p, (nfds_t)n, ms);
  if (ready <= 0) return 0; /* timeout, or EINTR: the caller looks at caught_signal */
  for (int k = 0; k < n; k++)
    if (p[k].revents & (POLLIN | POLLHUP | POLLERR))
      if (drain_fd(&fds[which[k]], &sinks[which[k]])) return -1;
  return 0;
}

/* Hand every complete line of the stdout sink from offset `seen` on to on_line; returns the
   offset after the last one. */
static size_t report_lines(const sink *s, size_t seen, void (*on_line)(void *, const char *, size_t), void *ctx) {
  for (const char *nl; seen < s->len && (nl = memchr(s->buf + seen, '\n', s->len - seen));) {
    on_line(ctx, s->buf + seen, (size_t)(nl - (s->buf + seen)));
    seen = (size_t)(nl - s->buf) + 1;
  }
  return seen;
}

/* ---- the child ---- */

static void run_child(char *const argv[], int out_w, int err_w, int exec_w) {
  setpgid(0, 0);
  /* The default actions until exec. (The library's cleanup handler, output.h, removes
     nothing in a child: the files in flight are the parent's.) */
  for (int i = 0; i < NFORWARDED; i++) signal(forwarded[i], SIG_DFL);
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(out_w, STDOUT_FILENO);
  dup2(err_w, STDERR_FILENO);
  execvp(argv[0], argv);
  int e = errno;
  ssize_t ignored = write(exec_w, &e, sizeof e);
  (void)ignored;
  _exit(127);
}

/* ---- descendants outside the group ---- */

/* A process, named by pid and start time so that a recycled pid is never mistaken for it. */
typedef struct proc_id {
  pid_t pid, ppid;
  unsigned long long start;
} proc_id;

/* ppid and start time (fields 4 and 22 of /proc/PID/stat; the name in field 2 may hold
   spaces and parentheses, so fields are counted from the last ')'). */
static int read_proc_stat(pid_t pid, pid_t *ppid, unsigned long long *start) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (!p) return -1;
  int ppid_val = 0;
  unsigned long long start_val = 0;
  /* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
     cutime cstime priority nice threads itrealvalue starttime */
  if (sscanf(p + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &ppid_val,
             &start_val) != 2)
    return -1;
  *ppid = (pid_t)ppid_val;
  *start = start_val;
  return 0;
}

/* Every descendant of `root` now alive (mpirun puts each rank in a process group of its own,
   so killing mpirun's group does not reach them). Linux /proc; elsewhere none are found.
   *out is malloc'ed; returns the count (0 when none or on failure). */
static int find_descendants(pid_t root, proc_id **out) {
  *out = NULL;
  DIR *d = opendir("/proc");
  if (!d) return 0;
  proc_id *all = NULL;
  int n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(d));) {
    char *end;
    long v = strtol(e->d_name, &end, 10);
    if (*end || v <= 0) continue;
    proc_id p = {(pid_t)v, 0, 0};
    if (read_proc_stat(p.pid, &p.ppid, &p.start)) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      proc_id *grown = realloc(all, sizeof *grown * (size_t)cap);
      if (!grown) break;
      all = grown;
    }
    all[n++] = p;
  }
  closedir(d);
  /* Move descendants to the front: all[0..found) is the set, grown until nothing joins. */
  int found = 0;
  for (int joined = 1; joined;) {
    joined = 0;
    for (int i = found; i < n; i++) {
      int parent_in_set = all[i].ppid == root;
      for (int k = 0; k < found && !parent_in_set; k++) parent_in_set = all[i].ppid == all[k].pid;
      if (!parent_in_set) continue;
      proc_id t = all[found];
      all[found++] = all[i];
      all[i] = t;
      joined = 1;
    }
  }
  if (!found) free(all);
  else *out = all;
  return found;
}

static void kill_listed(const proc_id *list, int n, int sig) {
  for (int i = 0; i < n; i++) {
    pid_t ppid;
    unsigned long long start;
    if (!read_proc_stat(list[i].pid, &ppid, &start) && start == list[i].start) kill(list[i].pid, sig);
  }
}

/* ---- the parent ---- */

/* Terminate the program: SIGTERM to its group (mpirun then stops its ranks itself), and
   after the grace period SIGKILL to the group and to every descendant seen before. */
static void terminate_group(pid_t pid, double grace_s) {
  proc_id *desc = NULL;
  int ndesc = find_descendants(pid, &desc);
  kill(-pid, SIGTERM);
  wait_leader(pid, grace_s);
  kill(-pid, SIGKILL);
  kill_listed(desc, ndesc, SIGKILL);
  free(desc);
}

int tc_launch_run(char *const argv[], const tc_launch_options *opts, tc_launch_result *res, tc_error *err) {
  memset(res, 0, sizeof *res);
  tc_launch_options o = {0, 0, 0, NULL, NULL};
  if (opts) o = *opts;
  if (o.grace_s <= 0) o.grace_s = DEFAULT_GRACE_S;
  if (o.max_stdout == 0) o.max_stdout = DEFAULT_MAX_STDOUT;

  sink sinks[2];
  if (sink_init(&sinks[0], o.max_stdout, 0) || sink_init(&sinks[1], TC_LAUNCH_ERR_TAIL, 1)) {
    free(sinks[0].buf);
    return tc_error_set(err, TC_ENOMEM, "out of memory launching %s", argv[0]);
  }
  int out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, exec_p[2] = {-1, -1};
  if (cloexec_pipe(out_p) || cloexec_pipe(err_p) || cloexec_pipe(exec_p)) {
    int e = errno;
    for (int i = 0; i < 2; i++) close_fd(&out_p[i]), close_fd(&err_p[i]), close_fd(&exec_p[i]);
    free(sinks[0].buf);
    free(sinks[1].buf);
    return tc_error_set(err, TC_EIO, "cannot create a pipe to launch %s: %s", argv[0], strerror(e));
  }
  struct sigaction saved[NFORWARDED];
  catch_signals(saved);
  fflush(NULL); /* the child must not inherit unflushed stdio buffers */
  pid_t pid = fork();
  if (pid == 0) run_child(argv, out_p[1], err_p[1], exec_p[1]);
  int fork_errno = errno;
  close_fd(&out_p[1]);
  close_fd(&err_p[1]);
  close_fd(&exec_p[1]);
  int rc = TC_OK;
  if (pid < 0) {
    rc = tc_error_set(err, TC_EIO, "cannot fork to launch %s: %s", argv[0], strerror(fork_errno));
    goto out;
  }
  setpgid(pid, pid); /* also here, so the group exists before anyone signals it */

  int exec_errno = 0;
  ssize_t got;
  do got = read(exec_p[0], &exec_errno, sizeof exec_errno);
  while (got < 0 && errno == EINTR);
  if (got == (ssize_t)sizeof exec_errno) {
    waitpid(pid, NULL, 0);
    rc = tc_error_set(err, TC_EFAIL, "cannot run '%s': %s", argv[0], strerror(exec_errno));
    goto out;
  }

  int fds[2] = {out_p[0], err_p[0]};
  double deadline = o.timeout_s > 0 ? now_s() + o.timeout_s : 0;
  int done = 0;
  size_t seen = 0; /* stdout before this offset has been handed to o.on_line */
  while (!done) {
    if (pump(fds, sinks, SLICE_MS)) {
      rc = tc_error_set(err, TC_ENOMEM, "out of memory reading the output of %s", argv[0]);
      terminate_group(pid, o.grace_s);
      break;
    }
    if (o.on_line) seen = report_lines(&sinks[0], seen, o.on_line, o.ctx);
    if (leader_exited(pid)) {
      done = 1;
    } else if (caught_signal) {
      res->interrupted = caught_signal;
      terminate_group(pid, o.grace_s);
      done = 1;
    } else if (deadline > 0 && now_s() >= deadline) {
      res->timed_out = 1;
      terminate_group(pid, o.grace_s);
      done = 1;
    }
  }
  kill(-pid, SIGKILL); /* leftovers of the group; the unreaped leader keeps the id ours */
  double drain_end = now_s() + DRAIN_S;
  while (rc == TC_OK && (fds[0] >= 0 || fds[1] >= 0) && now_s() < drain_end)
    if (pump(fds, sinks, SLICE_MS)) rc = tc_error_set(err, TC_ENOMEM, "out of memory reading the output of %s", argv[0]);
  close_fd(&fds[0]);
  close_fd(&fds[1]);
  out_p[0] = err_p[0] = -1;

  int status = 0;
  pid_t reaped;
  do reaped = waitpid(pid, &status, 0);
  while (reaped < 0 && errno == EINTR);
  if (reaped != pid) {
    rc = tc_error_set(err, TC_EFAIL, "lost track of %s: %s", argv[0], strerror(errno));
  } else if (WIFEXITED(status)) {
    res->exited = 1;
    res->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res->signal = WTERMSIG(status);
  }

out:
  restore_signals(saved);
  close_fd(&out_p[0]);
  close_fd(&err_p[0]);
  close_fd(&exec_p[0]);
  if (rc) {
    free(sinks[0].buf);
    free(sinks[1].buf);
    memset(res, 0, sizeof *res);
    return rc;
  }
  res->out = sinks[0].buf;
  res->out_len = sinks[0].len;
  res->out_truncated = sinks[0].truncated;
  res->err_tail = sinks[1].buf;
  res->err_len = sinks[1].len;
  return TC_OK;
}

void tc_launch_result_destroy(tc_launch_result *res) {
  if (!res) return;
  free(res->out);
  free(res->err_tail);
  memset(res, 0, sizeof *res);
}

void tc_launch_describe(const tc_launch_result *res, double timeout_s, char *buf, size_t size) {
  if (res->interrupted) snprintf(buf, size, "interrupted by signal %d", res->interrupted);
  else if (res->timed_out) snprintf(buf, size, "timed out after %g s", timeout_s);
  else if (res->exited) snprintf(buf, size, "exited with status %d", res->exit_code);
  else snprintf(buf, size, "killed by signal %d (%s)", res->signal, strsignal(res->signal));
}

/* ---- locating programs ---- */

static int is_executable_file(const char *path) {
  struct stat st;
  return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static int copy_path(const char *src, char *path, size_t size) {
  if (strlen(src) >= size) return 0;
  memcpy(path, src, strlen(src) + 1);
  return 1;
}

static int beside_running_executable(const char *name, char *path, size_t size) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return 0;
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (!slash) return 0;
  *slash = '\0';
  char candidate[PATH_MAX];
  if (snprintf(candidate, sizeof candidate, "%s/%s", self, name) >= (int)sizeof candidate) return 0;
  return is_executable_file(candidate) && copy_path(candidate, path, size);
}

static int on_path(const char *name, char *path, size_t size) {
  const char *p = getenv("PATH");
  if (!p || !*p) return 0;
  while (*p) {
    const char *colon = strchr(p, ':');
    size_t len = colon ? (size_t)(colon - p) : strlen(p);
    char candidate[PATH_MAX];
    /* An empty PATH entry means the current directory. */
    int w = len ? snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, p, name)
                : snprintf(candidate, sizeof candidate, "./%s", name);
    if (w > 0 && w < (int)sizeof candidate && is_executable_file(candidate)) return copy_path(candidate, path, size);
    if (!colon) break;
    p = colon + 1;
  }
  return 0;
}

int tc_launch_locate(const char *name, const char *env_var, int beside_self, char *path, size_t size,
                     tc_error *err) {
  const char *chosen = env_var ? getenv(env_var) : NULL;
  if (chosen && *chosen) {
    if (!is_executable_file(chosen))
      return tc_error_set(err, TC_EINPUT, "cannot find %s: %s is '%s', which is not an executable file", name,
                          env_var, chosen);
    if (!copy_path(chosen, path, size))
      return tc_error_set(err, TC_EINPUT, "cannot find %s: %s is too long a path", name, env_var);
    return TC_OK;
  }
  if (beside_self && beside_running_executable(name, path, size)) return TC_OK;
  if (on_path(name, path, size)) return TC_OK;
  if (env_var)
    return tc_error_set(err, TC_EINPUT, "cannot find %s %son PATH (set %s)", name,
                        beside_self ? "beside this program or " : "", env_var);
  return tc_error_set(err, TC_EINPUT, "cannot find %s %son PATH", name, beside_self ? "beside this program or " : "");
}

/* ---- the line worth showing ---- */

static void copy_line(const char *line, size_t len, char *buf, size_t size) {
  if (len >= size) len = size - 1;
  memcpy(buf, line, len);
  buf[len] = '\0';
}

static int has_alnum(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')) return 1;
  return 0;
}

static int is_rule(const char *s, size_t len) { return len >= 10 && strspn(s, "-") >= 10; }

static int mentions_error(const char *s, size_t len) {
  static const char *const words[] = {"ERROR", "Error:", "error:"};
  for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
    size_t wl = strlen(words[w]);
    for (size_t i = 0; i + wl <= len; i++)
      if (!memcmp(s + i, words[w], wl)) return 1;
  }
  return 0;
}

void tc_launch_error_line(const char *text, const char *prefix, char *buf, size_t size) {
  if (size == 0) return;
  buf[0] = '\0';
  if (!text) return;
  size_t plen = prefix ? strlen(prefix) : 0;
  const char *error = NULL, *headline = NULL, *last = NULL;
  size_t error_len = 0, headline_len = 0, last_len = 0;
  int after_rule = 0; /* 0 outside a framed message, 1 just after its opening rule, 2 inside */
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    if (prefix && len >= plen && !strncmp(line, prefix, plen)) {
      copy_line(line, len, buf, size);
      return;
    }
    if (is_rule(line, len)) {
      after_rule = !after_rule; /* opens (0 -> 1) or closes (1, 2 -> 0) a framed message */
    } else if (has_alnum(line, len)) {
      if (!error && mentions_error(line, len)) error = line, error_len = len;
      if (after_rule == 1) headline = line, headline_len = len, after_rule = 2;
      last = line, last_len = len;
    }
    if (!nl) break;
    line = nl + 1;
  }
  if (error) copy_line(error, error_len, buf, size);
  else if (headline) copy_line(headline, headline_len, buf, size);
  else if (last) copy_line(last, last_len, buf, size);
}
