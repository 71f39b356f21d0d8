// The AVX512 depthwise unit: depthwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_DEPTHWISE_TABLE kTableAVX512
#define GT_VEC_BYTES 64
#include "depthwise_kernels.inc"
