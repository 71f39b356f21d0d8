// The DEFAULT loss unit: loss_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_default
#define GT_ISA_NAME "DEFAULT"
#define GT_LOSS_TABLE kTableDefault
#include "loss_kernels.inc"
