// The DEFAULT kernel unit: kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_default
#define GT_ISA_NAME "DEFAULT"
#define GT_TABLE kKernelsDefault
#include "kernels.inc"
