// The DEFAULT NN kernel unit: nn_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS nn_isa_default
#define GT_ISA_NAME "DEFAULT"
#define GT_NN_TABLE kNNKernelsDefault
#include "nn_kernels.inc"
