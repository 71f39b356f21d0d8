// The pointwise loss kernels' table (engine/aten/native/loss/LossKernel.ts, PyTorch's
// cpu/BinaryOpsKernel.cpp and cpu/PointwiseOpsKernel.cpp): the forward and backward lambdas of the
// losses whose TensorIterator has two or three inputs, and log_sigmoid's backward. loss_kernels.inc is
// compiled three times (loss_{default,avx2,avx512}.cc) with each unit's flags; Loss.cc picks the
// table of the capability the rest of the addon runs. A table of its own (not pointwise_kernels.h's
// op enum), so the loss kernels change without touching the pointwise units.
#pragma once
#include <atomic>
#include <cstdint>

namespace glasstorch {
namespace loss {

// Op codes; engine/aten/native/cpu_native/NativeLoss.ts has the same numbers.
enum Op : int {
  // (out, input, target): s[0] = beta / delta
  kSmoothL1 = 0, kHuber,
  // (out, input, target, grad_output): s[0] = norm (s[1] = beta / delta)
  kMseBackward, kSmoothL1Backward, kHuberBackward,
  // (out, grad, input, target)
  kBceBackward,
  // (out, input, buffer, grad_output)
  kLogSigmoidBackward,
  // (out, input, target): binary_cross_entropy; an input outside [0, 1] sets g_out_of_range
  kBce,
  // (out, buffer, input): log_sigmoid forward, two outputs
  kLogSigmoid,
  // (out, input, weight): prelu, the weight broadcast along the channels
  kPrelu,
  // (grad_input, collector, input, grad_output, weight): prelu's backward, two outputs
  kPreluBackward,
  // (out, input, target): binary_cross_entropy_with_logits without pos_weight
  kBceWithLogits,
  kNumOps
};

// One row of n elements; byte strides per operand. s: the op's scalars.
using Loop = void (*)(char** data, const int64_t* strides, int64_t n, const double* s);

// op[op][0]: float32, op[op][1]: float64
struct Table {
  const char* name;
  Loop op[kNumOps][2];
};

// Set by binary_cross_entropy's loop when an input is not in [0, 1] (NaN included); loss_op reads and clears it.
extern std::atomic<bool> g_out_of_range;

extern const Table kTableDefault;
extern const Table kTableAVX2;
extern const Table kTableAVX512;

}  // namespace loss
}  // namespace glasstorch
