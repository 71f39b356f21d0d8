// The random-sampling N-API functions (issue #8, creation rows): mt19937 and PyTorch 1.13's CPU
// transforms for rand / randn / randint / randperm. Registered from addon.cc's Init with one line.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitRandom(Napi::Env env, Napi::Object exports);
}
