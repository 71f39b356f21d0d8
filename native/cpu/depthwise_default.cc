// The DEFAULT depthwise unit: depthwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_default
#define GT_DEPTHWISE_TABLE kTableDefault
#define GT_VEC_BYTES 16
#include "depthwise_kernels.inc"
