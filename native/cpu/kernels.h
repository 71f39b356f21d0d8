// The kernel table each instruction-set unit fills (kernels_default.cc, kernels_avx2.cc,
// kernels_avx512.cc compile the same kernels.inc with different flags), and the codes the
// TypeScript side passes. One table is chosen at load time by CPU features (cpu_features.cc).
#pragma once
#include <cstdint>

namespace glasstorch {

// c10::ScalarType codes, as engine/c10/ScalarType.ts numbers them
enum DType : int { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kHalf = 5, kFloat = 6, kDouble = 7, kBool = 11, kBFloat16 = 15 };
constexpr int kNumDTypes = 16;

enum BinaryOp : int { kAdd = 0, kMul = 1, kDiv = 2, kNumBinaryOps };
enum UnaryOp : int { kNeg = 0, kAbs, kSqrt, kExp, kLog, kTanh, kSigmoid, kNumUnaryOps };

// One row of a pointwise loop: n elements, strides in elements (0 for a broadcast operand).
using BinaryLoop = void (*)(char* out, const char* a, const char* b, int64_t n, int64_t so, int64_t sa, int64_t sb, double alpha);
using UnaryLoop = void (*)(char* out, const char* a, int64_t n, int64_t so, int64_t sa);

struct KernelTable {
  const char* name;  // "DEFAULT", "AVX2", "AVX512" (ATEN_CPU_CAPABILITY's names)
  BinaryLoop binary[kNumBinaryOps][kNumDTypes];
  UnaryLoop unary[kNumUnaryOps][kNumDTypes];
};

extern const KernelTable kKernelsDefault;
extern const KernelTable kKernelsAVX2;
extern const KernelTable kKernelsAVX512;

}  // namespace glasstorch
