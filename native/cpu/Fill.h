// fill_bytes: a parallel fill of a contiguous window (FillKernel.cpp's fill_stub for the native backend): see Fill.cc.
#pragma once
#include <napi.h>

namespace glasstorch {

void InitFill(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
