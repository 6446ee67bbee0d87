/*
** cmd_export.c — `topocoll export`: a schedule file as an MSCCL algorithm XML
** (--format msccl, msccl.h), or a topology as a SimGrid platform (--format simgrid,
** simgrid.h).
**
** msccl: the input is a schedule JSON file; the library verifies it before anything is
** written and writes the XML atomically. The default algo name is "<algorithm>
** <collective> <spec>" (the spec embedded in the file; characters an MSCCL name may not
** hold become '_').
** simgrid: the input is a schedule JSON file (its embedded graph is used) when it names an
** existing file, a topology SPEC otherwise.
** Exit status: 0 written; 1 the schedule fails verification or a write failed; 2 bad usage
** or input (unknown format, missing --out, an unreadable or malformed file, a bad value, a
** schedule that cannot meet the MSCCL runtime's limits). Errors are one line.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_options.h"
#include "progress.h"
#include "topocoll/msccl.h"
#include "topocoll/output.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched_io.h"
#include "topocoll/simgrid.h"
#include "topocoll/spec.h"
#include "topocoll/transform.h"

void tc_cmd_export_help(void) {
  printf(
      "usage: topocoll export SCHEDULE.json --format msccl --out FILE.xml [--name NAME]\n"
      "                       [--proto Simple|LL|LL128] [--min-bytes SIZE] [--max-bytes SIZE]\n"
      "                       [--op sum|max|min|prod] [--max-steps N] [--channels N] [--instances N]\n"
      "                       [--progress|--quiet]\n"
      "       topocoll export SPEC|SCHEDULE.json --format simgrid --link-bw BW --alpha TIME --out DIR\n"
      "                       [--progress|--quiet]\n"
      "\n"
      "--format msccl writes the schedule (allgather, reduce-scatter, allreduce or alltoall,\n"
      "re-verified first) as an MSCCL algorithm file for the MSCCL runtime (MSCCL_ALGO_DIR):\n"
      "one gpu per rank (per compute node; hops through switches become direct sends), one\n"
      "threadblock per channel and send or receive peer, dependencies as the runtime expects\n"
      "them, usable in place and out of place (alltoall: out of place; relayed chunks in\n"
      "scratch) (docs/msccl.md).\n"
      "  --out FILE.xml    the file to write (replaced atomically; - for standard output, a\n"
      "                    device or FIFO is written in place, a directory refused)\n"
      "  --name NAME       the algo name (default: algorithm, collective and topology)\n"
      "  --proto P         Simple (default), LL or LL128\n"
      "  --min-bytes SIZE  smallest message the runtime picks the algorithm for (default 0)\n"
      "  --max-bytes SIZE  largest one (default: no limit, 9223372036854775807)\n"
      "  --op OP           record the reduction as redop (reduce-scatter and allreduce; the\n"
      "                    runtime itself takes the reduction from the NCCL call)\n"
      "  --max-steps N     steps per threadblock the runtime was built for (MSCCL_MAX_NUM_STEPS,\n"
      "                    default 64); longer threadblocks are spread over more channels\n"
      "  --rank-map FILE   a plan's ranks.csv (rank -> node -> port): checked against the\n"
      "                    schedule's topology (every port, peer and cable as its wiring), and\n"
      "                    when its rank column was renumbered (to follow a hostfile), GPU r\n"
      "                    runs the node FILE gives rank r (a relabelled schedule; switch-free\n"
      "                    topologies)\n"
      "  --channels N      spread every connection over at least N channels (1..32; default:\n"
      "                    as few as the limits allow): its k-th transfer on channel k mod N,\n"
      "                    one threadblock each, as msccl-tools' channels divide a ring's\n"
      "                    chunks; nchannels = N x the base channels (1 unless a GPU has\n"
      "                    more than 32 peers one way)\n"
      "  --instances N     msccl-tools' instances (1..32, default 1): the whole algorithm N\n"
      "                    times, each shard cut into N pieces, instance i moving piece i on\n"
      "                    its own channels and threadblocks; nchunksperloop and nchannels\n"
      "                    are N times larger (N x channels <= 32)\n"
      "The message size the runtime is called with must be a multiple of nchunksperloop\n"
      "elements per rank (the file's algo attribute).\n"
      "\n"
      "--format simgrid writes DIR/platform.xml (one host per compute node, one router per\n"
      "switch, one link per connected ordered pair of BW times its capacity and latency TIME)\n"
      "and DIR/hostfile (rank r on the r-th compute node), for SMPI.\n"
      "The topology is the SPEC, or the graph embedded in SCHEDULE.json.\n"
      "  --link-bw BW      bandwidth of a unit-capacity link, e.g. 25Gbps\n"
      "  --alpha TIME      latency of every link, e.g. 10us\n"
      "  --out DIR         the directory (created if missing); both files or neither\n"
      "\n"
      "  --progress        progress on stderr: reading, verifying, lowering, writing (default:\n"
      "                    only when stderr is a terminal; TOPOCOLL_PROGRESS=1 or 0 forces it)\n"
      "  --quiet           no progress lines\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "Exit status: 0 written, 1 the schedule fails verification or a write failed, 2 bad usage\n"
      "or input (including an unreadable file and a schedule beyond the MSCCL runtime's limits).\n");
}

typedef struct export_options {
  const char *input, *format, *out, *name, *proto, *min_text, *max_text, *op, *steps_text, *channels_text,
      *instances_text, *bw_text, *alpha_text;
  const char *rank_map;
  tc_msccl_options msccl; /* --format msccl: what the options convert to */
  double link_bw, alpha_s; /* --format simgrid */
  int progress, quiet;
  tc_progress reporter; /* progress.h */
} export_options;

#define AT(field) offsetof(export_options, field)
static const tc_cli_option export_table[] = {
    {.name = "--format", .kind = TC_CLI_STRING, .text = AT(format)},
    {.name = "--out", .kind = TC_CLI_PATH, .text = AT(out)},
    {.name = "--name", .kind = TC_CLI_STRING, .text = AT(name)},
    {.name = "--proto", .kind = TC_CLI_STRING, .text = AT(proto)},
    {.name = "--min-bytes", .kind = TC_CLI_SIZE, .text = AT(min_text), .value = AT(msccl.min_bytes)},
    {.name = "--max-bytes", .kind = TC_CLI_SIZE, .text = AT(max_text), .value = AT(msccl.max_bytes)},
    {.name = "--op", .kind = TC_CLI_STRING, .text = AT(op)},
    {.name = "--max-steps", .kind = TC_CLI_INT, .text = AT(steps_text), .value = AT(msccl.max_steps), .lo = 1,
     .hi = 1024},
    {.name = "--channels", .kind = TC_CLI_INT, .text = AT(channels_text), .value = AT(msccl.channels), .lo = 1,
     .hi = 32},
    {.name = "--instances", .kind = TC_CLI_INT, .text = AT(instances_text), .value = AT(msccl.instances), .lo = 1,
     .hi = 32},
    {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = AT(bw_text), .value = AT(link_bw)},
    {.name = "--alpha", .kind = TC_CLI_TIME, .text = AT(alpha_text), .value = AT(alpha_s)},
    {.name = "--rank-map", .kind = TC_CLI_STRING, .text = AT(rank_map), .needs = "a ranks.csv file"},
    TC_CLI_PROGRESS_OPTIONS(export_options),
};
static const tc_cli_command export_cli = {
    .name = "export", .help = tc_cmd_export_help, .options = export_table, .noptions = TC_CLI_COUNT(export_table),
    .positional = {AT(input)}, .npositional = 1,
    .extra_argument = "unexpected argument '%s' (the input is '%s')"};
#undef AT

static int parse_options(int argc, char **argv, export_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&export_cli, argc, argv, o);
  if (status) return status;
  if (!o->input) return tc_cli_usage_error("export", "missing SCHEDULE.json or SPEC");
  if (!o->format) return tc_cli_usage_error("export", "missing --format (msccl or simgrid)");
  if (strcmp(o->format, "msccl") && strcmp(o->format, "simgrid"))
    return tc_cli_usage_error("export", "unknown format '%s' (msccl or simgrid)", o->format);
  if (!o->out) return tc_cli_usage_error("export", "missing --out");
  int msccl = !strcmp(o->format, "msccl");
  const char *misplaced = msccl ? (o->bw_text      ? "--link-bw"
                                   : o->alpha_text ? "--alpha"
                                                   : NULL)
                                : (o->name         ? "--name"
                                   : o->proto      ? "--proto"
                                   : o->min_text   ? "--min-bytes"
                                   : o->max_text   ? "--max-bytes"
                                   : o->op         ? "--op"
                                   : o->steps_text ? "--max-steps"
                                   : o->rank_map   ? "--rank-map"
                                   : o->channels_text ? "--channels"
                                   : o->instances_text ? "--instances"
                                                   : NULL);
  if (misplaced) return tc_cli_usage_error("export", "%s does not apply to --format %s", misplaced, o->format);
  return tc_cli_progress_init(&o->reporter, "export", o->progress, o->quiet);
}

/* Read a schedule file: unreadable or malformed is bad input (exit 2), like `verify`. */
static int read_schedule(export_options *o, const char *path, tc_schedule_doc *doc) {
  tc_progress_report(&o->reporter, "reading the schedule", 0, 0);
  tc_error err;
  tc_error_clear(&err);
  if (!tc_schedule_read_json(path, NULL, doc, &err)) return TC_EXIT_OK;
  tc_progress_finish(&o->reporter);
  tc_cli_fail("export", &err);
  return TC_EXIT_USAGE;
}

/* --min-bytes, --max-bytes, --max-steps, --channels, --instances, --proto, --op into o->msccl,
   over the library's defaults. */
static int msccl_options(export_options *o) {
  tc_msccl_options *mo = &o->msccl;
  tc_msccl_options_init(mo);
  mo->name = o->name;
  mo->redop = o->op;
  if (o->proto) {
    int p = tc_msccl_proto_parse(o->proto);
    if (p < 0) return tc_cli_usage_error("export", "unknown --proto '%s' (Simple, LL or LL128)", o->proto);
    mo->proto = (tc_msccl_proto)p;
  }
  return tc_cli_convert(&export_cli, o, "--min-bytes", "--max-bytes", "--max-steps", "--channels", "--instances",
                        NULL);
}

/* --rank-map: check the ranks.csv against the schedule's topology and, when its ranks were
   renumbered, relabel so that rank r plays the node the file gives it (tc_rank_map_apply).
   Returns an exit code. */
static int apply_rank_map(const char *path, tc_schedule_doc *doc) {
  tc_error err;
  tc_error_clear(&err);
  return tc_rank_map_apply(path, doc, &err) ? tc_cli_fail("export", &err) : TC_EXIT_OK;
}

static int export_msccl(export_options *o) {
  int status = msccl_options(o);
  if (status) return status;
  tc_msccl_options *mo = &o->msccl;
  tc_schedule_doc doc;
  if ((status = read_schedule(o, o->input, &doc))) return status;
  char name[256];
  if (!mo->name) {
    const tc_schedule *s = &doc.sched;
    snprintf(name, 201, "%s %s %s", s->algorithm[0] ? s->algorithm : "schedule", tc_collective_name(s->coll),
             doc.spec ? doc.spec : "");
    size_t len = strlen(name);
    while (len && name[len - 1] == ' ') name[--len] = '\0';
    for (char *c = name; *c; c++)
      if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f || strchr("\"'&<>", *c)) *c = '_';
    mo->name = name;
  }
  tc_error err;
  tc_error_clear(&err);
  if (o->rank_map) tc_progress_finish(&o->reporter); /* its errors are printed as they are found */
  if (o->rank_map && (status = apply_rank_map(o->rank_map, &doc))) {
    tc_schedule_doc_destroy(&doc);
    return status;
  }
  tc_msccl_stats st;
  if (o->reporter.on) mo->progress = tc_progress_report, mo->progress_ctx = &o->reporter;
  int rc = tc_msccl_export(doc.graph, &doc.sched, mo, o->out, &st, &err);
  tc_progress_finish(&o->reporter);
  if (rc) {
    tc_schedule_doc_destroy(&doc);
    if (err.code == TC_EFAIL) {
      tc_cli_error("export", "%s: %s", o->input, err.msg);
      return TC_EXIT_FAIL;
    }
    return tc_cli_fail("export", &err);
  }
  char instances[32] = "";
  if (st.instances > 1) snprintf(instances, sizeof instances, "%d instances, ", st.instances);
  if (!tc_output_is_stdout(o->out)) /* with --out -, stdout holds the XML alone */
    printf(
      "wrote %s: MSCCL %s on %d GPUs, proto %s, %s%d channel%s, %lld threadblocks (at most %d per GPU, %d step%s "
      "each), %lld nops\n",
      o->out, tc_msccl_coll_name(doc.sched.coll), tc_rank_count(doc.graph), tc_msccl_proto_name(mo->proto),
      instances, st.nchannels, st.nchannels == 1 ? "" : "s", (long long)st.threadblocks, st.max_threadblocks, st.max_tb_steps,
      st.max_tb_steps == 1 ? "" : "s", (long long)st.nops);
  tc_schedule_doc_destroy(&doc);
  return TC_EXIT_OK;
}

static int is_regular_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int export_simgrid(export_options *o) {
  tc_error err;
  tc_error_clear(&err);
  if (!o->bw_text) return tc_cli_usage_error("export", "--format simgrid needs --link-bw");
  if (!o->alpha_text) return tc_cli_usage_error("export", "--format simgrid needs --alpha");
  int status = tc_cli_convert(&export_cli, o, "--link-bw", "--alpha", NULL);
  if (status) return status;
  tc_schedule_doc doc;
  memset(&doc, 0, sizeof doc);
  tc_graph *built = NULL;
  if (is_regular_file(o->input)) {
    if ((status = read_schedule(o, o->input, &doc))) return status;
  } else if (tc_spec_build(o->input, &built, &err)) {
    tc_error_prefix(&err, "'%s' is neither a schedule file nor a topology spec", o->input);
    return tc_cli_fail("export", &err);
  }
  const tc_graph *g = built ? built : doc.graph;
  tc_progress_report(&o->reporter, "simgrid: writing the platform and the hostfile", 0, 0);
  int rc = tc_simgrid_write_platform(g, o->link_bw, o->alpha_s, o->out, &err);
  tc_progress_finish(&o->reporter);
  int32_t hosts = tc_rank_count(g);
  if (!rc && hosts == g->n) printf("wrote %s/platform.xml and %s/hostfile: %d hosts\n", o->out, o->out, hosts);
  else if (!rc)
    printf("wrote %s/platform.xml and %s/hostfile: %d hosts, %d router%s\n", o->out, o->out, hosts, g->n - hosts,
           g->n - hosts == 1 ? "" : "s");
  tc_graph_destroy(built);
  if (!built) tc_schedule_doc_destroy(&doc);
  return rc ? tc_cli_fail("export", &err) : TC_EXIT_OK;
}

int tc_cmd_export(int argc, char **argv) {
  export_options o;
  int status = parse_options(argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  return !strcmp(o.format, "msccl") ? export_msccl(&o) : export_simgrid(&o);
}
