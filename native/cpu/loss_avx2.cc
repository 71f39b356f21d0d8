// The AVX2 loss unit: loss_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx2
#define GT_ISA_NAME "AVX2"
#define GT_LOSS_TABLE kTableAVX2
#include "loss_kernels.inc"
