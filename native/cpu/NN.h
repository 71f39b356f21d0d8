// The NN kernels' N-API surface (NN.cc): softmax, layer/batch norm, pooling, index and embedding.
#pragma once
#include <napi.h>

namespace glasstorch {

// Adds the NN kernels' functions to the addon's exports (called from addon.cc's Init).
void InitNN(Napi::Env env, Napi::Object exports);
// The index kernels' functions (NNIndex.cc), added by InitNN.
void InitNNIndex(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
