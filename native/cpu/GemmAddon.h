// The GEMM's and the convolution's N-API functions (Gemm.cc, Conv.cc), registered by addon.cc's Init.
#pragma once
#include <napi.h>

namespace glasstorch {

void InitGemm(Napi::Env env, Napi::Object exports);  // also calls InitConv
void InitConv(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
