/*
** cli_cluster.c — the cluster options of find and plan (contract in cli_cluster.h).
*/
#include "cli_cluster.h"

#include <math.h>
#include <stdlib.h>

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

int tc_cli_cluster_finish_a2a(const tc_cli_command *cmd, void *opts, tc_cli_cluster *c) {
  c->workload.a2a_time_limit = TC_FIND_A2A_TIME_LIMIT;
  if (c->a2a_size_text && !c->has_workload)
    return tc_cli_usage_error(cmd->name, "--a2a-size weighs all-to-alls against the allreduce workload: give "
                              "--alpha, --link-bw and --size too");
  if (c->a2a_weight_text && !c->a2a_size_text) return tc_cli_usage_error(cmd->name, "--a2a-weight needs --a2a-size");
  int status = tc_cli_convert(cmd, opts, "--a2a-size", "--a2a-time-limit", NULL);
  if (status) return status;
  if (!(c->workload.a2a_time_limit > 0))
    return tc_cli_usage_error(cmd->name, "--a2a-time-limit must be positive, got '%s'", c->a2a_limit_text);
  double weight = 1;
  if (c->a2a_weight_text) {
    char *end = NULL;
    weight = strtod(c->a2a_weight_text, &end);
    if (end == c->a2a_weight_text || *end || !(weight > 0) || !isfinite(weight))
      return tc_cli_usage_error(cmd->name, "--a2a-weight must be a positive number, got '%s'", c->a2a_weight_text);
  }
  if (c->a2a_size_text || c->a2a_weight_text || c->a2a_limit_text) c->a2a = 1;
  if (c->a2a_size_text) {
    c->workload.a2a_bytes = (double)c->a2a_size;
    c->workload.a2a_weight = weight;
  }
  return TC_EXIT_OK;
}

int tc_cli_split_list(const char *text, char items[][256], int max) {
  int n = 0, depth = 0;
  size_t len = 0;
  for (const char *c = text;; c++) {
    if (*c == '\0' || (*c == ',' && depth == 0)) {
      if (len == 0 || n == max) return -1;
      items[n++][len] = '\0';
      len = 0;
      if (*c == '\0') return n;
      continue;
    }
    depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
    if (len + 1 >= 256) return -1;
    items[n][len++] = *c;
  }
}
