// Reading the typed-array arguments of the GEMM family's N-API functions (Gemm.cc, Bmm.cc, Conv.cc):
// the storages' typed arrays and the Float64Array of sizes, offsets and strides each call passes.
#pragma once
#include <napi.h>

#include <cstdint>
#include <string>

#include "Gemm.h"

namespace glasstorch {

// The typed array's data and length in elements; false when v is not a typed array of `want`.
template <class S>
bool typed_data(napi_env env, napi_value v, napi_typedarray_type want, S** data, int64_t* length) {
  napi_typedarray_type type;
  size_t len, byte_offset;
  void* d = nullptr;
  napi_value ab;
  if (napi_get_typedarray_info(env, v, &type, &len, &d, &ab, &byte_offset) != napi_ok || type != want) return false;
  *data = static_cast<S*>(d);
  *length = static_cast<int64_t>(len);
  return true;
}

// The call's meta: a Float64Array of at least `need` elements; else a TypeError naming the op is
// thrown and the result is null.
inline const double* meta_array(Napi::Env env, napi_value v, size_t need, const char* op) {
  double* data = nullptr;
  int64_t len = 0;
  if (!typed_data<double>(env, v, napi_float64_array, &data, &len) || len < static_cast<int64_t>(need)) {
    Napi::TypeError::New(env, std::string("glasstorch native ") + op + ": meta must be a Float64Array of " + std::to_string(need)).ThrowAsJavaScriptException();
    return nullptr;
  }
  return data;
}

// The largest element index `batch` rows x cols operands at offset (batch stride bs) touch is inside
// the array of `length` elements (nothing is touched when one of the counts is 0).
inline bool operand_in_bounds(int64_t batch, int64_t off, int64_t rows, int64_t cols, int64_t bs, int64_t rs, int64_t cs, int64_t length) {
  if (batch == 0 || rows == 0 || cols == 0) return true;
  if (off < 0 || bs < 0 || rs < 0 || cs < 0) return false;
  return off + (batch - 1) * bs + (rows - 1) * rs + (cols - 1) * cs < length;
}

// C = A @ B's operands, the call's arguments 2, 3 and 4, into p.a, p.b and p.c (p.m, p.n, p.k set):
// per operand, at ops + i * width, [element offset, batch stride (batched calls: bs non-null, one per
// operand), row stride, column stride]. false when an argument is not a typed array of `tt` (the
// caller declines); a RangeError naming `op` when an operand reaches past its array.
template <class S>
bool gemm_operands(const Napi::CallbackInfo& info, napi_typedarray_type tt, const double* ops, int64_t batch, int64_t* bs, GemmProblem<S>& p,
                   const char* op) {
  Napi::Env env = info.Env();
  S* base[3];
  int64_t len[3];
  for (int i = 0; i < 3; ++i)
    if (!typed_data<S>(env, info[2 + i], tt, &base[i], &len[i])) return false;
  const int64_t rows[3] = {p.m, p.k, p.m}, cols[3] = {p.k, p.n, p.n};
  GemmOperand<S>* dst[3] = {&p.a, &p.b, &p.c};
  const int width = bs != nullptr ? 4 : 3;
  for (int i = 0; i < 3; ++i) {
    const double* o = ops + width * i;
    const int64_t off = int64_t(o[0]), b = bs != nullptr ? int64_t(o[1]) : 0, rs = int64_t(o[width - 2]), cs = int64_t(o[width - 1]);
    if (!operand_in_bounds(bs != nullptr ? batch : 1, off, rows[i], cols[i], b, rs, cs, len[i])) {
      Napi::RangeError::New(env, std::string("glasstorch native ") + op + ": operand out of bounds").ThrowAsJavaScriptException();
      return false;
    }
    *dst[i] = GemmOperand<S>{base[i] == nullptr ? nullptr : base[i] + off, rs, cs};
    if (bs != nullptr) bs[i] = b;
  }
  return true;
}

}  // namespace glasstorch
