// The native CPU backend's N-API surface (node-addon-api). The TypeScript side
// (engine/aten/native/cpu_native/) loads this, installs `alloc` (Allocator.cc) as the CPU allocator and registers
// the kernels into the DispatchStubs. Kernels read and write the tensors' ArrayBuffers in place
// (zero-copy): every call passes the storages' typed arrays plus a Float64Array of sizes, element
// strides and offsets (the TensorIterator's view of the operands).
#include <napi.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "GemmAddon.h"
#include "AdvancedIndex.h"
#include "Allocator.h"
#include "Bmm.h"
#include "Fill.h"
#include "Loss.h"
#include "Pooling.h"
#include "Im2Col.h"
#include "Ops2.h"
#include "Shape.h"
#include "Histogram.h"
#include "Bucketize.h"
#include "Loops.h"
#include "NN.h"
#include "Pointwise.h"
#include "Random.h"
#include "Scan.h"
#include "Sorting.h"
#include "Unique.h"
#include "ThreadPool.h"
#include "cpu_features.h"
#include "kernels.h"

using namespace glasstorch;

namespace {

// ---- argument helpers ----

// The typed array's first element (null for an empty one); false when v is not a typed array.
bool data_of(napi_env env, napi_value v, char** out) {
  napi_typedarray_type type;
  size_t length, byte_offset;
  void* data = nullptr;
  napi_value ab;
  if (napi_get_typedarray_info(env, v, &type, &length, &data, &ab, &byte_offset) != napi_ok) return false;
  *out = static_cast<char*>(data);
  return true;
}

int itemsize_of(int dtype) {
  switch (dtype) {
    case kDouble: case kLong: return 8;
    case kFloat: case kInt: return 4;
    case kShort: case kHalf: return 2;
    default: return 1;
  }
}

bool check(Napi::Env env, bool ok, const char* what) {
  if (!ok) Napi::TypeError::New(env, std::string("glasstorch native: ") + what).ThrowAsJavaScriptException();
  return ok;
}

// meta: [ndim, shape..., then per operand: offset, strides...]
struct Meta {
  int ndim;
  int64_t shape[kMaxDims];
};

bool read_meta(Napi::Env env, napi_value v, int nops, Meta& m, Operand* ops, napi_value* arrays) {
  char* raw = nullptr;
  if (!check(env, data_of(env, v, &raw) && raw != nullptr, "meta must be a Float64Array")) return false;
  const double* p = reinterpret_cast<const double*>(raw);
  m.ndim = static_cast<int>(p[0]);
  if (!check(env, m.ndim >= 0 && m.ndim <= kMaxDims, "too many dims")) return false;
  for (int d = 0; d < m.ndim; ++d) m.shape[d] = static_cast<int64_t>(p[1 + d]);
  const double* q = p + 1 + m.ndim;
  for (int k = 0; k < nops; ++k) {
    if (!check(env, data_of(env, arrays[k], &ops[k].data), "operands must be typed arrays")) return false;
    ops[k].offset = static_cast<int64_t>(*q++);
    for (int d = 0; d < m.ndim; ++d) ops[k].strides[d] = static_cast<int64_t>(*q++);
  }
  return true;
}

// binary(op, dtype, meta, out, a, b, alpha): false when this op/dtype has no native kernel
Napi::Value Binary(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int op = info[0].As<Napi::Number>().Int32Value();
  const int dtype = info[1].As<Napi::Number>().Int32Value();
  if (op < 0 || op >= kNumBinaryOps || dtype < 0 || dtype >= kNumDTypes) return Napi::Boolean::New(env, false);
  BinaryLoop loop = kernels().binary[op][dtype];
  if (loop == nullptr) return Napi::Boolean::New(env, false);
  Meta m;
  Operand ops[3];
  napi_value arrays[3] = {info[3], info[4], info[5]};
  if (!read_meta(env, info[2], 3, m, ops, arrays)) return env.Undefined();
  pointwise_binary(loop, m.ndim, m.shape, ops, itemsize_of(dtype), info[6].As<Napi::Number>().DoubleValue());
  return Napi::Boolean::New(env, true);
}

// unary(op, dtype, meta, out, a)
Napi::Value Unary(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int op = info[0].As<Napi::Number>().Int32Value();
  const int dtype = info[1].As<Napi::Number>().Int32Value();
  if (op < 0 || op >= kNumUnaryOps || dtype < 0 || dtype >= kNumDTypes) return Napi::Boolean::New(env, false);
  UnaryLoop loop = kernels().unary[op][dtype];
  if (loop == nullptr) return Napi::Boolean::New(env, false);
  Meta m;
  Operand ops[2];
  napi_value arrays[2] = {info[3], info[4]};
  if (!read_meta(env, info[2], 2, m, ops, arrays)) return env.Undefined();
  pointwise_unary(loop, m.ndim, m.shape, ops, itemsize_of(dtype));
  return Napi::Boolean::New(env, true);
}

// ---- settings and status ----

Napi::Value SetNumThreads(const Napi::CallbackInfo& info) {
  set_num_threads(info[0].As<Napi::Number>().Int32Value());
  return info.Env().Undefined();
}

Napi::Value GetNumThreads(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), get_num_threads()); }

Napi::Value SetCapability(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), set_capability(info[0].As<Napi::String>().Utf8Value()));
}

Napi::Value Status(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("capability", kernels().name);
  o.Set("best_capability", best_capability());
  const CpuFeatures f = detect_cpu_features();
  Napi::Object cpu = Napi::Object::New(env);
  cpu.Set("avx2", f.avx2);
  cpu.Set("fma", f.fma);
  cpu.Set("avx512f", f.avx512f);
  cpu.Set("avx512dq", f.avx512dq);
  cpu.Set("avx512vl", f.avx512vl);
  cpu.Set("avx512bw", f.avx512bw);
  o.Set("cpu_features", cpu);
  o.Set("num_threads", get_num_threads());
  o.Set("default_num_threads", default_num_threads());
  o.Set("grain_size", static_cast<double>(GRAIN_SIZE));
  AllocatorStatus(o);
  return o;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  InitAllocator(env, exports);
  exports.Set("binary", Napi::Function::New(env, Binary));
  exports.Set("unary", Napi::Function::New(env, Unary));
  exports.Set("set_num_threads", Napi::Function::New(env, SetNumThreads));
  exports.Set("get_num_threads", Napi::Function::New(env, GetNumThreads));
  exports.Set("set_capability", Napi::Function::New(env, SetCapability));
  exports.Set("status", Napi::Function::New(env, Status));
  InitNN(env, exports);
  InitGemm(env, exports);
  InitPointwise(env, exports);
  InitRandom(env, exports);
  InitFill(env, exports);
  InitBmm(env, exports);
  InitOps2(env, exports);
  InitAdvancedIndex(env, exports);
  InitSorting(env, exports);
  InitScan(env, exports);
  InitUnique(env, exports);
  InitShape(env, exports);
  InitHistogram(env, exports);
  InitBucketize(env, exports);
  InitLoss(env, exports);
  InitPooling(env, exports);
  InitIm2Col(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(glasstorch_cpu, Init)
