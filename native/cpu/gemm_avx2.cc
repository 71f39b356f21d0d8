// The AVX2 GEMM unit: gemm_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_GEMM_NS gemm_avx2
#define GT_GEMM_NAME "AVX2"
#define GT_GEMM_TABLE kGemmAVX2
#include "gemm_kernels.inc"
