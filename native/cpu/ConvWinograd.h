// The Winograd F(2x2, 3x3) convolution (ConvWinograd.cc): the native forward of 3x3, stride-1,
// undilated float32 layers, and the stride-1 grad_input that is such a convolution (Conv.cc picks it).
#pragma once
#include <cstdint>

#include "Gemm.h"

namespace glasstorch {

// One ungrouped convolution: element (a, b, c, d) of each operand at data[a s[0] + b s[1] + c s[2] + d s[3]].
struct WinogradConv {
  int64_t N, C, H, W, O, OH, OW, ph, pw;  // OH = H + 2 ph - 2, OW = W + 2 pw - 2
  const float* in;
  int64_t is[4];
  const float* w;  // O x C x 3 x 3
  int64_t ws[4];
  float* out;
  int64_t os[4];
  const float* bias;  // null: none
  int64_t bias_stride;
};

// Whether the layer is big enough for the transforms to pay for themselves (Conv.cc's automatic choice).
bool winograd_pays(const WinogradConv& p);

// out = conv2d(in, w) + bias; the 16 products run on the unit's implicit-GEMM kernel (sconv_rows).
void conv2d_winograd(const WinogradConv& p, const GemmUnit& unit);

}  // namespace glasstorch
