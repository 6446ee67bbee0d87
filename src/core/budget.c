/*
** budget.c — the process's memory limit and the one refusal line (contracts in
** topocoll/budget.h and core/budget.h).
**
** Why the cgroup as well as /proc/meminfo: in a container MemAvailable describes the host,
** and the cgroup's limit is what the kernel enforces on us (an OOM kill, not swapping).
** A limit may be set on any ancestor of our cgroup, so the walk goes up to the root and
** keeps the least room left. Values of 2^62 and more mean "no limit" (v1 writes
** 9223372036854771712, v2 writes "max").
*/
#define _DEFAULT_SOURCE /* sysconf _SC_AVPHYS_PAGES */
#include "core/budget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topocoll/budget.h"

#define NO_LIMIT ((int64_t)1 << 62)
#define FALLBACK ((int64_t)4 << 30) /* nothing readable: a machine of modest size */
#define PATH_LEN 4096

/* ---- reading the machine ---- */

/* The first integer in the file at path, or -1 ("max", unreadable or not a number). */
static int64_t read_number(const char *path) {
  FILE *fp = fopen(path, "r");
  if (!fp) return -1;
  long long v = -1;
  if (fscanf(fp, "%lld", &v) != 1 || v < 0) v = -1;
  fclose(fp);
  return v;
}

/* MemAvailable of <root>/proc/meminfo in bytes, or -1. */
static int64_t meminfo_available(const char *root) {
  char path[PATH_LEN], line[256];
  snprintf(path, sizeof path, "%s/proc/meminfo", root);
  FILE *fp = fopen(path, "r");
  if (!fp) return -1;
  int64_t bytes = -1;
  long long kb;
  while (fgets(line, sizeof line, fp))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1 && kb >= 0) {
      bytes = kb * 1024;
      break;
    }
  fclose(fp);
  return bytes;
}

/* Room left in the cgroup directory dir: limit - usage, or -1 when it has no limit. */
static int64_t cgroup_room(const char *dir, const char *limit_file, const char *usage_file) {
  char path[3 * PATH_LEN];
  snprintf(path, sizeof path, "%s/%s", dir, limit_file);
  int64_t limit = read_number(path);
  if (limit < 0 || limit >= NO_LIMIT) return -1;
  snprintf(path, sizeof path, "%s/%s", dir, usage_file);
  int64_t usage = read_number(path);
  return usage < 0 ? limit : usage >= limit ? 0 : limit - usage;
}

/* The least room over base+cgpath and its ancestors up to base, or -1 if none has a limit. */
static int64_t cgroup_walk(const char *base, const char *cgpath, const char *limit_file, const char *usage_file) {
  char rel[PATH_LEN], dir[2 * PATH_LEN];
  snprintf(rel, sizeof rel, "%s", cgpath);
  int64_t least = -1;
  for (;;) {
    size_t len = strlen(rel);
    while (len && rel[len - 1] == '/') rel[--len] = '\0';
    snprintf(dir, sizeof dir, "%s%s", base, rel);
    int64_t room = cgroup_room(dir, limit_file, usage_file);
    if (room >= 0 && (least < 0 || room < least)) least = room;
    char *slash = strrchr(rel, '/');
    if (!len) break;
    if (slash) *slash = '\0'; else rel[0] = '\0';
  }
  return least;
}

/* The room the cgroup of /proc/self leaves (v2 line "0::/path", v1 "N:...memory...:/path"). */
static int64_t cgroup_available(const char *root) {
  char path[PATH_LEN], line[PATH_LEN], base[PATH_LEN];
  snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
  FILE *fp = fopen(path, "r");
  if (!fp) return -1;
  int64_t least = -1;
  while (fgets(line, sizeof line, fp)) {
    line[strcspn(line, "\n")] = '\0';
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) continue;
    *c1 = *c2 = '\0'; /* line: the hierarchy id */
    const char *controllers = c1 + 1, *cgpath = c2 + 1;
    int64_t room = -1;
    if (!strcmp(line, "0") && !*controllers) {
      snprintf(base, sizeof base, "%s/sys/fs/cgroup", root);
      room = cgroup_walk(base, cgpath, "memory.max", "memory.current");
    } else {
      char list[PATH_LEN];
      snprintf(list, sizeof list, ",%s,", controllers);
      if (!strstr(list, ",memory,")) continue;
      snprintf(base, sizeof base, "%s/sys/fs/cgroup/memory", root);
      room = cgroup_walk(base, cgpath, "memory.limit_in_bytes", "memory.usage_in_bytes");
    }
    if (room >= 0 && (least < 0 || room < least)) least = room;
  }
  fclose(fp);
  return least;
}

int tci_budget_read(const char *root, int64_t *bytes) {
  int64_t mem = meminfo_available(root), cg = cgroup_available(root);
  if (mem < 0 && cg < 0) return -1;
  *bytes = mem < 0 ? cg : cg < 0 ? mem : mem < cg ? mem : cg;
  return 0;
}

int64_t tc_memory_available(void) {
  int64_t bytes;
  if (!tci_budget_read("", &bytes)) return bytes;
#ifdef _SC_AVPHYS_PAGES
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return (int64_t)pages * page;
#endif
  return FALLBACK;
}

/* ---- the limit ---- */

static int64_t limit_set;     /* 0: the default */
static char hint[128] = "";   /* "": the library's own */

int64_t tc_memory_limit(void) { return limit_set > 0 ? limit_set : tc_memory_available(); }

void tc_memory_limit_set(int64_t bytes, const char *how_to_raise) {
  limit_set = bytes > 0 ? bytes : 0;
  snprintf(hint, sizeof hint, "%s", how_to_raise ? how_to_raise : "");
}

/* ---- formatting and the refusal ---- */

/* x with `unit` prefixes of 1000: two significant digits ("9.4", "21", "268"). */
static void format_scaled(double x, const char *const *prefix, char *buf, size_t size) {
  int k = 0;
  while (x >= 999.5 && prefix[k + 1]) {
    x /= 1000;
    k++;
  }
  if (x < 9.95 && k > 0) snprintf(buf, size, "%.1f%s", x, prefix[k]);
  else snprintf(buf, size, "%.0f%s", x, prefix[k]);
}

void tci_budget_format_bytes(double bytes, char *buf, size_t size) {
  static const char *const prefix[] = {" B", " KB", " MB", " GB", " TB", " PB", " EB", NULL};
  format_scaled(bytes < 0 ? 0 : bytes, prefix, buf, size);
}

void tci_budget_format_count(double count, char *buf, size_t size) {
  static const char *const prefix[] = {"", " K", " M", " G", " T", " P", " E", NULL};
  format_scaled(count < 0 ? 0 : count, prefix, buf, size);
}

/* Below this, without a limit set, the machine is not read: every small graph the finder
   builds (thousands per find at small N) would otherwise read /proc and the cgroup files. */
#define TRIVIAL_NEED (1 << 20)

int tci_budget_check(double need, const char *what, const char *detail, tc_error *err) {
  if (limit_set == 0 && need <= TRIVIAL_NEED) return TC_OK;
  int64_t limit = tc_memory_limit();
  if (need <= (double)limit) return TC_OK;
  char n[32], l[32];
  tci_budget_format_bytes(need, n, sizeof n);
  tci_budget_format_bytes((double)limit, l, sizeof l);
  return tc_error_set(err, TC_ERANGE, "%s needs about %s%s%s%s but %s%s%s; %s", what, n, detail ? " (" : "",
                      detail ? detail : "", detail ? ")" : "", limit_set > 0 ? "the memory limit is " : "", l,
                      limit_set > 0 ? "" : " is available",
                      hint[0] ? hint : "raise the limit with tc_memory_limit_set");
}
