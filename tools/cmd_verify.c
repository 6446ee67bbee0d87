/*
** cmd_verify.c — `topocoll verify FILE.json [SPEC]`: re-verify a schedule file and report
** its costs.
**
** The graph is the one embedded in the file, or, when SPEC is given, the one SPEC builds —
** which must then equal the embedded graph arc for arc (the transfers name arc ids, so a
** different graph would give them a different meaning). The verdict is the independent
** verifier's (tc_schedule_verify); the costs are tc_schedule_cost's.
** Exit status: 0 valid, 1 the schedule is invalid (one line naming the first violated
** transfer), 2 bad usage or input — including a file that cannot be read or parsed, so
** that 1 always means "this schedule is wrong".
*/
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "sched_report.h"
#include "topocoll/sched_io.h"
#include "topocoll/spec.h"
#include "topocoll/verify.h"

void tc_cmd_verify_help(void) {
  printf(
      "usage: topocoll verify FILE.json [SPEC] [--json]\n"
      "\n"
      "Re-verifies the schedule in FILE.json (written by 'topocoll sched --out', format in\n"
      "docs/formats.md) with the independent verifier and reports its costs. The graph is the\n"
      "one embedded in the file; with SPEC it is rebuilt from SPEC and must equal the embedded\n"
      "one arc for arc.\n"
      "\n"
      "  --json   one JSON object instead of the text report (also printed, with \"verified\":\n"
      "           false and \"error\", for an invalid schedule)\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "The terms (T_L, T_B, tau, Moore bound, \"paper 000 Thm 22\"): see 'topocoll --help'.\n"
      "Exit status: 0 valid, 1 invalid, 2 bad usage or an unreadable or malformed file.\n");
}

typedef struct verify_options {
  const char *file, *spec;
  int json;
} verify_options;

static const tc_cli_option verify_table[] = {
    {.name = "--json", .kind = TC_CLI_FLAG, .value = offsetof(verify_options, json)},
};
static const tc_cli_command verify_cli = {
    .name = "verify", .help = tc_cmd_verify_help, .options = verify_table, .noptions = TC_CLI_COUNT(verify_table),
    .positional = {offsetof(verify_options, file), offsetof(verify_options, spec)}, .npositional = 2,
    .extra_argument = "unexpected argument '%s' (FILE and SPEC already given)"};

static int parse_options(int argc, char **argv, verify_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&verify_cli, argc, argv, o);
  if (!status && !o->file) return tc_cli_usage_error("verify", "missing FILE");
  return status;
}

/* Print the verdict for an invalid schedule: the verifier's line on stderr, and in JSON
   mode also the object on stdout. */
static int report_invalid(const verify_options *o, const tc_error *err) {
  tc_cli_error("verify", "%s: invalid: %s", o->file, err->msg);
  if (o->json) {
    json_t *j = json_object();
    json_object_set_new(j, "file", json_string(o->file));
    json_object_set_new(j, "verified", json_false());
    json_object_set_new(j, "error", json_string(err->msg));
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("\n");
    json_decref(j);
  }
  return TC_EXIT_FAIL;
}

static int report_valid(const verify_options *o, const tc_schedule_doc *doc, tc_error *err) {
  tc_cost c;
  if (tc_schedule_cost(doc->graph, &doc->sched, &c, err)) return tc_cli_fail("verify", err);
  const tc_schedule *s = &doc->sched;
  tc_cli_sched_report r = {o->spec ? o->spec : doc->spec, doc->graph, s, &c, tc_schedule_root(s),
                           -1, -1, -1, -1, NULL, o->file, 0, 0, NULL, NULL, -1};
  tc_cli_print_sched_report(&r, o->json);
  tc_cost_destroy(&c);
  return TC_EXIT_OK;
}

int tc_cmd_verify(int argc, char **argv) {
  verify_options o;
  int status = parse_options(argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  tc_error err;
  tc_error_clear(&err);
  tc_graph *g = NULL;
  if (o.spec && tc_spec_build(o.spec, &g, &err)) {
    tc_cli_fail("verify", &err);
    return TC_EXIT_USAGE;
  }
  tc_schedule_doc doc;
  if (tc_schedule_read_json(o.file, g, &doc, &err)) {
    tc_graph_destroy(g);
    tc_cli_fail("verify", &err);
    return TC_EXIT_USAGE; /* unreadable or malformed: input, never "invalid schedule" */
  }
  tc_graph_destroy(g);
  int rc = tc_schedule_verify(doc.graph, &doc.sched, &err);
  if (rc == TC_EFAIL) status = report_invalid(&o, &err);
  else if (rc) status = tc_cli_fail("verify", &err); /* out of memory: no verdict */
  else status = report_valid(&o, &doc, &err);
  tc_schedule_doc_destroy(&doc);
  return status;
}
