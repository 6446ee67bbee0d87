/*
** report_sniff.h — what each JSON file of a plan directory is, decided by its content
** (top-level keys), never by its name: the plan's plan.json, the plan's own graph and
** schedule files, and the results a user saved there from `run --json`, `simulate
** --json`, `forest --json`, `a2a --json` and `train --json`. Anything else — another
** document, a file that is not JSON — is kept as "not understood" with the reason, which
** the page lists instead of drawing it.
*/
#ifndef TC_TOOLS_REPORT_SNIFF_H
#define TC_TOOLS_REPORT_SNIFF_H

#include <jansson.h>

#include "topocoll/error.h"

typedef enum {
  TC_DOC_PLAN,     /* plan.json: "format": "topocoll-plan" */
  TC_DOC_OWN,      /* the plan's topology / schedule / route files ("format": "topocoll-graph", ...) */
  TC_DOC_RUN,      /* run --json: "np" and "results" [{"size_bytes", "time_s", ...}] */
  TC_DOC_SIMULATE, /* simulate --json: "results" [{"size_bytes", "sim_time_s", ...}] */
  TC_DOC_FOREST,   /* forest --json: "format": "topocoll-forest", or "optimum" with "k_scan" */
  TC_DOC_A2A,      /* a2a --json: "f", "method" and "bounds" */
  TC_DOC_TRAIN,    /* train --json: "command": "train" and "timeline" */
  TC_DOC_UNKNOWN   /* not understood: `note` says why */
} tc_doc_kind;

typedef struct tc_doc {
  char *name;       /* the file name, within the directory */
  tc_doc_kind kind;
  json_t *root;     /* owned; NULL for TC_DOC_UNKNOWN */
  char note[160];   /* TC_DOC_UNKNOWN: why */
} tc_doc;

/* The kind of one parsed document (a top-level object). */
tc_doc_kind tc_report_sniff(json_t *root, char *note, size_t size);

/* Every *.json regular file of dir, sorted by name, read and sniffed. A file that cannot be
   read or parsed is TC_DOC_UNKNOWN with the parser's reason. TC_EIO when dir cannot be
   listed. */
int tc_report_read_dir(const char *dir, tc_doc **docs, int *count, tc_error *err);
void tc_report_docs_destroy(tc_doc *docs, int count);

#endif
