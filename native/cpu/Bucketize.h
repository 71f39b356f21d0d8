// searchsorted's N-API surface (Bucketize.cc).
#pragma once
#include <napi.h>

namespace glasstorch {
void InitBucketize(Napi::Env env, Napi::Object exports);
}  // namespace glasstorch
