// The AVX2 Winograd unit: winograd_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx2
#define GT_WINOGRAD_TABLE kTableAVX2
#define GT_VEC_BYTES 32
#define GT_ISA_NAME "AVX2"
#include "winograd_kernels.inc"
