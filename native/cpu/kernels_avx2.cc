// The AVX2 kernel unit: kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx2
#define GT_ISA_NAME "AVX2"
#define GT_TABLE kKernelsAVX2
#include "kernels.inc"
