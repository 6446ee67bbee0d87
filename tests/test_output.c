/*
** test_output.c — output.h: the refusals of tc_output_check (exact messages), batches (all
** or nothing, nesting, misuse), and the signal handlers, run in forked children so that the
** test process keeps its own signal actions: a child killed by SIGTERM while a temporary
** (or a scratch tree) is in flight leaves nothing and dies by SIGTERM; a grandchild killed
** the same way leaves its parent's files alone. Also the tree remover the handlers use
** (core/fs_tree.h): nested directories go, a symbolic link is removed, never followed.
** Devices, FIFOs and stdout are driven end to end by tests/cli_writers.sh.
*/
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "core/fs_tree.h"
#include "tc_files.h"
#include "tc_test.h"
#include "topocoll/graph_io.h"
#include "topocoll/output.h"

static int setup(void **state) { return tc_tmpdir_setup(state, "topocoll-test-output"); }

/* Entries of dir whose name starts with prefix. */
static int count_prefixed(const char *dir, const char *prefix) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int k = 0;
  for (struct dirent *e; (e = readdir(d));) k += !strncmp(e->d_name, prefix, strlen(prefix));
  closedir(d);
  return k;
}

static tc_graph *small_graph(void) { return tc_test_spec("kautz(2,1)"); }

static void stdout_name(void **state) {
  (void)state;
  assert_true(tc_output_is_stdout("-"));
  assert_false(tc_output_is_stdout("--"));
  assert_false(tc_output_is_stdout("./-"));
  assert_false(tc_output_is_stdout(NULL));
}

static void check_refusals(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX], want[PATH_MAX + 96];
  tc_error err;
  /* accepted: absent, regular, "-" */
  tc_tmpdir_path(f, "new.txt", path, sizeof path);
  assert_int_equal(tc_output_check(path, &err), TC_OK);
  tc_files_spill(path, "x", 1);
  assert_int_equal(tc_output_check(path, &err), TC_OK);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(tc_output_check("-", &err), TC_OK);
  /* a directory */
  tc_tmpdir_path(f, "d", path, sizeof path);
  assert_int_equal(mkdir(path, 0700), 0);
  assert_int_equal(tc_output_check(path, &err), TC_EINPUT);
  snprintf(want, sizeof want, "cannot write %s: it is a directory", path);
  assert_string_equal(err.msg, want);
  /* a file under a missing directory: what the write would say */
  char missing[PATH_MAX + 16];
  snprintf(missing, sizeof missing, "%s/no/x", path);
  assert_int_equal(tc_output_check(missing, &err), TC_EIO);
  snprintf(want, sizeof want, "cannot write %s: No such file or directory", missing);
  assert_string_equal(err.msg, want);
  assert_int_equal(rmdir(path), 0);
  /* a socket */
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  tc_tmpdir_path(f, "sock", path, sizeof path);
  assert_true(strlen(path) < sizeof sa.sun_path);
  strcpy(sa.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  assert_true(fd >= 0);
  assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
  assert_int_equal(tc_output_check(path, &err), TC_EINPUT);
  snprintf(want, sizeof want, "cannot write %s: it is a socket", path);
  assert_string_equal(err.msg, want);
  tc_graph *g = small_graph();
  assert_int_equal(tc_graph_write_dot(g, "k", path, &err), TC_EINPUT); /* the writer refuses alike */
  assert_string_equal(err.msg, want);
  close(fd);
  assert_int_equal(unlink(path), 0);
  /* a symbolic link to nothing */
  tc_tmpdir_path(f, "dangling", path, sizeof path);
  assert_int_equal(symlink("nowhere", path), 0);
  assert_int_equal(tc_output_check(path, &err), TC_EINPUT);
  snprintf(want, sizeof want, "cannot write %s: it is a symbolic link to nothing", path);
  assert_string_equal(err.msg, want);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(tc_output_check("", &err), TC_EINPUT);
  assert_string_equal(err.msg, "empty output file name");
  assert_int_equal(tc_files_count(f->dir), 0);
  tc_graph_destroy(g);
}

/* A symbolic link to a regular file: the file is replaced, the link stays a link. */
static void symlink_target(void **state) {
  tc_tmpdir *f = *state;
  char real[PATH_MAX], link[PATH_MAX];
  tc_tmpdir_path(f, "real.edges", real, sizeof real);
  tc_tmpdir_path(f, "link.edges", link, sizeof link);
  tc_files_spill(real, "old\n", 4);
  assert_int_equal(symlink("real.edges", link), 0);
  tc_graph *g = small_graph();
  tc_error err;
  assert_int_equal(tc_graph_write_edgelist(g, link, &err), TC_OK);
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  char *text = tc_files_slurp(real);
  assert_non_null(strstr(text, "nodes 6"));
  free(text);
  assert_int_equal(tc_files_count(f->dir), 2);
  assert_int_equal(unlink(link), 0);
  assert_int_equal(unlink(real), 0);
  tc_graph_destroy(g);
}

static void batch_all_or_nothing(void **state) {
  tc_tmpdir *f = *state;
  char a[PATH_MAX], b[PATH_MAX], bad[PATH_MAX];
  tc_tmpdir_path(f, "a.dot", a, sizeof a);
  tc_tmpdir_path(f, "b.edges", b, sizeof b);
  tc_tmpdir_path(f, "sub", bad, sizeof bad);
  assert_int_equal(mkdir(bad, 0700), 0);
  tc_graph *g = small_graph();
  tc_error err;
  /* committed: nothing in place before the commit, both after */
  tc_output_begin();
  assert_int_equal(tc_graph_write_dot(g, "k", a, &err), TC_OK);
  assert_int_equal(tc_graph_write_edgelist(g, b, &err), TC_OK);
  assert_int_equal(count_prefixed(f->dir, ".tc-tmp-"), 2);
  assert_int_equal(access(a, F_OK), -1);
  assert_int_equal(access(b, F_OK), -1);
  assert_int_equal(tc_output_commit(&err), TC_OK);
  assert_int_equal(tc_files_count(f->dir), 3);
  assert_int_equal(unlink(a), 0);
  assert_int_equal(unlink(b), 0);
  /* a failure after a first file: the caller aborts, nothing is left */
  tc_output_begin();
  assert_int_equal(tc_graph_write_dot(g, "k", a, &err), TC_OK);
  assert_int_equal(tc_graph_write_edgelist(g, bad, &err), TC_EINPUT);
  tc_output_abort();
  assert_int_equal(tc_files_count(f->dir), 1);
  /* nested: an inner abort makes the outer commit fail and write nothing */
  tc_output_begin();
  assert_int_equal(tc_graph_write_dot(g, "k", a, &err), TC_OK);
  tc_output_begin();
  assert_int_equal(tc_graph_write_edgelist(g, b, &err), TC_OK);
  tc_output_abort();
  assert_int_equal(tc_output_commit(&err), TC_EIO);
  assert_string_equal(err.msg, "nothing written: a write of the same batch failed");
  assert_int_equal(tc_files_count(f->dir), 1);
  /* nested: only the outer commit writes */
  tc_output_begin();
  tc_output_begin();
  assert_int_equal(tc_graph_write_edgelist(g, b, &err), TC_OK);
  assert_int_equal(tc_output_commit(&err), TC_OK);
  assert_int_equal(access(b, F_OK), -1);
  assert_int_equal(tc_output_commit(&err), TC_OK);
  assert_int_equal(access(b, F_OK), 0);
  assert_int_equal(unlink(b), 0);
  /* a commit without a batch */
  assert_int_equal(tc_output_commit(&err), TC_EINPUT);
  assert_string_equal(err.msg, "tc_output_commit without tc_output_begin");
  assert_int_equal(rmdir(bad), 0);
  assert_int_equal(tc_files_count(f->dir), 0);
  tc_graph_destroy(g);
}

/* Wait for one byte from fd (a child's "ready"). */
static char await(int fd) {
  char c = 0;
  ssize_t got;
  do got = read(fd, &c, 1);
  while (got < 0 && errno == EINTR);
  assert_int_equal(got, 1);
  return c;
}

/* The child: handlers, a batch with a temporary in flight, "ready", then wait for the kill. */
static void child_with_temporary(const char *path, int ready) {
  tc_error err;
  tc_graph *g = small_graph();
  if (tc_output_catch_signals(&err)) _exit(3);
  tc_output_begin();
  if (tc_graph_write_dot(g, "k", path, &err)) _exit(4);
  if (write(ready, "t", 1) != 1) _exit(5);
  for (;;) pause();
}

static void signal_removes_temporary(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(f, "never.dot", path, sizeof path);
  const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) child_with_temporary(path, p[1]);
    close(p[1]);
    assert_int_equal(await(p[0]), 't');
    close(p[0]);
    assert_int_equal(count_prefixed(f->dir, ".tc-tmp-"), 1);
    assert_int_equal(kill(pid, sigs[i]), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), sigs[i]);
    assert_int_equal(tc_files_count(f->dir), 0);
  }
}

/* The child A: handlers and a scratch tree (nested, with files), then a child B (which
   inherits the handlers) whose pid A sends; after B's death A says "a" and waits. The test
   kills B, sees the tree intact, kills A, sees it gone. */
static void scratch_owner(const char *dir, int ready) {
  tc_error err;
  char templ[PATH_MAX], path[PATH_MAX + 32];
  snprintf(templ, sizeof templ, "%s/scratch-XXXXXX", dir);
  if (tc_output_catch_signals(&err) || tc_output_make_scratch_dir(templ, &err)) _exit(3);
  snprintf(path, sizeof path, "%s/sub", templ);
  if (mkdir(path, 0700)) _exit(4);
  snprintf(path, sizeof path, "%s/sub/file", templ);
  tc_files_spill(path, "x", 1);
  pid_t b = fork();
  if (b < 0) _exit(5);
  if (b == 0)
    for (;;) pause();
  if (write(ready, &b, sizeof b) != (ssize_t)sizeof b) _exit(6);
  while (waitpid(b, NULL, 0) < 0 && errno == EINTR) {}
  if (write(ready, "a", 1) != 1) _exit(7);
  for (;;) pause();
}

static void signal_removes_scratch_tree_not_in_children(void **state) {
  tc_tmpdir *f = *state;
  int p[2];
  assert_int_equal(pipe(p), 0);
  pid_t a = fork();
  assert_true(a >= 0);
  if (a == 0) scratch_owner(f->dir, p[1]);
  close(p[1]);
  pid_t b = 0;
  ssize_t got;
  do got = read(p[0], &b, sizeof b);
  while (got < 0 && errno == EINTR);
  assert_int_equal(got, sizeof b);
  assert_int_equal(kill(b, SIGTERM), 0);
  assert_int_equal(await(p[0]), 'a'); /* A saw B die of it */
  assert_int_equal(count_prefixed(f->dir, "scratch-"), 1);
  assert_int_equal(kill(a, SIGTERM), 0);
  int status;
  assert_int_equal(waitpid(a, &status, 0), a);
  close(p[0]);
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGTERM);
  assert_int_equal(tc_files_count(f->dir), 0);
}

/* A worker thread takes the signal while the installing thread has it blocked (as during
   "create and record"): the handler must leave the cleaning to the installing thread, so
   the child lives on to record a scratch tree, says "t", and only then, unblocking, dies of
   the forwarded signal with the tree removed. Cleaning on the worker would end the child
   before the "t" (and, in a real command, race the main thread's writes). */
static void *raise_on_this_thread(void *unused) {
  (void)unused;
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &term, NULL); /* inherited blocked from its creator */
  pthread_kill(pthread_self(), SIGTERM);
  return NULL;
}

static void forwarding_child(const char *dir, int ready) {
  tc_error err;
  char templ[PATH_MAX];
  snprintf(templ, sizeof templ, "%s/scratch-XXXXXX", dir);
  if (tc_output_catch_signals(&err)) _exit(3);
  sigset_t term, saved;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &term, &saved);
  pthread_t worker;
  if (pthread_create(&worker, NULL, raise_on_this_thread, NULL)) _exit(4);
  pthread_join(worker, NULL);
  if (tc_output_make_scratch_dir(templ, &err)) _exit(5);
  if (write(ready, "t", 1) != 1) _exit(6);
  pthread_sigmask(SIG_SETMASK, &saved, NULL); /* the forwarded SIGTERM arrives here */
  _exit(7);
}

static void signal_on_another_thread_cleans_on_the_installer(void **state) {
  tc_tmpdir *f = *state;
  int p[2];
  assert_int_equal(pipe(p), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) forwarding_child(f->dir, p[1]);
  close(p[1]);
  assert_int_equal(await(p[0]), 't');
  close(p[0]);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGTERM);
  assert_int_equal(tc_files_count(f->dir), 0);
}

/* The remover: nested directories go, a symbolic link to outside the tree is removed and
   what it points to is not; a plain file is unlinked; a missing path is -1. */
static void remove_tree(void **state) {
  tc_tmpdir *f = *state;
  char top[PATH_MAX], path[PATH_MAX + 64], outside[PATH_MAX];
  tc_tmpdir_path(f, "tree", top, sizeof top);
  tc_tmpdir_path(f, "outside", outside, sizeof outside);
  assert_int_equal(mkdir(outside, 0700), 0);
  snprintf(path, sizeof path, "%s/keep", outside);
  tc_files_spill(path, "k", 1);
  assert_int_equal(mkdir(top, 0700), 0);
  for (int i = 0; i < 300; i++) { /* more entries than one getdents64 buffer holds */
    snprintf(path, sizeof path, "%s/file-with-a-longish-name-%03d", top, i);
    tc_files_spill(path, "x", 1);
  }
  snprintf(path, sizeof path, "%s/a", top);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/a/b", top);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/a/b/f", top);
  tc_files_spill(path, "y", 1);
  snprintf(path, sizeof path, "%s/a/link", top);
  assert_int_equal(symlink(outside, path), 0);
  assert_int_equal(tci_fs_remove_tree(top), 0);
  assert_int_equal(access(top, F_OK), -1);
  assert_int_equal(tc_files_count(outside), 1);
  assert_int_equal(tci_fs_remove_tree(top), -1);
  snprintf(path, sizeof path, "%s/keep", outside);
  assert_int_equal(tci_fs_remove_tree(path), 0);
  assert_int_equal(rmdir(outside), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stdout_name),
      T(check_refusals),
      T(symlink_target),
      T(batch_all_or_nothing),
      T(signal_removes_temporary),
      T(signal_removes_scratch_tree_not_in_children),
      T(signal_on_another_thread_cleans_on_the_installer),
      T(remove_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
