// The pointwise loss kernels' N-API surface (loss_kernels.h): a TensorIterator's operands, all of one
// float dtype, walked as Pointwise.cc walks them (dims coalesced, rows split over the pool by
// GRAIN_SIZE at 64-element boundaries), each row handed to the capability unit's loop.
//   loss_op(op, dtype, meta, scalars, out, a, b[, c[, e]]) -> bool   (false: no kernel for op/dtype, or
//   binary_cross_entropy met an input outside [0, 1]: the TS kernel then raises the error)
// meta = [ndim, shape..., then per operand: offset, strides...] in elements.
#include <napi.h>

#include <algorithm>
#include <cstring>
#include "Coalesce.h"
#include "ThreadPool.h"
#include "cpu_features.h"
#include "kernels.h"
#include "loss_kernels.h"

namespace glasstorch {
namespace loss {

std::atomic<bool> g_out_of_range{false};

namespace {

const Table& table() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kTableAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kTableAVX2;
  return kTableDefault;
}

constexpr int kMaxOps = 5;
constexpr int64_t kSplitElems = 64;  // chunk starts on 64-element boundaries (Pointwise.cc says why)

using Plan = StridedPlan<kMaxOps>;

int arity(int op) {
  if (op == kPreluBackward) return 5;
  return op <= kHuber || op == kBce || op == kLogSigmoid || op == kPrelu || op == kBceWithLogits ? 3 : 4;
}

bool data_of(const Napi::Value& v, char** data) {
  if (!v.IsTypedArray()) return false;
  Napi::TypedArray t = v.As<Napi::TypedArray>();
  *data = static_cast<char*>(t.ArrayBuffer().Data()) + t.ByteOffset();
  return true;
}

Napi::Value LossOp(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int op = info[0].As<Napi::Number>().Int32Value();
  const int dtype = info[1].As<Napi::Number>().Int32Value();
  const int c = dtype == kFloat ? 0 : dtype == kDouble ? 1 : -1;
  if (op < 0 || op >= kNumOps || c < 0) return Napi::Boolean::New(env, false);
  const Loop loop = table().op[op][c];
  const int64_t itemsize = c == 0 ? 4 : 8;
  char* mraw;
  char* sraw;
  if (!data_of(info[2], &mraw) || !data_of(info[3], &sraw)) {
    Napi::TypeError::New(env, "glasstorch native loss: meta and scalars must be Float64Arrays").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  const double* m = reinterpret_cast<const double*>(mraw);
  const double* sc = reinterpret_cast<const double*>(sraw);
  const int ndim = static_cast<int>(m[0]);
  if (ndim < 0 || ndim > kMaxDims) return Napi::Boolean::New(env, false);
  Plan p;
  p.nops = arity(op);
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOps][kMaxDims];
  for (int d = 0; d < ndim; ++d) shape[d] = static_cast<int64_t>(m[1 + d]);
  const double* q = m + 1 + ndim;
  for (int k = 0; k < p.nops; ++k) {
    char* data;
    if (!data_of(info[4 + k], &data)) {
      Napi::TypeError::New(env, "glasstorch native loss: operands must be typed arrays").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    p.base[k] = data + static_cast<int64_t>(*q++) * itemsize;
    for (int d = 0; d < ndim; ++d) strides[k][d] = static_cast<int64_t>(*q++) * itemsize;
  }
  coalesce(p, ndim, shape, strides);
  if (p.numel == 0) return Napi::Boolean::New(env, true);
  g_out_of_range.store(false, std::memory_order_relaxed);
  const int64_t units = (p.numel + kSplitElems - 1) / kSplitElems;
  parallel_for(0, units, GRAIN_SIZE / kSplitElems, [&](int64_t b, int64_t e) {
    run_range(p, [&](char** ptr, const int64_t* inner, int64_t n) { loop(ptr, inner, n, sc); }, b * kSplitElems, std::min(p.numel, e * kSplitElems));
  });
  return Napi::Boolean::New(env, !g_out_of_range.exchange(false, std::memory_order_relaxed));
}

}  // namespace
}  // namespace loss

void InitLoss(Napi::Env env, Napi::Object exports) {
  exports.Set("loss_op", Napi::Function::New(env, loss::LossOp));
}

}  // namespace glasstorch
