// The copy-like shape kernels' N-API surface (Shape.cc): a same-dtype strided copy that tiles a
// transposing layout, and reflection / replication padding.
#pragma once
#include <napi.h>

namespace glasstorch {
void InitShape(Napi::Env env, Napi::Object exports);
}  // namespace glasstorch
