// The second batch of common ops (issue #8 item 4): where, masked_fill_, cumsum/cumprod, arange and
// linspace (see Ops2.cc). Registered from addon.cc's Init with one line.
#pragma once
#include <napi.h>

namespace glasstorch {

void InitOps2(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
