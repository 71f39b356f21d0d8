// The batched GEMM (issue #8): C[b] = beta * C[b] + alpha * (A[b] @ B[b]) for b in [0, batch), on
// strided float32/float64 batches (a batch stride of 0 is a broadcast operand, as matmul's expanded
// batch dims give), in one N-API crossing instead of one per batch item. PyTorch's bmm_out_or_baddbmm_
// runs one gemm per item (its small-product loop parallelises over the batch); here:
//   - items too small to be worth threading on their own (kBmmItemFlops) run one GEMM per item,
//     single-threaded, with the batch split over the pool (each item is one whole GEMM on one thread,
//     so the result does not depend on the thread count: the GEMM never splits K);
//   - larger items run one after another, each threaded by the GEMM itself.
// Each item goes through gemm() (Gemm.h): the own GEMM of the current unit, or CBLAS when selected and
// the layout fits (outside a parallel region only, as gemm() decides).
#include "Bmm.h"

#include <algorithm>
#include <cstdint>

#include "Gemm.h"
#include "NapiArgs.h"
#include "ThreadPool.h"
#include "kernels.h"

namespace glasstorch {
namespace {

// Items of fewer flops than this run single-threaded with the batch split over the pool: the own
// GEMM gives a product one thread per 2 MFLOP (gemm_blocked), so below it an item would run on one
// thread anyway and the other core would idle.
constexpr double kBmmItemFlops = 4.0e6;
// At least this many flops per batch chunk of a thread (a pool wake-up costs a few microseconds).
constexpr double kBmmChunkFlops = 2.0e5;

// The items' C matrices are disjoint, so different threads may write them: C's batch stride is at
// least the span of one item (fresh bmm results and contiguous out= tensors; other layouts run the
// items one after another, as the TypeScript loop does).
bool c_items_disjoint(int64_t batch, int64_t m, int64_t n, int64_t bs, int64_t rs, int64_t cs) {
  if (batch <= 1) return true;
  return bs >= (m - 1) * rs + (n - 1) * cs + 1;
}

template <class S>
struct BatchedProblem {
  int64_t batch;
  GemmProblem<S> item0;  // item 0; item b's operands are item0's + b * the batch strides
  int64_t abs_, bbs, cbs;
};

template <class S>
void run_item(const BatchedProblem<S>& bp, int64_t b) {
  GemmProblem<S> p = bp.item0;
  p.a.data += b * bp.abs_;
  p.b.data += b * bp.bbs;
  p.c.data += b * bp.cbs;
  gemm(p);
}

template <class S>
void run_batched(const BatchedProblem<S>& bp, bool disjoint) {
  const GemmProblem<S>& p = bp.item0;
  const double flops = 2.0 * double(p.m) * double(p.n) * double(std::max<int64_t>(p.k, 1));
  const int nt = in_parallel_region() ? 1 : get_num_threads();
  if (nt > 1 && disjoint && bp.batch > 1 && flops < kBmmItemFlops) {
    const int64_t grain = std::max<int64_t>(1, int64_t(kBmmChunkFlops / flops));
    parallel_for(0, bp.batch, grain, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) run_item(bp, b);
    });
    return;
  }
  for (int64_t b = 0; b < bp.batch; ++b) run_item(bp, b);
}

template <class S>
bool bmm_from_js(const Napi::CallbackInfo& info, napi_typedarray_type tt, const double* meta) {
  BatchedProblem<S> bp;
  bp.batch = int64_t(meta[0]);
  GemmProblem<S>& p = bp.item0;
  p.m = int64_t(meta[1]);
  p.n = int64_t(meta[2]);
  p.k = int64_t(meta[3]);
  p.alpha = S(meta[4]);
  p.beta = S(meta[5]);
  int64_t bs[3];
  if (!gemm_operands<S>(info, tt, meta + 6, bp.batch, bs, p, "bmm")) return false;
  bp.abs_ = bs[0];
  bp.bbs = bs[1];
  bp.cbs = bs[2];
  if (bp.batch <= 0 || p.m == 0 || p.n == 0) return true;
  run_batched<S>(bp, c_items_disjoint(bp.batch, p.m, p.n, bp.cbs, p.c.rs, p.c.cs));
  return true;
}

// bmm(dtype, meta, a, b, c) -> bool; meta = [batch, m, n, k, alpha, beta, then per operand a, b, c:
// element offset, batch stride, row stride, column stride]. false: a dtype or array type it does not take.
Napi::Value BmmJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const double* meta = meta_array(env, info[1], 18, "bmm");
  if (meta == nullptr) return env.Undefined();
  bool ok = false;
  if (dtype == kFloat) ok = bmm_from_js<float>(info, napi_float32_array, meta);
  else if (dtype == kDouble) ok = bmm_from_js<double>(info, napi_float64_array, meta);
  if (env.IsExceptionPending()) return env.Undefined();
  return Napi::Boolean::New(env, ok);
}

}  // namespace

void InitBmm(Napi::Env env, Napi::Object exports) { exports.Set("bmm", Napi::Function::New(env, BmmJs)); }

}  // namespace glasstorch
