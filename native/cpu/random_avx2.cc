// The AVX2 random unit: random_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx2
#define GT_ISA_NAME "AVX2"
#define GT_RND_TABLE kTableAVX2
#include "random_kernels.inc"
