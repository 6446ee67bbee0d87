/*
** test_train.c — the training-iteration simulator of train.h (paper 000 App. A.4) on cases
** small enough to run by hand, and the model table against the published totals.
**
** The hand cases use a device of 1 FLOP/s at efficiency 1 (a layer of F FLOPs per sample
** takes F s forward and 2F s backward), α = 1 s, a link of 1 byte/s and an allreduce of
** one step with tau 1 on degree 1 (an allreduce of M bytes takes 1 + M s), and for the
** all-to-all two nodes at f = 1/2 (M bytes per node take M/2/(1/2) = M s). Gradients are
** 4 bytes per parameter and activations 2 bytes per element (train.h). Every expected
** time below is written out in the comment beside it.
*/
#include <stdio.h>
#include <string.h>

#include "tc_test.h"
#include "topocoll/train.h"

static tc_train_device unit_device(void) {
  tc_train_device d;
  memset(&d, 0, sizeof d);
  d.peak_flops = 1;
  d.efficiency = 1;
  return d;
}

static tc_train_network unit_net(void) {
  tc_train_network n = {.nodes = 2, .alpha_s = 1, .link_bw = 1, .ar_steps = 1, .ar_tau = 1, .ar_degree = 1,
                        .a2a_f = 0.5};
  return n;
}

static tc_train_layer dense(int64_t params, double flops) {
  tc_train_layer l;
  memset(&l, 0, sizeof l);
  snprintf(l.name, sizeof l.name, "dense");
  l.params = params;
  l.flops = flops;
  return l;
}

static tc_train_layer expert(int32_t experts, double flops, double elems) {
  tc_train_layer l = dense(0, flops);
  snprintf(l.name, sizeof l.name, "moe");
  l.experts = experts;
  l.expert_params = 100;
  l.a2a_elems = elems;
  return l;
}

static tc_train_model model_of(tc_train_layer *layers, int32_t n) {
  tc_train_model m;
  memset(&m, 0, sizeof m);
  snprintf(m.name, sizeof m.name, "hand");
  m.nlayers = n;
  m.layer = layers;
  return m;
}

static void event_is(const tc_train_event *e, int stream, int kind, int32_t layer, double start, double end) {
  assert_int_equal(e->stream, stream);
  assert_int_equal(e->kind, kind);
  assert_int_equal(e->layer, layer);
  assert_true(e->start_s == start);
  assert_true(e->end_s == end);
}

/* Two layers of 1 parameter and 1 FLOP, one bucket (1 GB): forward 0-1, 1-2; backward
   layer 1 2-4, layer 0 4-6; then the 8-byte allreduce 6-15 (1 + 8). Nothing overlaps. */
static void one_bucket_no_overlap(void **state) {
  (void)state;
  tc_train_layer ls[2] = {dense(1, 1), dense(1, 1)};
  tc_train_model m = model_of(ls, 2);
  tc_train_device d = unit_device();
  tc_train_network n = unit_net();
  tc_train_result r;
  tc_error err;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 1e9, &r, &err), TC_OK);
  assert_true(r.iteration_s == 15);
  assert_true(r.compute_s == 6);
  assert_true(r.allreduce_exposed_s == 9);
  assert_true(r.alltoall_s == 0);
  assert_true(r.allreduce_s == 9);
  assert_int_equal(r.nallreduce, 1);
  assert_int_equal(r.nevents, 5);
  event_is(&r.event[0], TC_TRAIN_COMPUTE, TC_TRAIN_FORWARD, 0, 0, 1);
  event_is(&r.event[1], TC_TRAIN_COMPUTE, TC_TRAIN_FORWARD, 1, 1, 2);
  event_is(&r.event[2], TC_TRAIN_COMPUTE, TC_TRAIN_BACKWARD, 1, 2, 4);
  event_is(&r.event[3], TC_TRAIN_COMPUTE, TC_TRAIN_BACKWARD, 0, 4, 6);
  event_is(&r.event[4], TC_TRAIN_COMM, TC_TRAIN_ALLREDUCE, 0, 6, 15);
  tc_train_result_destroy(&r);
  /* the batch scales compute, not the gradients: 12 s of compute, then 6 + ... */
  assert_int_equal(tc_train_simulate(&m, &d, &n, 2, 1e9, &r, &err), TC_OK);
  assert_true(r.iteration_s == 21);
  assert_true(r.compute_s == 12);
  tc_train_result_destroy(&r);
}

/* A 4-byte bucket: layer 1's gradient (1 parameter) is allreduced at 7 (its backward ends
   5 + 2) until 12, hidden behind layer 0's backward 7-15, which has no parameters. */
static void full_overlap(void **state) {
  (void)state;
  tc_train_layer ls[2] = {dense(0, 4), dense(1, 1)};
  tc_train_model m = model_of(ls, 2);
  tc_train_device d = unit_device();
  tc_train_network n = unit_net();
  tc_train_result r;
  tc_error err;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 4, &r, &err), TC_OK);
  assert_true(r.iteration_s == 15);
  assert_true(r.compute_s == 15);
  assert_true(r.allreduce_exposed_s == 0);
  assert_true(r.allreduce_s == 5);
  assert_int_equal(r.nevents, 5);
  event_is(&r.event[3], TC_TRAIN_COMM, TC_TRAIN_ALLREDUCE, 1, 7, 12);
  event_is(&r.event[4], TC_TRAIN_COMPUTE, TC_TRAIN_BACKWARD, 0, 7, 15);
  tc_train_result_destroy(&r);
}

/* An expert layer (2 experts on 2 nodes) sending 4 elements = 8 bytes per all-to-all,
   8 s each: forward dense 0-1, a2a 1-9, expert 9-10, a2a 10-18; backward a2a 18-26, expert
   26-28, a2a 28-36, dense 36-38, allreduce of 4 bytes 38-43. */
static void expert_layer(void **state) {
  (void)state;
  tc_train_layer ls[2] = {dense(1, 1), expert(2, 1, 4)};
  tc_train_model m = model_of(ls, 2);
  tc_train_device d = unit_device();
  tc_train_network n = unit_net();
  assert_true(tc_train_alltoall_time(&n, 8) == 8);
  assert_true(tc_train_allreduce_time(&n, 4) == 5);
  tc_train_result r;
  tc_error err;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 1e9, &r, &err), TC_OK);
  assert_true(r.iteration_s == 43);
  assert_true(r.compute_s == 6);
  assert_true(r.alltoall_s == 32);
  assert_true(r.allreduce_exposed_s == 5);
  assert_int_equal(r.nalltoall, 4);
  assert_int_equal(r.nevents, 9);
  event_is(&r.event[1], TC_TRAIN_COMM, TC_TRAIN_ALLTOALL, 1, 1, 9);
  event_is(&r.event[2], TC_TRAIN_COMPUTE, TC_TRAIN_FORWARD, 1, 9, 10);
  event_is(&r.event[5], TC_TRAIN_COMPUTE, TC_TRAIN_BACKWARD, 1, 26, 28);
  event_is(&r.event[8], TC_TRAIN_COMM, TC_TRAIN_ALLREDUCE, 0, 38, 43);
  tc_train_result_destroy(&r);
}

/* The all-to-all asked for while an allreduce runs waits for it (one collective at a time):
   backward of layer 1 6-8, its 8-byte bucket allreduced 8-17, the expert layer's first
   all-to-all (2 bytes, 2 s) 17-19, backward 19-21, all-to-all 21-23. */
static void alltoall_waits_for_allreduce(void **state) {
  (void)state;
  tc_train_layer ls[2] = {expert(2, 1, 1), dense(2, 1)};
  tc_train_model m = model_of(ls, 2);
  tc_train_device d = unit_device();
  tc_train_network n = unit_net();
  tc_train_result r;
  tc_error err;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 4, &r, &err), TC_OK);
  assert_true(r.iteration_s == 23);
  assert_true(r.compute_s == 6);
  assert_true(r.alltoall_s == 8);
  assert_true(r.allreduce_exposed_s == 9);
  event_is(&r.event[5], TC_TRAIN_COMM, TC_TRAIN_ALLREDUCE, 1, 8, 17);
  event_is(&r.event[6], TC_TRAIN_COMM, TC_TRAIN_ALLTOALL, 0, 17, 19);
  event_is(&r.event[8], TC_TRAIN_COMM, TC_TRAIN_ALLTOALL, 0, 21, 23);
  tc_train_result_destroy(&r);
}

/* Best bucket: on the one-bucket case every capacity gives 15 s; ties keep the smallest. */
static void best_bucket(void **state) {
  (void)state;
  assert_true(tc_train_bucket(0) == 1e6 && tc_train_bucket(1) == 1e7 && tc_train_bucket(2) == 1e8 &&
              tc_train_bucket(3) == 1e9 && tc_train_bucket(4) == 0);
  tc_train_layer ls[2] = {dense(1, 1), dense(1, 1)};
  tc_train_model m = model_of(ls, 2);
  tc_train_device d = unit_device();
  tc_train_network n = unit_net();
  tc_train_result r;
  tc_error err;
  assert_int_equal(tc_train_simulate_best(&m, &d, &n, 1, &r, &err), TC_OK);
  assert_true(r.iteration_s == 15);
  assert_true(r.bucket_bytes == 1e6);
  tc_train_result_destroy(&r);
}

static void refusals(void **state) {
  (void)state;
  tc_train_layer ls[1] = {expert(3, 1, 1)};
  tc_train_model m = model_of(ls, 1);
  tc_train_device d = unit_device();
  tc_train_network n = unit_net();
  tc_train_result r;
  tc_error err;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 1e9, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "hand has 3 experts per expert layer, which 2 nodes cannot shard evenly (use "
                               "--experts with a multiple of 2)");
  assert_null(r.event);
  ls[0].experts = 2;
  n.a2a_f = 0;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 1e9, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "hand has expert layers but the network has no all-to-all rate");
  n.a2a_f = 0.5;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 0, 1e9, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "batch must be at least 1 sample per node (got 0)");
  d.efficiency = 1.5;
  assert_int_equal(tc_train_simulate(&m, &d, &n, 1, 1e9, &r, &err), TC_EINPUT);
  assert_string_equal(err.msg, "device efficiency must be in (0, 1] (got 1.5)");
}

/* The published totals: torchvision's ResNet-50 (25,557,032) and VGG-16 (138,357,544),
   GPT-2's 124 M / 355 M / 774 M (Hugging Face counts with tied embeddings), Switch
   Transformers' 7 B, 26 B, 395 B and 1571 B ([30] Table 9) and Switch-Base with 256
   experts, 14.7 B (A.4's 14.7 B model). Forward FLOPs: ResNet-50's 4.09 G and VGG-16's
   15.47 G multiply-adds. */
static void model_table(void **state) {
  (void)state;
  static const struct {
    const char *name;
    int32_t experts;
    int64_t params;
    int32_t layers;
  } want[] = {
      {"resnet50", 0, 25557032, 54},          {"vgg16", 0, 138357544, 16},
      {"gpt2-small", 0, 124439808, 26},       {"gpt2-medium", 0, 354823168, 50},
      {"gpt2-large", 0, 774030080, 74},       {"switch-base", 0, 7415217408, 62},
      {"switch-base", 256, 14664154368, 62},  {"switch-large", 0, 26309291008, 122},
      {"switch-xxl", 0, 391523577856, 122},   {"switch-c", 0, 1571308972448, 77},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    tc_train_model m;
    tc_error err;
    assert_int_equal(tc_train_model_make(want[i].name, want[i].experts, &m, &err), TC_OK);
    assert_int_equal(m.params, want[i].params);
    assert_int_equal(m.nlayers, want[i].layers);
    if (!strcmp(m.name, "resnet50")) assert_true(m.flops == 2.0 * 4089184256.0);
    if (!strcmp(m.name, "vgg16")) assert_true(m.flops == 30940528640.0);
    tc_train_model_destroy(&m);
  }
  assert_int_equal(tc_train_model_count(), 9);
  char names[256];
  tc_train_model_names(names, sizeof names);
  assert_string_equal(names,
                      "resnet50, vgg16, gpt2-small, gpt2-medium, gpt2-large, switch-base, switch-large, switch-xxl, "
                      "switch-c");
  tc_train_model m;
  tc_error err;
  assert_int_equal(tc_train_model_make("bert", 0, &m, &err), TC_EINPUT);
  assert_string_equal(err.msg, "unknown model 'bert' (resnet50, vgg16, gpt2-small, gpt2-medium, gpt2-large, "
                               "switch-base, switch-large, switch-xxl, switch-c)");
  assert_int_equal(tc_train_model_make("resnet50", 4, &m, &err), TC_EINPUT);
  assert_string_equal(err.msg, "resnet50 has no experts");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_bucket_no_overlap), cmocka_unit_test(full_overlap),
      cmocka_unit_test(expert_layer),          cmocka_unit_test(alltoall_waits_for_allreduce),
      cmocka_unit_test(best_bucket),           cmocka_unit_test(refusals),
      cmocka_unit_test(model_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
