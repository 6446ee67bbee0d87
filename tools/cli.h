/*
** cli.h — what every `topocoll` subcommand shares: the exit codes, the two ways to report
** an error, and the subcommand entry points (one file each: cmd_<name>.c) that topocoll.c
** dispatches to.
**
** Exit codes: 0 success, 1 failure, 2 bad usage or input (TC_EINPUT, TC_ERANGE).
** Errors are one line on stderr, starting "topocoll <cmd>: ", printed by the three functions
** below only, which neutralize whatever user text they echo (control characters, invalid
** UTF-8 become '?': error.h).
** The helpers have their own headers: cli_options.h (the command line), cli_cluster.h (the
** cluster options of find and plan), sched_report.h (the report of sched and verify),
** exec_client.h (talking to topocoll-exec), cli_fs.h (scratch directories), launch.h
** (running mpirun and smpirun), sim_smpi.h (one SMPI simulation).
*/
#ifndef TC_TOOLS_CLI_H
#define TC_TOOLS_CLI_H

#include "topocoll/error.h"

enum { TC_EXIT_OK = 0, TC_EXIT_FAIL = 1, TC_EXIT_USAGE = 2 };

/* Print "topocoll <cmd>: <msg>" on stderr and return the exit code for err->code. */
int tc_cli_fail(const char *cmd, const tc_error *err);
/* Print "topocoll <cmd>: <message> (see 'topocoll help <cmd>')" and return TC_EXIT_USAGE. */
int tc_cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print "topocoll <cmd>: <message>" on stderr (cmd NULL: "topocoll: <message>"), the
   message neutralized as every error line is (no control characters, valid UTF-8). */
void tc_cli_error(const char *cmd, const char *fmt, ...)
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
int tc_cmd_report(int argc, char **argv);
void tc_cmd_report_help(void);
int tc_cmd_forest(int argc, char **argv);
void tc_cmd_forest_help(void);
int tc_cmd_a2a(int argc, char **argv);
void tc_cmd_a2a_help(void);
int tc_cmd_simulate(int argc, char **argv);
void tc_cmd_simulate_help(void);
int tc_cmd_cost(int argc, char **argv);
void tc_cmd_cost_help(void);
int tc_cmd_train(int argc, char **argv);
void tc_cmd_train_help(void);

#endif
