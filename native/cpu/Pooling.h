// max_pool1d and adaptive_max_pool2d forward (Pooling.cc). Registered from addon.cc's Init.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitPooling(Napi::Env env, Napi::Object exports);
}
