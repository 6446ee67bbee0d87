/*
** route_layers.c — virtual-channel layers for a routing (contract in a2a_route.h; paper 003
** §5.5, after LASH, its ref. [49]).
**
** Wormhole fabrics deadlock when the channel dependency graph (CDG) of the routes in one
** virtual channel has a cycle: a channel is an arc, and a path that enters arc b from arc a
** makes b wait on a (an edge a -> b). LASH puts routes into layers whose CDGs stay acyclic.
** "LASH-sequential", as paper 003 names the variant that used the fewest layers, is read
** here as the greedy pass in routing order: each path joins the first layer where its
** dependencies close no cycle, or opens a new one. A path on its own never closes a cycle
** (its arcs are distinct), so every path finds a layer.
**
** A CDG edge a -> b needs dst(a) == src(b), so a channel has at most as many successors
** as the out-degree of its head: each layer stores them in a flat m x maxdeg table, and a
** state per possible edge (absent, present, or known to close a cycle). Adding an edge
** a -> b closes a cycle iff b already reaches a, decided by a depth-first search over the
** layer (stamps instead of clearing a visited array). Layers only grow, so an edge that
** closes a cycle in a layer always will — remembered, unless the cycle ran through edges
** of the very path being tried, which are taken back when it fails. Without that memory
** the searches were nearly all of the time (direct on genkautz(4,1000): a million paths).
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

enum { EDGE_ABSENT = 0, EDGE_PRESENT = 1, EDGE_CYCLE = 2 };

typedef struct layer {
  int64_t *succ;  /* m * width successor channels */
  int32_t *count; /* m: successors in use */
  uint8_t *state; /* m * width: edge a -> b at a * width + (b's rank among its tail's out-arcs) */
} layer;

typedef struct layering {
  const tc_graph *g;
  int64_t width; /* the largest out-degree: a channel's most successors */
  layer *layers;
  int32_t nlayers, room;
  int64_t *stamp, now; /* per channel: the search that last visited it */
  int64_t *stack;
  int64_t *added; /* the hops whose edges the path being tried added */
} layering;

/* Where the state of edge a -> b lives (b leaves the node a enters). */
static uint8_t *edge_state(const layering *L, const layer *y, int64_t a, int64_t b) {
  return &y->state[a * L->width + (b - L->g->out_off[L->g->src[b]])];
}

/* b reaches a in layer y. */
static int reaches(layering *L, const layer *y, int64_t b, int64_t a) {
  int64_t top = 0;
  L->now++;
  L->stack[top++] = b;
  L->stamp[b] = L->now;
  while (top) {
    int64_t c = L->stack[--top];
    if (c == a) return 1;
    for (int32_t i = 0; i < y->count[c]; i++) {
      int64_t d = y->succ[c * L->width + i];
      if (L->stamp[d] != L->now) {
        L->stamp[d] = L->now;
        L->stack[top++] = d; /* each channel is pushed once per search: the stack holds m */
      }
    }
  }
  return 0;
}

/* Try path p's dependencies in layer y; on a cycle undo the edges it added and return 0. */
static int try_layer(layering *L, layer *y, const tc_a2a_routing *r, int64_t p) {
  int64_t first = r->hop_off[p], last = r->hop_off[p + 1] - 1, nadded = 0, h = first;
  for (; h < last; h++) {
    int64_t a = r->arc[h], b = r->arc[h + 1];
    uint8_t *st = edge_state(L, y, a, b);
    if (*st == EDGE_PRESENT) continue;
    if (*st == EDGE_CYCLE) break;
    if (reaches(L, y, b, a)) {
      if (!nadded) *st = EDGE_CYCLE; /* the layer alone closes it: for good */
      break;
    }
    y->succ[a * L->width + y->count[a]++] = b;
    *st = EDGE_PRESENT;
    L->added[nadded++] = h;
  }
  if (h == last) return 1;
  while (nadded) { /* a path's arcs are distinct: each added edge ends its list */
    int64_t q = L->added[--nadded];
    y->count[r->arc[q]]--;
    *edge_state(L, y, r->arc[q], r->arc[q + 1]) = EDGE_ABSENT;
  }
  return 0;
}

static int open_layer(layering *L, tc_error *err) {
  if (L->nlayers == L->room) {
    int32_t room = L->room ? 2 * L->room : 4;
    layer *p = realloc(L->layers, (size_t)room * sizeof *p);
    if (!p) return tc_error_set(err, TC_ENOMEM, "out of memory");
    L->layers = p;
    L->room = room;
  }
  size_t m = (size_t)(L->g->m ? L->g->m : 1);
  layer *y = &L->layers[L->nlayers];
  y->succ = malloc(m * (size_t)L->width * sizeof *y->succ);
  y->count = calloc(m, sizeof *y->count);
  y->state = calloc(m * (size_t)L->width, 1);
  if (!y->succ || !y->count || !y->state) {
    free(y->succ);
    free(y->count);
    free(y->state);
    return tc_error_set(err, TC_ENOMEM, "out of memory for virtual-channel layer %d", L->nlayers + 1);
  }
  L->nlayers++;
  return TC_OK;
}

int tc_a2a_routing_layers(const tc_graph *g, const tc_a2a_routing *r, int32_t *layer_of, int32_t *nlayers,
                          tc_error *err) {
  *nlayers = 0;
  if (!r->first) return tc_error_set(err, TC_EINPUT, "the routing is not finished (tc_a2a_routing_finish)");
  if (g->n != r->nodes)
    return tc_error_set(err, TC_EINPUT, "the routing is for %d nodes but the graph has %d", r->nodes, g->n);
  layering L = {g, tc_graph_max_out_degree(g), NULL, 0, 0, NULL, 0, NULL, NULL};
  if (L.width < 1) L.width = 1;
  size_t m = (size_t)(g->m ? g->m : 1);
  L.stamp = calloc(m, sizeof *L.stamp);
  L.stack = malloc(m * sizeof *L.stack);
  L.added = malloc((size_t)g->n * sizeof *L.added); /* a simple path has fewer than n hops */
  int rc = L.stamp && L.stack && L.added ? TC_OK : tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int64_t p = 0; p < r->npaths && !rc; p++) {
    int32_t y = 0;
    while (y < L.nlayers && !try_layer(&L, &L.layers[y], r, p)) y++;
    if (y == L.nlayers && !(rc = open_layer(&L, err)))
      try_layer(&L, &L.layers[y], r, p); /* alone in a new layer: its distinct arcs close no cycle */
    layer_of[p] = y;
  }
  for (int32_t y = 0; y < L.nlayers; y++) {
    free(L.layers[y].succ);
    free(L.layers[y].count);
    free(L.layers[y].state);
  }
  if (!rc) *nlayers = L.nlayers;
  free(L.layers);
  free(L.stamp);
  free(L.stack);
  free(L.added);
  return rc;
}
