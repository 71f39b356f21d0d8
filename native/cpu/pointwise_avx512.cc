// The AVX512 pointwise unit: pointwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_ISA_NAME "AVX512"
#define GT_PW_TABLE kTableAVX512
#include "pointwise_kernels.inc"
