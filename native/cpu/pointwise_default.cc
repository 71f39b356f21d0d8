// The DEFAULT pointwise unit: pointwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_default
#define GT_ISA_NAME "DEFAULT"
#define GT_PW_TABLE kTableDefault
#include "pointwise_kernels.inc"
