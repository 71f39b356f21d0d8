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

// The own GEMM of one instruction-set unit, single- or multi-threaded (max_threads caps the pool's).
struct GemmUnit {
  const char* name;
  void (*sgemm)(const GemmProblem<float>& p, int max_threads);
  void (*dgemm)(const GemmProblem<double>& p, int max_threads);
  // runs iters steps of independent f32 multiply-add chains in registers: flops_per_iter flops each
  float (*fma_peak_loop)(int64_t iters);
  int flops_per_iter;
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
