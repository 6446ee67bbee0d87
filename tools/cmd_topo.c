/*
** cmd_topo.c — `topocoll topo SPEC`: build a topology from a spec, print its report
** (text or --json), and optionally write it as DOT, edge list, wiring CSV, graph JSON or
** networkx's edge list and node-link JSON.
** `topocoll topo --list` lists every family.
** The output files are checked before anything is built and written all or nothing
** (output.h): a refused or failing one leaves every other target as it was. FILE may be
** "-" (standard output, before the report) or a device or FIFO (written in place).
*/
#include <inttypes.h>
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "graph_hint.h"
#include "topocoll/graph_io.h"
#include "topocoll/output.h"
#include "topocoll/spec.h"
#include "topocoll/summary.h"
#include "topocoll/topo.h"
#include "topocoll/units.h"

/* The default bound on the all-pairs distances: minutes, so that a typo'd edge list of 16 M
   nodes answers at once instead of after hours, while every graph the paper's tables use
   (up to a few 10^5 nodes) is still summarized in full. */
#define DEFAULT_MAX_TIME "120s"

void tc_cmd_topo_help(void) {
  printf(
      "usage: topocoll topo SPEC [--json] [--no-reverse-symmetry] [--max-time TIME]\n"
      "                     [--dot FILE] [--edges FILE] [--wiring FILE] [--graph-json FILE]\n"
      "                     [--nx-edges FILE] [--node-link FILE]\n"
      "       topocoll topo --list\n"
      "\n"
      "Builds the topology named by SPEC (see docs/spec.md), e.g. kautz(4,2), torus(3,3,2),\n"
      "line(circulant(16,3,4),3), product(biring(2,8),power(uniring(1,4),2)), file(g.json),\n"
      "nx(g.edges) (networkx's edge list, or its node-link JSON for a .json file),\n"
      "and reports nodes (compute and switch), arcs, the capacity range, degrees, diameter,\n"
      "Moore-optimal diameter, reverse symmetry, average distance and the distance histogram.\n"
      "\n"
      "  --json                  one JSON object instead of the text report\n"
      "  --no-reverse-symmetry   skip the isomorphism search G ~ G^T (reported as null)\n"
      "  --max-time TIME         compute all-pairs distances (diameter, histogram, average)\n"
      "                          only when estimated to take at most TIME, e.g. 10min or 600\n"
      "                          (seconds; default " DEFAULT_MAX_TIME "); beyond it they are reported\n"
      "                          as not computed, with the estimate\n"
      "  --dot FILE              write Graphviz DOT\n"
      "  --edges FILE            write an edge list\n"
      "  --wiring FILE           write the cabling plan CSV (node, port -> node, port)\n"
      "  --graph-json FILE       write the graph as JSON (readable back with file(FILE))\n"
      "  --nx-edges FILE         write a networkx edge list, \"u v {'capacity': c}\" per arc\n"
      "                          (nx.read_edgelist(FILE, create_using=nx.MultiDiGraph); nx(FILE))\n"
      "  --node-link FILE        write networkx node-link JSON, undirected when every link is\n"
      "                          bidirectional (nx.node_link_graph(json.load(f)); nx(FILE))\n"
      "  --list                  list every topology family with its parameters\n"
      TC_CLI_MAX_MEMORY_HELP
      "\n"
      "The files are written all or nothing: each regular FILE is replaced atomically, FILE\n"
      "may be - (standard output, before the report), a device or a FIFO (written in place);\n"
      "a directory is refused.\n");
}

static void print_list(void) {
  printf("%-17s %-22s %-40s %s\n", "FAMILY", "PARAMETERS", "CONSTRAINTS", "DESCRIPTION");
  for (int i = 0; i < tc_spec_family_count(); i++) {
    const tc_family_info *f = tc_spec_family(i);
    printf("%-17s %-22s %-40s %s\n", f->name, f->params, f->constraints, f->summary);
  }
  printf("\ndrg names:");
  for (const char *const *name = tc_topo_drg_names(); *name; name++) printf(" %s", *name);
  printf("\n");
}

static json_t *degree_json(int64_t d) { return d >= 0 ? json_integer(d) : json_null(); }

static json_t *summary_json(const char *spec, const tc_graph_summary *s) {
  json_t *o = json_object(), *hist = json_array();
  for (int32_t t = 0; s->distances && t <= s->dist.diameter; t++)
    json_array_append_new(hist, json_integer(s->dist.histogram[t]));
  int connected = s->dist.strongly_connected, known = s->distances;
  json_object_set_new(o, "spec", json_string(spec));
  json_object_set_new(o, "nodes", json_integer(s->nodes));
  json_object_set_new(o, "arcs", json_integer(s->arcs));
  json_object_set_new(o, "out_degree", degree_json(s->out_degree));
  json_object_set_new(o, "in_degree", degree_json(s->in_degree));
  json_object_set_new(o, "regular", json_boolean(s->regular));
  json_object_set_new(o, "strongly_connected", json_boolean(connected));
  json_object_set_new(o, "diameter", connected && known ? json_integer(s->dist.diameter) : json_null());
  json_object_set_new(o, "moore_diameter", s->moore_diameter >= 0 ? json_integer(s->moore_diameter) : json_null());
  json_object_set_new(o, "moore_diameter_undirected",
                      s->moore_diameter_undirected >= 0 ? json_integer(s->moore_diameter_undirected) : json_null());
  json_object_set_new(o, "moore_optimal", json_boolean(s->moore_optimal));
  json_object_set_new(o, "reverse_symmetric", s->reverse_symmetric < 0 ? json_null() : json_boolean(s->reverse_symmetric));
  json_object_set_new(o, "bidirectional", json_boolean(s->bidirectional));
  json_object_set_new(o, "self_loops", json_integer(s->self_loops));
  json_object_set_new(o, "multi_arcs", json_integer(s->multi_arcs));
  json_object_set_new(o, "switches", json_integer(s->switches));
  json_object_set_new(o, "capacity_min", s->arcs ? json_integer(s->capacity_min) : json_null());
  json_object_set_new(o, "capacity_max", s->arcs ? json_integer(s->capacity_max) : json_null());
  json_object_set_new(o, "distances_computed", json_boolean(known));
  json_object_set_new(o, "distances_seconds_estimate", json_real(s->distance_cost.seconds));
  if (s->dist.pairs > 0 && connected) {
    char exact[64];
    snprintf(exact, sizeof exact, "%" PRId64 "/%" PRId64, s->avg_distance_num, s->avg_distance_den);
    json_object_set_new(o, "avg_distance", json_real((double)s->dist.distance_sum / (double)s->dist.pairs));
    json_object_set_new(o, "avg_distance_exact", json_string(exact));
  } else {
    json_object_set_new(o, "avg_distance", json_null());
    json_object_set_new(o, "avg_distance_exact", json_null());
  }
  json_object_set_new(o, "unreachable_pairs", known ? json_integer(s->dist.unreachable) : json_null());
  json_object_set_new(o, "distance_histogram", known ? hist : json_null());
  if (!known) json_decref(hist);
  return o;
}

static const char *yes_no(int x) { return x ? "yes" : "no"; }

static void print_degree(int64_t d) {
  if (d >= 0) printf("%" PRId64, d); else printf("irregular");
}

/* A long estimate in the unit a person reads it in: "4.1 h", "12.5 min", "1.234 s". */
static void format_duration(double seconds, char *buf, size_t size) {
  if (seconds >= 3600) snprintf(buf, size, "%.1f h", seconds / 3600);
  else if (seconds >= 60) snprintf(buf, size, "%.1f min", seconds / 60);
  else tc_units_format_time(seconds, 0, buf, size);
}

/* Paper 002 indexes Kautz graphs by their diameter, kautz() by diameter - 1 (paper 000):
   say which of the dissertation's graphs a kautz(d,n) spec is. */
static void print_kautz_convention(const char *spec) {
  tc_spec *parsed = NULL;
  tc_error err;
  int64_t d, n;
  if (!tc_spec_parse(spec, &parsed, &err) && !strcmp(parsed->root->text, "kautz") &&
      !tc_spec_arg_int(parsed->root, "d", &d, &err) && !tc_spec_arg_int(parsed->root, "n", &n, &err))
    printf("paper 002           K(%" PRId64 ",%" PRId64 ") (the dissertation counts the diameter: its K(d,k) is "
           "kautz(d,k-1))\n", d, n + 1);
  tc_spec_destroy(parsed);
}

static void print_text(const char *spec, const tc_graph_summary *s) {
  printf("topology            %s\n", spec);
  print_kautz_convention(spec);
  printf("nodes               %d", s->nodes);
  if (s->switches)
    printf(" (%d compute + %d switch node%s)", s->nodes - s->switches, s->switches, s->switches == 1 ? "" : "s");
  printf("\narcs                %" PRId64 "\n", s->arcs);
  /* Unit capacities (every direct-connect family) go unsaid; a fabric's range is shown. */
  if (s->capacity_min != s->capacity_max)
    printf("capacities          %" PRId64 "..%" PRId64 "\n", s->capacity_min, s->capacity_max);
  else if (s->capacity_min > 1) printf("capacities          all %" PRId64 "\n", s->capacity_min);
  printf("degree              out ");
  print_degree(s->out_degree);
  printf(", in ");
  print_degree(s->in_degree);
  printf("%s\n", s->regular ? " (regular)" : "");
  printf("bidirectional       %s\n", yes_no(s->bidirectional));
  printf("self-loops          %" PRId64 "\n", s->self_loops);
  printf("multi-arcs          %" PRId64 "\n", s->multi_arcs);
  if (!s->distances) {
    char t[32];
    format_duration(s->distance_cost.seconds, t, sizeof t);
    printf("strongly connected  %s\n", yes_no(s->dist.strongly_connected));
    if (!s->dist.strongly_connected) /* known without the all-pairs work */
      printf("diameter            infinite (not strongly connected); distances not computed: all-pairs would take "
             "about %s (raise --max-time)\n", t);
    else printf("diameter            not computed: all-pairs distances would take about %s (raise --max-time)\n", t);
  } else if (s->dist.strongly_connected) printf("diameter            %d\n", s->dist.diameter);
  else printf("diameter            infinite (not strongly connected: %" PRId64 " ordered pairs unreachable)\n", s->dist.unreachable);
  printf("Moore diameter      %d (directed bound T_L*, paper 000 Def. 10)%s%s\n", s->moore_diameter,
         s->distances ? ": " : "", !s->distances ? "" : s->moore_optimal ? "Moore-optimal" : "not Moore-optimal");
  if (s->bidirectional) printf("undirected Moore    %d (T_L**)\n", s->moore_diameter_undirected);
  if (s->reverse_symmetric >= 0) printf("reverse-symmetric   %s\n", yes_no(s->reverse_symmetric));
  else printf("reverse-symmetric   not checked%s\n", s->distances ? "" : " (beyond --max-time, as the distances)");
  if (s->dist.pairs > 0) {
    printf("average distance    %.6f (= %" PRId64 "/%" PRId64 ")\n", (double)s->dist.distance_sum / (double)s->dist.pairs,
           s->avg_distance_num, s->avg_distance_den);
  }
  if (!s->distances) return;
  printf("distance histogram  (ordered pairs of distinct nodes)\n");
  for (int32_t t = 1; t <= s->dist.diameter; t++) printf("  %4d  %" PRId64 "\n", t, s->dist.histogram[t]);
}

typedef struct topo_options {
  const char *spec, *dot, *edges, *wiring, *graph_json, *nx_edges, *node_link, *max_time_text;
  int json, list, no_reverse_symmetry;
  double max_time;
} topo_options;

#define AT(field) offsetof(topo_options, field)
static const tc_cli_option topo_table[] = {
    {.name = "--dot", .kind = TC_CLI_PATH, .text = AT(dot), .needs = "a file name"},
    {.name = "--edges", .kind = TC_CLI_PATH, .text = AT(edges), .needs = "a file name"},
    {.name = "--wiring", .kind = TC_CLI_PATH, .text = AT(wiring), .needs = "a file name"},
    {.name = "--graph-json", .kind = TC_CLI_PATH, .text = AT(graph_json), .needs = "a file name"},
    {.name = "--nx-edges", .kind = TC_CLI_PATH, .text = AT(nx_edges), .needs = "a file name"},
    {.name = "--node-link", .kind = TC_CLI_PATH, .text = AT(node_link), .needs = "a file name"},
    {.name = "--json", .kind = TC_CLI_FLAG, .value = AT(json)},
    {.name = "--list", .kind = TC_CLI_FLAG, .value = AT(list)},
    {.name = "--no-reverse-symmetry", .kind = TC_CLI_FLAG, .value = AT(no_reverse_symmetry)},
    {.name = "--max-time", .kind = TC_CLI_SECONDS, .text = AT(max_time_text), .value = AT(max_time),
     .fallback = DEFAULT_MAX_TIME, .needs = "a time"},
};
static const tc_cli_command topo_cli = {
    .name = "topo", .help = tc_cmd_topo_help, .options = topo_table, .noptions = TC_CLI_COUNT(topo_table),
    .positional = {AT(spec)}, .npositional = 1,
    .extra_argument = "more than one SPEC given ('%2$s' and '%1$s'); quote specs with spaces"};
#undef AT

static int parse_options(int argc, char **argv, topo_options *o) {
  memset(o, 0, sizeof *o);
  int status = tc_cli_parse(&topo_cli, argc, argv, o);
  if (!status && !o->list && !o->spec) return tc_cli_usage_error("topo", "missing SPEC");
  if (!status && !o->list) status = tc_cli_convert(&topo_cli, o, "--max-time", NULL);
  if (!status && !o->list && !(o->max_time > 0))
    return tc_cli_usage_error("topo", "--max-time must be positive, got '%s'", o->max_time_text);
  return status;
}

/* Every requested output target is one a writer accepts (output.h), checked before the
   topology is built so that a bad one costs nothing. */
static int check_outputs(const topo_options *o, tc_error *err) {
  const char *const paths[] = {o->dot, o->edges, o->wiring, o->graph_json, o->nx_edges, o->node_link};
  int rc = TC_OK;
  for (size_t i = 0; !rc && i < sizeof paths / sizeof paths[0]; i++)
    if (paths[i]) rc = tc_output_check(paths[i], err);
  return rc;
}

/* Write every requested output file, all or nothing: one batch (output.h), so a failure
   of any leaves every target as it was. */
static int write_outputs(const tc_graph *g, const topo_options *o, tc_error *err) {
  int rc = TC_OK;
  tc_output_begin();
  if (!rc && o->dot) rc = tc_graph_write_dot(g, o->spec, o->dot, err);
  if (!rc && o->edges) rc = tc_graph_write_edgelist(g, o->edges, err);
  if (!rc && o->wiring) rc = tc_graph_write_wiring(g, o->wiring, err);
  if (!rc && o->graph_json) rc = tc_graph_write_json(g, o->spec, o->graph_json, err);
  if (!rc && o->nx_edges) rc = tc_graph_write_nx_edgelist(g, o->nx_edges, err);
  if (!rc && o->node_link) rc = tc_graph_write_node_link(g, o->node_link, err);
  if (rc) tc_output_abort();
  else rc = tc_output_commit(err);
  return rc;
}

int tc_cmd_topo(int argc, char **argv) {
  topo_options o;
  int status = parse_options(argc, argv, &o);
  if (status) return status < 0 ? TC_EXIT_OK : status;
  if (o.list) { print_list(); return TC_EXIT_OK; }
  tc_error err;
  tc_error_clear(&err);
  if (check_outputs(&o, &err)) return tc_cli_fail("topo", &err);
  tc_graph *g = NULL;
  if (tc_spec_build(o.spec, &g, &err)) return tc_cli_fail("topo", &err);
  tc_cli_graph_hint("topo", o.spec, g);
  tc_graph_summary s;
  if (tc_graph_summarize_bounded(g, !o.no_reverse_symmetry, o.max_time, &s, &err)) {
    tc_graph_destroy(g);
    return tc_cli_fail("topo", &err);
  }
  int rc = write_outputs(g, &o, &err);
  if (!rc) {
    if (o.json) {
      json_t *j = summary_json(o.spec, &s);
      json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
      printf("\n");
      json_decref(j);
    } else print_text(o.spec, &s);
  }
  tc_graph_summary_destroy(&s);
  tc_graph_destroy(g);
  return rc ? tc_cli_fail("topo", &err) : TC_EXIT_OK;
}
