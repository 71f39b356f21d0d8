// The AVX2 depthwise unit: depthwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx2
#define GT_DEPTHWISE_TABLE kTableAVX2
#define GT_VEC_BYTES 32
#include "depthwise_kernels.inc"
