// The counting kernels' N-API surface (Histogram.cc): bincount and histc's linear binning.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitHistogram(Napi::Env env, Napi::Object exports);
}  // namespace glasstorch
