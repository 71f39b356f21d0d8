// Run-time CPU capability (aten/src/ATen/native/DispatchStub.cpp compute_cpu_capability): the best
// kernel unit this CPU can run, optionally capped by GLASSTORCH_NATIVE_ISA=default|avx2|avx512
// (PyTorch's ATEN_CPU_CAPABILITY).
#pragma once
#include <cstdint>
#include <string>
#include "kernels.h"

namespace glasstorch {

struct CpuFeatures { bool avx2, fma, avx512f, avx512dq, avx512vl, avx512bw; };
CpuFeatures detect_cpu_features();
// The highest capability the CPU supports: "AVX512", "AVX2" or "DEFAULT".
const char* best_capability();
// Selects the kernel table for a capability name (case-insensitive); false if the CPU cannot run it.
bool set_capability(const std::string& name);
const KernelTable& kernels();
// The L2 data cache of one core in bytes (glibc's sysconf, from CPUID; 1 MiB when it cannot say):
// GEMM blocking that depends on what stays in L2 reads it.
int64_t l2_cache_bytes();

}  // namespace glasstorch
