// im2col and col2im over contiguous float tensors (Im2Col.cc). Registered from addon.cc's Init.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitIm2Col(Napi::Env env, Napi::Object exports);
}
