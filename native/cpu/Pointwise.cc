// The pointwise driver (aten/src/ATen/native/cpu/Loops.h + TensorIteratorBase::for_each) for
// operands of different element sizes (comparisons write bool, casts read one dtype and write
// another): coalesces the iterator's dims, splits the elements over the thread pool by GRAIN_SIZE and
// hands each row to the selected unit's row loop with byte strides. The N-API surface:
//   pw_op(op, dtype, meta, scalars, out, a[, b[, c]]) -> bool   (false: no native kernel for op/dtype)
//   pw_cast(from, to, meta, out, a) -> bool
// meta = [ndim, shape..., then per operand: offset, strides...] in elements of that operand's dtype;
// element sizes come from the typed arrays themselves.
#include "Pointwise.h"
#include "Coalesce.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>
#include "Loops.h"
#include "ThreadPool.h"
#include "cpu_features.h"
#include "pointwise_kernels.h"

namespace glasstorch {
namespace pw {

std::atomic<bool> g_zero_division{false};

const Table& table() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return kTableAVX512;
  if (std::strcmp(name, "AVX2") == 0) return kTableAVX2;
  return kTableDefault;
}

namespace {

constexpr int kMaxOps = 4;

// the strided plan, and each operand's element size (operands of different dtypes)
struct Plan : StridedPlan<kMaxOps> {
  int64_t itemsize[kMaxOps];
  // bytes the op reads and writes (an operand broadcast over every dim counts for nothing)
  int64_t footprint() const {
    int64_t per = 0;
    for (int k = 0; k < nops; ++k) {
      bool moves = numel == 1;
      for (int d = 0; d < ndim; ++d) moves = moves || (strides[k][d] != 0 && shape[d] > 1);
      per += moves ? itemsize[k] : 0;
    }
    return per * numel;
  }
};

// Streaming stores above this many bytes moved (the last-level cache of the machine this was tuned
// on: AMD EPYC Zen 4, 32 MB L3; sysconf's figure in a VM is the host's). Below it the output stays in
// the cache for the op that reads it next (add 1e6: 12 MB), above it nothing would stay anyway and a
// cached store costs a read of each line it writes. pw_stream_threshold sets it (tests, benchmarks).
int64_t g_stream_bytes = int64_t(32) << 20;
std::atomic<int64_t> g_stream_calls{0};  // ops that took a streaming loop (pw_stream_threshold reports it: the tests)

// The unit of the split: chunk boundaries at multiples of 64 elements, so that a contiguous operand
// that starts on a 64-byte boundary has every chunk start on one (8 chunks of 1e6 floats put half of
// them 32 bytes off a line, and every 64-byte vector access of those chunks across two lines).
constexpr int64_t kSplitElems = 64;

void run(const Plan& p, Loop loop, const double* sc) {
  if (p.numel == 0) return;
  const int64_t units = (p.numel + kSplitElems - 1) / kSplitElems;
  parallel_for_chunked(0, units, GRAIN_SIZE / kSplitElems, [&](int64_t b, int64_t e) {
    run_range(p, [&](char** ptr, const int64_t* inner, int64_t n) { loop(ptr, inner, n, sc); }, b * kSplitElems, std::min(p.numel, e * kSplitElems));
  });
}

// the streaming variant when the op moves more than g_stream_bytes and the unit has one
Loop pick(Loop cached, Loop streaming, const Plan& p) {
  if (streaming == nullptr || p.footprint() <= g_stream_bytes) return cached;
  g_stream_calls.fetch_add(1, std::memory_order_relaxed);
  return streaming;
}

// ---- arguments ----

bool typed(napi_env env, napi_value v, char** data, int* itemsize) {
  napi_typedarray_type type;
  size_t length, byte_offset;
  void* raw = nullptr;
  napi_value ab;
  if (napi_get_typedarray_info(env, v, &type, &length, &raw, &ab, &byte_offset) != napi_ok) return false;
  *data = static_cast<char*>(raw);
  switch (type) {
    case napi_int8_array: case napi_uint8_array: case napi_uint8_clamped_array: *itemsize = 1; break;
    case napi_int16_array: case napi_uint16_array: *itemsize = 2; break;
    case napi_int32_array: case napi_uint32_array: case napi_float32_array: *itemsize = 4; break;
    default: *itemsize = 8; break;
  }
  return true;
}

bool fail(Napi::Env env, const char* what) {
  Napi::TypeError::New(env, std::string("glasstorch native pointwise: ") + what).ThrowAsJavaScriptException();
  return false;
}

// Reads meta for nops operands info[first..first+nops) into a plan.
bool make_plan(const Napi::CallbackInfo& info, napi_value meta, int first, int nops, Plan& p) {
  Napi::Env env = info.Env();
  char* raw;
  int isz;
  if (!typed(env, meta, &raw, &isz)) return fail(env, "meta must be a Float64Array");
  const double* m = reinterpret_cast<const double*>(raw);
  const int ndim = static_cast<int>(m[0]);
  if (ndim < 0 || ndim > kMaxDims) return fail(env, "too many dims");
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOps][kMaxDims];
  for (int d = 0; d < ndim; ++d) shape[d] = static_cast<int64_t>(m[1 + d]);
  const double* q = m + 1 + ndim;
  p.nops = nops;
  for (int k = 0; k < nops; ++k) {
    char* data;
    int itemsize;
    if (!typed(env, info[first + k], &data, &itemsize)) return fail(env, "operands must be typed arrays");
    p.base[k] = data + static_cast<int64_t>(*q++) * itemsize;
    p.itemsize[k] = itemsize;
    for (int d = 0; d < ndim; ++d) strides[k][d] = static_cast<int64_t>(*q++) * itemsize;
  }
  coalesce(p, ndim, shape, strides);
  return true;
}

int arity(int op) {
  if (op >= kRemainder && op <= kPowTensor) return 3;
  if (op == kPowScalarAny) return 2;
  if (op <= kThreshold || op == kLerpScalar || (op >= kGeluBackwardErfVec && op <= kSiluBackward) || op == kMse) return 3;
  if (op >= kAddcmul && op <= kLerpTensor) return 4;
  if (op >= kLeakyReluBackward && op <= kMishBackward) return 3;
  if (op >= kLogicalAnd && op <= kBitwiseXor) return 3;
  if (op >= kLogicalAndMixed && op <= kLogicalXorMixed) return 3;
  if (op == kGlu) return 3;
  return 2;
}

// pw_op(op, dtype, meta, scalars, out, a[, b]) -> true, false (no kernel for op/dtype), or
// "ZeroDivisionError" (an integer division met a zero divisor: the engine raises it)
Napi::Value PwOp(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int op = info[0].As<Napi::Number>().Int32Value();
  const int dtype = info[1].As<Napi::Number>().Int32Value();
  if (op < 0 || op >= kNumOps || dtype < 0 || dtype >= kNumDTypes) return Napi::Boolean::New(env, false);
  const Loop loop = table().op[op][dtype];
  if (loop == nullptr) return Napi::Boolean::New(env, false);
  char* sraw;
  int isz;
  if (!typed(env, info[3], &sraw, &isz)) return (fail(env, "scalars must be a Float64Array"), env.Undefined());
  Plan p;
  if (!make_plan(info, info[2], 4, arity(op), p)) return env.Undefined();
  g_zero_division.store(false, std::memory_order_relaxed);
  run(p, pick(loop, table().stream_op[op][dtype], p), reinterpret_cast<const double*>(sraw));
  if (g_zero_division.exchange(false, std::memory_order_relaxed)) return Napi::String::New(env, "ZeroDivisionError");
  return Napi::Boolean::New(env, true);
}

// pw_index_add(dtype, meta, scalars, index, indexOffset, indexStride, count, dimSize, outDimStride,
//              srcDimStride, out, out, src)
// (TensorAdvancedIndexing.cpp index_add_cpu_): out.select(dim, index[i]) += alpha * src.select(dim, i)
// for each i in order, through add's own loop (scalars[0] = alpha, as for add). meta describes the
// slices (the shape without dim; out twice, then src); strides are in elements; index is an int32 or
// int64 typed array. Every index is checked before anything is written: false if one is outside
// [0, dimSize) (the TS kernel then raises PyTorch's error), or if the dtype has no add loop. Threads
// split the slice's elements, and each walks every i in order, so an element that several indices hit
// adds them up in the TS kernel's order on any thread count.
Napi::Value PwIndexAdd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  if (dtype < 0 || dtype >= kNumDTypes) return Napi::Boolean::New(env, false);
  const Loop loop = table().op[kAdd][dtype];
  if (loop == nullptr) return Napi::Boolean::New(env, false);
  char* sraw;
  char* iraw;
  int isz, index_size;
  if (!typed(env, info[2], &sraw, &isz) || !typed(env, info[3], &iraw, &index_size)) return (fail(env, "scalars and index must be typed arrays"), env.Undefined());
  if (index_size != 4 && index_size != 8) return (fail(env, "index must be int32 or int64"), env.Undefined());
  const double* sc = reinterpret_cast<const double*>(sraw);
  const int64_t ioff = static_cast<int64_t>(info[4].As<Napi::Number>().DoubleValue());
  const int64_t istride = static_cast<int64_t>(info[5].As<Napi::Number>().DoubleValue());
  const int64_t n = static_cast<int64_t>(info[6].As<Napi::Number>().DoubleValue());
  const int64_t dim_size = static_cast<int64_t>(info[7].As<Napi::Number>().DoubleValue());
  Plan p;
  if (!make_plan(info, info[1], 10, 3, p)) return env.Undefined();
  const int64_t out_step = static_cast<int64_t>(info[8].As<Napi::Number>().DoubleValue()) * p.itemsize[0];
  const int64_t src_step = static_cast<int64_t>(info[9].As<Napi::Number>().DoubleValue()) * p.itemsize[2];
  // the byte offsets of the result slices, each index checked
  std::vector<int64_t> out_off(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = index_size == 8 ? reinterpret_cast<const int64_t*>(iraw)[ioff + i * istride] : reinterpret_cast<const int32_t*>(iraw)[ioff + i * istride];
    if (k < 0 || k >= dim_size) return Napi::Boolean::New(env, false);
    out_off[static_cast<size_t>(i)] = k * out_step;
  }
  if (p.numel == 0 || n == 0) return Napi::Boolean::New(env, true);
  if (p.numel == 1 && table().index_add_elements[dtype] != nullptr) {
    // one element per slice (a 1-D self): the elements in turn, add's arithmetic inlined
    table().index_add_elements[dtype](p.base[0], out_off.data(), p.base[2], src_step, n, sc);
    return Napi::Boolean::New(env, true);
  }
  if (p.numel == 1) {
    // (float16, bfloat16) add's loop on each element in turn
    char* ptr[3];
    const int64_t inner[3] = {0, 0, 0};
    for (int64_t i = 0; i < n; ++i) {
      ptr[0] = ptr[1] = p.base[0] + out_off[static_cast<size_t>(i)];
      ptr[2] = p.base[2] + i * src_step;
      loop(ptr, inner, 1, sc);
    }
    return Napi::Boolean::New(env, true);
  }
  // each thread's part of the slice takes every index (at most one part per thread, since every part
  // pays a row walk per index): parts of at least GRAIN_SIZE element updates
  const int64_t grain = std::max<int64_t>(kSplitElems, GRAIN_SIZE / n);
  parallel_for(0, p.numel, grain, [&](int64_t b, int64_t e) {
    Plan q = p;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t off = out_off[static_cast<size_t>(i)];
      q.base[0] = p.base[0] + off;
      q.base[1] = p.base[1] + off;
      q.base[2] = p.base[2] + i * src_step;
      run_range(q, [&](char** ptr, const int64_t* inner, int64_t m) { loop(ptr, inner, m, sc); }, b, e);
    }
  });
  return Napi::Boolean::New(env, true);
}

// pw_cast(from, to, meta, out, a)
Napi::Value PwCast(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int from = info[0].As<Napi::Number>().Int32Value();
  const int to = info[1].As<Napi::Number>().Int32Value();
  if (from < 0 || from >= kNumDTypes || to < 0 || to >= kNumDTypes) return Napi::Boolean::New(env, false);
  const Loop loop = table().cast[from][to];
  if (loop == nullptr) return Napi::Boolean::New(env, false);
  Plan p;
  if (!make_plan(info, info[2], 3, 2, p)) return env.Undefined();
  const double none = 0;
  run(p, from == to ? pick(loop, table().stream_copy[from], p) : loop, &none);
  return Napi::Boolean::New(env, true);
}

// pw_stream_threshold([bytes]) -> {threshold: the threshold before the call, calls: ops streamed so far}
// (bytes >= 0 sets the threshold: an op moving more bytes than it streams its output)
Napi::Value PwStreamThreshold(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object r = Napi::Object::New(env);
  r.Set("threshold", static_cast<double>(g_stream_bytes));
  r.Set("calls", static_cast<double>(g_stream_calls.load()));
  if (info.Length() > 0 && info[0].IsNumber()) {
    const double v = info[0].As<Napi::Number>().DoubleValue();
    if (v >= 0) g_stream_bytes = static_cast<int64_t>(v);
  }
  return r;
}

}  // namespace
}  // namespace pw

void InitReductions(Napi::Env env, Napi::Object exports);  // Reductions.cc

void InitPointwise(Napi::Env env, Napi::Object exports) {
  exports.Set("pw_op", Napi::Function::New(env, pw::PwOp));
  exports.Set("pw_cast", Napi::Function::New(env, pw::PwCast));
  exports.Set("pw_index_add", Napi::Function::New(env, pw::PwIndexAdd));
  exports.Set("pw_stream_threshold", Napi::Function::New(env, pw::PwStreamThreshold));
  InitReductions(env, exports);
}

int64_t pw_stream_bytes() { return pw::g_stream_bytes; }

}  // namespace glasstorch
