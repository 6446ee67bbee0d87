/*
** simulate.c — one training iteration, paper 000 App. A.4 (contract in train.h).
**
** Two clocks: `compute` (when the compute stream is next free) and `network` (when the
** communication stream is next free). Requests reach the communication stream in the
** order the compute stream makes them, which is also their time order, so serving each at
** max(request time, network) is the FIFO, one-collective-at-a-time stream of A.4: an
** allreduce asked for before an all-to-all runs first and the all-to-all (and the compute
** stream behind it) waits; an all-to-all never overlaps an allreduce. Nothing is
** preempted. Forward needs no allreduce (DDP's previous iteration ended with its last
** bucket), so the iteration starts with both streams idle at 0.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/train.h"

double tc_train_bucket(int i) {
  static const double caps[TC_TRAIN_NBUCKETS] = {1e6, 1e7, 1e8, 1e9};
  return i >= 0 && i < TC_TRAIN_NBUCKETS ? caps[i] : 0;
}

double tc_train_allreduce_time(const tc_train_network *net, double bytes) {
  return (double)net->ar_steps * net->alpha_s + net->ar_tau * bytes / ((double)net->ar_degree * net->link_bw);
}

double tc_train_alltoall_time(const tc_train_network *net, double bytes) {
  return bytes / (double)net->nodes / (net->a2a_f * net->link_bw);
}

const char *tc_train_stream_name(int stream) {
  return stream == TC_TRAIN_COMPUTE ? "compute" : stream == TC_TRAIN_COMM ? "comm" : NULL;
}

const char *tc_train_kind_name(int kind) {
  static const char *const names[] = {"forward", "backward", "allreduce", "alltoall"};
  return kind >= 0 && kind <= TC_TRAIN_ALLTOALL ? names[kind] : NULL;
}

typedef struct sim {
  const tc_train_network *net;
  double compute, network;
  tc_train_result *r;
} sim;

static void event(sim *s, int stream, int kind, int32_t layer, double start, double end) {
  tc_train_event *e = &s->r->event[s->r->nevents++];
  e->stream = stream;
  e->kind = kind;
  e->layer = layer;
  e->start_s = start;
  e->end_s = end;
}

static void compute(sim *s, int kind, int32_t layer, double t) {
  event(s, TC_TRAIN_COMPUTE, kind, layer, s->compute, s->compute + t);
  s->compute += t;
  s->r->compute_s += t;
}

/* An all-to-all blocks the compute stream: it starts when both streams are free and the
   compute stream resumes when it ends. */
static void alltoall(sim *s, int32_t layer, double t) {
  double start = fmax(s->compute, s->network);
  event(s, TC_TRAIN_COMM, TC_TRAIN_ALLTOALL, layer, start, start + t);
  s->compute = s->network = start + t;
  s->r->alltoall_s += t;
  s->r->nalltoall++;
}

/* An allreduce of a bucket ready now (the compute clock) runs when the stream is free. */
static void allreduce(sim *s, int32_t layer, double bytes) {
  double t = tc_train_allreduce_time(s->net, bytes);
  double start = fmax(s->compute, s->network);
  event(s, TC_TRAIN_COMM, TC_TRAIN_ALLREDUCE, layer, start, start + t);
  s->network = start + t;
  s->r->allreduce_s += t;
  s->r->nallreduce++;
}

int tc_train_check_nodes(const tc_train_model *m, int32_t nodes, tc_error *err) {
  if (nodes < 2) return tc_error_set(err, TC_EINPUT, "training needs at least 2 nodes (got %d)", (int)nodes);
  for (int32_t i = 0; i < m->nlayers; i++) {
    const tc_train_layer *l = &m->layer[i];
    if (l->experts % nodes)
      return tc_error_set(err, TC_EINPUT,
                          "%s has %d experts per expert layer, which %d nodes cannot shard evenly (use --experts "
                          "with a multiple of %d)",
                          m->name, (int)l->experts, (int)nodes, (int)nodes);
  }
  return TC_OK;
}

int tc_train_simulate(const tc_train_model *m, const tc_train_device *dev, const tc_train_network *net,
                      int32_t batch, double bucket_bytes, tc_train_result *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (batch < 1) return tc_error_set(err, TC_EINPUT, "batch must be at least 1 sample per node (got %d)", (int)batch);
  if (!(bucket_bytes > 0) || !isfinite(bucket_bytes))
    return tc_error_set(err, TC_EINPUT, "bucket capacity must be a positive size (got %g)", bucket_bytes);
  int rc = tc_train_device_check(dev, err);
  if (rc) return rc;
  if (!(net->link_bw > 0) || !(net->alpha_s >= 0) || net->ar_degree < 1 || net->ar_steps < 0 || !(net->ar_tau >= 0))
    return tc_error_set(err, TC_EINPUT, "the network's alpha, link bandwidth or allreduce cost is not usable");
  if ((rc = tc_train_check_nodes(m, net->nodes, err))) return rc;
  int32_t nexpert = 0;
  for (int32_t i = 0; i < m->nlayers; i++) nexpert += m->layer[i].experts > 0;
  if (nexpert && !(net->a2a_f > 0))
    return tc_error_set(err, TC_EINPUT, "%s has expert layers but the network has no all-to-all rate", m->name);
  /* forward + backward per layer, two all-to-alls per expert layer each way, at most one
     allreduce per layer plus none extra (the last bucket closes at a layer) */
  size_t cap = 3 * (size_t)m->nlayers + 4 * (size_t)nexpert + 1;
  out->event = calloc(cap, sizeof *out->event);
  if (!out->event) return tc_error_set(err, TC_ENOMEM, "out of memory simulating %s", m->name);
  out->bucket_bytes = bucket_bytes;
  sim s = {net, 0, 0, out};
  const double b = (double)batch;
  for (int32_t i = 0; i < m->nlayers; i++) {
    const tc_train_layer *l = &m->layer[i];
    double a2a = l->experts ? tc_train_alltoall_time(net, l->a2a_elems * b * TC_TRAIN_ACT_BYTES) : 0;
    if (l->experts) alltoall(&s, i, a2a); /* dispatch the tokens to their experts */
    compute(&s, TC_TRAIN_FORWARD, i, tc_train_device_time(dev, l->flops * b));
    if (l->experts) alltoall(&s, i, a2a); /* and bring them back */
  }
  double bucket = 0;
  for (int32_t i = m->nlayers - 1; i >= 0; i--) {
    const tc_train_layer *l = &m->layer[i];
    double a2a = l->experts ? tc_train_alltoall_time(net, l->a2a_elems * b * TC_TRAIN_ACT_BYTES) : 0;
    if (l->experts) alltoall(&s, i, a2a); /* gradients of the returned tokens to their experts */
    compute(&s, TC_TRAIN_BACKWARD, i, 2.0 * tc_train_device_time(dev, l->flops * b));
    if (l->experts) alltoall(&s, i, a2a); /* and back to the tokens' nodes */
    bucket += (double)l->params * TC_TRAIN_GRAD_BYTES;
    if (bucket > 0 && (bucket >= bucket_bytes || i == 0)) {
      allreduce(&s, i, bucket);
      bucket = 0;
    }
  }
  out->iteration_s = fmax(s.compute, s.network);
  out->allreduce_exposed_s = fmax(0, out->iteration_s - out->compute_s - out->alltoall_s);
  return TC_OK;
}

int tc_train_simulate_best(const tc_train_model *m, const tc_train_device *dev, const tc_train_network *net,
                           int32_t batch, tc_train_result *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < TC_TRAIN_NBUCKETS; i++) {
    tc_train_result r;
    int rc = tc_train_simulate(m, dev, net, batch, tc_train_bucket(i), &r, err);
    if (rc) {
      tc_train_result_destroy(out);
      return rc;
    }
    if (i == 0 || r.iteration_s < out->iteration_s) {
      tc_train_result_destroy(out);
      *out = r;
    } else {
      tc_train_result_destroy(&r);
    }
  }
  return TC_OK;
}

void tc_train_result_destroy(tc_train_result *r) {
  if (!r) return;
  free(r->event);
  memset(r, 0, sizeof *r);
}
