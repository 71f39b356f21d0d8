// The DEFAULT GEMM unit: gemm_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_GEMM_NS gemm_default
#define GT_GEMM_NAME "DEFAULT"
#define GT_GEMM_TABLE kGemmDefault
#include "gemm_kernels.inc"
