/*
** forest_json.c — the forest document (docs/formats.md, "Forest files"): what
** `topocoll forest --json` prints and `--out` writes. Exact values are "p/q" strings beside
** their floats; trees are listed per batch with the physical path of every route as node
** ids and arc ids of the graph. A weighted forest (forest.h) adds "weights": the shares of
** the compute nodes in id order; an unweighted one has no such key, so its document is what
** it always was. Written through core/io_atomic (a failed write leaves the old file), and
** only for a verified forest.
*/
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/io_atomic.h"
#include "forest/forest_internal.h"

static void put_rat(FILE *fp, const char *key, tc_rat r, int comma) {
  char buf[64];
  tc_rat_format(r, buf, sizeof buf);
  fprintf(fp, "  \"%s\": \"%s\"%s\n", key, buf, comma ? "," : "");
}

/* The part's search result, trees and work; its measured algbw only inside "parts" (the
   top level has the collective's). */
static void put_optimum(FILE *fp, const tc_forest *f, const tc_forest_part *p, const char *ind, int with_algbw) {
  const tc_forest_optimum *o = &p->opt;
  char buf[64];
  fprintf(fp, "%s\"optimal\": %s,\n%s\"k\": %lld,\n", ind, o->optimal ? "true" : "false", ind, (long long)o->k);
  tc_rat_format(o->y, buf, sizeof buf);
  fprintf(fp, "%s\"y\": \"%s\",\n", ind, buf);
  tc_rat_format(o->U, buf, sizeof buf);
  fprintf(fp, "%s\"U\": \"%s\",\n", ind, buf);
  tc_rat_format(o->inv_x, buf, sizeof buf);
  fprintf(fp, "%s\"inv_x\": \"%s\",\n", ind, buf);
  tc_rat_format(p->algbw, buf, sizeof buf);
  if (with_algbw)
    fprintf(fp, "%s\"algbw\": \"%s\",\n%s\"algbw_float\": %.17g,\n", ind, buf, ind, tc_rat_to_double(p->algbw));
  fprintf(fp, "%s\"trees\": %lld,\n%s\"batch_count\": %lld,\n", ind, (long long)(o->k * f->weight_total), ind,
          (long long)p->nbatches);
  fprintf(fp, "%s\"bottleneck_cut\": ", ind);
  if (!o->optimal) fputs("null,\n", fp);
  else {
    fputc('[', fp);
    for (int32_t i = 0; i < o->cut_len; i++) fprintf(fp, "%s%d", i ? ", " : "", o->cut[i]);
    tc_rat r = {o->cut_compute, o->cut_exit};
    tc_error ignored; /* both are positive int64: reducing them cannot fail */
    tc_rat_make(o->cut_compute, o->cut_exit, &r, &ignored);
    tc_rat_format(r, buf, sizeof buf);
    fprintf(fp, "],\n%s\"bottleneck_compute\": %lld,\n%s\"bottleneck_exit\": %lld,\n%s\"bottleneck_ratio\": \"%s\",\n",
            ind, (long long)o->cut_compute, ind, (long long)o->cut_exit, ind, buf);
  }
  fprintf(fp,
          "%s\"work\": {\"search_tests\": %lld, \"search_maxflows\": %lld, \"split_maxflows\": %lld, "
          "\"logical_arcs\": %lld, \"pack_maxflows\": %lld}",
          ind, (long long)o->iterations, (long long)o->maxflows, (long long)p->split_maxflows,
          (long long)p->logical_arcs, (long long)p->pack_maxflows);
}

/* One batch object; `dir` says which part it belongs to. */
static void put_batch(FILE *fp, const tc_graph *g, const tc_forest_batch *b, const char *dir) {
  fprintf(fp, "    {\"direction\": \"%s\", \"root\": %d, \"trees\": %lld, \"edges\": [", dir, b->root,
          (long long)b->mult);
  for (int32_t i = 0; i < b->nedges; i++) {
    fprintf(fp, "%s\n      {\"from\": %d, \"to\": %d, \"routes\": [", i ? "," : "", b->from[i], b->to[i]);
    for (int64_t r = b->route_off[i]; r < b->route_off[i + 1]; r++) {
      fprintf(fp, "%s{\"trees\": %lld, \"path\": [%d", r > b->route_off[i] ? ", " : "", (long long)b->route_units[r],
              g->src[b->hop_arc[b->hop_off[r]]]);
      for (int64_t h = b->hop_off[r]; h < b->hop_off[r + 1]; h++) fprintf(fp, ", %d", g->dst[b->hop_arc[h]]);
      fputs("], \"arcs\": [", fp);
      for (int64_t h = b->hop_off[r]; h < b->hop_off[r + 1]; h++)
        fprintf(fp, "%s%lld", h > b->hop_off[r] ? ", " : "", (long long)b->hop_arc[h]);
      fputs("]}", fp);
    }
    fputs("]}", fp);
  }
  fputs("]}", fp);
}

int tc_forest_write_json(const tc_graph *g, const char *spec, const tc_forest *f, int with_trees, const char *path,
                         tc_error *err) {
  if (!f->verified) return tc_error_set(err, TC_EFAIL, "cannot write %s: the forest is not verified", path);
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  fputs("{\n  \"format\": \"topocoll-forest\",\n  \"version\": 1,\n  \"spec\": ", fp);
  json_t *j = spec ? json_string(spec) : json_null();
  char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
  json_decref(j);
  if (!text) {
    tci_atomic_abort(&af);
    return tc_error_set(err, TC_EINPUT, "cannot write %s: the spec is not valid UTF-8", path);
  }
  fprintf(fp, "%s,\n  \"collective\": \"%s\",\n", text, tc_collective_name(f->coll));
  free(text);
  fprintf(fp, "  \"compute_nodes\": %d,\n  \"switch_nodes\": %d,\n  \"verified\": true,\n", f->ncompute, f->nswitch);
  if (f->weights) {
    fputs("  \"weights\": [", fp);
    for (int32_t v = 0, first = 1; v < g->n; v++)
      if (g->kind[v] == TC_NODE_COMPUTE) {
        fprintf(fp, "%s%lld", first ? "" : ", ", (long long)f->weights[v]);
        first = 0;
      }
    fputs("],\n", fp);
  }
  put_rat(fp, "algbw", f->algbw, 1);
  fprintf(fp, "  \"algbw_float\": %.17g,\n", tc_rat_to_double(f->algbw));
  /* k, y, U, 1/x* and the cut of the allgather part (or the only part) at the top level,
     each part's in "parts", every tree of every part in "batches" */
  const tc_forest_part *top = &f->part[f->nparts - 1];
  put_optimum(fp, f, top, "  ", 0);
  fputs(",\n  \"parts\": [", fp);
  for (int i = 0; i < f->nparts; i++) {
    const tc_forest_part *p = &f->part[i];
    fprintf(fp, "%s\n    {\n      \"direction\": \"%s\",\n", i ? "," : "", p->in_trees ? "reduce-scatter" : "allgather");
    put_optimum(fp, f, p, "      ", 1);
    fputs("\n    }", fp);
  }
  fputs("\n  ]", fp);
  if (with_trees) {
    fputs(",\n  \"batches\": [", fp);
    int first = 1;
    for (int i = 0; i < f->nparts; i++)
      for (int64_t b = 0; b < f->part[i].nbatches; b++) {
        fputs(first ? "\n" : ",\n", fp);
        first = 0;
        put_batch(fp, g, &f->part[i].batch[b], f->part[i].in_trees ? "reduce-scatter" : "allgather");
      }
    fputs("\n  ]", fp);
  }
  fputs("\n}\n", fp);
  return tci_atomic_commit(&af, err);
}
