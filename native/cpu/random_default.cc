// The DEFAULT random unit: random_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_default
#define GT_ISA_NAME "DEFAULT"
#define GT_RND_TABLE kTableDefault
#include "random_kernels.inc"
