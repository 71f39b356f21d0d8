// sum over a set of dims (aten/src/ATen/native/cpu/SumKernel.cpp's job) for float32 and float64:
// accumulated in double, rounded once to the result dtype, as the TypeScript kernel does.
#pragma once
#include <cstdint>

namespace glasstorch {

// in: the input's storage, element offset and strides; reduce[d] marks reduced dims; out_strides[d]
// is the output's stride for each kept input dim (ignored for reduced dims). dtype is kFloat/kDouble
// for both tensors.
void sum_dims(int dtype, int ndim, const int64_t* shape, const char* in, int64_t in_offset, const int64_t* in_strides,
              const bool* reduce, char* out, int64_t out_offset, const int64_t* out_strides);

}  // namespace glasstorch
