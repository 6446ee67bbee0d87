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

/* Check and convert what was given, in this order: --nodes present (when need_nodes),
   --degree present, --nodes and --degree, the three workload options together or not at
   all (required when need_workload), and their values. `opts` is the command's options
   struct holding c. Returns an exit code (0 when all is well), the error line printed. */
int tc_cli_cluster_finish(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c, int need_nodes,
                          int need_workload);

/* The workload part of tc_cli_cluster_finish alone (for a command whose cluster comes from
   elsewhere, `plan --fabric`): the three options together or not at all, then their values. */
int tc_cli_cluster_finish_workload(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c, int need_workload);

#endif
