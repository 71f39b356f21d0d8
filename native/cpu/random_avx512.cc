// The AVX512 random unit: random_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_ISA_NAME "AVX512"
#define GT_RND_TABLE kTableAVX512
#include "random_kernels.inc"
