// The AVX2 NN kernel unit: nn_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS nn_isa_avx2
#define GT_ISA_NAME "AVX2"
#define GT_NN_TABLE kNNKernelsAVX2
#include "nn_kernels.inc"
