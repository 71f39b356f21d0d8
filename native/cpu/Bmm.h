// The batched GEMM (Bmm.cc): bmm / baddbmm / matmul's batched case in one N-API call, registered by
// addon.cc's Init.
#pragma once
#include <napi.h>

namespace glasstorch {

void InitBmm(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
