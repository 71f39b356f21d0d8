// im2col and col2im (the ops under F.unfold and F.fold; engine/aten/native/vision/Im2Col.ts, PyTorch's
// im2col.h) over contiguous float32 / float64 tensors. im2col copies (the TS kernel's values exactly);
// col2im adds each column element into its image element in the TS kernel's order within a plane
// (kernel row, kernel column, block row, block column), each sum rounded to T, so its bits too. Rows
// (im2col) and planes (col2im) split over the pool: a plane's sums never cross threads.
//   im2col(dtype, cols, colsOffset, image, imageOffset, geometry: Float64Array) -> bool
//   col2im(dtype, cols, colsOffset, image, imageOffset, geometry: Float64Array) -> bool
// geometry = [N, C, H, W, OH, OW, kh, kw, dh, dw, ph, pw, sh, sw]: the image N x C x H x W, the blocks
// OH x OW, cols N x (C * kh * kw) x (OH * OW). false: a dtype it does not take.
#include <napi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include "ThreadPool.h"
#include "TypedArg.h"
#include "kernels.h"

namespace glasstorch {
namespace {

struct Geometry {
  int64_t N, C, H, W, OH, OW, kh, kw, dh, dw, ph, pw, sh, sw;
};



// column row r = (c * kh + i) * kw + j of image n: cols[r][y * OW + x] = image[c][ih][iw] (0 in the padding)
template <typename T>
void im2col_row(const T* img, T* col, const Geometry& g, int64_t i, int64_t j) {
  for (int64_t y = 0; y < g.OH; ++y) {
    const int64_t ih = y * g.sh - g.ph + i * g.dh;
    T* out = col + y * g.OW;
    if (ih < 0 || ih >= g.H) {
      std::fill(out, out + g.OW, T(0));
      continue;
    }
    const T* in = img + ih * g.W;
    for (int64_t x = 0; x < g.OW; ++x) {
      const int64_t iw = x * g.sw - g.pw + j * g.dw;
      out[x] = iw >= 0 && iw < g.W ? in[iw] : T(0);
    }
  }
}

// plane c of image n: the sums of its columns' elements, in the TS kernel's order
template <typename T>
void col2im_plane(const T* col, T* img, const Geometry& g) {
  std::fill(img, img + g.H * g.W, T(0));
  for (int64_t i = 0; i < g.kh; ++i) {
    for (int64_t j = 0; j < g.kw; ++j) {
      const T* row = col + (i * g.kw + j) * g.OH * g.OW;
      for (int64_t y = 0; y < g.OH; ++y) {
        const int64_t ih = y * g.sh - g.ph + i * g.dh;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t x = 0; x < g.OW; ++x) {
          const int64_t iw = x * g.sw - g.pw + j * g.dw;
          if (iw >= 0 && iw < g.W) img[ih * g.W + iw] += row[y * g.OW + x];
        }
      }
    }
  }
}

Napi::Value Run(const Napi::CallbackInfo& info, bool to_cols) {
  Napi::Env env = info.Env();
  const int64_t dtype = static_cast<int64_t>(info[0].As<Napi::Number>().DoubleValue());
  const double* m = elements<double>(info[5], 0, 14, "im2col");
  if (m == nullptr) return env.Undefined();
  const Geometry g{int64_t(m[0]), int64_t(m[1]), int64_t(m[2]), int64_t(m[3]), int64_t(m[4]), int64_t(m[5]), int64_t(m[6]),
                   int64_t(m[7]), int64_t(m[8]), int64_t(m[9]), int64_t(m[10]), int64_t(m[11]), int64_t(m[12]), int64_t(m[13])};
  const int64_t L = g.OH * g.OW, rows = g.C * g.kh * g.kw, K = g.kh * g.kw;
  auto run = [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    T* cols = elements<T>(info[1], static_cast<int64_t>(info[2].As<Napi::Number>().DoubleValue()), g.N * rows * L, "im2col");
    T* image = elements<T>(info[3], static_cast<int64_t>(info[4].As<Napi::Number>().DoubleValue()), g.N * g.C * g.H * g.W, "im2col");
    if (cols == nullptr || image == nullptr) return env.Undefined();
    if (to_cols) {
      parallel_for(0, g.N * rows, at_least_1(GRAIN_SIZE / at_least_1(L)), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          const int64_t n = r / rows, c = (r % rows) / K, i = (r % K) / g.kw, j = r % g.kw;
          im2col_row(image + (n * g.C + c) * g.H * g.W, cols + r * L, g, i, j);
        }
      });
    } else {
      parallel_for(0, g.N * g.C, at_least_1(GRAIN_SIZE / at_least_1(K * L)), [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) col2im_plane(cols + p * K * L, image + p * g.H * g.W, g);
      });
    }
    return Napi::Boolean::New(env, true);
  };
  if (dtype == kFloat) return run(float());
  if (dtype == kDouble) return run(double());
  return Napi::Boolean::New(env, false);
}

Napi::Value Im2Col(const Napi::CallbackInfo& info) { return Run(info, true); }
Napi::Value Col2Im(const Napi::CallbackInfo& info) { return Run(info, false); }

}  // namespace

void InitIm2Col(Napi::Env env, Napi::Object exports) {
  exports.Set("im2col", Napi::Function::New(env, Im2Col));
  exports.Set("col2im", Napi::Function::New(env, Col2Im));
}

}  // namespace glasstorch
