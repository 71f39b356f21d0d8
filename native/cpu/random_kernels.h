// normal_fill_AVX2's Box-Muller transform (aten/src/ATen/native/cpu/DistributionKernels.cpp, PyTorch
// 1.13) with the Cephes log256_ps / sincos256_ps of avx_mathfun.h, lane for lane as
// engine/aten/cpu/avx_mathfun.ts computes them: separate float roundings, and one fused multiply-add
// exactly where gcc contracted one in the shipped AVX2 libtorch_cpu.so (std::fmaf here; the units
// are built with -ffp-contract=off, so nothing else is fused). random_kernels.inc is compiled three
// times (random_{default,avx2,avx512}.cc); the results are the same bits in each, only the speed differs.
#pragma once
#include <cstdint>

namespace glasstorch {
namespace rnd {

// data: `blocks` consecutive blocks of 16 uniforms in [0, 1); each becomes 16 normals in place:
// u[j], u[j + 8] -> radius * cos(theta) * std + mean, radius * sin(theta) * std + mean.
using NormalBlocks = void (*)(float* data, int64_t blocks, float mean, float std);

struct Table {
  const char* name;
  NormalBlocks normal_blocks;
};

extern const Table kTableDefault;
extern const Table kTableAVX2;
extern const Table kTableAVX512;

}  // namespace rnd
}  // namespace glasstorch
