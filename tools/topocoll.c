/*
** topocoll.c — the `topocoll` command: dispatches to one subcommand per capability and
** answers --help, --version and `help SUBCOMMAND`. Before any subcommand runs, the
** library's signal handlers are installed (output.h), so SIGINT, SIGTERM, SIGHUP or
** SIGPIPE leave no temporary file, staging directory or scratch directory behind.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "topocoll/output.h"

static const tc_command commands[] = {
    {"plan", "the main job: best topology and verified schedules for a cluster and workload", tc_cmd_plan,
     tc_cmd_plan_help},
    {"find", "the Pareto frontier of topologies for N nodes of degree d (paper 000 Tables 4, 7)", tc_cmd_find,
     tc_cmd_find_help},
    {"topo", "build a topology from a spec and report its properties", tc_cmd_topo, tc_cmd_topo_help},
    {"sched", "build, verify and cost a collective schedule on a topology", tc_cmd_sched, tc_cmd_sched_help},
    {"forest", "ForestColl: throughput-optimal tree schedules on any fabric, with the cut that proves it",
     tc_cmd_forest, tc_cmd_forest_help},
    {"a2a", "all-to-all: the certified maximum concurrent multi-commodity flow (paper 003)", tc_cmd_a2a,
     tc_cmd_a2a_help},
    {"verify", "re-verify a schedule file and report its costs", tc_cmd_verify, tc_cmd_verify_help},
    {"export", "write a schedule file as MSCCL XML, or a topology as a SimGrid platform", tc_cmd_export,
     tc_cmd_export_help},
    {"run", "run a schedule file under mpirun, checked against and timed beside MPI's own", tc_cmd_run,
     tc_cmd_run_help},
    {"simulate", "simulate a schedule file in SimGrid SMPI beside the alpha-beta model and SMPI's own",
     tc_cmd_simulate, tc_cmd_simulate_help},
    {"cost", "network sizes and the 2dfc's hardware price (paper 002 §4.4, Figs. 4.16, 4.19)", tc_cmd_cost,
     tc_cmd_cost_help},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

/* Every error line goes out here, through tc_error_set, which neutralizes control
   characters and invalid UTF-8 (error.h): argv, file names and specs are echoed safely. */
static void print_line(const char *cmd, const char *text) {
  tc_error safe;
  tc_error_set(&safe, TC_EINPUT, "%s", text);
  fprintf(stderr, "topocoll%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", safe.msg);
}

int tc_cli_fail(const char *cmd, const tc_error *err) {
  print_line(cmd, err->msg);
  return err->code == TC_EINPUT || err->code == TC_ERANGE ? TC_EXIT_USAGE : TC_EXIT_FAIL;
}

int tc_cli_usage_error(const char *cmd, const char *fmt, ...) {
  char text[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (len >= 0 && (size_t)len < sizeof text)
    snprintf(text + len, sizeof text - (size_t)len, " (see 'topocoll help %s')", cmd);
  print_line(cmd, text);
  return TC_EXIT_USAGE;
}

void tc_cli_error(const char *cmd, const char *fmt, ...) {
  char text[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  print_line(cmd, text);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: topocoll <command> [options]\n"
          "\n"
          "Synthesizes direct-connect topologies and collective schedules for them.\n"
          "\n"
          "commands:\n");
  for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "\n"
          "  topocoll help <command>   options of one command\n"
          "  topocoll --version        print the version\n");
}

static const tc_command *find_command(const char *name) {
  for (int i = 0; i < NCOMMANDS; i++)
    if (!strcmp(commands[i].name, name)) return &commands[i];
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return TC_EXIT_USAGE;
  }
  const char *first = argv[1];
  if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
    usage(stdout);
    return TC_EXIT_OK;
  }
  if (!strcmp(first, "--version")) {
    printf("topocoll %s\n", TC_VERSION);
    return TC_EXIT_OK;
  }
  if (!strcmp(first, "help")) {
    if (argc < 3) { usage(stdout); return TC_EXIT_OK; }
    const tc_command *c = find_command(argv[2]);
    if (!c) {
      tc_cli_error(NULL, "no command '%s' (see 'topocoll --help')", argv[2]);
      return TC_EXIT_USAGE;
    }
    c->help();
    return TC_EXIT_OK;
  }
  const tc_command *c = find_command(first);
  if (!c) {
    tc_cli_error(NULL, "no command '%s' (see 'topocoll --help')", first);
    return TC_EXIT_USAGE;
  }
  tc_error err;
  tc_error_clear(&err);
  if (tc_output_catch_signals(&err)) {
    fprintf(stderr, "topocoll: %s\n", err.msg);
    return TC_EXIT_FAIL;
  }
  return c->run(argc - 1, argv + 1);
}
