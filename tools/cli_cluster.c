/*
** cli_cluster.c — the cluster options of find and plan (contract in cli_cluster.h).
*/
#include "cli_cluster.h"

#include "cli.h"

int tc_cli_cluster_finish(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c, int need_nodes,
                          int need_workload) {
  if (need_nodes && !c->nodes_text) return tc_cli_usage_error(cmd->name, "missing --nodes");
  if (!c->degree_text) return tc_cli_usage_error(cmd->name, "missing --degree");
  int status = tc_cli_convert(cmd, opts, "--nodes", "--degree", NULL);
  return status ? status : tc_cli_cluster_finish_workload(cmd, opts, c, need_workload);
}

int tc_cli_cluster_finish_workload(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c, int need_workload) {
  int given = !!c->alpha_text + !!c->bw_text + !!c->size_text;
  if (given == 0 && !need_workload) return TC_EXIT_OK;
  if (given < 3)
    return tc_cli_usage_error(cmd->name, "%s needs --alpha, --link-bw and --size together",
                              need_workload ? "this command" : "a predicted time");
  c->has_workload = 1;
  return tc_cli_convert(cmd, opts, "--alpha", "--link-bw", "--size", NULL);
}
