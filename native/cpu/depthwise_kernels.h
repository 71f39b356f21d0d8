// The direct convolution's plane kernels (Conv.cc's direct path: depthwise layers, groups ==
// in_channels, and thin ones with few taps per output): one channel plane against one KH x KW filter,
// written once in depthwise_kernels.inc and compiled per unit (depthwise_{default,avx2,avx512}.cc);
// Conv.cc picks the table of the capability the addon runs and spreads the planes over the pool.
//
// Every kernel is a stencil over contiguous planes: output element (y, x) meets source element
// (y*sy + ro[i], x*sx + co[j]) through tap (i, j), and a tap whose source lies outside the source
// plane adds nothing. The forward convolution is one (source: the input, ro[i] = i*dh - ph); a
// stride-1 grad_input is another (source: grad_output, ro[i] = ph - i*dh: tap (i, j) of the filter
// meets the output row i taps above). Each output element adds its taps in (i, j) order, as the
// TypeScript kernels do (ConvKernels.ts, ConvBackwardKernels.ts). Conv.cc hands the kernels zero-padded
// copies of the source planes, so every tap is inside and every column runs the vector blocks (the
// edge code remains for sources given as they are).
#pragma once
#include <cstdint>

namespace glasstorch {
namespace depthwise {

struct Stencil {
  int64_t OH, OW;          // the output plane
  int64_t SH, SW;          // the source plane
  int64_t KH, KW, sy, sx;  // taps, and the output-to-source step
  const int64_t* ro;       // [KH]: source row of tap row i at output row 0
  const int64_t* co;       // [KW]: source column of tap column j at output column 0
  const int64_t* lo;       // [KW]: the output columns [lo[j], hi[j]) whose source column is inside
  const int64_t* hi;
  bool padded;  // the source is a padded copy with slack past its end (a vector may read beyond the last tap)
};

template <class S>
struct Fns {
  // out[y, x] = start + sum over the taps of src * w[i*KW + j]; start is *init (init: one value for the
  // plane, the bias), 0 (init == nullptr, accumulate false), or out's own value (accumulate)
  void (*stencil)(const Stencil& s, const S* src, const S* w, const S* init, bool accumulate, S* out);
  // the adjoint of a strided stencil: dst[y*sy + ro[i], x*sx + co[j]] += src[y, x] * w[i*KW + j],
  // tap after tap (dst: SH x SW, src: OH x OW)
  void (*scatter)(const Stencil& s, const S* src, const S* w, S* dst);
  // dots[i*KW + j] = sum over output positions of a[y, x] * src[y*sy + ro[i], x*sx + co[j]] (a: OH x OW),
  // in lanes summed at the end (3x3 at stride 1: the unit's vector lanes, else 16 fixed lanes): the same
  // bits for every thread count
  void (*dots)(const Stencil& s, const S* a, const S* src, S* dots);
  // dst[y * dst_stride + x] = src[y * src_stride + x] for an H x W plane (into a padded copy's inside,
  // out of a wider one): vector moves, where a memcpy call per short row cost more than the copy
  void (*copy_plane)(const S* src, int64_t src_stride, int64_t H, int64_t W, S* dst, int64_t dst_stride);
};

struct Table {
  const char* name;
  Fns<float> f32;
  Fns<double> f64;
};

extern const Table kTableDefault;
extern const Table kTableAVX2;
extern const Table kTableAVX512;

}  // namespace depthwise
}  // namespace glasstorch
