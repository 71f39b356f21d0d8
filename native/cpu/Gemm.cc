// The GEMM dispatcher and its N-API surface (see Gemm.h): the own GEMM of the current instruction-set
// unit, or CBLAS (OpenBLAS) when it was linked at build time and GLASSTORCH_BLAS=cblas asks for it.
#include "Gemm.h"
#include "GemmAddon.h"
#include "NapiArgs.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "Half.h"
#include "ThreadPool.h"
#include "cpu_features.h"
#include "kernels.h"

#ifdef GT_HAVE_CBLAS
#include <cblas.h>
#ifdef GT_HAVE_OPENBLAS
extern "C" void openblas_set_num_threads(int num_threads);
#endif
#endif

namespace glasstorch {
namespace {

#ifdef GT_HAVE_CBLAS
constexpr bool kCblasLinked = true;
#else
constexpr bool kCblasLinked = false;
#endif

// GLASSTORCH_BLAS=own|cblas (default: own). The own GEMM measured at or above OpenBLAS 0.3's on this
// project's sizes, per core (thread CPU time, Zen 4, AVX-512; bench/native_gemm.mjs --cpu): square
// 64 on par (5.0 us), 128 110 vs 99, 256 112 vs 105, 512 103 vs 101, 2048 2 threads 199 vs 193
// GFLOP/s; linear's 64 x 784 @ (256 x 784)^T 96 vs 93, 1024 x 128 @ 128 x 384 108 vs 104. CBLAS stays
// selectable (and tested) for comparison and for machines where it is the faster one.
// With 2 threads it still lost in wall time at 512-2048 (s13 bench: 0.75x, 0.85x, 0.96x of PyTorch):
// the packed path split fixed 96-row blocks (1024: 6 + 5 blocks, 576 vs 448 rows per thread) in two
// parallel regions per K block, and the direct path split its tiles in fixed halves (a late or
// preempted worker held the caller). Now items are taken in order by whichever thread is free
// (gemm_kernels.inc); 2 threads, process CPU time per call (bench/native_gemm.mjs --cpu, 8 sessions
// sharing the 2 cores, so wall times were not usable): 1024 198.5 vs OpenBLAS 179.7 GFLOP/s, 2048
// 198.0 vs 181.2 (86% of the measured 231 peak); before, 1024 and 2048 took 9% and 3% more CPU.
bool initial_use_cblas() {
  const char* env = std::getenv("GLASSTORCH_BLAS");
  return env != nullptr && std::strcmp(env, "cblas") == 0 && kCblasLinked;
}
bool g_use_cblas = initial_use_cblas();

const GemmUnit& own_unit() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kGemmAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kGemmAVX2;
  return kGemmDefault;
}

#ifdef GT_HAVE_CBLAS
// A rows x cols operand as BLAS sees it: one unit stride (after ignoring the strides of size-1
// dims), the other the leading dimension, at least the unit-stride side's length.
bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool* trans, int64_t* ld) {
  const int64_t r1 = std::max<int64_t>(rows, 1), c1 = std::max<int64_t>(cols, 1);
  // row-major (NoTrans): unit column stride, leading dimension rs
  if (cs == 1 || cols == 1) {
    const int64_t l = rows == 1 ? c1 : rs;
    if (l >= c1) { *trans = false; *ld = l; return true; }
  }
  // column-major (Trans): unit row stride, leading dimension cs
  if (rs == 1 || rows == 1) {
    const int64_t l = cols == 1 ? r1 : cs;
    if (l >= r1) { *trans = true; *ld = l; return true; }
  }
  return false;
}

int g_blas_threads = -1;
void sync_blas_threads() {
#ifdef GT_HAVE_OPENBLAS
  const int n = in_parallel_region() ? 1 : get_num_threads();
  if (n != g_blas_threads) {
    openblas_set_num_threads(n);
    g_blas_threads = n;
  }
#endif
}

void call_cblas(const GemmProblem<float>& p, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t lda, int64_t ldb, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, int(p.m), int(p.n), int(p.k), p.alpha, p.a.data, int(lda), p.b.data, int(ldb), p.beta, p.c.data, int(ldc));
}
void call_cblas(const GemmProblem<double>& p, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t lda, int64_t ldb, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, ta, tb, int(p.m), int(p.n), int(p.k), p.alpha, p.a.data, int(lda), p.b.data, int(ldb), p.beta, p.c.data, int(ldc));
}

// Runs p through CBLAS when its operands have a BLAS layout (C row-major, or C^T = B^T A^T with C
// column-major); false otherwise. From inside a parallel region BLAS is not entered (OpenBLAS's own
// threads would nest): the own GEMM runs there.
template <class S>
bool try_cblas(const GemmProblem<S>& p0) {
  if (in_parallel_region() || p0.k <= 0) return false;
  constexpr int64_t kIntMax = 0x7fffffff;
  if (p0.m > kIntMax || p0.n > kIntMax || p0.k > kIntMax) return false;
  GemmProblem<S> p = p0;
  bool tc;
  int64_t ldc;
  if (!blas_layout(p.m, p.n, p.c.rs, p.c.cs, &tc, &ldc)) return false;
  if (tc) {
    // C column-major: compute C^T (n x m, row-major) = B^T @ A^T
    p.m = p0.n;
    p.n = p0.m;
    p.a = GemmOperand<S>{p0.b.data, p0.b.cs, p0.b.rs};
    p.b = GemmOperand<S>{p0.a.data, p0.a.cs, p0.a.rs};
    p.c = GemmOperand<S>{p0.c.data, p0.c.cs, p0.c.rs};
  }
  bool ta, tb;
  int64_t lda, ldb;
  if (!blas_layout(p.m, p.k, p.a.rs, p.a.cs, &ta, &lda) || !blas_layout(p.k, p.n, p.b.rs, p.b.cs, &tb, &ldb)) return false;
  if (lda > kIntMax || ldb > kIntMax || ldc > kIntMax) return false;
  sync_blas_threads();
  call_cblas(p, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, lda, ldb, ldc);
  return true;
}
#endif

template <class S>
void run_gemm(const GemmProblem<S>& p, void (*own)(const GemmProblem<S>&, int)) {
#ifdef GT_HAVE_CBLAS
  if (g_use_cblas && try_cblas(p)) return;
#endif
  own(p, get_num_threads());
}

// ---- N-API ----

template <class S>
bool gemm_from_js(const Napi::CallbackInfo& info, napi_typedarray_type tt, const double* meta, bool own_only) {
  GemmProblem<S> p;
  p.m = int64_t(meta[0]);
  p.n = int64_t(meta[1]);
  p.k = int64_t(meta[2]);
  p.alpha = S(meta[3]);
  p.beta = S(meta[4]);
  if (!gemm_operands<S>(info, tt, meta + 5, 1, nullptr, p, "gemm")) return false;
  if (p.m == 0 || p.n == 0) return true;
  const GemmUnit& unit = own_unit();
  if constexpr (sizeof(S) == 4) {
    if (own_only) unit.sgemm(p, get_num_threads());
    else run_gemm<float>(p, unit.sgemm);
  } else {
    if (own_only) unit.dgemm(p, get_num_threads());
    else run_gemm<double>(p, unit.dgemm);
  }
  return true;
}

// bfloat16: PyTorch's bfloat16 gemm accumulates in float (at::opmath_type), as the TS kernel does.
// A and B widen to float copies (exact), C too when beta reads it; the float GEMM runs on them and each
// element of C rounds back to bfloat16 once. A copy keeps its operand's order (row-major, or
// column-major for a transposed one: linear's weight), so reads and writes are contiguous and the
// GEMM sees the layout it would have had; the copies cost (mk + kn + mn) conversions against the
// product's mnk multiply-adds.

// visit(i, j, at) for each element (i, j) of a rows x cols operand, in its copy's order (at: the
// element's index in the copy), the copy's outer loop split over the pool
template <class F>
void for_each_in_order(const GemmOperand<uint16_t>& o, int64_t rows, int64_t cols, F visit) {
  const bool col_major = std::llabs(o.cs) > std::llabs(o.rs);
  const int64_t outer = col_major ? cols : rows, inner = col_major ? rows : cols;
  parallel_for(0, outer, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, inner)), [&](int64_t o0, int64_t o1) {
    for (int64_t x = o0; x < o1; ++x)
      for (int64_t y = 0; y < inner; ++y) {
        const int64_t i = col_major ? y : x, j = col_major ? x : y;
        visit(i, j, x * inner + y);
      }
  });
}
GemmOperand<float> copy_layout(const GemmOperand<uint16_t>& o, int64_t rows, int64_t cols, float* buf) {
  return std::llabs(o.cs) > std::llabs(o.rs) ? GemmOperand<float>{buf, 1, rows} : GemmOperand<float>{buf, cols, 1};
}
void widen(const GemmOperand<uint16_t>& o, int64_t rows, int64_t cols, float* buf) {
  for_each_in_order(o, rows, cols, [&](int64_t i, int64_t j, int64_t at) { buf[at] = bf16_t{o.data[i * o.rs + j * o.cs]}.to_float(); });
}
bool gemm_bf16_from_js(const Napi::CallbackInfo& info, const double* meta) {
  GemmProblem<uint16_t> h;
  h.m = int64_t(meta[0]);
  h.n = int64_t(meta[1]);
  h.k = int64_t(meta[2]);
  if (!gemm_operands<uint16_t>(info, napi_uint16_array, meta + 5, 1, nullptr, h, "gemm")) return false;
  const int64_t m = h.m, n = h.n, k = h.k;
  if (m == 0 || n == 0) return true;
  std::vector<float> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n), 0.0f);
  GemmProblem<float> p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = float(meta[3]);
  p.beta = float(meta[4]);
  widen(h.a, m, k, a.data());
  widen(h.b, k, n, b.data());
  if (p.beta != 0.0f) widen(h.c, m, n, c.data());  // beta == 0: C is not read (BLAS)
  p.a = copy_layout(h.a, m, k, a.data());
  p.b = copy_layout(h.b, k, n, b.data());
  p.c = copy_layout(h.c, m, n, c.data());
  run_gemm<float>(p, own_unit().sgemm);
  for_each_in_order(h.c, m, n, [&](int64_t i, int64_t j, int64_t at) { h.c.data[i * h.c.rs + j * h.c.cs] = bf16_t::from_float(c[size_t(at)]).x; });
  return true;
}

// gemm(dtype, meta, a, b, c) -> bool; meta = [m, n, k, alpha, beta, a offset, rs, cs, b ..., c ...]
// (element offsets and strides). false: a dtype or array type it does not take.
Napi::Value GemmJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const double* meta = meta_array(env, info[1], 14, "gemm");
  if (meta == nullptr) return env.Undefined();
  bool ok = false;
  if (dtype == kFloat) ok = gemm_from_js<float>(info, napi_float32_array, meta, false);
  else if (dtype == kDouble) ok = gemm_from_js<double>(info, napi_float64_array, meta, false);
  else if (dtype == kBFloat16) ok = gemm_bf16_from_js(info, meta);
  if (env.IsExceptionPending()) return env.Undefined();
  return Napi::Boolean::New(env, ok);
}

// set_gemm_path("auto" | "direct" | "packed") -> bool: which own-GEMM path runs (gemm_path_mode)
Napi::Value SetGemmPath(const Napi::CallbackInfo& info) {
  const std::string want = info[0].As<Napi::String>().Utf8Value();
  if (want == "auto") gemm_path_mode = 0;
  else if (want == "direct") gemm_path_mode = 1;
  else if (want == "packed") gemm_path_mode = 2;
  else return Napi::Boolean::New(info.Env(), false);
  return Napi::Boolean::New(info.Env(), true);
}

// set_blas("own" | "cblas") -> bool (false: CBLAS is not linked into this build)
Napi::Value SetBlas(const Napi::CallbackInfo& info) {
  const std::string want = info[0].As<Napi::String>().Utf8Value();
  if (want == "own") g_use_cblas = false;
  else if (want == "cblas" && kCblasLinked) g_use_cblas = true;
  else return Napi::Boolean::New(info.Env(), false);
  return Napi::Boolean::New(info.Env(), true);
}

// The addon's status() with "blas" (which GEMM runs: "cblas" or "own") and "gemm" (blas_info()). The
// original status function is held per environment (the main thread and each worker thread load the
// addon), in the wrapper's data, and released by the environment's cleanup hook.
Napi::Value StatusWithBlas(const Napi::CallbackInfo& info);

Napi::Value BlasInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("blas", blas_in_use());
  o.Set("cblas_linked", kCblasLinked);
#ifdef GT_HAVE_OPENBLAS
  o.Set("cblas_library", "openblas");
#elif defined(GT_HAVE_CBLAS)
  o.Set("cblas_library", "cblas");
#else
  o.Set("cblas_library", env.Null());
#endif
  o.Set("own_gemm", own_unit().name);
  return o;
}

Napi::Value StatusWithBlas(const Napi::CallbackInfo& info) {
  Napi::Value base = static_cast<Napi::FunctionReference*>(info.Data())->Call({});
  if (!base.IsObject()) return base;
  Napi::Object o = base.As<Napi::Object>();
  o.Set("blas", blas_in_use());
  o.Set("gemm", BlasInfo(info));
  return o;
}

// ---- measure_fma_peak: the f32 multiply-add peak this machine delivers, measured ----
// The formula peak (cores x FMA ports x lanes x 2 x nominal clock) is wrong in both directions on a
// VM: the clock under load is not cpuinfo's, and Zen 4 runs a 512-bit FMA as two 256-bit halves (one
// per cycle per core, not two). So: each of `threads` threads runs a register-resident loop of
// independent FMA chains (fma_peak_loop of the current unit) and a loop of dependent integer adds (one
// per cycle: the core's clock), timed by the thread's own CPU time — what the core does while the
// thread runs, on a machine whose other processes take the cores away — and by the wall clock.

double thread_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// n dependent adds (8 per iteration): n cycles at one add per cycle
int64_t dependent_adds(int64_t iters) {
  int64_t x = 0;
  for (int64_t i = 0; i < iters; ++i) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
#else
    __asm__ volatile("" : "+r"(x));
    x += 8;
#endif
  }
  return x;
}

struct PeakSample {
  double fma_cpu_s = 0, fma_wall_s = 0, clock_cpu_s = 0;
  float sink = 0;
};

// measure_fma_peak(threads = the pool's, iters = 4e7) -> {isa, threads, gflops (sum over threads of flops /
// thread CPU time), gflops_wall (all flops / wall time), clock_ghz (mean), flops_per_cycle (per core),
// per_thread: [{gflops, clock_ghz}]}
Napi::Value MeasureFmaPeak(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int threads = info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : get_num_threads();
  const int64_t iters = info.Length() > 1 && info[1].IsNumber() ? info[1].As<Napi::Number>().Int64Value() : 40000000;
  if (threads < 1 || threads > 1024 || iters < 1) {
    Napi::RangeError::New(env, "measure_fma_peak: threads in 1..1024 and iters >= 1").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  const GemmUnit& unit = own_unit();
  const int64_t add_iters = iters;  // 8 adds each: about as many cycles as the FMA loop's 12 zmm FMAs
  std::vector<PeakSample> samples(static_cast<size_t>(threads));
  std::atomic<int> ready{0};
  auto body = [&](int t) {
    ready.fetch_add(1);
    while (ready.load() < threads) std::this_thread::yield();
    PeakSample& s = samples[size_t(t)];
    double c0 = thread_cpu_seconds();
    s.sink += float(dependent_adds(add_iters) & 1);
    s.clock_cpu_s = thread_cpu_seconds() - c0;
    const auto w0 = std::chrono::steady_clock::now();
    c0 = thread_cpu_seconds();
    s.sink += unit.fma_peak_loop(iters);
    s.fma_cpu_s = thread_cpu_seconds() - c0;
    s.fma_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(body, t);
  body(0);
  for (auto& th : pool) th.join();

  const double flops = double(iters) * double(unit.flops_per_iter);
  Napi::Array per = Napi::Array::New(env, size_t(threads));
  double gflops = 0, clock_sum = 0, wall = 0;
  float sink = 0;
  for (int t = 0; t < threads; ++t) {
    const PeakSample& s = samples[size_t(t)];
    const double g = flops / std::max(s.fma_cpu_s, 1e-9) / 1e9;
    const double ghz = double(add_iters) * 8.0 / std::max(s.clock_cpu_s, 1e-9) / 1e9;
    gflops += g;
    clock_sum += ghz;
    wall = std::max(wall, s.fma_wall_s);
    sink += s.sink;
    Napi::Object o = Napi::Object::New(env);
    o.Set("gflops", g);
    o.Set("clock_ghz", ghz);
    per.Set(uint32_t(t), o);
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("isa", unit.name);
  o.Set("threads", threads);
  o.Set("gflops", gflops);
  o.Set("gflops_wall", flops * threads / std::max(wall, 1e-9) / 1e9);
  o.Set("clock_ghz", clock_sum / threads);
  o.Set("flops_per_cycle", gflops / threads / (clock_sum / threads));
  o.Set("per_thread", per);
  o.Set("checksum", double(sink));
  return o;
}

}  // namespace

int gemm_path_mode = 0;

void gemm(const GemmProblem<float>& p) { run_gemm<float>(p, own_unit().sgemm); }
void gemm(const GemmProblem<double>& p) { run_gemm<double>(p, own_unit().dgemm); }
const char* blas_in_use() { return g_use_cblas ? "cblas" : "own"; }

void InitGemm(Napi::Env env, Napi::Object exports) {
  exports.Set("gemm", Napi::Function::New(env, GemmJs));
  exports.Set("set_blas", Napi::Function::New(env, SetBlas));
  exports.Set("blas_info", Napi::Function::New(env, BlasInfo));
  exports.Set("measure_fma_peak", Napi::Function::New(env, MeasureFmaPeak));
  exports.Set("set_gemm_path", Napi::Function::New(env, SetGemmPath));
  InitConv(env, exports);
  // status() says which BLAS runs (called after addon.cc has set status)
  Napi::Value status = exports.Get("status");
  if (status.IsFunction()) {
    auto* base = new Napi::FunctionReference(Napi::Persistent(status.As<Napi::Function>()));
    napi_add_env_cleanup_hook(env, [](void* p) { delete static_cast<Napi::FunctionReference*>(p); }, base);
    exports.Set("status", Napi::Function::New(env, StatusWithBlas, "status", base));
  }
}

}  // namespace glasstorch
