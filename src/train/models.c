/*
** models.c — the model table of `topocoll train` (train.h): every model by name, its
** layers with parameters and forward FLOPs per sample, derived here from the published
** shapes (sources in docs/papers.md, choices in docs/training.md). The one list of models:
** `train --list`, the error messages and the tests read it.
**
** Counting rules, the same for every model:
**   - a matrix product of an m x k by a k x n operand costs 2·m·k·n FLOPs; a convolution
**     is one per output pixel; normalisations, activations and pooling are not counted;
**   - convolutions have no bias when batch normalisation follows (ResNet), whose γ and β
**     are counted with the convolution; VGG's convolutions and fully connected layers have
**     biases; GPT-2's linear layers have biases, T5's (Switch's) have none;
**   - attention scores and their weighted sum cost 2·2·Sq·Sk·(heads·d_head) per sequence;
**   - tied embeddings: the output projection reuses the input embedding (its FLOPs are
**     counted, its parameters once);
**   - an expert layer: every token goes to one expert (top-1, Switch routing), so its FLOPs
**     are one expert's plus the router's (d_model x E); its parameters are E experts.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/train.h"

/* A growing layer list while a model is built. */
typedef struct builder {
  tc_train_model *m;
  int cap;
  int failed;
} builder;

static tc_train_layer *add(builder *b, const char *name) {
  tc_train_model *m = b->m;
  if (m->nlayers == b->cap) {
    int cap = b->cap ? 2 * b->cap : 64;
    tc_train_layer *l = realloc(m->layer, (size_t)cap * sizeof *l);
    if (!l) {
      b->failed = 1;
      return NULL;
    }
    m->layer = l;
    b->cap = cap;
  }
  tc_train_layer *l = &m->layer[m->nlayers++];
  memset(l, 0, sizeof *l);
  snprintf(l->name, sizeof l->name, "%s", name);
  return l;
}

/* A k x k convolution cin -> cout producing hw x hw pixels; bn: batch norm after it (no
   bias, γ and β counted), else a bias. */
static void conv(builder *b, const char *name, int64_t k, int64_t cin, int64_t cout, int64_t hw, int bn) {
  tc_train_layer *l = add(b, name);
  if (!l) return;
  l->params = k * k * cin * cout + (bn ? 2 * cout : cout);
  l->flops = 2.0 * (double)(k * k * cin * cout) * (double)(hw * hw);
}

static void linear(builder *b, const char *name, int64_t in, int64_t out) {
  tc_train_layer *l = add(b, name);
  if (!l) return;
  l->params = in * out + out;
  l->flops = 2.0 * (double)(in * out);
}

/* ResNet-50 v1.5 (torchvision): the stride sits on the 3x3 convolution of a bottleneck. */
static void build_resnet50(builder *b) {
  conv(b, "conv1", 7, 3, 64, 112, 1);
  static const int blocks[4] = {3, 4, 6, 3};
  int64_t in = 64, hw = 56;
  for (int s = 0; s < 4; s++) {
    int64_t w = 64 << s, out = 4 * w;
    for (int i = 0; i < blocks[s]; i++) {
      int64_t hw_out = (s > 0 && i == 0) ? hw / 2 : hw;
      char name[32];
      snprintf(name, sizeof name, "layer%d.%d.conv1", s + 1, i);
      conv(b, name, 1, in, w, hw, 1);
      snprintf(name, sizeof name, "layer%d.%d.conv2", s + 1, i);
      conv(b, name, 3, w, w, hw_out, 1);
      snprintf(name, sizeof name, "layer%d.%d.conv3", s + 1, i);
      conv(b, name, 1, w, out, hw_out, 1);
      if (i == 0) {
        snprintf(name, sizeof name, "layer%d.%d.downsample", s + 1, i);
        conv(b, name, 1, in, out, hw_out, 1);
      }
      in = out;
      hw = hw_out;
    }
  }
  linear(b, "fc", 2048, 1000);
}

/* VGG-16 (configuration D): 13 3x3 convolutions with biases, then three fully connected. */
static void build_vgg16(builder *b) {
  static const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};
  int64_t in = 3, hw = 224;
  int n = 0;
  for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    if (!cfg[i]) {
      hw /= 2;
      continue;
    }
    char name[32];
    snprintf(name, sizeof name, "conv%d", ++n);
    conv(b, name, 3, in, cfg[i], hw, 0);
    in = cfg[i];
  }
  linear(b, "fc1", 512 * 7 * 7, 4096);
  linear(b, "fc2", 4096, 4096);
  linear(b, "fc3", 4096, 1000);
}

/* GPT-2: vocabulary 50257, context 1024 (the sequence length simulated), tied embeddings. */
static void build_gpt2(builder *b, int64_t layers, int64_t d) {
  const int64_t vocab = 50257, seq = 1024;
  tc_train_layer *l = add(b, "embed");
  if (!l) return;
  l->params = vocab * d + seq * d;
  for (int64_t i = 0; i < layers; i++) {
    char name[32];
    snprintf(name, sizeof name, "h%d.attn", (int)i);
    if (!(l = add(b, name))) return;
    l->params = 2 * d + (d * 3 * d + 3 * d) + (d * d + d); /* ln_1, c_attn, c_proj */
    l->flops = (double)seq * (2.0 * 4.0 * (double)(d * d) + 4.0 * (double)seq * (double)d);
    snprintf(name, sizeof name, "h%d.mlp", (int)i);
    if (!(l = add(b, name))) return;
    l->params = 2 * d + (d * 4 * d + 4 * d) + (4 * d * d + d); /* ln_2, c_fc, c_proj */
    l->flops = (double)seq * 2.0 * 8.0 * (double)(d * d);
  }
  if (!(l = add(b, "head"))) return;
  l->params = 2 * d; /* ln_f; the output projection is the tied embedding */
  l->flops = (double)seq * 2.0 * (double)(d * vocab);
}

/* A Switch Transformer (T5 encoder-decoder, paper [30] Table 9): every `step`-th feed-forward
   block (the 2nd, 4th, ... for step 2) is an expert layer; gated: GEGLU feed-forward (three
   matrices), else ReLU (two). Sequences: 512 encoder and 114 decoder tokens (T5's span
   corruption), vocabulary 32128, relative position buckets 32, RMS norms (scale only). */
typedef struct switch_shape {
  int64_t d, ff, heads, d_head, layers, experts, step;
  int gated;
} switch_shape;

#define SW_SEQ_ENC 512
#define SW_SEQ_DEC 114
#define SW_VOCAB 32128
#define SW_BUCKETS 32

static void switch_ffn(builder *b, const switch_shape *s, const char *stack, int64_t i, int64_t tokens,
                       int64_t experts) {
  const int64_t mats = s->gated ? 3 : 2, ffn = mats * s->d * s->ff;
  char name[32];
  int sparse = (i % s->step) == s->step - 1;
  snprintf(name, sizeof name, "%s%d.%s", stack, (int)i, sparse ? "moe" : "ffn");
  tc_train_layer *l = add(b, name);
  if (!l) return;
  l->params = s->d; /* the norm */
  l->flops = (double)tokens * 2.0 * (double)ffn;
  if (sparse) {
    l->params += s->d * experts; /* the router */
    l->flops += (double)tokens * 2.0 * (double)(s->d * experts);
    l->experts = (int32_t)experts;
    l->expert_params = ffn;
    l->a2a_elems = (double)tokens * (double)s->d;
  } else {
    l->params += ffn;
  }
}

static void switch_attn(builder *b, const char *name, const switch_shape *s, int64_t q_tokens, int64_t kv_tokens,
                        int rel_bias) {
  const int64_t inner = s->heads * s->d_head;
  tc_train_layer *l = add(b, name);
  if (!l) return;
  l->params = s->d + 4 * s->d * inner + (rel_bias ? SW_BUCKETS * s->heads : 0);
  l->flops = 2.0 * (double)(s->d * inner) * (double)(2 * q_tokens + 2 * kv_tokens) +
             4.0 * (double)q_tokens * (double)kv_tokens * (double)inner;
}

static void build_switch(builder *b, const switch_shape *s, int64_t experts) {
  tc_train_layer *l = add(b, "embed");
  if (!l) return;
  l->params = SW_VOCAB * s->d;
  char name[32];
  for (int64_t i = 0; i < s->layers; i++) {
    snprintf(name, sizeof name, "enc%d.attn", (int)i);
    switch_attn(b, name, s, SW_SEQ_ENC, SW_SEQ_ENC, i == 0);
    switch_ffn(b, s, "enc", i, SW_SEQ_ENC, experts);
  }
  for (int64_t i = 0; i < s->layers; i++) {
    snprintf(name, sizeof name, "dec%d.attn", (int)i);
    switch_attn(b, name, s, SW_SEQ_DEC, SW_SEQ_DEC, i == 0);
    snprintf(name, sizeof name, "dec%d.xattn", (int)i);
    switch_attn(b, name, s, SW_SEQ_DEC, SW_SEQ_ENC, 0);
    switch_ffn(b, s, "dec", i, SW_SEQ_DEC, experts);
  }
  if (!(l = add(b, "head"))) return;
  l->params = 2 * s->d; /* the two final norms; the output projection is the tied embedding */
  l->flops = (double)SW_SEQ_DEC * 2.0 * (double)(s->d * SW_VOCAB);
}

/* ---- the table ---- */

typedef struct model_row {
  const char *name, *title, *sample;
  int32_t batch;                 /* default samples per node (docs/training.md) */
  void (*build)(builder *b, const struct model_row *r, int64_t experts);
  int64_t a, b;                  /* GPT-2: layers, d */
  switch_shape sw;               /* Switch */
} model_row;

static void r_resnet50(builder *b, const model_row *r, int64_t e) { (void)r, (void)e; build_resnet50(b); }
static void r_vgg16(builder *b, const model_row *r, int64_t e) { (void)r, (void)e; build_vgg16(b); }
static void r_gpt2(builder *b, const model_row *r, int64_t e) { (void)e; build_gpt2(b, r->a, r->b); }
static void r_switch(builder *b, const model_row *r, int64_t e) { build_switch(b, &r->sw, e); }

static const model_row models[] = {
    {"resnet50", "ResNet-50 (v1.5, ImageNet)", "224x224 image", 64, r_resnet50, 0, 0, {0}},
    {"vgg16", "VGG-16 (configuration D, ImageNet)", "224x224 image", 64, r_vgg16, 0, 0, {0}},
    {"gpt2-small", "GPT-2 small (12 layers, d = 768)", "1024 tokens", 8, r_gpt2, 12, 768, {0}},
    {"gpt2-medium", "GPT-2 medium (24 layers, d = 1024)", "1024 tokens", 4, r_gpt2, 24, 1024, {0}},
    {"gpt2-large", "GPT-2 large (36 layers, d = 1280)", "1024 tokens", 1, r_gpt2, 36, 1280, {0}},
    {"switch-base", "Switch-Base (12+12 layers, d = 768, experts every 2nd FFN)", "512+114 tokens", 1, r_switch, 0, 0,
     {768, 3072, 12, 64, 12, 128, 2, 0}},
    {"switch-large", "Switch-Large (24+24 layers, d = 1024, experts every 2nd FFN)", "512+114 tokens", 1, r_switch, 0,
     0, {1024, 4096, 16, 64, 24, 128, 2, 0}},
    {"switch-xxl", "Switch-XXL (24+24 layers, d = 4096, GEGLU experts in every FFN)", "512+114 tokens", 1, r_switch,
     0, 0, {4096, 10240, 64, 64, 24, 64, 1, 1}},
    {"switch-c", "Switch-C (15+15 layers, d = 2080, experts in every FFN)", "512+114 tokens", 1, r_switch, 0, 0,
     {2080, 6144, 32, 64, 15, 2048, 1, 0}},
};
#define NMODELS ((int)(sizeof models / sizeof models[0]))

int tc_train_model_count(void) { return NMODELS; }

const char *tc_train_model_name(int i) { return i >= 0 && i < NMODELS ? models[i].name : NULL; }

void tc_train_model_names(char *buf, size_t size) {
  if (!size) return;
  buf[0] = '\0';
  size_t used = 0;
  for (int i = 0; i < NMODELS; i++) {
    int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", models[i].name);
    if (w < 0 || (size_t)w >= size - used) return;
    used += (size_t)w;
  }
}

/* Sanity bound on an expert count: Switch-C's 2048 times 64. */
#define MAX_EXPERTS 131072

int tc_train_model_make(const char *name, int32_t experts, tc_train_model *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  const model_row *r = NULL;
  for (int i = 0; i < NMODELS; i++)
    if (name && !strcmp(models[i].name, name)) r = &models[i];
  if (!r) {
    char names[256];
    tc_train_model_names(names, sizeof names);
    return tc_error_set(err, TC_EINPUT, "unknown model '%s' (%s)", name ? name : "", names);
  }
  if (experts && !r->sw.experts) return tc_error_set(err, TC_EINPUT, "%s has no experts", r->name);
  if (experts < 0 || experts > MAX_EXPERTS)
    return tc_error_set(err, TC_EINPUT, "experts must be 1..%d (got %d)", MAX_EXPERTS, (int)experts);
  int64_t e = experts ? experts : r->sw.experts;
  snprintf(out->name, sizeof out->name, "%s", r->name);
  snprintf(out->title, sizeof out->title, "%s", r->title);
  snprintf(out->sample, sizeof out->sample, "%s", r->sample);
  out->batch = r->batch;
  out->experts = (int32_t)e;
  builder b = {out, 0, 0};
  r->build(&b, r, e);
  if (b.failed) {
    tc_train_model_destroy(out);
    return tc_error_set(err, TC_ENOMEM, "out of memory building %s", r->name);
  }
  for (int32_t i = 0; i < out->nlayers; i++) {
    const tc_train_layer *l = &out->layer[i];
    out->params += l->params + (int64_t)l->experts * l->expert_params;
    out->flops += l->flops;
  }
  return TC_OK;
}

void tc_train_model_destroy(tc_train_model *m) {
  if (!m) return;
  free(m->layer);
  memset(m, 0, sizeof *m);
}
