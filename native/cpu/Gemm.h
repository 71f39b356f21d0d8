// The native GEMM (issue #8): C = beta * C + alpha * (A @ B) on strided float32/float64 operands, as
// PyTorch's cpublas::gemm (aten/src/ATen/native/CPUBlas.cpp). Two implementations:
//   - the project's own GEMM (gemm_kernels.inc, compiled per instruction set as
//     gemm_{default,avx2,avx512}.cc): a register-blocked FMA micro-kernel, either direct (A read in
//     place, B in place or packed: small products, few rows) or Goto/BLIS-style (packed A and B
//     panels, MC/KC/NC cache blocking), threads over the pool; always built;
//   - cblas_sgemm/dgemm from a system CBLAS (OpenBLAS) when one was found at build time
//     (GT_HAVE_CBLAS, scripts/detect-cblas.mjs) — used for the operand layouts BLAS can express.
// GLASSTORCH_BLAS=own|cblas picks one (default: own, measured faster, Gemm.cc); set_blas() switches at run time.
#pragma once
#include <cstdint>

namespace glasstorch {

// A strided matrix: element (i, j) at data[i * rs + j * cs] (strides in elements).
template <class S>
struct GemmOperand {
  S* data;
  int64_t rs, cs;
};

template <class S>
struct GemmProblem {
  int64_t m, n, k;
  S alpha, beta;
  GemmOperand<S> a, b, c;  // m x k, k x n, m x n
};

// An implicit-GEMM convolution slice (Conv.cc's stride-1 path): C (m x n, row stride rs_c, unit
// column stride) = A (m x k, strides ars/acs) @ B where B's row p is the n values at b + off[p]
// (contiguous; the rows of a convolution over a padded image are shifted windows of it, so no im2col
// buffer is written). b must stay readable up to b + off[p] + n + the unit's NR (partial panels read
// whole vectors, the extra columns are not stored).
template <class S>
struct ConvRowsProblem {
  int64_t m, n, k;
  const S* a;
  int64_t ars, acs;
  const S* b;
  const int64_t* off;
  S* c;
  int64_t rs_c;
  // nonzero: A is the same matrix on every slice given this key (one convolution call's images), so a
  // thread packs it for its first slice only; 0: A is packed for this slice
  uint64_t a_key = 0;
  // non-null: A already packed by the unit's pack_sconv_rows_a for this m and k (a Winograd call packs
  // its 16 matrices once, shared by every thread); a, ars, acs and a_key are then not read
  const S* a_packed = nullptr;
};

// Products of m * n * k up to this are the small-size path's (h_smallmm: single-thread or unpacked
// kernels); larger ones are the large path's (gemm_kernels.inc's packed and direct drivers, threaded
// by dynamic tile claiming). 256^3: matmul 256 is small, 512 large.
constexpr int64_t kGemmSmallMaxMNK = int64_t(256) * 256 * 256;

// The own GEMM of one instruction-set unit, single- or multi-threaded (max_threads caps the pool's).
struct GemmUnit {
  const char* name;
  void (*sgemm)(const GemmProblem<float>& p, int max_threads);
  void (*dgemm)(const GemmProblem<double>& p, int max_threads);
  // runs iters steps of independent f32 multiply-add chains in registers: flops_per_iter flops each
  float (*fma_peak_loop)(int64_t iters);
  int flops_per_iter;
  // C = A @ B for an implicit-GEMM convolution slice (ConvRowsProblem), threads over n
  void (*sconv_rows)(const ConvRowsProblem<float>& p, int max_threads);
  void (*dconv_rows)(const ConvRowsProblem<double>& p, int max_threads);
  int64_t conv_rows_slack;  // elements of b a slice may read past b + off[p] + n (>= the widest NR)
  // A (m x k, strides ars/acs) packed as sconv_rows packs it, into dst (a_packed); returns the floats
  // needed (dst null: the size only)
  int64_t (*pack_sconv_rows_a)(int64_t m, int64_t k, const float* a, int64_t ars, int64_t acs, float* dst);
};
extern const GemmUnit kGemmDefault;
extern const GemmUnit kGemmAVX2;
extern const GemmUnit kGemmAVX512;

// Which own-GEMM path runs: 0 by size (the direct no-pack kernel for small products, else the packed
// blocked one), 1 always direct, 2 always packed (set_gemm_path; for tests and benchmarks).
extern int gemm_path_mode;

// The GEMM the dispatcher picks (CBLAS when enabled and the layout fits, else the own one of the
// current capability). Called from the JS thread or from inside a parallel region (then 1 thread).
void gemm(const GemmProblem<float>& p);
void gemm(const GemmProblem<double>& p);
// "cblas" or "own": which one gemm() uses for layouts CBLAS takes.
const char* blas_in_use();

}  // namespace glasstorch
