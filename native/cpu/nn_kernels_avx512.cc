// The AVX512 NN kernel unit: nn_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS nn_isa_avx512
#define GT_ISA_NAME "AVX512"
#define GT_NN_TABLE kNNKernelsAVX512
#include "nn_kernels.inc"
