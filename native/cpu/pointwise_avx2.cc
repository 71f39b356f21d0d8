// The AVX2 pointwise unit: pointwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx2
#define GT_ISA_NAME "AVX2"
#define GT_PW_TABLE kTableAVX2
#include "pointwise_kernels.inc"
