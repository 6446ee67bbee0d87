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
** as the out-degree of its head: each layer stores them in a flat m x maxdeg table. Adding
** an edge a -> b closes a cycle iff b already reaches a, decided by a depth-first search
** over the layer (stamps instead of clearing a visited array).
*/
#include "a2a/route_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct layer {
  int64_t *succ;  /* m * width successor channels */
  int32_t *count; /* m: successors in use */
} layer;

typedef struct layering {
  const tc_graph *g;
  int64_t width; /* the largest out-degree: a channel's most successors */
  layer *layers;
  int32_t nlayers, room;
  int64_t *stamp, now; /* per channel: the search that last visited it */
  int64_t *stack;
  int64_t *added; /* the channels whose lists the path being tried extended */
} layering;

static int has_edge(const layering *L, const layer *y, int64_t a, int64_t b) {
  for (int32_t i = 0; i < y->count[a]; i++)
    if (y->succ[a * L->width + i] == b) return 1;
  return 0;
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
    if (has_edge(L, y, a, b)) continue;
    if (reaches(L, y, b, a)) break;
    y->succ[a * L->width + y->count[a]++] = b;
    L->added[nadded++] = a;
  }
  if (h == last) return 1;
  while (nadded) y->count[L->added[--nadded]]--; /* a path's arcs are distinct: each added edge ends its list */
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
  if (!y->succ || !y->count) {
    free(y->succ);
    free(y->count);
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
  }
  if (!rc) *nlayers = L.nlayers;
  free(L.layers);
  free(L.stamp);
  free(L.stack);
  free(L.added);
  return rc;
}
