/*
** test_budget.c — the memory limit (topocoll/budget.h, core/budget.h) on fixture trees:
**   - /proc/meminfo alone: MemAvailable in kB becomes bytes; a file without it, or no file,
**     with no cgroup either, is "unreadable" (-1);
**   - cgroup v2 ("0::/path"): memory.max - memory.current of the leaf, the least over its
**     ancestors with a limit, "max" meaning none; lower than MemAvailable wins, higher not;
**   - cgroup v1 ("N:memory:/path", also in a list "N:cpu,memory:/path"):
**     memory.limit_in_bytes - memory.usage_in_bytes, 9223372036854771712 meaning none;
**     usage above the limit leaves 0;
**   - the refusal line of tci_budget_check, with the limit set and its hint, and the default
**     hint; tc_memory_limit_set(0, ...) returns to the available memory;
**   - the short formats: "9.4 GB", "21 GB", "268 M", "999 B", "1.0 KB".
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/budget.h"
#include "topocoll/budget.h"

/* A fixture tree under a fresh temporary root. */
typedef struct fixture {
  char root[64];
} fixture;

static void put(const fixture *f, const char *rel, const char *text) {
  char path[512], dir[512];
  snprintf(path, sizeof path, "%s/%s", f->root, rel);
  for (char *p = path + strlen(f->root) + 1; (p = strchr(p, '/')); p++) { /* mkdir -p */
    snprintf(dir, sizeof dir, "%.*s", (int)(p - path), path);
    mkdir(dir, 0755);
  }
  FILE *fp = fopen(path, "w");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  snprintf(f->root, sizeof f->root, "/tmp/tc_budget_XXXXXX");
  if (!mkdtemp(f->root)) return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->root);
  if (system(cmd) != 0) return -1;
  free(f);
  return 0;
}

static int64_t read_or_fail(const fixture *f) {
  int64_t bytes = -7;
  assert_int_equal(tci_budget_read(f->root, &bytes), 0);
  return bytes;
}

static const char meminfo[] = "MemTotal:       32000000 kB\nMemFree:         1000000 kB\n"
                              "MemAvailable:   20000000 kB\nBuffers:           1000 kB\n";

static void meminfo_alone(void **state) {
  fixture *f = *state;
  int64_t bytes = -7;
  assert_int_equal(tci_budget_read(f->root, &bytes), -1); /* nothing there */
  assert_int_equal(bytes, -7);
  put(f, "proc/meminfo", "MemTotal:       32000000 kB\n");
  assert_int_equal(tci_budget_read(f->root, &bytes), -1); /* no MemAvailable */
  put(f, "proc/meminfo", meminfo);
  assert_int_equal(read_or_fail(f), 20000000LL * 1024);
}

static void cgroup_v2(void **state) {
  fixture *f = *state;
  put(f, "proc/meminfo", meminfo);
  put(f, "proc/self/cgroup", "0::/user.slice/job\n");
  put(f, "sys/fs/cgroup/user.slice/job/memory.max", "max\n");
  assert_int_equal(read_or_fail(f), 20000000LL * 1024); /* no limit anywhere */
  put(f, "sys/fs/cgroup/user.slice/job/memory.max", "8000000000\n");
  put(f, "sys/fs/cgroup/user.slice/job/memory.current", "1000000000\n");
  assert_int_equal(read_or_fail(f), 7000000000LL); /* leaf: limit - usage */
  put(f, "sys/fs/cgroup/user.slice/memory.max", "3000000000\n");
  put(f, "sys/fs/cgroup/user.slice/memory.current", "500000000\n");
  assert_int_equal(read_or_fail(f), 2500000000LL); /* the parent leaves less */
  put(f, "sys/fs/cgroup/user.slice/memory.max", "900000000000\n");
  put(f, "sys/fs/cgroup/user.slice/job/memory.max", "900000000000\n");
  assert_int_equal(read_or_fail(f), 20000000LL * 1024); /* MemAvailable is lower */
  put(f, "proc/meminfo", "MemTotal: 1 kB\n");
  assert_int_equal(read_or_fail(f), 900000000000LL - 1000000000LL); /* the cgroup alone */
}

static void cgroup_v1(void **state) {
  fixture *f = *state;
  put(f, "proc/meminfo", meminfo);
  put(f, "proc/self/cgroup", "5:cpu,cpuacct:/\n4:cpuset,memory:/docker/abc\n0::/\n");
  put(f, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  put(f, "sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
  assert_int_equal(read_or_fail(f), 20000000LL * 1024); /* unlimited */
  put(f, "sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "4294967296\n");
  put(f, "sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes", "294967296\n");
  assert_int_equal(read_or_fail(f), 4000000000LL);
  put(f, "sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes", "5000000000\n");
  assert_int_equal(read_or_fail(f), 0); /* over the limit: nothing left */
}

static void refusal_line(void **state) {
  (void)state;
  tc_error err;
  tc_memory_limit_set(10000000, "raise the limit with --max-memory SIZE");
  assert_int_equal(tc_memory_limit(), 10000000);
  assert_int_equal(tci_budget_check(10000000, "x", NULL, &err), TC_OK); /* equal fits */
  assert_int_equal(tci_budget_check(9.4e9, "bfb allgather on 16384 nodes", "268 M transfers", &err), TC_ERANGE);
  assert_string_equal(err.msg, "bfb allgather on 16384 nodes needs about 9.4 GB (268 M transfers) but the memory "
                               "limit is 10 MB; raise the limit with --max-memory SIZE");
  tc_memory_limit_set(2000, NULL);
  assert_int_equal(tci_budget_check(21e9, "a plan", NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "a plan needs about 21 GB but the memory limit is 2.0 KB; raise the limit with "
                               "tc_memory_limit_set");
  tc_memory_limit_set(0, NULL); /* the default: what the machine has */
  assert_true(tc_memory_limit() > 0);
  assert_int_equal(tci_budget_check(1e30, "everything", NULL, &err), TC_ERANGE);
  assert_non_null(strstr(err.msg, " is available; raise the limit with tc_memory_limit_set"));
}

static void formats(void **state) {
  (void)state;
  char buf[32];
  static const struct { double x; const char *bytes, *count; } cases[] = {
      {0, "0 B", "0"},           {999, "999 B", "999"},      {1000, "1.0 KB", "1.0 K"},
      {9.4e9, "9.4 GB", "9.4 G"}, {21e9, "21 GB", "21 G"},   {268435456, "268 MB", "268 M"},
      {2.9e12, "2.9 TB", "2.9 T"}, {999.4e6, "999 MB", "999 M"}, {999.6e6, "1.0 GB", "1.0 G"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tci_budget_format_bytes(cases[i].x, buf, sizeof buf);
    assert_string_equal(buf, cases[i].bytes);
    tci_budget_format_count(cases[i].x, buf, sizeof buf);
    assert_string_equal(buf, cases[i].count);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(meminfo_alone, setup, teardown),
      cmocka_unit_test_setup_teardown(cgroup_v2, setup, teardown),
      cmocka_unit_test_setup_teardown(cgroup_v1, setup, teardown),
      cmocka_unit_test(refusal_line),
      cmocka_unit_test(formats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
