// The pointwise-op kernel table (issue #8 item 4: elementwise unary/binary ops, casts and the
// reductions' inner loops). pointwise_kernels.inc is compiled three times (pointwise_{default,avx2,
// avx512}.cc) with each unit's flags; Pointwise.cc picks the table matching the capability the
// rest of the addon runs (cpu_features.cc), so _set_native_isa switches these kernels too.
#pragma once
#include <atomic>
#include <cstdint>
#include "kernels.h"

namespace glasstorch {
namespace pw {

// Op codes; engine/aten/native/cpu_native/NativePointwise.ts has the same numbers.
enum Op : int {
  // (out, a, b), s[0] = alpha for add
  kAdd = 0, kMul, kDiv, kMaximum, kMinimum,
  kMaximumTie2, kMinimumTie2,  // unary/Clamp.ts's maximum/minimum: equal values give b (_mm256_max_ps)
  kEq, kNe, kLt, kLe, kGt, kGe,  // out is bool
  kThreshold,                    // (out, x, other): x <= s[0] ? s[1] : other
  // (out, a)
  kNeg, kAbs, kSqrt, kRsqrt, kReciprocal, kExp, kLog, kTanh, kSigmoid, kSilu, kSin, kCos, kErf,
  kGeluErfVec,   // gelu(approximate='none') with Vectorized<float>::erf (contiguous operands)
  kGeluErf,      // gelu(approximate='none') with erf (strided operands)
  kGeluTanh,     // gelu(approximate='tanh')
  kClamp,        // s[0] = min, s[1] = max (std::min(std::max(a, lo), hi))
  kClampMin,     // std::max(a, s[0]) (relu: s[0] = 0)
  kClampMax,     // std::min(a, s[0])
  kPowScalar,    // pow(a, s[0]) for s[0] in {2, 3, 0.5, -0.5, -1, -2}: pow_tensor_scalar_kernel's special cases
  // (out, self, end): s[0] = weight
  kLerpScalar,
  // (out, self, t1, t2): s[0] = value; (out, self, end, weight)
  kAddcmul, kAddcdiv, kLerpTensor,
  // (out, grad_output, self): the activations' backward kernels
  kGeluBackwardErfVec,  // gelu_backward(approximate='none'), Vectorized<float>::erf (contiguous operands)
  kGeluBackwardErf,     // gelu_backward(approximate='none'), erf (strided operands)
  kGeluBackwardTanh,    // gelu_backward(approximate='tanh')
  kSiluBackward,
  // (out, a): rounding and sign (exact), more transcendentals
  kFloor, kCeil, kTrunc, kRound, kFrac, kSign, kLog1p, kExpm1, kLog2, kLog10, kExp2, kSinh, kCosh, kTan, kAsin, kAcos, kAtan,
  // (out, a, b)
  kMse,  // (a - b)^2: mse_loss's elementwise step
  // (out, a, b): pointwise_binary_math.inc
  kRemainder, kFmod, kDivTrunc, kDivFloor, kAtan2, kHypot, kCopysign, kFmax, kFmin, kXlogy, kPowTensor,
  // (out, a): pow(a, s[0]) for any exponent (std::pow)
  kPowScalarAny,
  // (out, x): activations (pointwise_activation.inc); s as each loop says
  kLeakyRelu, kElu, kSoftplus, kMish, kHardsigmoid, kHardswish,
  // (out, a, b): their backward kernels, a and b in the TS kernel's input order
  kLeakyReluBackward, kHardtanhBackward, kHardsigmoidBackward, kEluBackward, kSoftplusBackward, kHardswishBackward, kMishBackward,
  // (out, a, b): logical ops (out is bool; an operand is true when nonzero, NaN included) and bitwise
  // ops (out in the operands' dtype: the integer types and bool)
  kLogicalAnd, kLogicalOr, kLogicalXor, kBitwiseAnd, kBitwiseOr, kBitwiseXor,
  // (out, a): logical_not (out is bool), bitwise_not
  kLogicalNot, kBitwiseNot,
  // (out, a): nan_to_num, s = [nan, posinf, neginf] already in the dtype (float32, float64)
  kNanToNum,
  // (out, a): pointwise_special.inc; logit: s[0] = eps (-1 for None)
  kErfc, kErfinv, kLogit,
  // (out, a, b): logical ops on operands of different dtypes, out bool; s[0], s[1]: a's and b's dtype codes
  kLogicalAndMixed, kLogicalOrMixed, kLogicalXorMixed,
  // (out, a): pointwise_gamma.inc
  kAsinh, kAcosh, kAtanh, kLgamma, kDigamma, kTrigamma,
  // (out, a, b): glu's a * sigmoid(b) over the two halves (pointwise_activation.inc)
  kGlu,
  kNumOps
};

// One row: n elements; strides in bytes per operand (0 = broadcast). s: the op's scalars.
using Loop = void (*)(char** data, const int64_t* strides, int64_t n, const double* s);

// Reduction inner loops over n contiguous elements (the reduced dim innermost).
using SumRow = double (*)(const void* a, int64_t n);          // double accumulation, fixed lane order
using SumCols = void (*)(const void* a, int64_t n, int64_t stride, int64_t m, double* acc);  // acc[j] += a[i*stride + j], j < m
using ExtremeRow = double (*)(const void* a, int64_t n);  // the min or max (the first NaN, if any)
// Lane reductions (pointwise_lane_reduce.inc, for Reductions.cc lane_reduce): a[i * stride] (in
// elements) for i < n folded into 64 lanes of the accumulation type, element i into lane (lane0 + i) % 64
enum LaneOp : int { kLaneProd, kLaneAbsSum, kLaneSquareSum, kLaneNonzero, kLaneAbsMax, kLaneAbsMin, kNumLaneOps };
using LaneFold = void (*)(const void* a, int64_t n, int64_t stride, int64_t lane0, void* lanes);

struct Table {
  const char* name;
  Loop op[kNumOps][kNumDTypes];
  Loop cast[kNumDTypes][kNumDTypes];  // [from][to]: (out, a)
  SumRow sum[kNumDTypes];
  SumRow sum_f32_runs;  // float32 adding in float runs before double (a float32 result's sum, as PyTorch's)
  // 1 to 4 equally long float32 rows at once, each result the bits sum_f32_runs gives it (one memory
  // stream a row)
  void (*sum_rows_f32_runs)(const float* const* rows, int count, int64_t n, double* out);
  SumRow sumsq[kNumDTypes];           // sum of squares in double (norm)
  SumCols sum_cols[kNumDTypes];
  SumCols sum_cols_f32_runs;  // float32 columns in float runs before double (sum_f32_runs's columns)
  ExtremeRow extreme[2][kNumDTypes];  // [0]: min, [1]: max
  // [0]: min, [1]: max of n >= 1 contiguous int64 (extreme's lanes, exact: extreme returns a double)
  int64_t (*extreme_i64[2])(const void* a, int64_t n);
  // [op][input dtype][lanes: 0 float, 1 double]: prod (every dtype into double lanes), the vector norms
  // (float32 into float or double lanes, float64 into double); null elsewhere
  LaneFold lane_fold[kNumLaneOps][kNumDTypes][2];
  int64_t (*find_first[kNumDTypes])(const void* a, int64_t n, double v);  // first a[i] == v (NaN: first NaN), -1 if none
  // logsumexp's sum: acc + exp(a[i * stride] - m) for i < n, each term rounded to the element type,
  // added in order in double (float32 and float64; null for the others)
  double (*lse_sum[kNumDTypes])(const void* a, int64_t n, int64_t stride, double m, double acc);
  // lse_sum of four contiguous rows of n from 0 (row r's max m[r]) into out[r], each the bits lse_sum
  // gives it, the four addition chains interleaved (pointwise_lse_rows.inc; float32 and float64)
  void (*lse_sum_rows4[kNumDTypes])(const void* const* rows, int64_t n, const double* m, double* out);
  // [0]: min, [1]: max of best[j] and row[j] for j < m into best[j], NaN winning, the best kept on ties
  // (pointwise_column_extremes.inc; the arithmetic types and bool, null for float16/bfloat16)
  void (*column_extreme[2][kNumDTypes])(const void* row, int64_t m, void* best);
  // the same ops with streaming (non-temporal) stores on contiguous rows, for outputs larger than the
  // cache (Pointwise.cc: kStreamBytes); null where an op has none
  Loop stream_op[kNumOps][kNumDTypes];
  Loop stream_copy[kNumDTypes];  // cast[t][t]
  // index_add_ of a 1-D result: out[out_off[i]] += alpha * src[i * src_step] for i < n in order (byte
  // offsets), add's arithmetic with its loop inlined (a call per element cost ~3 ns); null: reduced types
  void (*index_add_elements[kNumDTypes])(char* out, const int64_t* out_off, const char* src, int64_t src_step, int64_t n, const double* sc);
  // n elements of itemsize (1, 2, 4 or 8) bytes at dst become the pattern's bytes (fill_, Fill.cc)
  void (*fill)(char* dst, int64_t n, const uint8_t* pattern, int itemsize);
  // bytes from src to dst (no overlap) in the unit's vectors: rows of a broadcast copy (Shape.cc)
  void (*copy_bytes)(char* dst, const char* src, int64_t bytes);
};

// Set by an integer division loop that met a zero divisor (pointwise_binary_math.inc); pw_op reads and clears it.
extern std::atomic<bool> g_zero_division;

extern const Table kTableDefault;
extern const Table kTableAVX2;
extern const Table kTableAVX512;

// The table for the capability kernels() runs.
const Table& table();

}  // namespace pw
}  // namespace glasstorch
