// The CPU allocator's N-API surface (c10's DefaultCPUAllocator for the native backend): see Allocator.cc.
#pragma once
#include <napi.h>

namespace glasstorch {

// Registers alloc, free, allocator_stats (and the benchmark's switches) on the addon's exports.
void InitAllocator(Napi::Env env, Napi::Object exports);

// The allocator's counters, added to the addon's status() object.
void AllocatorStatus(Napi::Object& o);

}  // namespace glasstorch
