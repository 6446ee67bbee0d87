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
    {"report", "the plan's HTML report: topology, frontier, times per size, link use, saved results",
     tc_cmd_report, tc_cmd_report_help},
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
    {"cost", "network sizes and the 2dfc's hardware price (paper 002 Figs. 4.16, 4.19)", tc_cmd_cost,
     tc_cmd_cost_help},
    {"train", "one training iteration simulated on our topologies and the baselines (paper 000 App. A.4)",
     tc_cmd_train, tc_cmd_train_help},
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

/* The words the reports use, said once for every command (README.md has the same list,
   "Terms"); the facts are paper 000's (§3.2, App. C, Def. 9-10, Thm 4, Thm 22). Plain
   ASCII: it is read in terminals and in the man pages made from it. */
static const char glossary[] =
    "terms (paper 000 = Zhao et al., \"Efficient Direct-Connect Topologies for Collective\n"
    "Communications\"; docs/papers.md lists the papers and how they are cited):\n"
    "  N, d       nodes, and ports (links out) per node\n"
    "  M          bytes of the whole buffer (the allreduce size, the allgather output)\n"
    "  alpha      latency of one communication step (one hop), e.g. 10us\n"
    "  B          node bandwidth: d x the bandwidth of one link (--link-bw)\n"
    "  T_L        latency part of a schedule's time: steps x alpha (what a tiny message\n"
    "             costs); at least the diameter of the topology\n"
    "  T_B        bandwidth part: the sum over steps of the most bytes one link carries\n"
    "             in the step, divided by the link bandwidth; written tau x M/B\n"
    "  tau        the T_B factor, an exact fraction: T_B = tau x M/B. An allgather or\n"
    "             reduce-scatter needs tau >= (N-1)/N (BW-optimal when equal, Thm 4)\n"
    "  time       predicted: T_L + T_B per collective; an allreduce is a reduce-scatter\n"
    "             then an allgather, 2 x (T_L + T_B) on a reverse-symmetric topology\n"
    "  Moore bound  the most nodes a degree-d digraph of diameter k can have,\n"
    "             1 + d + d^2 + ... + d^k (Def. 9). N nodes of degree d thus have a\n"
    "             diameter of at least the least k whose bound reaches N, and no\n"
    "             schedule beats T_L* = k x alpha; one with T_L = T_L* is Moore-optimal\n"
    "             (Def. 10)\n"
    "  Thm 22     paper 000 Theorem 22 (Boesch and Wang): for N > 6 and\n"
    "             m = ceil((sqrt(2N-1) - 1)/2) the circulant C(N,{m,m+1}) (spec\n"
    "             circulant(N)) has diameter m, the least of any circulant with two\n"
    "             offsets; with Conjecture 1, proved for two offsets, its BFB schedule\n"
    "             is BW-optimal. \"paper 000 Thm 22\" in a report names that theorem.\n";

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
          "  topocoll --version        print the version\n"
          "\n%s",
          glossary);
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
