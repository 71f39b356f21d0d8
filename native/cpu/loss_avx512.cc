// The AVX512 loss unit: loss_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_ISA_NAME "AVX512"
#define GT_LOSS_TABLE kTableAVX512
#include "loss_kernels.inc"
