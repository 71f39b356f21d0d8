#include "cpu_features.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <unistd.h>

namespace glasstorch {

CpuFeatures detect_cpu_features() {
  __builtin_cpu_init();
  // libgcc also checks XGETBV: a feature counts only if the OS saves its registers
  return CpuFeatures{
      __builtin_cpu_supports("avx2") != 0,    __builtin_cpu_supports("fma") != 0,
      __builtin_cpu_supports("avx512f") != 0, __builtin_cpu_supports("avx512dq") != 0,
      __builtin_cpu_supports("avx512vl") != 0, __builtin_cpu_supports("avx512bw") != 0,
  };
}

int64_t l2_cache_bytes() {
  static const int64_t bytes = [] {
    const long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return v > 0 ? int64_t(v) : int64_t(1) << 20;
  }();
  return bytes;
}

const char* best_capability() {
  const CpuFeatures f = detect_cpu_features();
  // PyTorch's AVX512 capability needs F, BW, VL and DQ; AVX2 needs AVX2 and FMA
  if (f.avx512f && f.avx512dq && f.avx512vl && f.avx512bw && f.avx2 && f.fma) return "AVX512";
  if (f.avx2 && f.fma) return "AVX2";
  return "DEFAULT";
}

namespace {
const KernelTable* table_for(const std::string& upper) {
  if (upper == "AVX512") return &kKernelsAVX512;
  if (upper == "AVX2") return &kKernelsAVX2;
  if (upper == "DEFAULT") return &kKernelsDefault;
  return nullptr;
}
int rank(const std::string& upper) { return upper == "AVX512" ? 2 : upper == "AVX2" ? 1 : 0; }

const KernelTable* initial() {
  std::string cap = best_capability();
  if (const char* env = std::getenv("GLASSTORCH_NATIVE_ISA")) {
    std::string want(env);
    std::transform(want.begin(), want.end(), want.begin(), [](unsigned char c) { return std::toupper(c); });
    if (table_for(want) && rank(want) < rank(cap)) cap = want;  // a cap only lowers the capability
  }
  return table_for(cap);
}
const KernelTable* g_table = initial();
}  // namespace

bool set_capability(const std::string& name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  const KernelTable* t = table_for(upper);
  if (!t || rank(upper) > rank(best_capability())) return false;
  g_table = t;
  return true;
}

const KernelTable& kernels() { return *g_table; }

}  // namespace glasstorch
