// The NN kernel table (softmax, layer/batch norm, pooling, gather's lines) each instruction-set unit fills:
// nn_kernels.inc compiled three times (nn_kernels_{default,avx2,avx512}.cc, with the flags of the
// pointwise units). NN.cc picks the table matching the capability cpu_features.cc selected, and
// splits the work over the thread pool; a table entry handles one contiguous slice of that work.
#pragma once
#include <cstdint>

namespace glasstorch {

template <typename T>
struct NNKernelsOf {
  // rows [0, rows) of a contiguous (rows, dim) input; log selects log_softmax
  void (*softmax_lastdim)(const T* in, T* out, int64_t rows, int64_t dim, bool log);
  // one outer slice of a contiguous (dim, inner) input, columns [k0, k1)
  void (*softmax_inner)(const T* in, T* out, int64_t dim, int64_t inner, int64_t k0, int64_t k1, bool log);
  void (*softmax_backward_lastdim)(const T* grad, const T* out, T* gin, int64_t rows, int64_t dim, bool log);
  void (*softmax_backward_inner)(const T* grad, const T* out, T* gin, int64_t dim, int64_t inner, int64_t k0, int64_t k1, bool log);
  // rows [0, rows) of (rows, N): mean and rstd (in T, stored as double) per row
  void (*layer_norm)(const T* x, const T* gamma, const T* beta, T* y, int64_t rows, int64_t N, double eps, double* mean, double* rstd);
  // one channel's statistics over `batches` slices of `image` elements spaced `stride` apart
  void (*batch_norm_stats)(const T* x, int64_t batches, int64_t stride, int64_t image, double* mean, double* var_sum);
  // y = x * alpha + beta (one rounding: an fma) over n contiguous elements
  void (*batch_norm_apply)(const T* x, T* y, int64_t n, double alpha, double beta);
  // layer norm's input gradient for rows [0, rows) of (rows, N); gamma (double) may be null
  void (*layer_norm_backward_dx)(const T* dy, const T* x, const double* mean, const double* rstd, const double* gamma, T* dx, int64_t rows, int64_t N);
  // layer norm's weight / bias gradients (either may be null) for columns [j0, j1) of (M, N), over all rows
  void (*layer_norm_backward_dgb)(const T* dy, const T* x, const double* mean, const double* rstd, T* dg, T* db, int64_t M, int64_t N, int64_t j0, int64_t j1);
  // batch norm's backward for one channel (batches slices of image elements, stride apart): its sums, and the
  // input gradient when gi is not null
  void (*batch_norm_backward_channel)(const T* dy, const T* x, int64_t batches, int64_t stride, int64_t image, double mean, double invstd,
                                      double w, bool train, T* gi, double* sum, double* dotp);
  // one plane of max pooling: output values and int64 indices within the plane
  void (*max_pool2d)(const T* x, T* y, int64_t* ind, int64_t H, int64_t W, int64_t OH, int64_t OW, const int64_t* win);
  // one plane of average pooling; win = kH, kW, dH, dW, padH, padW, count_include_pad, divisor (0: none)
  void (*avg_pool2d)(const T* x, T* y, int64_t H, int64_t W, int64_t OH, int64_t OW, const int64_t* win);
  void (*adaptive_avg_pool2d)(const T* x, T* y, int64_t H, int64_t W, int64_t OH, int64_t OW);
  // one plane of max_pool1d (no indices): out[ow] = the window's maximum, a NaN winning
  void (*max_pool1d)(const T* x, T* y, int64_t W, int64_t OW, int64_t kW, int64_t dW, int64_t padW, int64_t dil);
  // rows [row0, row0 + rows) of (N * G, D * HxW): group norm's output, mean and rstd (mean/rstd from index 0)
  void (*group_norm)(const T* x, const T* gamma, const T* beta, T* y, int64_t row0, int64_t rows, int64_t G, int64_t D, int64_t HxW, double eps,
                     double* mean, double* rstd);
};

struct NNKernelTable {
  const char* name;  // "DEFAULT", "AVX2", "AVX512"
  NNKernelsOf<float> f32;
  NNKernelsOf<double> f64;
  // gather along a contiguous line, 4- and 8-byte elements moved as bits: dst[i] = src[idx[i]], i < n;
  // false when an index is outside [0, bound) (that element reads src[0]); bound > 0
  bool (*gather_line32)(const int64_t* idx, int64_t n, const uint32_t* src, int64_t bound, uint32_t* dst);
  bool (*gather_line64)(const int64_t* idx, int64_t n, const uint64_t* src, int64_t bound, uint64_t* dst);
};

extern const NNKernelTable kNNKernelsDefault;
extern const NNKernelTable kNNKernelsAVX2;
extern const NNKernelTable kNNKernelsAVX512;

// The table of the unit cpu_features.cc selected (NN.cc; set_capability switches it with the pointwise one).
const NNKernelTable& selected_nn_kernels();

}  // namespace glasstorch
