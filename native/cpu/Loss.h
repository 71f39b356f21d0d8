// The pointwise loss kernels' N-API functions (Loss.cc, loss_kernels.h). Registered from addon.cc's Init.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitLoss(Napi::Env env, Napi::Object exports);
}
