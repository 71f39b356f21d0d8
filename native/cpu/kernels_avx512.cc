// The AVX512 kernel unit: kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_ISA_NAME "AVX512"
#define GT_TABLE kKernelsAVX512
#include "kernels.inc"
