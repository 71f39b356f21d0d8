// The AVX512 pointwise unit: pointwise_kernels.inc compiled with this unit's instruction-set flags (binding.gyp).
#define GT_ISA_NS isa_avx512
#define GT_ISA_NAME "AVX512"
#define GT_PW_TABLE kTableAVX512
// the memory-bound loops in 256-bit vectors (still AVX-512's masks and instructions): see the .inc
#define GT_MEMORY_BOUND_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"prefer-vector-width=256\")")
#define GT_MEMORY_BOUND_END _Pragma("GCC pop_options")
#include "pointwise_kernels.inc"
