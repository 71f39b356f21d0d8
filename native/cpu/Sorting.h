// sort and topk along a dim (Sorting.cc).
#pragma once
#include <napi.h>

namespace glasstorch {

void InitSorting(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
