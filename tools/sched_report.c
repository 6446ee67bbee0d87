/*
** sched_report.c — the report of `topocoll sched` and `topocoll verify` (contract in
** sched_report.h).
*/
#include "sched_report.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>

#include "topocoll/collective.h"
#include "topocoll/units.h"

static void format_rat(tc_rat r, char *buf, size_t size) {
  snprintf(buf, size, "%" PRId64 "/%" PRId64, r.num, r.den);
}

static json_t *report_json(const tc_cli_sched_report *r) {
  const tc_cost *c = r->c;
  char tau[64], opt[64];
  format_rat(c->tau, tau, sizeof tau);
  format_rat(c->tau_optimal, opt, sizeof opt);
  json_t *o = json_object();
  if (r->file) json_object_set_new(o, "file", json_string(r->file));
  json_object_set_new(o, "spec", r->spec ? json_string(r->spec) : json_null());
  json_object_set_new(o, "collective", json_string(tc_collective_name(r->s->coll)));
  json_object_set_new(o, "algorithm", json_string(r->s->algorithm));
  if (r->s->coll == TC_COLL_P2P) {
    json_object_set_new(o, "source", json_integer(r->root));
    json_object_set_new(o, "destination", json_integer(r->s->dest));
  } else if (r->root >= 0) {
    json_object_set_new(o, "root", json_integer(r->root));
  }
  json_object_set_new(o, "nodes", json_integer(r->s->nodes));
  json_object_set_new(o, "degree", json_integer(c->degree));
  json_object_set_new(o, "steps", json_integer(c->steps));
  json_object_set_new(o, "moore_steps", c->moore_steps >= 0 ? json_integer(c->moore_steps) : json_null());
  json_object_set_new(o, "tb_factor", json_string(tau));
  json_object_set_new(o, "tb_factor_float", json_real(tc_rat_to_double(c->tau)));
  json_object_set_new(o, "tb_optimal_factor", json_string(opt));
  json_object_set_new(o, "bw_optimal", json_boolean(c->bw_optimal));
  char copy[64];
  format_rat(c->local_copy, copy, sizeof copy);
  json_object_set_new(o, "local_copy_factor", json_string(copy));
  json_object_set_new(o, "moore_optimal", json_boolean(c->moore_optimal));
  json_object_set_new(o, "verified", json_true()); /* only verified schedules reach the report */
  json_object_set_new(o, "chunks_per_shard", json_integer(r->s->units));
  json_object_set_new(o, "shards", json_integer(r->s->nshards));
  json_object_set_new(o, "transfers", json_integer(r->s->count));
  if (r->alpha_s >= 0) json_object_set_new(o, "alpha_s", json_real(r->alpha_s));
  if (r->link_bw >= 0) json_object_set_new(o, "link_bw_Bps", json_real(r->link_bw));
  if (r->size_bytes >= 0) json_object_set_new(o, "size_bytes", json_integer(r->size_bytes));
  if (r->time_s >= 0) json_object_set_new(o, "time_s", json_real(r->time_s));
  if (r->copy_bw > 0) json_object_set_new(o, "copy_bw_Bps", json_real(r->copy_bw));
  if (r->chunks_chosen > 0) {
    json_object_set_new(o, "chunks_chosen", json_integer(r->chunks_chosen));
    json_object_set_new(o, "chunks_tried_max", json_integer(r->chunks_tried));
  }
  if (r->chosen && r->chosen[0]) json_object_set_new(o, "chosen", json_string(r->chosen));
  if (r->written) json_object_set_new(o, "out", json_string(r->written));
  const tc_cli_routing_report *rt = r->routing;
  if (rt) {
    char rate[64], load[64];
    format_rat(rt->rate, rate, sizeof rate);
    format_rat(rt->max_load, load, sizeof load);
    if (rt->read) json_object_set_new(o, "routes", json_string(rt->read));
    json_object_set_new(o, "routing_f", json_string(rate));
    json_object_set_new(o, "routing_f_float", json_real(tc_rat_to_double(rt->rate)));
    json_object_set_new(o, "routing_max_load", json_string(load));
    json_object_set_new(o, "routing_max_arc", rt->max_arc >= 0 ? json_integer(rt->max_arc) : json_null());
    json_object_set_new(o, "routing_paths", json_integer(rt->paths));
    json_object_set_new(o, "vc_layers", json_integer(rt->layers));
    if (rt->written) json_object_set_new(o, "routes_out", json_string(rt->written));
  }
  return o;
}

static void report_text(const tc_cli_sched_report *r) {
  const tc_cost *c = r->c;
  char tau[64], opt[64];
  format_rat(c->tau, tau, sizeof tau);
  format_rat(c->tau_optimal, opt, sizeof opt);
  if (r->file) printf("file              %s\n", r->file);
  printf("topology          %s\n", r->spec ? r->spec : "(no spec: graph from the file)");
  printf("collective        %s", tc_collective_name(r->s->coll));
  if (r->s->coll == TC_COLL_P2P) printf(" (source %d, destination %d)", r->root, r->s->dest);
  else if (r->root >= 0) printf(" (root %d)", r->root);
  printf("\nalgorithm         %s\n", r->s->algorithm);
  printf("nodes             %d\n", r->s->nodes);
  printf("degree            %" PRId64 "\n", c->degree);
  printf("verified          yes\n");
  printf("steps             %d (T_L = %d alpha)", c->steps, c->steps);
  if (c->moore_steps >= 0 && r->s->coll == TC_COLL_P2P) /* cost.h: p2p's bound is the distance */
    printf("; distance %d -> %d: %d hop%s", r->root, r->s->dest, c->moore_steps, c->moore_steps == 1 ? "" : "s");
  else if (c->moore_steps >= 0)
    printf("; Moore bound %d: %s", c->moore_steps, c->moore_optimal ? "Moore-optimal" : "not Moore-optimal");
  /* alltoall's tau* is a lower bound that may not be attainable (cost.h) */
  int bound = r->s->coll == TC_COLL_ALLTOALL;
  printf("\nT_B factor        %s = %.6f M/B; %s %s: %s\n", tau, tc_rat_to_double(c->tau),
         bound ? "lower bound" : "optimum", opt,
         c->bw_optimal ? "BW-optimal" : bound ? "not proven BW-optimal" : "not BW-optimal");
  char copy[64];
  format_rat(c->local_copy, copy, sizeof copy);
  printf("local copy        %s = %.6f M (combined messages packed or reordered, busiest node per step)\n", copy,
         tc_rat_to_double(c->local_copy));
  printf("chunks per shard  %" PRId64 " (%d shards)\n", r->s->units, r->s->nshards);
  printf("transfers         %" PRId64 "\n", r->s->count);
  if (r->time_s >= 0)
    printf("time              %.9g s (alpha %.9g s, link %.9g B/s, M %" PRId64 " B%s)\n", r->time_s, r->alpha_s,
           r->link_bw, r->size_bytes, r->copy_bw > 0 ? ", local copies included" : "");
  if (r->chunks_chosen > 0)
    printf("pipelining        P = %" PRId64 ": the fastest of P = 1, 2, 4, ..., %" PRId64 " at this size\n",
           r->chunks_chosen, r->chunks_tried);
  if (r->chosen && r->chosen[0]) printf("chosen            %s\n", r->chosen);
  if (r->written) printf("written           %s\n", r->written);
  const tc_cli_routing_report *rt = r->routing;
  if (!rt) return;
  char rate[64], load[64];
  format_rat(rt->rate, rate, sizeof rate);
  format_rat(rt->max_load, load, sizeof load);
  if (rt->read) printf("routes            %s\n", rt->read);
  printf("routing f         %s = %.6f (max link load %s", rate, tc_rat_to_double(rt->rate), load);
  if (rt->max_arc >= 0)
    printf(" on arc %" PRId64 ": %d -> %d", rt->max_arc, r->g->src[rt->max_arc], r->g->dst[rt->max_arc]);
  printf("; %" PRId64 " paths)\n", rt->paths);
  printf("vc layers         %d (LASH-sequential)\n", rt->layers);
  if (rt->written) printf("routes written    %s\n", rt->written);
}

void tc_cli_print_sched_report(const tc_cli_sched_report *r, int json) {
  if (!json) {
    report_text(r);
    return;
  }
  json_t *o = report_json(r);
  json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
  printf("\n");
  json_decref(o);
}

void tc_cli_print_sched_reports(const tc_cli_sched_report *r, int n, int json) {
  if (n == 1) {
    tc_cli_print_sched_report(r, json);
    return;
  }
  if (json) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, report_json(&r[i]));
    json_dumpf(a, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    printf("\n");
    json_decref(a);
    return;
  }
  for (int i = 0; i < n; i++) {
    char sz[32];
    tc_units_format_size(r[i].size_bytes, sz, sizeof sz);
    printf("%ssize              %s (%" PRId64 " B)\n", i ? "\n" : "", sz, r[i].size_bytes);
    report_text(&r[i]);
  }
}
