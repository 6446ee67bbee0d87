/*
** cli.h — what the `topocoll` subcommands share: exit codes, the error reporter, and the
** subcommand entry points (one file each: cmd_<name>.c), plus what `sched` and `verify`
** share: the schedule report (cmd_sched.c), and
** what `find` and `plan` share: the cluster options (cmd_find.c).
**
** Exit codes: 0 success, 1 failure, 2 bad usage or input (TC_EINPUT, TC_ERANGE).
*/
#ifndef TC_TOOLS_CLI_H
#define TC_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/cost.h"
#include "topocoll/error.h"
#include "topocoll/find.h"
#include "topocoll/sched.h"

enum { TC_EXIT_OK = 0, TC_EXIT_FAIL = 1, TC_EXIT_USAGE = 2 };

/* Print "topocoll <cmd>: <msg>" on stderr and return the exit code for err->code. */
int tc_cli_fail(const char *cmd, const tc_error *err);
/* Print a usage error line and return TC_EXIT_USAGE. */
int tc_cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

typedef struct tc_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
  void (*help)(void);
} tc_command;

int tc_cmd_topo(int argc, char **argv);
void tc_cmd_topo_help(void);
int tc_cmd_sched(int argc, char **argv);
void tc_cmd_sched_help(void);
int tc_cmd_verify(int argc, char **argv);
void tc_cmd_verify_help(void);
int tc_cmd_find(int argc, char **argv);
void tc_cmd_find_help(void);
int tc_cmd_plan(int argc, char **argv);
void tc_cmd_plan_help(void);
int tc_cmd_run(int argc, char **argv);
void tc_cmd_run_help(void);
int tc_cmd_export(int argc, char **argv);
void tc_cmd_export_help(void);
int tc_cmd_simulate(int argc, char **argv);
void tc_cmd_simulate_help(void);

/* cmd_sched.c: the report `sched` and `verify` print for a verified schedule s on g with
   cost c. `spec` may be NULL; `time_s` < 0 means not computed. */
typedef struct tc_cli_sched_report {
  const char *spec;
  const tc_graph *g;
  const tc_schedule *s;
  const tc_cost *c;
  int32_t root;        /* -1 unless broadcast / reduce */
  double alpha_s, link_bw, time_s; /* < 0 when not given */
  int64_t size_bytes;  /* < 0 when not given */
  const char *written; /* the file written, or NULL */
  const char *file;    /* the schedule file read (verify), or NULL */
} tc_cli_sched_report;
void tc_cli_print_sched_report(const tc_cli_sched_report *r, int json);

/* cmd_find.c: the cluster options of `find` and `plan`: --nodes, --degree,
   --bidirectional, --alpha, --link-bw, --size (a size list, tc_workload_parse_sizes). */
typedef struct tc_cli_cluster {
  const char *nodes_text, *degree_text, *alpha_text, *bw_text, *size_text;
  int32_t nodes, degree;
  int bidirectional;
  int has_workload;     /* --alpha, --link-bw and --size were given and parsed */
  tc_workload workload;
} tc_cli_cluster;
/* If argv[*i] is a cluster option, take it (and its value, advancing *i) and return 1;
   0 if it is not one; minus the exit code after printing a usage error. */
int tc_cli_cluster_option(const char *cmd, tc_cli_cluster *c, int argc, char **argv, int *i);
/* Check and parse what was given: --degree always, --nodes when need_nodes, the three
   workload options together or not at all (required when need_workload). Returns an exit
   code (0 when all is well), the error line already printed. */
int tc_cli_cluster_finish(const char *cmd, tc_cli_cluster *c, int need_nodes, int need_workload);
/* "323.5 us", "5.369 ms", "1.234 s". */
void tc_cli_format_time(double s, char *buf, size_t size);
/* A size exactly and short: the largest unit that divides it, decimal first ("4 KB" =
   4000 bytes, "1 MiB", "1500 B"). */
void tc_cli_format_size(int64_t bytes, char *buf, size_t size);

#endif
