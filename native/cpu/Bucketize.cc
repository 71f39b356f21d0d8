// searchsorted / bucketize (Bucketization.cpp searchsorted_cpu_contiguous): for each input value, the
// position in its row of the sorted boundaries where it would go (the first boundary >= it, or > it
// with right), by the TypeScript kernel's binary search with its comparisons (a NaN value goes past
// every boundary). Input and boundaries of one dtype (float32, float64, int32, int64), contiguous; an
// optional int64 sorter gives each row's order. Elements split over the pool (PyTorch's grain: 200).
#include "Bucketize.h"

#include <cstdint>
#include <string>

#include "ThreadPool.h"
#include "TypedArg.h"

namespace glasstorch {
namespace {

bool inside(const View& v, int64_t off, int64_t n) { return off >= 0 && n >= 0 && static_cast<uint64_t>(off + n) <= v.length; }

constexpr int64_t kSearchGrain = 200;  // SEARCHSORTED_GRAIN_SIZE

template <typename T, typename O>
void search(const T* x, int64_t n, const T* bd, int64_t row_len, int64_t in_row, bool one_row, const int64_t* sorter, bool right, O* out) {
  parallel_for(0, n, kSearchGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T val = x[i];
      const int64_t orig = one_row ? 0 : i / in_row * row_len;
      int64_t start = orig, end = orig + row_len;
      while (start < end) {
        const int64_t mid = start + ((end - start) >> 1);
        const T m = sorter ? bd[sorter[mid] + orig] : bd[mid];
        // arithmetic, not a branch: the data decide each step, so a branch mispredicts half the time
        const int64_t past = right ? !(m > val) : !(m >= val);
        start += past * (mid + 1 - start);
        end += (1 - past) * (mid - end);
      }
      out[i] = static_cast<O>(start - orig);
    }
  });
}

template <typename T>
void search_into(const View& out, int64_t out_off, const T* x, int64_t n, const T* bd, int64_t row_len, int64_t in_row, bool one_row, const int64_t* sorter, bool right) {
  if (out.type == napi_bigint64_array) search(x, n, bd, row_len, in_row, one_row, sorter, right, static_cast<int64_t*>(out.data) + out_off);
  else search(x, n, bd, row_len, in_row, one_row, sorter, right, static_cast<int32_t*>(out.data) + out_off);
}

// bucket_searchsorted(input, inOffset, n, boundaries, bOffset, rows, rowLen, inRow, sorter | null,
// sorterOffset, right, out (int64 / int32), outOffset): n input values, inRow per boundaries row (rows
// of rowLen; rows == 1: every value searches the one row). false for a sorter index outside its row.
Napi::Value Searchsorted(const Napi::CallbackInfo& info) {
  View x, bd, so, out;
  const bool has_sorter = !(info[8].IsNull() || info[8].IsUndefined());
  if (!get_view(info.Env(), info[0], x) || !get_view(info.Env(), info[3], bd) || (has_sorter && !get_view(info.Env(), info[8], so)) || !get_view(info.Env(), info[11], out)) {
    return fail(info, "searchsorted: typed arrays expected");
  }
  const int64_t x_off = info[1].As<Napi::Number>().Int64Value(), n = info[2].As<Napi::Number>().Int64Value();
  const int64_t b_off = info[4].As<Napi::Number>().Int64Value(), rows = info[5].As<Napi::Number>().Int64Value(), row_len = info[6].As<Napi::Number>().Int64Value();
  const int64_t in_row = info[7].As<Napi::Number>().Int64Value(), s_off = info[9].As<Napi::Number>().Int64Value();
  const bool right = info[10].ToBoolean().Value();
  const int64_t out_off = info[12].As<Napi::Number>().Int64Value();
  if (x.type != bd.type || (has_sorter && so.type != napi_bigint64_array) || (out.type != napi_bigint64_array && out.type != napi_int32_array)) {
    return fail(info, "searchsorted: input and boundaries of one type, an int64 sorter, an int64 / int32 out expected");
  }
  if (rows < 1 || row_len < 0 || in_row < 1 || (rows > 1 && rows * in_row != n) || !inside(x, x_off, n) || !inside(bd, b_off, rows * row_len) ||
      (has_sorter && !inside(so, s_off, rows * row_len)) || !inside(out, out_off, n)) {
    return fail(info, "searchsorted: arrays too short for the sizes");
  }
  const int64_t* sorter = has_sorter ? static_cast<const int64_t*>(so.data) + s_off : nullptr;
  if (sorter)
    for (int64_t i = 0; i < rows * row_len; ++i)
      if (sorter[i] < 0 || sorter[i] >= row_len) return Napi::Boolean::New(info.Env(), false);
  const bool one_row = rows == 1;
  switch (x.type) {
    case napi_float32_array:
      search_into(out, out_off, static_cast<const float*>(x.data) + x_off, n, static_cast<const float*>(bd.data) + b_off, row_len, in_row, one_row, sorter, right);
      break;
    case napi_float64_array:
      search_into(out, out_off, static_cast<const double*>(x.data) + x_off, n, static_cast<const double*>(bd.data) + b_off, row_len, in_row, one_row, sorter, right);
      break;
    case napi_int32_array:
      search_into(out, out_off, static_cast<const int32_t*>(x.data) + x_off, n, static_cast<const int32_t*>(bd.data) + b_off, row_len, in_row, one_row, sorter, right);
      break;
    case napi_bigint64_array:
      search_into(out, out_off, static_cast<const int64_t*>(x.data) + x_off, n, static_cast<const int64_t*>(bd.data) + b_off, row_len, in_row, one_row, sorter, right);
      break;
    default: return Napi::Boolean::New(info.Env(), false);
  }
  return Napi::Boolean::New(info.Env(), true);
}

}  // namespace

void InitBucketize(Napi::Env env, Napi::Object exports) {
  exports.Set("bucket_searchsorted", Napi::Function::New(env, Searchsorted));
}

}  // namespace glasstorch
