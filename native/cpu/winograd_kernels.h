// The Winograd F(2x2, 3x3) tile transforms (ConvWinograd.cc), written once in winograd_kernels.inc and
// compiled per unit (winograd_{default,avx2,avx512}.cc) so the vector width is the machine's; the
// driver picks the table of the capability the addon runs.
//
// F(2x2, 3x3) (Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks", 2015; NNPACK's and
// oneDNN's 3x3 path): a 2x2 block of outputs of a 3x3 filter is A^T [(G g G^T) . (B^T d B)] A, where d
// is the 4x4 input patch the block reads and . multiplies elementwise. Summed over the input channels,
// the 16 products are 16 matrix products (one per patch position), 16 multiplies per 4 outputs where
// the direct sum takes 36.
//   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]   G = [1 0 0; .5 .5 .5; .5 -.5 .5; 0 0 1]
//   A^T = [1 1 1 0; 0 1 -1 -1]
#pragma once
#include <cstdint>

namespace glasstorch {
namespace winograd {

struct Fns {
  // One tile row of one channel: the input patches of nt tiles side by side, tile t reading columns
  // 2t..2t+3 of a band of four rows 2 nt + 2 wide, into v[pos * vs + t] = (B^T d_t B)[pos] for the 16
  // positions pos = 4 i + j. Band row r is the input row rows[r] (a row of zeros where the band lies in
  // the padding) at columns [lo, lo + inside), zero elsewhere. e: scratch of 4 (2 nt + 2) floats.
  void (*input_row)(const float* const* rows, int64_t lo, int64_t inside, int64_t nt, float* v, int64_t vs, float* e);
  // The inverse: the 16 sums m[pos * ms + t] of nt tiles to their 2x2 outputs plus bias, written as
  // two output rows, out0[2t + j] and out1[2t + j] (j = 0, 1).
  void (*output_row)(const float* m, int64_t ms, int64_t nt, float bias, float* out0, float* out1);
};

struct Table {
  const char* name;
  Fns f32;
};

extern const Table kTableDefault;
extern const Table kTableAVX2;
extern const Table kTableAVX512;

}  // namespace winograd
}  // namespace glasstorch
