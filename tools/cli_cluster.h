/*
** cli_cluster.h — the cluster options `topocoll find` and `topocoll plan` share: --nodes,
** --degree, --bidirectional, and the workload --alpha, --link-bw, --size (a weighted size
** list, tc_workload_parse_sizes).
**
** A command embeds a tc_cli_cluster in its options struct and puts
** TC_CLI_CLUSTER_OPTIONS(its struct type, the member's name) in its option table; after
** tc_cli_parse, tc_cli_cluster_finish checks and converts them.
** Guarantees: after a 0 from tc_cli_cluster_finish, `degree` holds --degree, `nodes` holds
** --nodes when it was given (it must be when need_nodes), and either has_workload is 1 and
** `workload` holds all three workload options, or none of the three was given (and
** need_workload was 0): half a workload is refused.
**
** The all-to-all options (TC_CLI_A2A_OPTIONS, tc_cli_cluster_finish_a2a) are shared the same
** way: --a2a (certify every member's MCF), --a2a-size M with --a2a-weight W (all-to-alls of
** M bytes per node, W per allreduce, weighed in the choice; they need the workload) and
** --a2a-time-limit T (per member). After a 0, `a2a` is 1 when any of them was given,
** workload.a2a_bytes / a2a_weight hold --a2a-size / --a2a-weight (default 1) and
** workload.a2a_time_limit the limit (default TC_FIND_A2A_TIME_LIMIT).
*/
#ifndef TC_TOOLS_CLI_CLUSTER_H
#define TC_TOOLS_CLI_CLUSTER_H

#include <stddef.h>

#include "cli_options.h"
#include "topocoll/find.h"

typedef struct tc_cli_cluster {
  const char *nodes_text, *degree_text, *alpha_text, *bw_text, *size_text;
  int nodes, degree;
  int bidirectional;
  int has_workload;     /* --alpha, --link-bw and --size were given and converted */
  tc_workload workload; /* alpha_s, link_bw, and the sizes with their weights */
  const char *a2a_size_text, *a2a_weight_text, *a2a_limit_text;
  int a2a;               /* certify the all-to-all MCF of the members */
  int64_t a2a_size;
} tc_cli_cluster;

/* The option table entries of a tc_cli_cluster member `member` of the options struct `type`. */
#define TC_CLI_CLUSTER_OPTIONS(type, member)                                                              \
  {.name = "--nodes", .kind = TC_CLI_INT, .text = offsetof(type, member.nodes_text),                    \
   .value = offsetof(type, member.nodes), .lo = 2, .hi = TC_FIND_MAX_NODES},                            \
  {.name = "--degree", .kind = TC_CLI_INT, .text = offsetof(type, member.degree_text),                  \
   .value = offsetof(type, member.degree), .lo = 1, .hi = TC_FIND_MAX_DEGREE},                          \
  {.name = "--bidirectional", .kind = TC_CLI_FLAG, .value = offsetof(type, member.bidirectional)},      \
  {.name = "--alpha", .kind = TC_CLI_TIME, .text = offsetof(type, member.alpha_text),                   \
   .value = offsetof(type, member.workload.alpha_s)},                                                   \
  {.name = "--link-bw", .kind = TC_CLI_BANDWIDTH, .text = offsetof(type, member.bw_text),               \
   .value = offsetof(type, member.workload.link_bw)},                                                   \
  {.name = "--size", .kind = TC_CLI_WEIGHTED_SIZES, .text = offsetof(type, member.size_text),           \
   .value = offsetof(type, member.workload)}

/* The all-to-all option table entries (see the header). */
#define TC_CLI_A2A_OPTIONS(type, member)                                                                  \
  {.name = "--a2a", .kind = TC_CLI_FLAG, .value = offsetof(type, member.a2a)},                          \
  {.name = "--a2a-size", .kind = TC_CLI_SIZE, .text = offsetof(type, member.a2a_size_text),             \
   .value = offsetof(type, member.a2a_size)},                                                           \
  {.name = "--a2a-weight", .kind = TC_CLI_STRING, .text = offsetof(type, member.a2a_weight_text)},      \
  {.name = "--a2a-time-limit", .kind = TC_CLI_SECONDS, .text = offsetof(type, member.a2a_limit_text),   \
   .value = offsetof(type, member.workload.a2a_time_limit)}

/* The help lines of those options. */
#define TC_CLI_A2A_HELP                                                                                   \
  "  --a2a             certify every member's all-to-all MCF value f (paper 000 App. A.5,\n"              \
  "                    paper 003): exact p/q, or the certified lower bound and the gap\n"              \
  "  --a2a-size M      all-to-alls in which every node sends M bytes: each member's time\n"           \
  "                    (M/N)/(f*link-bw) at the certified f is added to the choice (implies\n"     \
  "                    --a2a; needs --alpha, --link-bw and --size)\n"                               \
  "  --a2a-weight W    all-to-alls per allreduce in that choice (default 1; a positive number)\n"   \
  "  --a2a-time-limit T  per member's MCF (default 60s), then the certified bounds reached\n"   \
  "                    are reported\n"

/* Check and convert the all-to-all options (after tc_cli_cluster_finish): --a2a-size needs
   the workload, --a2a-weight needs --a2a-size, then the values. Returns an exit code. */
int tc_cli_cluster_finish_a2a(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c);

/* Check and convert what was given, in this order: --nodes present (when need_nodes),
   --degree present, --nodes and --degree, the three workload options together or not at
   all (required when need_workload), and their values. `opts` is the command's options
   struct holding c. Returns an exit code (0 when all is well), the error line printed. */
int tc_cli_cluster_finish(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c, int need_nodes,
                          int need_workload);

/* The workload part of tc_cli_cluster_finish alone (for a command whose cluster comes from
   elsewhere, `plan --fabric`): the three options together or not at all, then their values. */
int tc_cli_cluster_finish_workload(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c, int need_workload);

/* --compare LIST: topology specs and algorithm names separated by commas outside
   parentheses ("torus(8,8),ring" is two items), at most TC_CLI_MAX_LIST of them, each
   shorter than 256 bytes. Returns how many, or -1 for an empty or too long item or list. */
#define TC_CLI_MAX_LIST 16
int tc_cli_split_list(const char *text, char items[][256], int max);

#endif
