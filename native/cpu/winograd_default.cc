// The DEFAULT Winograd unit: winograd_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_default
#define GT_WINOGRAD_TABLE kTableDefault
#define GT_VEC_BYTES 16
#define GT_ISA_NAME "DEFAULT"
#include "winograd_kernels.inc"
