/*
** cli.h — what the `topocoll` subcommands share: exit codes, the error reporter, and the
** subcommand entry points (one file each: cmd_<name>.c).
**
** Exit codes: 0 success, 1 failure, 2 bad usage or input (TC_EINPUT, TC_ERANGE).
*/
#ifndef TC_TOOLS_CLI_H
#define TC_TOOLS_CLI_H

#include "topocoll/error.h"

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

#endif
