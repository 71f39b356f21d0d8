// The AVX512 GEMM unit: gemm_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_GEMM_NS gemm_avx512
#define GT_GEMM_NAME "AVX512"
#define GT_GEMM_TABLE kGemmAVX512
#include "gemm_kernels.inc"
