// cummax / cummin and logcumsumexp along a dim (Scan.cc).
#pragma once
#include <napi.h>

namespace glasstorch {

void InitScan(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
