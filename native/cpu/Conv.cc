// Native 2-d convolution, forward and backward, for the slow CPU paths (aten/src/ATen/native/
// ConvolutionMM2d.cpp, NaiveDilatedConvolution.cpp): per image, unfold the input (im2col) and
// multiply by the weight with the own GEMM (Gemm.h); the backward folds W^T @ grad_output back
// (col2im) and accumulates grad_output @ columns^T into grad_weight image by image. Images are
// unfolded a chunk of output positions at a time, so the columns stay in L2. float32 and
// float64, any stride/padding/dilation, operands of any strides (groups arrive as channel slices).
//
// Threads: images are independent in the forward pass and for grad_input, so with at least as many
// images as threads each thread takes whole images (its GEMMs then run on one thread); otherwise
// the images run one after another with the GEMM threaded. grad_weight sums the images in fixed
// groups of consecutive images (kWeightGroups), a group per thread, then the groups' partial sums in
// order; the own GEMM never splits the sum over k; so no result depends on the thread count. The
// convolution always uses the own GEMM: CBLAS is not entered from inside a parallel region, one GEMM
// for every batch size keeps results equal, and OpenBLAS on whole images, one image after another
// (im2col split over channels), measured within noise of this (1 thread: 24-26 vs 25-28 ms CPU per
// call on the 8x64x56x56 3x3 layer) while needing the 7 MB unfolded image.
// Stride 1 (where the padded row is at most 1/8 wider than the output row) takes the implicit-GEMM
// path instead (conv2d_forward_implicit: no im2col buffer; grad_input as the forward convolution of
// grad_output with the flipped, transposed weight, no col2im). Measured 1 thread, min process CPU ms
// per call on 8x64x56x56 * 64 3x3 p1: forward 20.8 -> 18.2-19.1, grad_input 23.1 -> 19.6.
// Big 3x3 stride-1 float32 layers (and their grad_input) take Winograd F(2x2, 3x3) instead
// (ConvWinograd.cc: 16 products per 4 outputs where the direct sum does 36).
#include <napi.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ConvWinograd.h"
#include "Gemm.h"
#include "GemmAddon.h"
#include "NapiArgs.h"
#include "ThreadPool.h"
#include "cpu_features.h"
#include "depthwise_kernels.h"
#include "kernels.h"

namespace glasstorch {
namespace {

const GemmUnit& own_unit() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kGemmAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kGemmAVX2;
  return kGemmDefault;
}

void own_gemm(const GemmProblem<float>& p, int threads) { own_unit().sgemm(p, threads); }
void own_gemm(const GemmProblem<double>& p, int threads) { own_unit().dgemm(p, threads); }

// C and O are the whole tensors' channels; a group convolves C / G input channels into O / G outputs
struct Geometry {
  int64_t N, C, H, W, O, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, G;
};

// A 4-d (or 1-d) strided view: element at data[off + sum idx * s].
template <class S>
struct View4 {
  S* data;
  int64_t s[4];
  S* at(int64_t a, int64_t b, int64_t c, int64_t d) const { return data + a * s[0] + b * s[1] + c * s[2] + d * s[3]; }
};

template <class S>
View4<S> view_of(S* base, const double* m) {
  View4<S> v;
  v.data = base + int64_t(m[0]);
  for (int i = 0; i < 4; ++i) v.s[i] = int64_t(m[1 + i]);
  return v;
}

// columns[(c*KH + i)*KW + j][l - l0] = input[n, c, y*sh - ph + i*dh, x*sw - pw + j*dw] (0 outside)
// for the output positions l = y*OW + x in [l0, l1) and the channels c in [c0, c1) (rows of other
// channels are not touched)
template <class S>
void im2col(const Geometry& g, const View4<S>& in, int64_t n, int64_t l0, int64_t l1, S* col, int64_t c0, int64_t c1) {
  const int64_t L = l1 - l0;
  if (g.sh == 1 && g.sw == 1 && g.OW == g.W && in.s[3] == 1 && (g.H == 1 || in.s[2] == g.W)) {
    // stride 1 and as wide as the input ("same" padding): output position l reads the plane's
    // element l + d, so a row is one contiguous copy (short image rows are not loops of their own),
    // then zeros where the input row or column is outside the image
    for (int64_t c = c0; c < c1; ++c) {
      const S* __restrict plane = in.at(n, c, 0, 0);
      for (int64_t i = 0; i < g.KH; ++i)
        for (int64_t j = 0; j < g.KW; ++j) {
          S* __restrict row = col + ((c * g.KH + i) * g.KW + j) * L - l0;  // row[l] for l in [l0, l1)
          const int64_t shift = j * g.dw - g.pw, dy = i * g.dh - g.ph;
          const int64_t d = dy * g.W + shift;
          // output rows whose input row y + dy is inside, as positions, within [l0, l1)
          const int64_t ya = std::max<int64_t>(0, -dy), yb = std::min<int64_t>(g.OH, g.H - dy);
          const int64_t va = std::max(l0, std::min(l1, ya * g.OW)), vb = std::max(va, std::min(l1, yb * g.OW));
          for (int64_t l = l0; l < va; ++l) row[l] = S(0);
          // inside the plane's elements [0, H*W) (the first/last row's outside columns may reach past it)
          const int64_t a = std::min(vb, std::max(va, -d)), b = std::max(a, std::min(vb, g.H * g.W - d));
          for (int64_t l = va; l < a; ++l) row[l] = S(0);
          for (int64_t l = a; l < b; ++l) row[l] = plane[l + d];
          for (int64_t l = b; l < l1; ++l) row[l] = S(0);
          // the columns x < lo and x >= hi read across a row edge: zero them
          const int64_t lo = std::min<int64_t>(g.OW, std::max<int64_t>(0, -shift)), hi = std::max<int64_t>(lo, std::min<int64_t>(g.OW, g.W - shift));
          if (lo > 0 || hi < g.OW)
            for (int64_t y = va / g.OW; y * g.OW < vb; ++y) {
              const int64_t rs = y * g.OW;
              for (int64_t x = std::max(int64_t(0), va - rs); x < std::min(lo, vb - rs); ++x) row[rs + x] = S(0);
              for (int64_t x = std::max(hi, va - rs); x < std::min(g.OW, vb - rs); ++x) row[rs + x] = S(0);
            }
        }
    }
    return;
  }
  const int64_t ya = l0 / g.OW, yb = (l1 - 1) / g.OW;
  const int64_t s3 = in.s[3];
  const bool unit = g.sw == 1 && s3 == 1;
  for (int64_t c = c0; c < c1; ++c)
    for (int64_t i = 0; i < g.KH; ++i)
      for (int64_t j = 0; j < g.KW; ++j) {
        S* row = col + ((c * g.KH + i) * g.KW + j) * L - l0;  // row[l] for l in [l0, l1)
        const int64_t shift = j * g.dw - g.pw;
        // output columns whose input column x*sw + shift lies in [0, W)
        const int64_t lo = std::min<int64_t>(g.OW, std::max<int64_t>(0, (-shift + g.sw - 1) / g.sw));
        const int64_t hi = std::max<int64_t>(lo, std::min<int64_t>(g.OW, shift >= g.W ? 0 : (g.W - 1 - shift) / g.sw + 1));
        // short rows: plain loops (the compiler vectorizes them), not a memcpy call per row
        for (int64_t y = ya; y <= yb; ++y) {
          const int64_t xa = y == ya ? l0 - y * g.OW : 0, xb = y == yb ? l1 - y * g.OW : g.OW;
          S* __restrict r = row + y * g.OW;
          const int64_t iy = y * g.sh - g.ph + i * g.dh;
          if (iy < 0 || iy >= g.H) {
            for (int64_t x = xa; x < xb; ++x) r[x] = S(0);
            continue;
          }
          const int64_t a = std::max(xa, lo), b = std::min(xb, hi);
          for (int64_t x = xa; x < std::min(xb, lo); ++x) r[x] = S(0);
          const S* __restrict src = in.at(n, c, iy, 0);
          if (unit) {
            const S* __restrict s = src + shift;
            for (int64_t x = a; x < b; ++x) r[x] = s[x];
          } else {
            for (int64_t x = a; x < b; ++x) r[x] = src[(x * g.sw + shift) * s3];
          }
          for (int64_t x = std::max(xa, hi); x < xb; ++x) r[x] = S(0);
        }
      }
}

// image[c, y*sh - ph + i*dh, x*sw - pw + j*dw] += columns[(c*KH + i)*KW + j][(y - y0)*OW + x] for the
// output rows y in [y0, y1) (image: C x H x W, contiguous)
template <class S>
void col2im(const Geometry& g, const S* col, int64_t y0, int64_t y1, S* img) {
  const int64_t L = (y1 - y0) * g.OW;
  for (int64_t c = 0; c < g.C; ++c)
    for (int64_t i = 0; i < g.KH; ++i)
      for (int64_t j = 0; j < g.KW; ++j) {
        const S* row = col + ((c * g.KH + i) * g.KW + j) * L;
        const int64_t shift = j * g.dw - g.pw;
        const int64_t lo = std::min<int64_t>(g.OW, std::max<int64_t>(0, (-shift + g.sw - 1) / g.sw));
        const int64_t hi = std::max<int64_t>(lo, std::min<int64_t>(g.OW, shift >= g.W ? 0 : (g.W - 1 - shift) / g.sw + 1));
        for (int64_t y = y0; y < y1; ++y) {
          const int64_t iy = y * g.sh - g.ph + i * g.dh;
          if (iy < 0 || iy >= g.H) continue;
          S* dst = img + (c * g.H + iy) * g.W + shift;
          const S* r = row + (y - y0) * g.OW;
          for (int64_t x = lo; x < hi; ++x) dst[x * g.sw] += r[x];
        }
      }
}

// The weight as an O x (C*KH*KW) matrix: the tensor itself when its last three dims collapse,
// else a contiguous copy (kept in `store`).
template <class S>
GemmOperand<S> weight_matrix(const Geometry& g, const View4<S>& w, std::vector<S>& store) {
  if (w.s[2] == g.KW * w.s[3] && w.s[1] == g.KH * w.s[2]) return GemmOperand<S>{w.data, w.s[0], w.s[3]};
  if (g.KH == 1 && g.KW == 1) return GemmOperand<S>{w.data, w.s[0], w.s[1]};
  const int64_t K = g.C * g.KH * g.KW;
  store.resize(size_t(g.O * K));
  for (int64_t o = 0; o < g.O; ++o)
    for (int64_t c = 0; c < g.C; ++c)
      for (int64_t i = 0; i < g.KH; ++i)
        for (int64_t j = 0; j < g.KW; ++j) store[size_t(o * K + (c * g.KH + i) * g.KW + j)] = *w.at(o, c, i, j);
  return GemmOperand<S>{store.data(), K, 1};
}

// A 1x1, stride-1, unpadded convolution reads the image itself as the columns (C x H*W), when its
// spatial dims collapse.
template <class S>
bool direct_columns(const Geometry& g, const View4<S>& in) {
  return g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0 && (g.H == 1 || in.s[2] == g.W * in.s[3]);
}

template <class S>
struct Scratch {
  std::vector<S> v;
  S* get(size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
  }
};
template <class S>
Scratch<S>& tl_col() {
  thread_local Scratch<S> s;
  return s;
}
template <class S>
Scratch<S>& tl_img() {
  thread_local Scratch<S> s;
  return s;
}

// Output positions per im2col chunk: the columns of a chunk (K x cols) stay within ~512 KiB, so they
// and the GEMM's packed copy of them stay in L2 (Zen 4 and Skylake-SP: 1 MiB per core; 512 KiB measured
// ~10% faster than 256 KiB on the 3x3 64-channel layer, within noise of 1 MiB). PyTorch unfolds whole
// images; this is the same arithmetic in pieces. A multiple of 32 (the GEMM's widest micro-tile, so
// no chunk but the last has a partial tile) unless the whole image fits.
template <class S>
int64_t cols_per_chunk(const Geometry& g) {
  const int64_t L = g.OH * g.OW;
  const int64_t K = std::max<int64_t>(1, g.C * g.KH * g.KW);
  const int64_t budget = int64_t(512) * 1024 / int64_t(sizeof(S)) / K;
  const int64_t cols = std::max<int64_t>(32, budget / 32 * 32);
  return std::max<int64_t>(1, std::min(L, cols));
}

// Runs body(n, gemm_threads) for every image: whole images per thread when there are enough of them
// (PyTorch's slow_conv2d_forward: a parallel_for over the batch, one GEMM per image). The images are
// taken one at a time by whichever thread is free (parallel_for_chunked), not split in equal halves up
// front: when another process or V8's own background threads take a core for a while, the other
// thread takes more images instead of waiting (measured: a halved batch made some calls take the
// one-thread time, 18 ms instead of 9.5 on the 3x3 64-channel layer).
template <class F>
void for_images(int64_t N, F&& body) {
  const int nt = get_num_threads();
  if (nt > 1 && N >= nt && !in_parallel_region()) {
    parallel_for_chunked(0, N, 1, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) body(n, 1);
    });
  } else {
    for (int64_t n = 0; n < N; ++n) body(n, nt);
  }
}

// The depthwise unit's kernels (depthwise_kernels.h) of the capability the addon runs.
const depthwise::Table& dw_table() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return depthwise::kTableAVX512;
  if (std::strcmp(name, "AVX2") == 0) return depthwise::kTableAVX2;
  return depthwise::kTableDefault;
}
template <class S>
const depthwise::Fns<S>& dw();
template <>
const depthwise::Fns<float>& dw<float>() { return dw_table().f32; }
template <>
const depthwise::Fns<double>& dw<double>() { return dw_table().f64; }

// conv_path_mode (set_conv_path; for tests and benchmarks): 0 picks by geometry (Winograd for big
// enough 3x3 float32 layers, else implicit GEMM where it applies), 1 always im2col, 2 never Winograd,
// 3 Winograd wherever it applies (any size)
int conv_path_mode = 0;

// The Winograd F(2x2, 3x3) path (ConvWinograd.cc): 3x3, stride 1, no dilation, float32; by size
// unless forced. 8x64x56x56 * 64 3x3 p1 on 2 threads: see ConvWinograd.cc.
template <class S>
bool take_winograd(const Geometry& g, const View4<S>& out, const View4<S>& in, const View4<S>& w, const S* bias, int64_t bias_stride,
                   WinogradConv* p) {
  if constexpr (!std::is_same_v<S, float>) {
    return false;
  } else {
    if ((conv_path_mode != 0 && conv_path_mode != 3) || g.G != 1 || g.KH != 3 || g.KW != 3 || g.sh != 1 || g.sw != 1 || g.dh != 1 ||
        g.dw != 1 || g.OH <= 0 || g.OW <= 0 || g.C <= 0 || g.OH != g.H + 2 * g.ph - 2 || g.OW != g.W + 2 * g.pw - 2)
      return false;
    *p = WinogradConv{g.N, g.C, g.H, g.W, g.O, g.OH, g.OW, g.ph, g.pw, in.data, {in.s[0], in.s[1], in.s[2], in.s[3]},
                      w.data, {w.s[0], w.s[1], w.s[2], w.s[3]}, out.data, {out.s[0], out.s[1], out.s[2], out.s[3]}, bias, bias_stride};
    return conv_path_mode == 3 || winograd_pays(*p);
  }
}

void run_winograd(const WinogradConv& p) { conv2d_winograd(p, own_unit()); }

void own_conv_rows(const ConvRowsProblem<float>& p, int threads) { own_unit().sconv_rows(p, threads); }
void own_conv_rows(const ConvRowsProblem<double>& p, int threads) { own_unit().dconv_rows(p, threads); }

// The implicit-GEMM forward (stride 1): the image is copied once into a zero-padded C x Hp x Wp buffer;
// in it, output position (y, x) of a kernel tap (c, i, j) reads element c*Hp*Wp + (y + i*dh)*Wp + x + j*dw,
// so with the output laid out as rows of Wp (the last Wp - OW columns of each row are computed and
// dropped) the tap's row of B is the padded image shifted by a constant: ConvRowsProblem's b + off[p].
// No im2col buffer is written (it was ~15% of the forward's time on the 3x3 64-channel layer); the
// extra columns cost (Wp - OW) / Wp of the FLOPs, so the path is taken only where that is <= 1/8
// (and where the taps C*KH*KW are at least 32).
// The sum over k runs in the same order (p = 0..K-1) as the direct GEMM's on im2col columns.
bool use_implicit(const Geometry& g) {
  // (few taps, C*KH*KW < 32, as the training example's one-channel first layer: the im2col rows are
  // as cheap as the padded copy, measured 0.147 vs 0.163 ms on 32x1x28x28 * 8 3x3: left to im2col)
  if (conv_path_mode == 1 || g.sh != 1 || g.sw != 1 || g.KH * g.KW <= 1 || g.C * g.KH * g.KW < 32) return false;
  const int64_t Hp = g.H + 2 * g.ph, Wp = g.W + 2 * g.pw;
  if (g.OH != Hp - g.dh * (g.KH - 1) || g.OW != Wp - g.dw * (g.KW - 1) || g.OH <= 0 || g.OW <= 0) return false;
  return (Wp - g.OW) * 8 <= Wp;
}

template <class S>
void conv2d_forward_implicit(const Geometry& g, View4<S> out, View4<S> in, const GemmOperand<S>& wm, const S* bias, int64_t bias_stride) {
  const int64_t K = g.C * g.KH * g.KW, Hp = g.H + 2 * g.ph, Wp = g.W + 2 * g.pw, P = Hp * Wp, Np = g.OH * Wp;
  // B's row of tap (c, i, j) starts at c*P + i*dh*Wp + j*dw; the kernel reads up to NR past a row's end
  std::vector<int64_t> off(static_cast<size_t>(K));
  for (int64_t c = 0; c < g.C; ++c)
    for (int64_t i = 0; i < g.KH; ++i)
      for (int64_t j = 0; j < g.KW; ++j) off[size_t((c * g.KH + i) * g.KW + j)] = c * P + i * g.dh * Wp + j * g.dw;
  const size_t padded = size_t(g.C * P + (g.KW - 1) * g.dw + own_unit().conv_rows_slack);
  const auto& k = dw<S>();
  const bool rows_whole = in.s[3] == 1 && (g.H == 1 || in.s[2] == g.W);
  // each thread zeroes its padded buffer once per call (the first image it takes); later images write
  // only the inside, the zeros around it stay
  static std::atomic<uint64_t> calls{0};
  const uint64_t call = ++calls;
  for_images(g.N, [&](int64_t n, int threads) {
    thread_local uint64_t zeroed_for = 0;
    S* xp = tl_col<S>().get(padded);
    S* res = tl_img<S>().get(size_t(g.O * Np));
    if (zeroed_for != call || !rows_whole) {
      std::fill(xp, xp + padded, S(0));
      zeroed_for = call;
    }
    // the padded image: zero rows above and below, zero columns left and right, zero slack
    for (int64_t c = 0; c < g.C; ++c) {
      S* inside = xp + c * P + g.ph * Wp + g.pw;
      if (rows_whole) k.copy_plane(in.at(n, c, 0, 0), g.W, g.H, g.W, inside, Wp);
      else
        for (int64_t y = 0; y < g.H; ++y)
          for (int64_t x = 0; x < g.W; ++x) inside[y * Wp + x] = *in.at(n, c, y, x);
    }
    own_conv_rows(ConvRowsProblem<S>{g.O, Np, K, wm.data, wm.rs, wm.cs, xp, off.data(), res, Np, call}, threads);
    // the output: the first OW columns of each row of Wp, plus the bias (slow_conv2d_forward's
    // output.copy_(bias) then gemm with beta 1 rounds bias + sum once, as here)
    for (int64_t o = 0; o < g.O; ++o) {
      const S b = bias != nullptr ? bias[o * bias_stride] : S(0);
      if (bias == nullptr && out.s[3] == 1) {
        k.copy_plane(res + o * Np, Wp, g.OH, g.OW, out.at(n, o, 0, 0), out.s[2]);
        continue;
      }
      for (int64_t y = 0; y < g.OH; ++y) {
        const S* src = res + o * Np + y * Wp;
        S* dst = out.at(n, o, y, 0);
        if (bias == nullptr) {
          if (out.s[3] == 1) std::memcpy(dst, src, size_t(g.OW) * sizeof(S));
          else
            for (int64_t x = 0; x < g.OW; ++x) dst[x * out.s[3]] = src[x];
        } else if (out.s[3] == 1) {
          for (int64_t x = 0; x < g.OW; ++x) dst[x] = b + src[x];
        } else {
          for (int64_t x = 0; x < g.OW; ++x) dst[x * out.s[3]] = b + src[x];
        }
      }
    }
  });
}

template <class S>
void conv2d_forward(const Geometry& g, View4<S> out, View4<S> in, View4<S> w, const S* bias, int64_t bias_stride) {
  const int64_t K = g.C * g.KH * g.KW, L = g.OH * g.OW;
  WinogradConv wp;
  if (take_winograd(g, out, in, w, bias, bias_stride, &wp)) return run_winograd(wp);
  std::vector<S> wstore;
  const GemmOperand<S> wm = weight_matrix(g, w, wstore);
  if (K > 0 && L > 0 && use_implicit(g)) {
    conv2d_forward_implicit(g, out, in, wm, bias, bias_stride);
    return;
  }
  const bool direct = direct_columns(g, in);
  const bool out_collapses = g.OH == 1 || out.s[2] == g.OW * out.s[3];
  const int64_t lc = direct ? L : cols_per_chunk<S>(g);
  for_images(g.N, [&](int64_t n, int threads) {
    S* tmp = out_collapses ? nullptr : tl_img<S>().get(size_t(g.O * L));
    // C = the image's output, O x L (or a contiguous copy when its spatial dims do not collapse)
    const GemmOperand<S> c = out_collapses ? GemmOperand<S>{out.at(n, 0, 0, 0), out.s[1], out.s[3]} : GemmOperand<S>{tmp, L, 1};
    // the output starts as the bias (slow_conv2d_forward: output.copy_(bias), then gemm with beta 1)
    if (bias != nullptr)
      for (int64_t o = 0; o < g.O; ++o) {
        const S v = bias[o * bias_stride];
        S* row = c.data + o * c.rs;
        if (c.cs == 1)
          for (int64_t e = 0; e < L; ++e) row[e] = v;
        else
          for (int64_t e = 0; e < L; ++e) row[e * c.cs] = v;
      }
    for (int64_t l0 = 0; l0 < L; l0 += lc) {
      const int64_t l1 = std::min(L, l0 + lc), Lc = l1 - l0;
      GemmOperand<S> b;
      if (direct) {
        b = GemmOperand<S>{in.at(n, 0, 0, 0) + l0 * in.s[3], in.s[1], in.s[3]};
      } else {
        S* col = tl_col<S>().get(size_t(K * Lc));
        im2col(g, in, n, l0, l1, col, 0, g.C);
        b = GemmOperand<S>{col, Lc, 1};
      }
      const GemmOperand<S> cc{c.data + l0 * c.cs, c.rs, c.cs};
      own_gemm(GemmProblem<S>{g.O, Lc, K, S(1), bias != nullptr ? S(1) : S(0), wm, b, cc}, threads);
    }
    if (tmp != nullptr)
      for (int64_t o = 0; o < g.O; ++o)
        for (int64_t y = 0; y < g.OH; ++y)
          for (int64_t x = 0; x < g.OW; ++x) *out.at(n, o, y, x) = tmp[o * L + y * g.OW + x];
  });
}

// grad_weight sums over the images in this many fixed groups (consecutive images, in order), each
// group's partial sum on one thread, then the partials in group order: the result depends on the
// batch size (and the weight's size) only, never on the thread count.
constexpr int64_t kWeightGroups = 16;

template <class S>
void conv2d_backward(const Geometry& g, View4<S>* gi, View4<S>* gw, S* gb, int64_t gb_stride, View4<S> go, View4<S> in, View4<S> w) {
  const int64_t K = g.C * g.KH * g.KW, L = g.OH * g.OW;
  // grad_output[n] as an O x L matrix (contiguous from the caller in practice; strided works if it collapses)
  const bool go_collapses = g.OH == 1 || go.s[2] == g.OW * go.s[3];
  auto go_matrix = [&](int64_t n, S* scratch) -> GemmOperand<S> {
    if (go_collapses) return GemmOperand<S>{go.at(n, 0, 0, 0), go.s[1], go.s[3]};
    for (int64_t o = 0; o < g.O; ++o)
      for (int64_t y = 0; y < g.OH; ++y)
        for (int64_t x = 0; x < g.OW; ++x) scratch[o * L + y * g.OW + x] = *go.at(n, o, y, x);
    return GemmOperand<S>{scratch, L, 1};
  };
  if (gi != nullptr && K > 0 && L > 0 && g.sh == 1 && g.sw == 1 && g.dh * (g.KH - 1) >= g.ph && g.dw * (g.KW - 1) >= g.pw) {
    // stride 1: grad_input is the forward convolution of grad_output (O channels), padded by
    // d*(k-1) - p, with the weight transposed over (O, C) and flipped in space; the implicit-GEMM
    // forward computes it where it applies (no W^T @ grad_output columns, no col2im)
    const Geometry t{g.N, g.O, g.OH, g.OW, g.C, g.KH, g.KW, g.H, g.W, 1, 1, g.dh * (g.KH - 1) - g.ph, g.dw * (g.KW - 1) - g.pw, g.dh, g.dw, 1};
    // (or the Winograd path: the flipped weight wt, C x O x KH x KW, is that convolution's weight)
    const int64_t Kt = g.O * g.KH * g.KW;
    WinogradConv wp;
    const bool winograd = take_winograd(t, *gi, go, View4<S>{nullptr, {Kt, g.KH * g.KW, g.KW, 1}}, static_cast<const S*>(nullptr), 0, &wp);
    if (winograd || use_implicit(t)) {
      std::vector<S> wt(static_cast<size_t>(g.C * Kt));
      for (int64_t c = 0; c < g.C; ++c)
        for (int64_t o = 0; o < g.O; ++o)
          for (int64_t i = 0; i < g.KH; ++i)
            for (int64_t j = 0; j < g.KW; ++j) wt[size_t(c * Kt + (o * g.KH + i) * g.KW + j)] = *w.at(o, c, g.KH - 1 - i, g.KW - 1 - j);
      if constexpr (std::is_same_v<S, float>) {
        if (winograd) {
          wp.w = wt.data();
          run_winograd(wp);
        }
      }
      if (!winograd) conv2d_forward_implicit(t, *gi, go, GemmOperand<S>{wt.data(), Kt, 1}, static_cast<const S*>(nullptr), 0);
      gi = nullptr;
    }
  }
  if (gi != nullptr) {
    std::vector<S> wstore;
    const GemmOperand<S> wm = weight_matrix(g, w, wstore);
    const GemmOperand<S> wt{wm.data, wm.cs, wm.rs};  // W^T: K x O
    const bool direct = direct_columns(g, *gi) && g.H * g.W == L;
    const int64_t rows = std::max<int64_t>(1, cols_per_chunk<S>(g) / g.OW);
    for_images(g.N, [&](int64_t n, int threads) {
      thread_local std::vector<S> go_tmp;
      if (!go_collapses) go_tmp.resize(size_t(g.O * L));
      const GemmOperand<S> gom = go_matrix(n, go_tmp.data());
      if (direct) {
        // 1x1, stride 1, no padding: grad_input[n] (C x HW) = W^T @ grad_output[n]
        own_gemm(GemmProblem<S>{g.C, L, g.O, S(1), S(0), wt, gom, GemmOperand<S>{gi->at(n, 0, 0, 0), gi->s[1], gi->s[3]}}, threads);
        return;
      }
      S* img = tl_img<S>().get(size_t(g.C * g.H * g.W));
      std::fill(img, img + g.C * g.H * g.W, S(0));
      for (int64_t y0 = 0; y0 < g.OH; y0 += rows) {
        const int64_t y1 = std::min(g.OH, y0 + rows), Lc = (y1 - y0) * g.OW;
        S* col = tl_col<S>().get(size_t(K * Lc));
        const GemmOperand<S> goc{gom.data + y0 * g.OW * gom.cs, gom.rs, gom.cs};
        own_gemm(GemmProblem<S>{K, Lc, g.O, S(1), S(0), wt, goc, GemmOperand<S>{col, Lc, 1}}, threads);
        col2im(g, col, y0, y1, img);
      }
      for (int64_t c = 0; c < g.C; ++c)
        for (int64_t y = 0; y < g.H; ++y) {
          const S* src = img + (c * g.H + y) * g.W;
          if (gi->s[3] == 1) std::memcpy(gi->at(n, c, y, 0), src, size_t(g.W) * sizeof(S));
          else
            for (int64_t x = 0; x < g.W; ++x) *gi->at(n, c, y, x) = src[x];
        }
    });
  }
  if (gw != nullptr) {
    // grad_weight (O x K) = sum over images of grad_output[n] @ columns[n]^T: fixed groups of
    // consecutive images, each summed in image order into its own partial (O x K), then the partials
    // in group order
    const int64_t OK = g.O * K;
    // (fewer groups when the partials would pass 32 MiB: a huge weight; still a function of sizes only)
    const int64_t cap = std::max<int64_t>(2, (int64_t(32) << 20) / std::max<int64_t>(1, OK * int64_t(sizeof(S))));
    const int64_t groups = std::max<int64_t>(1, std::min({g.N, kWeightGroups, cap}));
    std::vector<S> partial(size_t(groups * OK), S(0));
    const bool direct = direct_columns(g, in);
    const int64_t lc = direct ? L : cols_per_chunk<S>(g);
    auto run_group = [&](int64_t q, int threads) {
      thread_local std::vector<S> go_tmp;
      if (!go_collapses) go_tmp.resize(size_t(g.O * L));
      S* acc = partial.data() + q * OK;
      const int64_t n0 = g.N * q / groups, n1 = g.N * (q + 1) / groups;
      for (int64_t n = n0; n < n1; ++n) {
        const GemmOperand<S> gom = go_matrix(n, go_tmp.data());
        for (int64_t l0 = 0; l0 < L; l0 += lc) {
          const int64_t l1 = std::min(L, l0 + lc), Lc = l1 - l0;
          GemmOperand<S> colT;
          if (direct) colT = GemmOperand<S>{in.at(n, 0, 0, 0) + l0 * in.s[3], in.s[3], in.s[1]};  // (C x HW)^T
          else {
            S* col = tl_col<S>().get(size_t(K * Lc));
            im2col(g, in, n, l0, l1, col, 0, g.C);
            colT = GemmOperand<S>{col, 1, Lc};
          }
          const GemmOperand<S> goc{gom.data + l0 * gom.cs, gom.rs, gom.cs};
          // the partial is held K x O (element (o, p) at p*O + o): the GEMM runs as C^T = columns @
          // grad_output^T (oriented: the smaller operand transposed), whose C^T is then row-major and
          // stored as whole vectors instead of element by element through a stride of K
          own_gemm(GemmProblem<S>{g.O, K, Lc, S(1), S(1), goc, colT, GemmOperand<S>{acc, 1, g.O}}, threads);
        }
      }
    };
    const int nt = get_num_threads();
    if (nt > 1 && groups >= 2 && !in_parallel_region())
      parallel_for(0, groups, 1, [&](int64_t b, int64_t e) {
        for (int64_t q = b; q < e; ++q) run_group(q, 1);
      });
    else
      for (int64_t q = 0; q < groups; ++q) run_group(q, nt);
    S* acc = partial.data();
    for (int64_t q = 1; q < groups; ++q) {
      const S* pq = partial.data() + q * OK;
      for (int64_t e = 0; e < OK; ++e) acc[e] += pq[e];
    }
    for (int64_t o = 0; o < g.O; ++o)
      for (int64_t c = 0; c < g.C; ++c)
        for (int64_t i = 0; i < g.KH; ++i)
          for (int64_t j = 0; j < g.KW; ++j) *gw->at(o, c, i, j) = acc[size_t(((c * g.KH + i) * g.KW + j) * g.O + o)];
  }
  if (gb != nullptr) {
    // grad_bias[o] = sum of grad_output[:, o], in double, rounded once (as the TypeScript kernel)
    for (int64_t o = 0; o < g.O; ++o) {
      double s = 0;
      for (int64_t n = 0; n < g.N; ++n)
        for (int64_t y = 0; y < g.OH; ++y)
          for (int64_t x = 0; x < g.OW; ++x) s += double(*go.at(n, o, y, x));
      gb[o * gb_stride] = S(s);
    }
  }
}

// ---- groups ----

// A group's slice of a view: channels [c0, c0 + n) of dim `d` (the pointer moves, the strides stay)
template <class S>
View4<S> channels(View4<S> v, int d, int64_t c0) {
  v.data += c0 * v.s[d];
  return v;
}

// A stencil's taps (depthwise_kernels.h): output OH x OW, source SH x SW, tap (i, j) at source row
// y*sy + r0 + i*rstep and column x*sx + c0 + j*cstep.
struct Taps {
  std::vector<int64_t> ro, co, lo, hi;
  depthwise::Stencil s;
  // the zeros a padded copy of the source needs above, below, left and right so no tap reads outside
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  Taps(int64_t OH, int64_t OW, int64_t SH, int64_t SW, int64_t KH, int64_t KW, int64_t sy, int64_t sx, int64_t r0, int64_t rstep, int64_t c0, int64_t cstep)
      : ro(size_t(KH)), co(size_t(KW)), lo(size_t(KW)), hi(size_t(KW)) {
    for (int64_t i = 0; i < KH; ++i) {
      ro[size_t(i)] = r0 + i * rstep;
      pt = std::max(pt, -ro[size_t(i)]);
      pb = std::max(pb, (OH - 1) * sy + ro[size_t(i)] - (SH - 1));
    }
    for (int64_t j = 0; j < KW; ++j) {
      const int64_t c = c0 + j * cstep;
      co[size_t(j)] = c;
      pl = std::max(pl, -c);
      pr = std::max(pr, (OW - 1) * sx + c - (SW - 1));
      // output columns whose source column x*sx + c lies in [0, SW)
      lo[size_t(j)] = std::min<int64_t>(OW, std::max<int64_t>(0, (-c + sx - 1) / sx));
      hi[size_t(j)] = std::max<int64_t>(lo[size_t(j)], std::min<int64_t>(OW, c >= SW ? 0 : (SW - 1 - c) / sx + 1));
    }
    s = depthwise::Stencil{OH, OW, SH, SW, KH, KW, sy, sx, ro.data(), co.data(), lo.data(), hi.data(), false};
  }
  bool needs_padding() const { return pt > 0 || pb > 0 || pl > 0 || pr > 0; }
  // The same taps over the source padded by (pt, pb, pl, pr): every tap inside.
  Taps padded() const {
    Taps t = *this;
    t.s.SH += pt + pb;
    t.s.SW += pl + pr;
    for (auto& r : t.ro) r += pt;
    for (auto& c : t.co) c += pl;
    std::fill(t.lo.begin(), t.lo.end(), 0);
    std::fill(t.hi.begin(), t.hi.end(), s.OW);
    t.pt = t.pb = t.pl = t.pr = 0;
    t.s.padded = true;
    t.s.ro = t.ro.data();
    t.s.co = t.co.data();
    t.s.lo = t.lo.data();
    t.s.hi = t.hi.data();
    return t;
  }
  // A buffer for padded copies of source planes: zeros, whose inside pad() overwrites plane after plane
  // (the zeros around it stay).
  template <class S>
  S* pad_buffer(S* buf) const {
    std::fill(buf, buf + padded_size(), S(0));
    return buf;
  }
  // The source plane (SH x SW, contiguous) copied into the inside of a pad_buffer.
  template <class S>
  const S* pad(const depthwise::Fns<S>& k, const S* plane, S* buf) const {
    const int64_t Wp = s.SW + pl + pr;
    k.copy_plane(plane, s.SW, s.SH, s.SW, buf + pt * Wp + pl, Wp);
    return buf;
  }
  // (with slack: a stride-2 vector load reads one element past its last tap)
  size_t padded_size() const { return size_t((s.SH + pt + pb) * (s.SW + pl + pr) + 64); }
};

// The forward convolution's stencil: output (y, x) reads input (y*sh - ph + i*dh, x*sw - pw + j*dw).
Taps forward_taps(const Geometry& g) { return Taps(g.OH, g.OW, g.H, g.W, g.KH, g.KW, g.sh, g.sw, -g.ph, g.dh, -g.pw, g.dw); }

// Planes per task: at least ~32K multiply-adds (PyTorch's GRAIN_SIZE) in each.
int64_t plane_grain(int64_t work_per_plane) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, work_per_plane)); }

// Direct convolution by the stencil kernels, for layers whose GEMM would be thin: depthwise (one input
// channel per group, G == C; O = G * multiplier) and few taps per output (C / G * KH * KW < 32, such as
// a one-channel first layer into few outputs), with contiguous planes. Output (n, o) is the bias, then the stencil of
// each of its group's input channels k in order, each in (i, j) order: the TypeScript loops' (c, i, j).
// A stencil reads a zero-padded copy of its source plane (in L1), so every output column runs the
// vector blocks: a tap outside the image adds 0 * w, as PyTorch's im2col columns do (the TypeScript
// loops skip it: the same values, but for the sign of a zero sum and an infinite or NaN weight).
constexpr int64_t kDirectTaps = 32, kDirectPlanes = 16;
template <class S>
bool dw_planes(const View4<S>& v, int64_t H, int64_t W) {
  return v.s[3] == 1 && (H == 1 || v.s[2] == W);
}
template <class S>
bool use_direct(const Geometry& g, const View4<S>& out, const View4<S>& in, const View4<S>& w) {
  // (few taps into many outputs: the GEMM's columns serve every output, while each output plane here
  // reads all its input planes again: 2 -> 32 channels 3x3 on 28x28 ran 2.5x the im2col GEMM's time)
  const int64_t Cg = g.C / g.G, Og = g.O / g.G;
  const bool thin = (g.G > 1 && Cg == 1) || (Cg * g.KH * g.KW < kDirectTaps && Cg * Og <= kDirectPlanes);
  return conv_path_mode != 1 && thin && dw_planes(out, g.OH, g.OW) && dw_planes(in, g.H, g.W) && dw_planes(w, g.KH, g.KW);
}

template <class S>
void direct_forward(const Geometry& g, View4<S> out, View4<S> in, View4<S> w, const S* bias, int64_t bias_stride) {
  const Taps t = forward_taps(g), tp = t.padded();
  const bool pad = t.needs_padding() || g.sw > 1;  // (strided: the padded copy's slack serves the vector loads)
  const int64_t Cg = g.C / g.G, Og = g.O / g.G, P = int64_t(t.padded_size());
  const auto& k = dw<S>();
  // tasks: (image, group), the group's input planes padded once for its Og outputs
  parallel_for(0, g.N * g.G, plane_grain(Og * Cg * g.OH * g.OW * g.KH * g.KW), [&](int64_t b, int64_t e) {
    S* buf = nullptr;
    if (pad) {
      buf = tl_col<S>().get(size_t(Cg * P));
      for (int64_t c = 0; c < Cg; ++c) t.pad_buffer(buf + c * P);
    }
    std::vector<const S*> src(static_cast<size_t>(Cg));
    for (int64_t p = b; p < e; ++p) {
      const int64_t n = p / g.G, q = p % g.G;
      for (int64_t c = 0; c < Cg; ++c) src[size_t(c)] = pad ? t.pad(k, in.at(n, q * Cg + c, 0, 0), buf + c * P) : in.at(n, q * Cg + c, 0, 0);
      for (int64_t o = q * Og; o < (q + 1) * Og; ++o)
        for (int64_t c = 0; c < Cg; ++c)
          k.stencil(tp.s, src[size_t(c)], w.at(o, c, 0, 0), c == 0 && bias != nullptr ? bias + o * bias_stride : nullptr, c > 0, out.at(n, o, 0, 0));
    }
  });
}

template <class S>
void direct_backward(const Geometry& g, View4<S>* gi, View4<S>* gw, View4<S> go, View4<S> in, View4<S> w) {
  const int64_t Cg = g.C / g.G, Og = g.O / g.G;
  const auto& k = dw<S>();
  const Taps fwd = forward_taps(g);
  if (gi != nullptr) {
    // grad_input[n, c] gathers its group's outputs in order, each one's taps in (i, j) order: at stride 1
    // a stencil over grad_output (input row iy meets output row iy + ph - i*dh), else each output's taps
    // scattered onto the zeroed plane
    const bool unit = g.sh == 1 && g.sw == 1;
    const Taps back(g.H, g.W, g.OH, g.OW, g.KH, g.KW, 1, 1, g.ph, -g.dh, g.pw, -g.dw), bp = back.padded();
    const bool pad = back.needs_padding();
    parallel_for(0, g.N * g.C, plane_grain(Og * g.OH * g.OW * g.KH * g.KW), [&](int64_t b, int64_t e) {
      S* buf = unit && pad ? back.pad_buffer(tl_col<S>().get(back.padded_size())) : nullptr;
      for (int64_t p = b; p < e; ++p) {
        const int64_t n = p / g.C, c = p % g.C, q = c / Cg;
        S* plane = gi->at(n, c, 0, 0);
        if (!unit) std::fill(plane, plane + g.H * g.W, S(0));
        for (int64_t o = q * Og; o < (q + 1) * Og; ++o) {
          const S* wo = w.at(o, c % Cg, 0, 0);
          if (unit) k.stencil(bp.s, pad ? back.pad(k, go.at(n, o, 0, 0), buf) : go.at(n, o, 0, 0), wo, nullptr, o > q * Og, plane);
          else k.scatter(fwd.s, go.at(n, o, 0, 0), wo, plane);
        }
      }
    });
  }
  if (gw != nullptr) {
    // grad_weight[o, c] = the images' tap dot products (over the padded input plane), added in image
    // order (one output channel per task)
    const int64_t taps = g.KH * g.KW;
    const Taps fp = fwd.padded();
    const bool pad = fwd.needs_padding();
    parallel_for(0, g.O, plane_grain(g.N * Cg * g.OH * g.OW * taps), [&](int64_t b, int64_t e) {
      // outputs [b, e): each input plane padded once for all of them in its group
      std::vector<S> sum(static_cast<size_t>((e - b) * Cg * taps), S(0)), dots(static_cast<size_t>(taps));
      S* buf = pad ? fwd.pad_buffer(tl_col<S>().get(fwd.padded_size())) : nullptr;
      for (int64_t n = 0; n < g.N; ++n)
        for (int64_t q = b / Og; q <= (e - 1) / Og; ++q)
          for (int64_t c = 0; c < Cg; ++c) {
            const S* src = pad ? fwd.pad(k, in.at(n, q * Cg + c, 0, 0), buf) : in.at(n, q * Cg + c, 0, 0);
            for (int64_t o = std::max(b, q * Og); o < std::min(e, (q + 1) * Og); ++o) {
              k.dots(fp.s, go.at(n, o, 0, 0), src, dots.data());
              S* acc = sum.data() + ((o - b) * Cg + c) * taps;
              for (int64_t t = 0; t < taps; ++t) acc[t] += dots[size_t(t)];
            }
          }
      for (int64_t o = b; o < e; ++o)
        for (int64_t c = 0; c < Cg; ++c)
          for (int64_t i = 0; i < g.KH; ++i)
            for (int64_t j = 0; j < g.KW; ++j) *gw->at(o, c, i, j) = sum[size_t(((o - b) * Cg + c) * taps + i * g.KW + j)];
    });
  }
}

// One group of a grouped convolution as a convolution of its own (C / G inputs, O / G outputs).
Geometry group_geometry(const Geometry& g) {
  Geometry s = g;
  s.C = g.C / g.G;
  s.O = g.O / g.G;
  s.G = 1;
  return s;
}

// conv2d, groups or not: the direct stencils where they apply (depthwise, few taps), else group after
// group through the GEMM paths on channel slices of the operands (no copies: the slices are strided views)
template <class S>
void conv2d_grouped(const Geometry& g, View4<S> out, View4<S> in, View4<S> w, const S* bias, int64_t bias_stride) {
  // (ungrouped thin layers keep the im2col GEMM forward: the training example's one-channel first
  // layer measured 0.154-0.158 ms on im2col against 0.161-0.172 direct; the direct grad_weight's 0.30
  // against 0.40 is its backward's gain)
  if (g.G > 1 && use_direct(g, out, in, w)) return direct_forward(g, out, in, w, bias, bias_stride);
  if (g.G == 1) return conv2d_forward(g, out, in, w, bias, bias_stride);
  const Geometry s = group_geometry(g);
  for (int64_t q = 0; q < g.G; ++q)
    conv2d_forward(s, channels(out, 1, q * s.O), channels(in, 1, q * s.C), channels(w, 0, q * s.O), bias != nullptr ? bias + q * s.O * bias_stride : nullptr, bias_stride);
}

template <class S>
void conv2d_grouped_backward(const Geometry& g, View4<S>* gi, View4<S>* gw, S* gb, int64_t gb_stride, View4<S> go, View4<S> in, View4<S> w) {
  if (use_direct(g, go, in, w) && (gi == nullptr || dw_planes(*gi, g.H, g.W)) && (gw == nullptr || dw_planes(*gw, g.KH, g.KW))) {
    direct_backward(g, gi, gw, go, in, w);
    if (gb != nullptr) conv2d_backward(g, static_cast<View4<S>*>(nullptr), static_cast<View4<S>*>(nullptr), gb, gb_stride, go, in, w);  // (grad_bias only: per channel, groups or not)
    return;
  }
  if (g.G == 1) return conv2d_backward(g, gi, gw, gb, gb_stride, go, in, w);
  if (gw != nullptr && g.O / g.G <= 8 && g.OW >= 16 && dw_planes(go, g.OH, g.OW) && dw_planes(in, g.H, g.W) && dw_planes(*gw, g.KH, g.KW) && conv_path_mode != 1) {
    // grad_weight of groups with few outputs each: the direct tap dot products (a GEMM with so few rows
    // spent its time packing the transposed columns: 4 groups of 8 -> 8 channels, 3x3 on 32x32: 2.1x;
    // not for short rows, whose columns past the last whole vector go one by one, nor ungrouped layers:
    // 8 -> 16 channels on 14x14 ran 3.4x the GEMM's time)
    direct_backward(g, static_cast<View4<S>*>(nullptr), gw, go, in, w);
    gw = nullptr;
  }
  const Geometry s = group_geometry(g);
  for (int64_t q = 0; q < g.G; ++q) {
    View4<S> gq, wq;
    if (gi != nullptr) gq = channels(*gi, 1, q * s.C);
    if (gw != nullptr) wq = channels(*gw, 0, q * s.O);
    conv2d_backward(s, gi != nullptr ? &gq : nullptr, gw != nullptr ? &wq : nullptr, gb != nullptr ? gb + q * s.O * gb_stride : nullptr, gb_stride,
                    channels(go, 1, q * s.O), channels(in, 1, q * s.C), channels(w, 0, q * s.O));
  }
}

// ---- N-API ----

// The largest element a 4-d view of `sizes` reaches is inside the array.
bool fits(const double* m, const int64_t* sizes, int nd, int64_t length) {
  int64_t hi = int64_t(m[0]);
  if (hi < 0) return false;
  for (int d = 0; d < nd; ++d) {
    if (sizes[d] == 0) return true;
    const int64_t s = int64_t(m[1 + d]);
    if (s < 0) return false;
    hi += (sizes[d] - 1) * s;
  }
  return hi < length;
}

Geometry geometry_of(const double* m) {
  Geometry g;
  int64_t* f = &g.N;
  for (int i = 0; i < 16; ++i) f[i] = int64_t(m[i]);
  return g;
}

constexpr int kGeo = 16;

// conv2d(dtype, meta, out, input, weight, bias | null) -> bool
// meta = [N, C, H, W, O, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, groups, then offset + 4 strides of input,
// weight, output, then bias offset and stride]
template <class S>
bool conv2d_js(const Napi::CallbackInfo& info, napi_typedarray_type tt, const double* m) {
  Napi::Env env = info.Env();
  const Geometry g = geometry_of(m);
  void* d[4] = {nullptr, nullptr, nullptr, nullptr};
  int64_t len[4] = {0, 0, 0, 0};
  for (int i = 0; i < 3; ++i)
    if (!typed_data<void>(env, info[2 + i], tt, &d[i], &len[i])) return false;
  const bool has_bias = !info[5].IsNull() && !info[5].IsUndefined();
  if (has_bias && !typed_data<void>(env, info[5], tt, &d[3], &len[3])) return false;
  const int64_t out_sz[4] = {g.N, g.O, g.OH, g.OW}, in_sz[4] = {g.N, g.C, g.H, g.W}, w_sz[4] = {g.O, g.C / g.G, g.KH, g.KW}, b_sz[1] = {g.O};
  if (!fits(m + kGeo, in_sz, 4, len[1]) || !fits(m + kGeo + 5, w_sz, 4, len[2]) || !fits(m + kGeo + 10, out_sz, 4, len[0]) ||
      (has_bias && !fits(m + kGeo + 15, b_sz, 1, len[3]))) {
    Napi::RangeError::New(env, "glasstorch native conv2d: operand out of bounds").ThrowAsJavaScriptException();
    return false;
  }
  S* base[4] = {static_cast<S*>(d[0]), static_cast<S*>(d[1]), static_cast<S*>(d[2]), static_cast<S*>(d[3])};
  const View4<S> in = view_of(base[1], m + kGeo), w = view_of(base[2], m + kGeo + 5), out = view_of(base[0], m + kGeo + 10);
  const S* bias = has_bias ? base[3] + int64_t(m[kGeo + 15]) : nullptr;
  conv2d_grouped<S>(g, out, in, w, bias, int64_t(m[kGeo + 16]));
  return true;
}

// conv2d_backward(dtype, meta, grad_input | null, grad_weight | null, grad_bias | null, grad_output, input, weight) -> bool
// meta = [geometry (16), then offset + 4 strides of input, weight, grad_output, grad_input, grad_weight, then grad_bias offset, stride]
template <class S>
bool conv2d_backward_js(const Napi::CallbackInfo& info, napi_typedarray_type tt, const double* m) {
  Napi::Env env = info.Env();
  const Geometry g = geometry_of(m);
  void* d[6] = {};
  int64_t len[6] = {};
  bool has[3];
  for (int i = 0; i < 3; ++i) {
    has[i] = !info[2 + i].IsNull() && !info[2 + i].IsUndefined();
    if (has[i] && !typed_data<void>(env, info[2 + i], tt, &d[i], &len[i])) return false;
  }
  for (int i = 3; i < 6; ++i)
    if (!typed_data<void>(env, info[2 + i], tt, &d[i], &len[i])) return false;
  const int64_t in_sz[4] = {g.N, g.C, g.H, g.W}, w_sz[4] = {g.O, g.C / g.G, g.KH, g.KW}, go_sz[4] = {g.N, g.O, g.OH, g.OW}, b_sz[1] = {g.O};
  const bool ok = fits(m + kGeo, in_sz, 4, len[4]) && fits(m + kGeo + 5, w_sz, 4, len[5]) && fits(m + kGeo + 10, go_sz, 4, len[3]) &&
                  (!has[0] || fits(m + kGeo + 15, in_sz, 4, len[0])) && (!has[1] || fits(m + kGeo + 20, w_sz, 4, len[1])) &&
                  (!has[2] || fits(m + kGeo + 25, b_sz, 1, len[2]));
  if (!ok) {
    Napi::RangeError::New(env, "glasstorch native conv2d_backward: operand out of bounds").ThrowAsJavaScriptException();
    return false;
  }
  auto ptr = [&](int i) { return static_cast<S*>(d[i]); };
  View4<S> in = view_of(ptr(4), m + kGeo), w = view_of(ptr(5), m + kGeo + 5), go = view_of(ptr(3), m + kGeo + 10);
  View4<S> gi, gw;
  if (has[0]) gi = view_of(ptr(0), m + kGeo + 15);
  if (has[1]) gw = view_of(ptr(1), m + kGeo + 20);
  S* gb = has[2] ? ptr(2) + int64_t(m[kGeo + 25]) : nullptr;
  conv2d_grouped_backward<S>(g, has[0] ? &gi : nullptr, has[1] ? &gw : nullptr, gb, int64_t(m[kGeo + 26]), go, in, w);
  return true;
}

// conv_transpose2d(dtype, meta, output, input, weight, bias | null) -> bool: NaiveConvolutionTranspose2d.cpp's
// forward. It is the grad_input of the convolution it transposes (its input that convolution's
// grad_output, its output that convolution's input), so conv2d_backward computes it: the columns
// W^T @ x folded by col2im a chunk of rows at a time in a per-thread buffer, whole images per thread,
// or at stride 1 the implicit-GEMM forward; then the bias, one add per element, as the C++ adds it
// after the fold. (The columns of a whole batch as one fresh JS array faulted in 8 MB of pages every
// call: 16x64x32x32 transposed by a 2x2/2 kernel took 15.9 ms, PyTorch 9.4.)
// meta = [the transposed convolution's geometry: N, C (output channels), H, W (output size), O (input
// channels), KH, KW, OH, OW (input size), sh, sw, ph, pw, dh, dw, 1; then offset + 4 strides of output,
// weight (O x C x KH x KW), input; then bias offset and stride]
template <class S>
bool conv_transpose2d_js(const Napi::CallbackInfo& info, napi_typedarray_type tt, const double* m) {
  Napi::Env env = info.Env();
  const Geometry g = geometry_of(m);
  if (g.G != 1) return false;
  void* d[4] = {};
  int64_t len[4] = {};
  for (int i = 0; i < 3; ++i)
    if (!typed_data<void>(env, info[2 + i], tt, &d[i], &len[i])) return false;
  const bool has_bias = !info[5].IsNull() && !info[5].IsUndefined();
  if (has_bias && !typed_data<void>(env, info[5], tt, &d[3], &len[3])) return false;
  const int64_t out_sz[4] = {g.N, g.C, g.H, g.W}, w_sz[4] = {g.O, g.C, g.KH, g.KW}, in_sz[4] = {g.N, g.O, g.OH, g.OW}, b_sz[1] = {g.C};
  if (!fits(m + kGeo, out_sz, 4, len[0]) || !fits(m + kGeo + 5, w_sz, 4, len[2]) || !fits(m + kGeo + 10, in_sz, 4, len[1]) ||
      (has_bias && !fits(m + kGeo + 15, b_sz, 1, len[3]))) {
    Napi::RangeError::New(env, "glasstorch native conv_transpose2d: operand out of bounds").ThrowAsJavaScriptException();
    return false;
  }
  View4<S> out = view_of(static_cast<S*>(d[0]), m + kGeo);
  const View4<S> w = view_of(static_cast<S*>(d[2]), m + kGeo + 5), x = view_of(static_cast<S*>(d[1]), m + kGeo + 10);
  conv2d_grouped_backward<S>(g, &out, static_cast<View4<S>*>(nullptr), static_cast<S*>(nullptr), 0, x, out, w);
  if (has_bias) {
    const S* bias = static_cast<S*>(d[3]) + int64_t(m[kGeo + 15]);
    const int64_t bs = int64_t(m[kGeo + 16]), plane = g.H * g.W;
    parallel_for(0, g.N * g.C, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, plane)), [&](int64_t b, int64_t e) {
      for (int64_t q = b; q < e; ++q) {
        const int64_t n = q / g.C, c = q % g.C;
        const S v = bias[c * bs];
        for (int64_t y = 0; y < g.H; ++y)
          for (int64_t xx = 0; xx < g.W; ++xx) *out.at(n, c, y, xx) += v;
      }
    });
  }
  return true;
}

Napi::Value ConvTranspose2dJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const double* m = meta_array(env, info[1], kGeo + 17, "conv_transpose2d");
  if (m == nullptr) return env.Undefined();
  bool ok = false;
  if (dtype == kFloat) ok = conv_transpose2d_js<float>(info, napi_float32_array, m);
  else if (dtype == kDouble) ok = conv_transpose2d_js<double>(info, napi_float64_array, m);
  if (env.IsExceptionPending()) return env.Undefined();
  return Napi::Boolean::New(env, ok);
}

// set_conv_path("auto" | "im2col" | "implicit" | "winograd") -> bool: the paths the forward (and the
// stride-1 grad_input) may take: by geometry; im2col only; no Winograd; Winograd wherever it applies
Napi::Value SetConvPath(const Napi::CallbackInfo& info) {
  const std::string want = info[0].As<Napi::String>().Utf8Value();
  if (want == "auto") conv_path_mode = 0;
  else if (want == "im2col") conv_path_mode = 1;
  else if (want == "implicit") conv_path_mode = 2;
  else if (want == "winograd") conv_path_mode = 3;
  else return Napi::Boolean::New(info.Env(), false);
  return Napi::Boolean::New(info.Env(), true);
}

Napi::Value Conv2dJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const double* m = meta_array(env, info[1], kGeo + 17, "conv2d");
  if (m == nullptr) return env.Undefined();
  bool ok = false;
  if (dtype == kFloat) ok = conv2d_js<float>(info, napi_float32_array, m);
  else if (dtype == kDouble) ok = conv2d_js<double>(info, napi_float64_array, m);
  if (env.IsExceptionPending()) return env.Undefined();
  return Napi::Boolean::New(env, ok);
}

Napi::Value Conv2dBackwardJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const double* m = meta_array(env, info[1], kGeo + 27, "conv2d_backward");
  if (m == nullptr) return env.Undefined();
  bool ok = false;
  if (dtype == kFloat) ok = conv2d_backward_js<float>(info, napi_float32_array, m);
  else if (dtype == kDouble) ok = conv2d_backward_js<double>(info, napi_float64_array, m);
  if (env.IsExceptionPending()) return env.Undefined();
  return Napi::Boolean::New(env, ok);
}

}  // namespace

void InitConv(Napi::Env env, Napi::Object exports) {
  exports.Set("conv2d", Napi::Function::New(env, Conv2dJs));
  exports.Set("conv2d_backward", Napi::Function::New(env, Conv2dBackwardJs));
  exports.Set("conv_transpose2d", Napi::Function::New(env, ConvTranspose2dJs));
  exports.Set("set_conv_path", Napi::Function::New(env, SetConvPath));
}

}  // namespace glasstorch
