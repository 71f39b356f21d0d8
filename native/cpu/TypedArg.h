// Reading the typed-array arguments of the N-API calls that take any element type (Ops2.cc,
// AdvancedIndex.cc, NNIndex.cc, Shape.cc, Histogram.cc, Bucketize.cc, ...): the kernels that copy
// elements as bits take any typed array and read the element size from its type.
#pragma once
#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace glasstorch {

struct Typed {
  char* data = nullptr;
  int itemsize = 0;
  int64_t length = 0;  // elements
  napi_typedarray_type type = napi_int8_array;
};

// false when v is not a typed array
inline bool typed(napi_env env, napi_value v, Typed* t) {
  size_t length, byte_offset;
  void* raw = nullptr;
  napi_value ab;
  if (napi_get_typedarray_info(env, v, &t->type, &length, &raw, &ab, &byte_offset) != napi_ok) return false;
  t->data = static_cast<char*>(raw);
  t->length = static_cast<int64_t>(length);
  switch (t->type) {
    case napi_int8_array: case napi_uint8_array: case napi_uint8_clamped_array: t->itemsize = 1; break;
    case napi_int16_array: case napi_uint16_array: t->itemsize = 2; break;
    case napi_int32_array: case napi_uint32_array: case napi_float32_array: t->itemsize = 4; break;
    default: t->itemsize = 8; break;
  }
  return true;
}

// A typed array's data and its length in bytes
struct Buf {
  char* data = nullptr;
  size_t bytes = 0;
};
inline bool get_buf(napi_env env, napi_value v, Buf& b) {
  Typed t;
  if (!typed(env, v, &t)) return false;
  b.data = t.data;
  b.bytes = static_cast<size_t>(t.length) * static_cast<size_t>(t.itemsize);
  return true;
}

// A typed array's data, its length in elements and its type
struct View {
  void* data = nullptr;
  size_t length = 0;
  napi_typedarray_type type = napi_int8_array;
};
inline bool get_view(napi_env env, napi_value v, View& out) {
  size_t byte_offset;
  napi_value ab;
  return napi_get_typedarray_info(env, v, &out.type, &out.length, &out.data, &ab, &byte_offset) == napi_ok;
}

// A TypeError "glasstorch native: <what>" thrown into JavaScript; the call returns undefined
inline Napi::Value fail(const Napi::CallbackInfo& info, const std::string& what) {
  Napi::TypeError::New(info.Env(), "glasstorch native: " + what).ThrowAsJavaScriptException();
  return info.Env().Undefined();
}

// Element `off` of the typed array v of T, whose n elements from there lie inside it; else null, with a
// TypeError (not a typed array) or RangeError (another element size, or past its end) naming `op` thrown
template <typename T>
T* elements(const Napi::Value& v, int64_t off, int64_t n, const char* op) {
  Napi::Env env = v.Env();
  if (!v.IsTypedArray()) {
    Napi::TypeError::New(env, std::string("glasstorch native ") + op + ": operands must be typed arrays").ThrowAsJavaScriptException();
    return nullptr;
  }
  Napi::TypedArray t = v.As<Napi::TypedArray>();
  if (t.ElementSize() != sizeof(T) || off < 0 || off + n > static_cast<int64_t>(t.ElementLength())) {
    Napi::RangeError::New(env, std::string("glasstorch native ") + op + ": an operand reaches past its array").ThrowAsJavaScriptException();
    return nullptr;
  }
  return reinterpret_cast<T*>(static_cast<char*>(t.ArrayBuffer().Data()) + t.ByteOffset()) + off;
}

// grain sizes: at least one element per task
inline int64_t at_least_1(int64_t v) { return v < 1 ? 1 : v; }

}  // namespace glasstorch
