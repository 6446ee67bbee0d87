/*
** device.c — the device model of `topocoll train` (train.h): a layer's compute time is its
** FLOPs over the peak FLOP/s times an efficiency. A.4 measured every layer on an NVIDIA
** A100-SXM-80GB; we have no GPU, so the default is that GPU's dense BF16 tensor-core peak
** (312 TFLOP/s, NVIDIA's A100 datasheet) at an efficiency of one half, a typical fraction
** for large matrix products in training (our choice: docs/training.md); both can be
** overridden (`train --device-flops`, `--efficiency`).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "topocoll/train.h"

void tc_train_device_default(tc_train_device *d) {
  memset(d, 0, sizeof *d);
  snprintf(d->name, sizeof d->name, "A100-SXM-80GB, BF16");
  d->peak_flops = 312e12;
  d->efficiency = 0.5;
}

int tc_train_device_check(const tc_train_device *d, tc_error *err) {
  if (!(isfinite(d->peak_flops) && d->peak_flops > 0))
    return tc_error_set(err, TC_EINPUT, "device peak must be a positive FLOP/s rate (got %g)", d->peak_flops);
  if (!(isfinite(d->efficiency) && d->efficiency > 0 && d->efficiency <= 1))
    return tc_error_set(err, TC_EINPUT, "device efficiency must be in (0, 1] (got %g)", d->efficiency);
  return TC_OK;
}

double tc_train_device_time(const tc_train_device *d, double flops) {
  return flops / (d->peak_flops * d->efficiency);
}
