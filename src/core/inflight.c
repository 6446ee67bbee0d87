/*
** inflight.c — the registry of paths in flight and the signal handler that removes them
** (contract in inflight.h and, for the public functions, output.h).
**
** A slot is free (0), being filled (1), or holds a file (2) or a tree (3). A thread claims a
** free slot by compare-and-swap, copies the path into the slot's own buffer, then
** publishes its kind; the handler reads only published slots, so it never sees half a
** path and never touches memory that malloc could move.
**
** The kernel hands a signal to any thread that does not block it. Blocking around "create
** and record" is per thread, so a worker thread (OpenMP's pool) could take the signal in the
** very gap the installing thread had blocked, and remove the recorded paths while that
** thread goes on writing (and exits 1 on the vanished directory before the re-raise ends
** the process). So the handler does its work only on the thread that installed it; on any
** other it forwards the signal there (pthread_kill), where it waits, pending, until that
** thread unblocks. It uses only async-signal-safe calls (getpid, pthread_self,
** pthread_kill, unlink, the openat/getdents64 remover of fs_tree.c, sigaction,
** pthread_sigmask, raise).
*/
#include "core/inflight.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fs_tree.h"
#include "topocoll/output.h"

enum { SLOT_FREE, SLOT_FILLING, SLOT_FILE, SLOT_TREE };

static _Atomic int slot_state[TCI_INFLIGHT_MAX];
static char slot_path[TCI_INFLIGHT_MAX][PATH_MAX];
static _Atomic pid_t owner; /* the process that installed the handler; 0 before */
static pthread_t owner_thread; /* its thread that did; written before the handlers exist */

/* SIGPIPE too: a command writing to a closed pipe (`--dot - | head`) dies of it, and must
   not leave the temporaries of its other outputs behind. */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define NCAUGHT (int)(sizeof caught / sizeof caught[0])

static void caught_set(sigset_t *set) {
  sigemptyset(set);
  for (int i = 0; i < NCAUGHT; i++) sigaddset(set, caught[i]);
}

void tci_inflight_block(sigset_t *saved) {
  sigset_t set;
  caught_set(&set);
  pthread_sigmask(SIG_BLOCK, &set, saved);
}

void tci_inflight_unblock(const sigset_t *saved) { pthread_sigmask(SIG_SETMASK, saved, NULL); }

int tci_inflight_add(const char *path, int tree, tc_error *err) {
  size_t len = strlen(path);
  if (len >= PATH_MAX) {
    tc_error_set(err, TC_EIO, "cannot write %.60s...: the path is longer than %d bytes", path, PATH_MAX - 1);
    return -1;
  }
  for (int i = 0; i < TCI_INFLIGHT_MAX; i++) {
    int expected = SLOT_FREE;
    if (!atomic_compare_exchange_strong(&slot_state[i], &expected, SLOT_FILLING)) continue;
    memcpy(slot_path[i], path, len + 1);
    atomic_store(&slot_state[i], tree ? SLOT_TREE : SLOT_FILE);
    return i;
  }
  tc_error_set(err, TC_EIO, "cannot write %s: more than %d files and directories in flight at once", path,
               TCI_INFLIGHT_MAX);
  return -1;
}

void tci_inflight_drop(int slot) {
  if (slot >= 0 && slot < TCI_INFLIGHT_MAX) atomic_store(&slot_state[slot], SLOT_FREE);
}

int tci_inflight_find(const char *path) {
  for (int i = 0; i < TCI_INFLIGHT_MAX; i++) {
    int s = atomic_load(&slot_state[i]);
    if ((s == SLOT_FILE || s == SLOT_TREE) && !strcmp(slot_path[i], path)) return i;
  }
  return -1;
}

/* ---- the handler ---- */

static void remove_all(void) {
  for (int i = 0; i < TCI_INFLIGHT_MAX; i++) {
    int s = atomic_load(&slot_state[i]);
    if (s == SLOT_FILE) unlink(slot_path[i]);
    else if (s == SLOT_TREE) tci_fs_remove_tree(slot_path[i]);
  }
}

static void on_signal(int sig) {
  int ours = getpid() == atomic_load(&owner);
  if (ours && !pthread_equal(pthread_self(), owner_thread)) {
    pthread_kill(owner_thread, sig); /* see the header: only the installing thread cleans */
    return;
  }
  if (ours) remove_all();
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  _exit(128 + sig); /* not reached: the default action of these signals ends the process */
}

int tc_output_catch_signals(tc_error *err) {
  owner_thread = pthread_self();
  atomic_store(&owner, getpid());
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  caught_set(&sa.sa_mask); /* a second signal waits until the first one's cleanup is done */
  for (int i = 0; i < NCAUGHT; i++) {
    struct sigaction old;
    if (sigaction(caught[i], NULL, &old) != 0)
      return tc_error_set(err, TC_EIO, "cannot read the action of signal %d: %s", caught[i], strerror(errno));
    if (old.sa_handler == SIG_IGN) continue; /* nohup and friends: stay ignored */
    if (sigaction(caught[i], &sa, NULL) != 0)
      return tc_error_set(err, TC_EIO, "cannot catch signal %d: %s", caught[i], strerror(errno));
  }
  return TC_OK;
}

/* ---- scratch directories ---- */

int tc_output_make_scratch_dir(char *templ, tc_error *err) {
  sigset_t saved;
  tci_inflight_block(&saved);
  int rc = TC_OK;
  if (!mkdtemp(templ)) {
    rc = tc_error_set(err, TC_EIO, "cannot create the directory %s: %s", templ, strerror(errno));
  } else if (tci_inflight_add(templ, 1, err) < 0) {
    rmdir(templ);
    rc = err->code;
  }
  tci_inflight_unblock(&saved);
  return rc;
}

void tc_output_remove_scratch_dir(const char *dir) {
  if (!dir[0]) return;
  tci_fs_remove_tree(dir);
  tci_inflight_drop(tci_inflight_find(dir));
}
