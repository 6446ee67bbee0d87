/*
** fig_schedules.c — hands out the stored Diamond / DBJMod allgather schedules (contract in
** fig_schedules.h).
**
** The data (fig_schedules_data.inc) is generated from the JSON files in
** tests/data/fig_schedules by generators/gen_fig_schedules.py and lists transfers as (step,
** sender, receiver, source shard, chunk in units). Here each one is turned into a transfer on the caller's graph: the
** arc is the caller's arc sender -> receiver (the graphs are simple, so it is unique),
** after checking that the caller's graph has exactly the stored arcs, so that arc ids
** mean the same thing. Nothing is computed: the tests verify every stored schedule and
** compare it with its JSON file.
*/
#include "topocoll/fig_schedules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct fig_transfer {
  int32_t step, sender, receiver, source;
  int64_t lo, hi;
} fig_transfer;

typedef struct fig_entry {
  int64_t units; /* chunk endpoints are in 1/units of a shard */
  int32_t narcs;
  const int32_t (*arcs)[2];
  int32_t ntransfers;
  const fig_transfer *transfers;
} fig_entry;

#include "synth/fig_schedules_data.inc"

#define NENTRIES ((int)(sizeof fig_infos / sizeof fig_infos[0]))

const tc_fig_info *tc_fig_schedule_list(int *count) {
  if (count) *count = NENTRIES;
  return fig_infos;
}

/* `name` without whitespace, lower case, with "diamond" read as "diamond()". */
static void normalise(const char *name, char *buf, size_t size) {
  size_t len = 0;
  for (const char *p = name; *p && len + 1 < size; p++)
    if (!isspace((unsigned char)*p)) buf[len++] = (char)tolower((unsigned char)*p);
  buf[len] = '\0';
  if (!strcmp(buf, "diamond")) snprintf(buf, size, "diamond()");
}

/* Index of the entry for `name`, or -1. */
static int find_entry(const char *name) {
  char key[64];
  normalise(name, key, sizeof key);
  for (int i = 0; i < NENTRIES; i++)
    if (!strcmp(key, fig_infos[i].spec)) return i;
  return -1;
}

static int unknown_name(const char *name, tc_error *err) {
  char known[256] = "";
  for (int i = 0; i < NENTRIES; i++) {
    size_t len = strlen(known);
    snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", fig_infos[i].spec);
  }
  return tc_error_set(err, TC_EINPUT, "fig schedule: no stored schedule for '%s' (stored: %s)", name, known);
}

/* The arc sender -> receiver of g, or -1. */
static int64_t find_arc(const tc_graph *g, int32_t u, int32_t v) {
  for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
    if (g->dst[a] == v) return a;
  return -1;
}

/* g must have the stored nodes and exactly the stored arcs, each once. */
static int check_graph(const tc_fig_info *info, const fig_entry *e, const tc_graph *g, tc_error *err) {
  const char *spec = info->spec;
  if (g->n != info->nodes)
    return tc_error_set(err, TC_EINPUT, "fig schedule %s: the graph has %d nodes, the stored one %d", spec, g->n,
                        info->nodes);
  if (g->m != e->narcs)
    return tc_error_set(err, TC_EINPUT, "fig schedule %s: the graph has %lld arcs, the stored one %d", spec,
                        (long long)g->m, e->narcs);
  for (int32_t i = 0; i < e->narcs; i++)
    if (tc_graph_arc_multiplicity(g, e->arcs[i][0], e->arcs[i][1]) != 1)
      return tc_error_set(err, TC_EINPUT,
                          "fig schedule %s: the graph is not the one %s builds (no single arc %d -> %d)", spec, spec,
                          e->arcs[i][0], e->arcs[i][1]);
  return TC_OK;
}

int tc_fig_schedule(const char *name, const tc_graph *g, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int index = name ? find_entry(name) : -1;
  if (index < 0) return unknown_name(name ? name : "(null)", err);
  const tc_fig_info *info = &fig_infos[index];
  const fig_entry *e = &fig_entries[index];
  int rc = check_graph(info, e, g, err);
  if (!rc) rc = tc_schedule_init(out, TC_COLL_ALLGATHER, g->n, e->units, "stored", err);
  if (!rc) rc = tc_schedule_reserve(out, e->ntransfers, err);
  for (int32_t i = 0; !rc && i < e->ntransfers; i++) {
    const fig_transfer *x = &e->transfers[i];
    /* check_graph guarantees the arc exists: every stored transfer uses a stored arc (the
       tests replay each one). */
    int64_t arc = find_arc(g, x->sender, x->receiver);
    rc = arc < 0 ? tc_error_set(err, TC_EINPUT, "fig schedule %s: transfer %d uses %d -> %d, not an arc", info->spec, i,
                                x->sender, x->receiver)
                 : tc_schedule_add(out, x->source, arc, x->step, x->lo, x->hi, err);
  }
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = info->steps;
  return TC_OK;
}
