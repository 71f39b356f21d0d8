// The AVX512 Winograd unit: winograd_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_WINOGRAD_TABLE kTableAVX512
#define GT_VEC_BYTES 64
#define GT_ISA_NAME "AVX512"
#include "winograd_kernels.inc"
