// torch.unique without dim (Unique.cc).
#pragma once
#include <napi.h>

namespace glasstorch {

void InitUnique(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
