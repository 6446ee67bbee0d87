/*
** io_atomic.c — atomic replacement of output files (contract in io_atomic.h).
**
** The temporary is created with mkstemp() beside the target, so the final rename() stays
** within one file system and is atomic: readers of the target see the old file or the new
** one, never a mixture. Everything that can fail (create, write, flush, fsync, close,
** rename) is checked, and every failure path removes the temporary.
*/
#include "core/io_atomic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char tmp_name[] = ".tc-tmp-XXXXXX";

/* "<dir of path>/.tc-tmp-XXXXXX", malloc'd; NULL when out of memory. */
static char *temp_template(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
  char *t = malloc(dir_len + sizeof tmp_name);
  if (!t) return NULL;
  memcpy(t, path, dir_len);
  memcpy(t + dir_len, tmp_name, sizeof tmp_name);
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

static int fail(tc_atomic_file *af, tc_error *err, const char *what, int e) {
  tc_error_set(err, TC_EIO, "cannot %s %s: %s", what, af->path, strerror(e));
  tci_atomic_abort(af);
  return TC_EIO;
}

int tci_atomic_open(tc_atomic_file *af, const char *path, tc_error *err) {
  af->fp = NULL;
  af->path = path;
  af->tmp_path = temp_template(path);
  if (!af->tmp_path) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int fd = mkstemp(af->tmp_path);
  if (fd < 0) {
    int e = errno;
    free(af->tmp_path);
    af->tmp_path = NULL;
    return tc_error_set(err, TC_EIO, "cannot write %s: %s", path, strerror(e));
  }
  /* Best effort: some file systems (FAT, some network mounts) have no modes to set. */
  if (fchmod(fd, target_mode(path)) != 0) errno = 0;
  if (!(af->fp = fdopen(fd, "w"))) {
    int e = errno;
    close(fd);
    return fail(af, err, "write", e);
  }
  return TC_OK;
}

int tci_atomic_commit(tc_atomic_file *af, tc_error *err) {
  errno = 0;
  if (fflush(af->fp) != 0 || ferror(af->fp)) return fail(af, err, "write", errno ? errno : EIO);
  /* Some file systems cannot sync (EINVAL); the data is still written, so go on. */
  if (fsync(fileno(af->fp)) != 0 && errno != EINVAL) return fail(af, err, "write", errno);
  FILE *fp = af->fp;
  af->fp = NULL;
  if (fclose(fp) != 0) return fail(af, err, "write", errno);
  if (rename(af->tmp_path, af->path) != 0) return fail(af, err, "replace", errno);
  free(af->tmp_path);
  af->tmp_path = NULL;
  return TC_OK;
}

void tci_atomic_abort(tc_atomic_file *af) {
  if (af->fp) fclose(af->fp);
  af->fp = NULL;
  if (af->tmp_path) {
    unlink(af->tmp_path);
    free(af->tmp_path);
  }
  af->tmp_path = NULL;
}
