/*
** train.h — one training iteration, simulated as paper 000 App. A.4 does (Fig. 9, Fig. 16):
** data parallelism with PyTorch-DDP gradient buckets, and expert parallelism for the
** Mixture-of-Experts models (Switch Transformers).
**
** Three pieces, one file each in src/train/:
**   - the model table (models.c): ResNet-50, VGG-16, GPT-2 small/medium/large and the
**     Switch Transformers, each a list of layers with parameter counts and forward FLOPs
**     per sample derived from the published shapes (docs/training.md, docs/papers.md);
**   - the device model (device.c): a layer's compute time is its FLOPs over peak FLOP/s x
**     efficiency; backward costs twice the forward (two matrix products per one);
**   - the iteration simulator (simulate.c), exactly A.4: a compute stream and a
**     communication stream; forward, then backward in reverse layer order; each layer's
**     replicated gradient joins the current bucket when its backward ends, and a bucket
**     whose volume reaches the capacity is allreduced (the remainder after the last
**     layer); an expert layer runs an all-to-all before and after its expert computation,
**     in forward and in backward, and the compute stream waits for each; the
**     communication stream runs one collective at a time, in the order they were asked
**     for, so an all-to-all never overlaps an allreduce. The iteration ends when both
**     streams are idle. tc_train_simulate_best tries the buckets of TC_TRAIN_BUCKETS and
**     keeps the fastest (ties: the smaller).
**
** Collective times: an allreduce of M bytes takes steps·α + tau·M/(degree·link_bw) with
** (steps, tau, degree) measured on a verified schedule (cost.h); an all-to-all in which
** every node sends M bytes takes (M/N)/(f·link_bw) at the certified MCF value f (find.h,
** paper 000 App. A.5). The caller measures them; this layer only uses them.
**
** Expert parallelism: the E experts of an expert layer are sharded over all N nodes (E a
** multiple of N, else TC_EINPUT), so expert parameters are never allreduced; with uniform
** routing (A.4) every node computes as many tokens through its experts as it holds, and
** every node sends its tokens' activations in each all-to-all.
**
** Precision (our choice, docs/training.md): gradients are allreduced in fp32
** (TC_TRAIN_GRAD_BYTES per parameter); activations travel in bf16 (TC_TRAIN_ACT_BYTES).
*/
#ifndef TOPOCOLL_TRAIN_H
#define TOPOCOLL_TRAIN_H

#include "topocoll/export.h"

#include <stddef.h>
#include <stdint.h>

#include "topocoll/error.h"

#define TC_TRAIN_GRAD_BYTES 4
#define TC_TRAIN_ACT_BYTES 2
/* The bucket capacities A.4 compares: 1 MB, 10 MB, 100 MB, 1 GB (decimal). */
#define TC_TRAIN_NBUCKETS 4
TC_API double tc_train_bucket(int i);

/* One layer of a model (a unit the simulator schedules: a convolution, an attention block,
   a feed-forward or expert block). */
typedef struct tc_train_layer {
  char name[32];          /* "conv1", "layer3.2.conv2", "enc4.moe" */
  int64_t params;         /* replicated (data-parallel) parameters: allreduced */
  int32_t experts;        /* 0: dense; else the layer's experts (all nodes together) */
  int64_t expert_params;  /* parameters of ONE expert (experts > 0) */
  double flops;           /* forward FLOPs per sample (an expert layer: each token through
                             one expert, top-1 routing, plus its router) */
  double a2a_elems;       /* expert layer: activation elements one sample sends per all-to-all */
} tc_train_layer;

typedef struct tc_train_model {
  char name[32];          /* "gpt2-small" */
  char title[96];         /* "GPT-2 small (12 layers, d = 768)" */
  int32_t nlayers;
  tc_train_layer *layer;  /* owned */
  int64_t params;         /* all parameters, every expert counted */
  double flops;           /* forward FLOPs per sample, all layers */
  int32_t experts;        /* experts per expert layer (0: dense model) */
  int32_t batch;          /* default samples per node per iteration */
  char sample[32];        /* what a sample is: "224x224 image", "512+114 tokens" */
} tc_train_model;

/* The model table, in `train --list` order. */
TC_API int tc_train_model_count(void);
TC_API const char *tc_train_model_name(int i);
/* "resnet50, vgg16, ..." into buf. */
TC_API void tc_train_model_names(char *buf, size_t size);
/* Build model `name` (experts: 0 for the published count, else the expert count of every
   expert layer, >= 1, only for MoE models). TC_EINPUT with one line: "unknown model 'x'
   (resnet50, ...)", "resnet50 has no experts", a bad expert count. */
TC_API int tc_train_model_make(const char *name, int32_t experts, tc_train_model *out, tc_error *err);
TC_API void tc_train_model_destroy(tc_train_model *m);

/* The device: time = flops / (peak_flops · efficiency). */
typedef struct tc_train_device {
  char name[64];
  double peak_flops;      /* FLOP/s */
  double efficiency;      /* fraction of the peak reached, in (0, 1] */
} tc_train_device;
/* NVIDIA A100-SXM-80GB (A.4's GPU): 312 TFLOP/s dense BF16 tensor cores, efficiency 0.5
   (our choice, docs/training.md). */
TC_API void tc_train_device_default(tc_train_device *d);
/* TC_EINPUT unless peak_flops > 0 and 0 < efficiency <= 1 (finite). */
TC_API int tc_train_device_check(const tc_train_device *d, tc_error *err);
TC_API double tc_train_device_time(const tc_train_device *d, double flops);

/* The network, as measured by the caller. */
typedef struct tc_train_network {
  int32_t nodes;
  double alpha_s;         /* per-step latency (s) */
  double link_bw;         /* bytes/s of one link (capacity 1) */
  int32_t ar_steps;       /* the verified allreduce schedule: T_L / α ... */
  double ar_tau;          /* ... T_B / (M/B) ... */
  int64_t ar_degree;      /* ... and B = ar_degree · link_bw */
  double a2a_f;           /* the certified MCF value f (0: unknown; then a model with
                             experts is refused) */
} tc_train_network;
TC_API double tc_train_allreduce_time(const tc_train_network *net, double bytes);
TC_API double tc_train_alltoall_time(const tc_train_network *net, double bytes);

enum { TC_TRAIN_COMPUTE = 0, TC_TRAIN_COMM = 1 };
enum { TC_TRAIN_FORWARD = 0, TC_TRAIN_BACKWARD = 1, TC_TRAIN_ALLREDUCE = 2, TC_TRAIN_ALLTOALL = 3 };
TC_API const char *tc_train_stream_name(int stream);
TC_API const char *tc_train_kind_name(int kind);

typedef struct tc_train_event {
  int stream;             /* TC_TRAIN_COMPUTE or TC_TRAIN_COMM */
  int kind;               /* TC_TRAIN_FORWARD ... TC_TRAIN_ALLTOALL */
  int32_t layer;          /* the layer (an allreduce: the last layer of its bucket) */
  double start_s, end_s;
} tc_train_event;

typedef struct tc_train_result {
  double iteration_s;     /* both streams idle */
  double compute_s;       /* Σ forward + backward */
  double alltoall_s;      /* Σ all-to-all (the compute stream waits for each) */
  double allreduce_exposed_s; /* iteration − compute − all-to-all: allreduce not hidden */
  double allreduce_s;     /* Σ allreduce, hidden or not */
  double bucket_bytes;    /* the capacity used */
  int32_t nallreduce, nalltoall;
  int32_t nevents;
  tc_train_event *event;  /* owned: one iteration, in start order per stream */
} tc_train_result;

/* TC_EINPUT unless the model can train on `nodes` nodes: at least 2, and every expert layer's
   experts a multiple of them ("switch-base has 128 experts per expert layer, which 48 nodes
   cannot shard evenly (use --experts with a multiple of 48)"). */
TC_API int tc_train_check_nodes(const tc_train_model *m, int32_t nodes, tc_error *err);

/* One iteration with `batch` samples per node and bucket capacity bucket_bytes (> 0).
   TC_EINPUT: batch < 1, a model with experts on a network without f, experts not a
   multiple of the nodes. On failure *out is left empty. */
TC_API int tc_train_simulate(const tc_train_model *m, const tc_train_device *dev, const tc_train_network *net,
                             int32_t batch, double bucket_bytes, tc_train_result *out, tc_error *err);
/* The fastest of the TC_TRAIN_NBUCKETS capacities (A.4). */
TC_API int tc_train_simulate_best(const tc_train_model *m, const tc_train_device *dev, const tc_train_network *net,
                                  int32_t batch, tc_train_result *out, tc_error *err);
TC_API void tc_train_result_destroy(tc_train_result *r);

#endif
