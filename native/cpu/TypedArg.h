// A typed-array argument of an N-API call with its element size (Ops2.cc, AdvancedIndex.cc): the
// kernels that copy elements as bits take any typed array and read the element size from its type.
#pragma once
#include <napi.h>

#include <cstdint>

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

}  // namespace glasstorch
