// The pointwise driver (aten/src/ATen/native/cpu/Loops.h, TensorIteratorBase::for_each): coalesces
// the iterator's dims, splits the elements over the thread pool by GRAIN_SIZE, and hands each row
// (the innermost dim) to the selected unit's row loop with the operands' strides.
#pragma once
#include <cstdint>
#include "kernels.h"

namespace glasstorch {

constexpr int kMaxDims = 25;  // PyTorch's MAX_DIMS is 25 too

struct Operand {
  char* data;        // the storage's first byte
  int64_t offset;    // storage offset, elements
  int64_t strides[kMaxDims];  // elements; 0 along broadcast dims
};

// out = op(a, b) elementwise over `shape`; every operand has the element size `itemsize`.
void pointwise_binary(BinaryLoop loop, int ndim, const int64_t* shape, Operand ops[3], int itemsize, double alpha);
void pointwise_unary(UnaryLoop loop, int ndim, const int64_t* shape, Operand ops[2], int itemsize);

}  // namespace glasstorch
