/*
** io_atomic.c — writing output files (contracts in io_atomic.h and output.h): the
** classification of a target, the single file, and the batch.
**
** A file to replace gets its temporary from mkstemp() beside it (beside the file a
** symbolic link points to), so the final rename() stays within one file system and is
** atomic. A device, FIFO or stdout gets an anonymous spool (tmpfile: no name to leave
** behind), copied to the target with write() at the end, so a writer that fails half-way
** sends nothing, a FIFO is opened only once everything else is ready, and the error of a
** failing device is the errno of the very write() that failed. Everything that can fail is
** checked, and every failure path removes the temporary.
*/
#include "core/io_atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fs_tree.h"
#include "core/inflight.h"
#include "topocoll/output.h"

static const char tmp_name[] = ".tc-tmp-XXXXXX";

int tc_output_is_stdout(const char *path) { return path && !strcmp(path, "-"); }

/* The directory part of path with its slash ("" for a bare name), then `name`; malloc'd,
   NULL when out of memory. */
static char *beside(const char *path, const char *name) {
  const char *slash = strrchr(path, '/');
  size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0, name_len = strlen(name);
  char *t = malloc(dir_len + name_len + 1);
  if (!t) return NULL;
  memcpy(t, path, dir_len);
  memcpy(t + dir_len, name, name_len + 1);
  return t;
}

/* The process umask, read without changing it (Linux /proc); 077 when unknown, which
   errs on the private side. */
static mode_t current_umask(void) {
  FILE *f = fopen("/proc/self/status", "r");
  unsigned mask = 077;
  char line[128];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "Umask: %o", &mask) == 1) break;
  if (f) fclose(f);
  return (mode_t)(mask & 0777);
}

/* Mode for the new file: the replaced file's permissions, else 0666 minus the umask. */
static mode_t target_mode(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
  return 0666 & ~current_umask();
}

static const char *what_it_is(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "neither a regular file nor a device or FIFO";
}

/* The one home of the rules of output.h: what kind of target path is, and the path to
   rename over or open (*dest, malloc'd; a symbolic link to a regular file is resolved, so
   the link stays and the file it points to is replaced). */
static int classify(const char *path, tci_target_kind *kind, char **dest, tc_error *err) {
  *dest = NULL;
  if (!*path) return tc_error_set(err, TC_EINPUT, "empty output file name");
  if (tc_output_is_stdout(path)) {
    *kind = TCI_TARGET_STDOUT;
    return TC_OK;
  }
  struct stat st, lst;
  int is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
  if (stat(path, &st) != 0) {
    if (errno != ENOENT) return tc_error_set(err, TC_EIO, "cannot write %s: %s", path, strerror(errno));
    if (is_link) return tc_error_set(err, TC_EINPUT, "cannot write %s: it is a symbolic link to nothing", path);
    *kind = TCI_TARGET_REPLACE;
    *dest = strdup(path);
  } else if (S_ISREG(st.st_mode)) {
    *kind = TCI_TARGET_REPLACE;
    *dest = tci_fs_link_target(path);
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode)) {
    *kind = TCI_TARGET_IN_PLACE;
    *dest = strdup(path);
  } else {
    return tc_error_set(err, TC_EINPUT, "cannot write %s: it is %s", path, what_it_is(st.st_mode));
  }
  return *dest ? TC_OK : tc_error_set(err, TC_ENOMEM, "out of memory");
}

int tc_output_check(const char *path, tc_error *err) {
  tci_target_kind kind;
  char *dest = NULL, *dir = NULL;
  int rc = classify(path, &kind, &dest, err);
  if (rc || kind == TCI_TARGET_STDOUT) return rc;
  struct stat st;
  if (kind == TCI_TARGET_IN_PLACE) {
    if (access(dest, W_OK) != 0) rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", path, strerror(errno));
  } else if (!(dir = beside(dest, "."))) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  } else if (stat(dir, &st) != 0 || access(dir, W_OK | X_OK) != 0) {
    rc = tc_error_set(err, TC_EIO, "cannot write %s: %s", path, strerror(errno));
  }
  free(dir);
  free(dest);
  return rc;
}

/* ---- one file ---- */

static const char *shown(const tc_atomic_file *af) {
  return af->kind == TCI_TARGET_STDOUT ? "standard output" : af->path;
}

static int fail(tc_atomic_file *af, tc_error *err, const char *what, int e) {
  tc_error_set(err, TC_EIO, "cannot %s %s: %s", what, shown(af), strerror(e));
  tci_atomic_abort(af);
  return TC_EIO;
}

int tci_atomic_open(tc_atomic_file *af, const char *path, tc_error *err) {
  af->fp = NULL;
  af->path = path;
  af->dest = af->tmp_path = NULL;
  af->slot = -1;
  int rc = classify(path, &af->kind, &af->dest, err);
  if (rc) return rc;
  if (af->kind != TCI_TARGET_REPLACE) {
    if (!(af->fp = tmpfile())) return fail(af, err, "spool the output for", errno);
    return TC_OK;
  }
  if (!(af->tmp_path = beside(af->dest, tmp_name))) {
    tci_atomic_abort(af);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  sigset_t saved; /* created and recorded with no signal in between (inflight.h) */
  tci_inflight_block(&saved);
  int fd = mkstemp(af->tmp_path), e = errno;
  if (fd >= 0 && (af->slot = tci_inflight_add(af->tmp_path, 0, err)) < 0) {
    close(fd);
    unlink(af->tmp_path);
    rc = err->code;
  }
  tci_inflight_unblock(&saved);
  if (fd < 0 || rc) {
    free(af->tmp_path);
    af->tmp_path = NULL; /* nothing to remove */
    tci_atomic_abort(af);
    return rc ? rc : tc_error_set(err, TC_EIO, "cannot write %s: %s", path, strerror(e));
  }
  /* Best effort: some file systems (FAT, some network mounts) have no modes to set. */
  if (fchmod(fd, target_mode(af->dest)) != 0) errno = 0;
  if (!(af->fp = fdopen(fd, "w"))) {
    e = errno;
    close(fd);
    return fail(af, err, "write", e);
  }
  return TC_OK;
}

/* All of buf to fd: 0, or the errno of the write that failed. */
static int write_all(int fd, const char *buf, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, buf, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return errno;
    buf += w;
    n -= (size_t)w;
  }
  return 0;
}

/* The spool to its device, FIFO or stdout. A FIFO's open waits for a reader. */
static int send_spool(tc_atomic_file *af, tc_error *err) {
  int fd = STDOUT_FILENO;
  if (af->kind == TCI_TARGET_STDOUT) {
    if (fflush(stdout) != 0) return fail(af, err, "write", errno); /* what was printed before comes first */
  } else {
    fd = open(af->dest, O_WRONLY | O_NOCTTY | O_CLOEXEC); /* no O_CREAT, no O_TRUNC: never harm a device */
    if (fd < 0) return fail(af, err, "write", errno);
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode))) {
      close(fd);
      tc_error_set(err, TC_EIO, "cannot write %s: it stopped being a device or FIFO while being written", af->path);
      tci_atomic_abort(af);
      return TC_EIO;
    }
  }
  rewind(af->fp);
  char buf[1 << 16];
  int e = 0;
  for (size_t n; !e && (n = fread(buf, 1, sizeof buf, af->fp)) > 0;) e = write_all(fd, buf, n);
  if (!e && ferror(af->fp)) e = EIO;
  if (fd != STDOUT_FILENO && close(fd) != 0 && !e) e = errno;
  if (e) return fail(af, err, "write", e);
  tci_atomic_abort(af); /* done: close the spool */
  return TC_OK;
}

/* Put a finished file in place. */
static int place(tc_atomic_file *af, tc_error *err) {
  if (af->kind != TCI_TARGET_REPLACE) return send_spool(af, err);
  if (rename(af->tmp_path, af->dest) != 0) return fail(af, err, "replace", errno);
  tci_inflight_drop(af->slot);
  af->slot = -1;
  free(af->tmp_path);
  af->tmp_path = NULL;
  tci_atomic_abort(af); /* nothing left to remove: frees dest */
  return TC_OK;
}

/* Flush and check; a temporary is also synced and closed (the spool stays open to be
   read back). */
static int finish(tc_atomic_file *af, tc_error *err) {
  errno = 0;
  if (fflush(af->fp) != 0 || ferror(af->fp)) return fail(af, err, "write", errno ? errno : EIO);
  if (af->kind != TCI_TARGET_REPLACE) return TC_OK;
  /* Some file systems cannot sync (EINVAL); the data is still written, so go on. */
  if (fsync(fileno(af->fp)) != 0 && errno != EINVAL) return fail(af, err, "write", errno);
  FILE *fp = af->fp;
  af->fp = NULL;
  if (fclose(fp) != 0) return fail(af, err, "write", errno);
  return TC_OK;
}

static int batch_add(tc_atomic_file *af, tc_error *err);
static int batch_open(void);

int tci_atomic_commit(tc_atomic_file *af, tc_error *err) {
  int rc = finish(af, err);
  if (rc) return rc;
  return batch_open() ? batch_add(af, err) : place(af, err);
}

void tci_atomic_abort(tc_atomic_file *af) {
  if (af->fp) fclose(af->fp);
  af->fp = NULL;
  if (af->tmp_path) {
    unlink(af->tmp_path);
    free(af->tmp_path);
  }
  af->tmp_path = NULL;
  tci_inflight_drop(af->slot);
  af->slot = -1;
  free(af->dest);
  af->dest = NULL;
}

/* ---- the batch of the calling thread ---- */

#define BATCH_MAX 16

typedef struct batch {
  int depth;  /* tc_output_begin calls not yet matched */
  int failed; /* an inner batch was aborted: the outer commit must fail */
  int count;
  tc_atomic_file file[BATCH_MAX];
} batch;

static _Thread_local batch current;

static int batch_open(void) { return current.depth > 0; }

static int batch_add(tc_atomic_file *af, tc_error *err) {
  if (current.count == BATCH_MAX) {
    tc_error_set(err, TC_EIO, "cannot write %s: more than %d files in one batch", af->path, BATCH_MAX);
    tci_atomic_abort(af);
    return TC_EIO;
  }
  current.file[current.count++] = *af; /* the batch owns it now; the caller's copy is emptied */
  af->fp = NULL;
  af->dest = af->tmp_path = NULL;
  af->slot = -1;
  return TC_OK;
}

static void batch_discard(void) {
  for (int i = 0; i < current.count; i++) tci_atomic_abort(&current.file[i]);
  current.count = 0;
}

void tc_output_begin(void) {
  if (current.depth++ == 0) current.failed = 0;
}

void tc_output_abort(void) {
  batch_discard();
  if (current.depth > 0 && --current.depth > 0) current.failed = 1;
}

int tc_output_commit(tc_error *err) {
  if (current.depth == 0) return tc_error_set(err, TC_EINPUT, "tc_output_commit without tc_output_begin");
  if (--current.depth > 0) return TC_OK;
  if (current.failed) {
    batch_discard();
    return tc_error_set(err, TC_EIO, "nothing written: a write of the same batch failed");
  }
  /* In-place targets first (they cannot be taken back), then the renames. */
  int rc = TC_OK;
  for (int replace = 0; replace <= 1; replace++)
    for (int i = 0; i < current.count; i++) {
      tc_atomic_file *af = &current.file[i];
      if ((af->kind == TCI_TARGET_REPLACE) != replace) continue;
      if (!rc) rc = place(af, err);
      else tci_atomic_abort(af);
    }
  current.count = 0;
  return rc;
}
