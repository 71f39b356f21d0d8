// Advanced indexing for the native backend (issue #8 item 4: "index/gather/scatter"): the kernels
// behind `x[idx]`, `x[mask]` and `x[idx] = v` / `x.index_put_(idx, v, accumulate)`
// (aten/src/ATen/native/cpu/IndexKernel.cpp: index_kernel, index_put_kernel, cpu_index_kernel).
//
//   adv_index(meta, indexed, out, src, ix0[, ix1...])
//       out[e] = src[e + the selected offset]: every element of the result, copied as bits
//   adv_index_put(meta, indexed, dtype, accumulate, dst, value, ix0[, ix1...])
//       dst[e + the selected offset] = value[e] (or += with accumulate) for every element, in order
//   adv_nonzero_count(dtype, meta, self), adv_nonzero(dtype, meta, self, out, outOffset, count)
//       nonzero_out_cpu (TensorAdvancedIndexing.cpp), which turns a mask index into coordinates
//
// Both walk the indexing result's shape, as PyTorch's TensorIterator does over the operands
// [out, src, indices...] / [dst, value, indices...]: src (dst) is self restrided to that shape with
// stride 0 over the index dims, each index tensor is broadcast to it, and at each element the index
// values v_j (one per index tensor, in [-size_j, size_j)) select offset sum_j v_j * stride_j of self.
// meta = [ndim, shape..., then per operand: offset, strides...] in elements of that operand's typed
// array (Pointwise.cc's layout); indexed = [n, then per index tensor: size_j, stride_j] (self's
// indexed dims, in elements). The index tensors are int64 (masks arrive as nonzero()'s coordinates).
//
// An index out of range makes the call return false having written nothing the TypeScript kernel
// would not write: index's result is rewritten by the TS kernel, which raises PyTorch's IndexError;
// index_put checks every index before writing one element. index_put runs in the result's order (the
// TypeScript kernel's): duplicate indices then add up in that order with accumulate, and without it
// the last write wins, as in the serial CPU loop (PyTorch parallelizes the non-accumulating loop,
// where which duplicate wins is unspecified). It runs on one thread, but where whole rows of self are
// selected (index values constant along the innermost dim): there each row has one owning thread,
// which writes it in the serial order (index_put_split). index runs on the pool.
// Where the index values are constant along the innermost dim (a row gather: `x[idx]` of a matrix
// takes whole rows), each row is one offset computation and a contiguous copy.
#include "AdvancedIndex.h"
#include "Coalesce.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Loops.h"
#include "TypedArg.h"
#include "ThreadPool.h"

namespace glasstorch {
namespace advidx {
namespace {

constexpr int kMaxIndices = 8;
constexpr int kMaxOps = 2 + kMaxIndices;

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kHalf = 5, kFloat = 6, kDouble = 7, kBool = 11, kBFloat16 = 15 };

using Plan = StridedPlan<kMaxOps>;

// self's indexed dims: the sizes the index values are checked against and the byte strides they step
struct Indexed {
  int n = 0;
  int64_t size[kMaxIndices];
  int64_t stride[kMaxIndices];  // bytes
};


Napi::Value no(Napi::Env env) { return Napi::Boolean::New(env, false); }
Napi::Value yes(Napi::Env env) { return Napi::Boolean::New(env, true); }

// Reads meta and indexed into a plan over ts[0..nops): operand 1 is self (restrided), and its window
// widened by every indexed dim's extent must lie inside its array, as must every other operand's
// window (so a malformed call cannot touch memory outside the typed arrays).
bool make_plan(const double* m, int64_t mlen, const double* ix, int64_t ixlen, const Typed* ts, int nops, Plan& p, Indexed& idx) {
  if (mlen < 1 || ixlen < 1) return false;
  const int ndim = static_cast<int>(m[0]);
  idx.n = static_cast<int>(ix[0]);
  if (ndim < 0 || ndim > kMaxDims || mlen < 1 + ndim + nops * (1 + ndim)) return false;
  if (idx.n < 1 || idx.n > kMaxIndices || idx.n != nops - 2 || ixlen < 1 + 2 * idx.n) return false;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxOps][kMaxDims];
  bool empty = false;
  for (int d = 0; d < ndim; ++d) {
    shape[d] = static_cast<int64_t>(m[1 + d]);
    if (shape[d] < 0) return false;
    empty = empty || shape[d] == 0;
  }
  const double* q = m + 1 + ndim;
  p.nops = nops;
  for (int k = 0; k < nops; ++k) {
    const int64_t off = static_cast<int64_t>(*q++);
    int64_t lo = off, hi = off;
    for (int d = 0; d < ndim; ++d) {
      const int64_t s = static_cast<int64_t>(*q++);
      strides[k][d] = s * ts[k].itemsize;
      if (shape[d] > 0) (s >= 0 ? hi : lo) += s * (shape[d] - 1);
    }
    if (k == 1) {
      for (int j = 0; j < idx.n; ++j) {
        const int64_t size = static_cast<int64_t>(ix[1 + 2 * j]), s = static_cast<int64_t>(ix[2 + 2 * j]);
        if (size < 1) return false;  // (an indexed dim of size 0 with a non-empty index raises before the kernel)
        (s >= 0 ? hi : lo) += s * (size - 1);
        idx.size[j] = size;
        idx.stride[j] = s * ts[1].itemsize;
      }
    }
    if (!empty && (lo < 0 || hi >= ts[k].length)) return false;
    p.base[k] = ts[k].data + off * ts[k].itemsize;
  }
  coalesce(p, ndim, shape, strides);
  return true;
}

// The byte offset the index values at ptr (one int64 per index tensor) select; false when one is out
// of range (v < -size or v >= size).
inline bool selected(const Indexed& idx, char* const* ptr, int64_t i, const int64_t* s, int64_t* off) {
  int64_t o = 0;
  for (int j = 0; j < idx.n; ++j) {
    int64_t v;
    std::memcpy(&v, ptr[2 + j] + i * s[2 + j], sizeof v);
    if (v < -idx.size[j] || v >= idx.size[j]) return false;
    if (v < 0) v += idx.size[j];
    o += v * idx.stride[j];
  }
  *off = o;
  return true;
}

// whether every index tensor stays on one element along the row (the row selects one offset)
inline bool row_constant(const Indexed& idx, const int64_t* s) {
  for (int j = 0; j < idx.n; ++j)
    if (s[2 + j] != 0) return false;
  return true;
}

// ---- index ----

template <typename T>
void index_rows(const Plan& p, const Indexed& idx, std::atomic<bool>& bad) {
  constexpr int64_t z = sizeof(T);
  parallel_for(0, p.numel, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    run_range(p, [&](char** ptr, const int64_t* s, int64_t n) {
      if (bad.load(std::memory_order_relaxed)) return;
      char* out = ptr[0];
      const char* src = ptr[1];
      int64_t off;
      if (row_constant(idx, s)) {
        if (!selected(idx, ptr, 0, s, &off)) return bad.store(true);
        if (s[0] == z && s[1] == z) {
          std::memcpy(out, src + off, static_cast<size_t>(n * z));
        } else {
          for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * s[0], src + off + i * s[1], z);
        }
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        if (!selected(idx, ptr, i, s, &off)) return bad.store(true);
        T v;
        std::memcpy(&v, src + i * s[1] + off, z);
        std::memcpy(out + i * s[0], &v, z);
      }
    }, b, e);
  });
}

// adv_index(meta, indexed, out, src, ix0[, ix1...]) -> bool
Napi::Value Index(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int nops = static_cast<int>(info.Length()) - 2;
  if (nops < 3 || nops > kMaxOps) return no(env);
  Typed m, ix, ts[kMaxOps];
  if (!typed(env, info[0], &m) || m.type != napi_float64_array) return no(env);
  if (!typed(env, info[1], &ix) || ix.type != napi_float64_array) return no(env);
  for (int k = 0; k < nops; ++k)
    if (!typed(env, info[2 + k], &ts[k])) return no(env);
  const int z = ts[0].itemsize;
  if (ts[1].itemsize != z) return no(env);
  for (int k = 2; k < nops; ++k)
    if (ts[k].type != napi_bigint64_array) return no(env);
  Plan p;
  Indexed idx;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, reinterpret_cast<const double*>(ix.data), ix.length, ts, nops, p, idx)) return no(env);
  if (p.numel == 0) return yes(env);
  std::atomic<bool> bad{false};
  switch (z) {
    case 1: index_rows<uint8_t>(p, idx, bad); break;
    case 2: index_rows<uint16_t>(p, idx, bad); break;
    case 4: index_rows<uint32_t>(p, idx, bad); break;
    default: index_rows<uint64_t>(p, idx, bad); break;
  }
  return bad.load() ? no(env) : yes(env);
}

// ---- index_put_ ----

// dst op= value: copy (the bits), or add in the dtype's own arithmetic (integers wrap, bool ors)
template <typename T, bool Accumulate>
inline void put(char* dst, const char* val) {
  T a, b;
  std::memcpy(&b, val, sizeof b);
  if constexpr (Accumulate) {
    std::memcpy(&a, dst, sizeof a);
    if constexpr (std::is_same_v<T, bool>) b = a || b;
    else if constexpr (std::is_integral_v<T>) b = static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
    else b = a + b;
  }
  std::memcpy(dst, &b, sizeof b);
}

template <typename T, bool Accumulate>
void index_put_serial(const Plan& p, const Indexed& idx) {
  run_range(p, [&](char** ptr, const int64_t* s, int64_t n) {
    char* dst = ptr[0];
    const char* val = ptr[1];
    int64_t off = 0;  // (every index was checked: selected() succeeds)
    if (row_constant(idx, s)) {
      selected(idx, ptr, 0, s, &off);
      constexpr int64_t z = sizeof(T);
      if (s[0] == z && s[1] == z) {  // a contiguous row of self selected whole: a copy, or a loop GCC vectorizes
        if constexpr (!Accumulate) std::memcpy(dst + off, val, static_cast<size_t>(n * z));
        else for (int64_t i = 0; i < n; ++i) put<T, true>(dst + off + i * z, val + i * z);
        return;
      }
      for (int64_t i = 0; i < n; ++i) put<T, Accumulate>(dst + off + i * s[0], val + i * s[1]);
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      selected(idx, ptr, i, s, &off);
      put<T, Accumulate>(dst + off + i * s[0], val + i * s[1]);
    }
  }, 0, p.numel);
}

// Whether self's elements (its dims in the plan, where dst steps, and its indexed dims) are at distinct
// addresses: sorted by stride, each dim steps past the whole extent of the one below it. Then an element
// of self is written only from its own column of the plan's innermost dim.
bool dst_non_overlapping(const Plan& p, const Indexed& idx) {
  int64_t st[kMaxDims + kMaxIndices], sz[kMaxDims + kMaxIndices];
  int n = 0;
  for (int d = 0; d < p.ndim; ++d)
    if (p.strides[0][d] != 0 && p.shape[d] > 1) st[n] = std::abs(p.strides[0][d]), sz[n++] = p.shape[d];
  for (int j = 0; j < idx.n; ++j)
    if (idx.size[j] > 1) st[n] = std::abs(idx.stride[j]), sz[n++] = idx.size[j];
  for (int i = 1; i < n; ++i)  // (insertion sort by stride: a handful of dims)
    for (int k = i; k > 0 && st[k] < st[k - 1]; --k) std::swap(st[k], st[k - 1]), std::swap(sz[k], sz[k - 1]);
  for (int i = 0; i < n; ++i)
    if (st[i] == 0 || (i > 0 && st[i] < st[i - 1] * sz[i - 1])) return false;
  return true;
}

// index_put_ where every index stays constant along the innermost dim (a row of self selected whole,
// `x[rows] = v`) of a self without overlap. Two rows written are then the same row or disjoint, so
// each row can have one owner: the thread whose share of self's address range holds the row's start.
// Every thread walks all rows in the serial order and writes only its own (the last duplicate wins;
// sums add in index order: the serial loop's result, bit for bit), whole and contiguous.
// (Splitting the columns instead, each thread taking its part of every row, ran slower than one
// thread: 1024 random rows of 4 KiB, 2 threads, C++ harness, ms: serial 0.088, columns 0.126-0.159,
// owners 0.049-0.051. The column split is kept where there are too few rows to share out.)
template <typename T, bool Accumulate>
bool index_put_split(const Plan& p, const Indexed& idx) {
  const int nt = get_num_threads();
  if (nt < 2 || p.ndim < 2 || p.strides[0][0] != static_cast<int64_t>(sizeof(T)) || p.numel < GRAIN_SIZE) return false;
  for (int j = 0; j < idx.n; ++j)
    if (p.strides[2 + j][0] != 0) return false;
  if (!dst_non_overlapping(p, idx)) return false;
  const int64_t cols = p.shape[0], rows = p.numel / cols;
  if (rows >= 8 * static_cast<int64_t>(nt)) {
    // the bytes where a row may start: self's base plus its plan dims (but the row's own) and indexed dims
    int64_t lo = 0, hi = 0;
    for (int d = 1; d < p.ndim; ++d) (p.strides[0][d] >= 0 ? hi : lo) += p.strides[0][d] * (p.shape[d] - 1);
    for (int j = 0; j < idx.n; ++j) (idx.stride[j] >= 0 ? hi : lo) += idx.stride[j] * (idx.size[j] - 1);
    const int64_t span = hi - lo + 1;
    const char* first = p.base[0] + lo;
    parallel_for(0, nt, 1, [&](int64_t b, int64_t e) {
      run_range(p, [&](char** ptr, const int64_t* s, int64_t n) {
        int64_t off = 0;
        selected(idx, ptr, 0, s, &off);
        const int64_t owner = (ptr[0] + off - first) * nt / span;
        if (owner < b || owner >= e) return;
        char* dst = ptr[0] + off;
        const char* val = ptr[1];
        constexpr int64_t z = sizeof(T);
        if (!Accumulate && s[1] == z) std::memcpy(dst, val, static_cast<size_t>(n * z));
        else for (int64_t i = 0; i < n; ++i) put<T, Accumulate>(dst + i * z, val + i * s[1]);
      }, 0, p.numel);
    });
    return true;
  }
  // few rows: the innermost dim's columns split over the pool in blocks of 64 bytes, each thread
  // walking every row in the serial order over its own columns
  constexpr int64_t kBlock = 64 / sizeof(T);
  const int64_t blocks = (cols + kBlock - 1) / kBlock;
  if (blocks < 2) return false;
  parallel_for(0, blocks, std::max<int64_t>(1, GRAIN_SIZE / (rows * kBlock)), [&](int64_t b, int64_t e) {
    Plan q = p;
    const int64_t c0 = b * kBlock, c1 = std::min(cols, e * kBlock);
    q.shape[0] = c1 - c0;
    q.numel = rows * (c1 - c0);
    for (int k = 0; k < p.nops; ++k) q.base[k] += c0 * p.strides[k][0];
    index_put_serial<T, Accumulate>(q, idx);
  });
  return true;
}

// every index value in range (the pool reads them; nothing is written)
bool indices_in_range(const Plan& p, const Indexed& idx) {
  std::atomic<bool> bad{false};
  parallel_for(0, p.numel, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    run_range(p, [&](char** ptr, const int64_t* s, int64_t n) {
      if (bad.load(std::memory_order_relaxed)) return;
      int64_t off;
      const int64_t m = row_constant(idx, s) ? 1 : n;
      for (int64_t i = 0; i < m; ++i)
        if (!selected(idx, ptr, i, s, &off)) return bad.store(true);
    }, b, e);
  });
  return !bad.load();
}

template <typename T, bool Accumulate>
void index_put_run(const Plan& p, const Indexed& idx) {
  if (!index_put_split<T, Accumulate>(p, idx)) index_put_serial<T, Accumulate>(p, idx);
}

template <bool Accumulate>
bool index_put_dtype(int dtype, int itemsize, const Plan& p, const Indexed& idx) {
  if (!Accumulate) {
    switch (itemsize) {
      case 1: index_put_run<uint8_t, false>(p, idx); return true;
      case 2: index_put_run<uint16_t, false>(p, idx); return true;
      case 4: index_put_run<uint32_t, false>(p, idx); return true;
      default: index_put_run<uint64_t, false>(p, idx); return true;
    }
  }
  switch (dtype) {
    case kByte: index_put_run<uint8_t, true>(p, idx); return true;
    case kChar: index_put_run<int8_t, true>(p, idx); return true;
    case kShort: index_put_run<int16_t, true>(p, idx); return true;
    case kInt: index_put_run<int32_t, true>(p, idx); return true;
    case kLong: index_put_run<int64_t, true>(p, idx); return true;
    case kFloat: index_put_run<float, true>(p, idx); return true;
    case kDouble: index_put_run<double, true>(p, idx); return true;
    case kBool: index_put_run<bool, true>(p, idx); return true;
    default: return false;  // float16/bfloat16 (added in float, rounded): the TS kernel
  }
}

// the element size each accumulating dtype's typed array has
int accumulate_itemsize(int dtype) {
  switch (dtype) {
    case kByte: case kChar: case kBool: return 1;
    case kShort: return 2;
    case kInt: case kFloat: return 4;
    case kLong: case kDouble: return 8;
    default: return 0;
  }
}

// adv_index_put(meta, indexed, dtype, accumulate, dst, value, ix0[, ix1...]) -> bool
Napi::Value IndexPut(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int nops = static_cast<int>(info.Length()) - 4;
  if (nops < 3 || nops > kMaxOps || !info[2].IsNumber() || !info[3].IsBoolean()) return no(env);
  const int dtype = info[2].As<Napi::Number>().Int32Value();
  const bool accumulate = info[3].As<Napi::Boolean>().Value();
  Typed m, ix, ts[kMaxOps];
  if (!typed(env, info[0], &m) || m.type != napi_float64_array) return no(env);
  if (!typed(env, info[1], &ix) || ix.type != napi_float64_array) return no(env);
  for (int k = 0; k < nops; ++k)
    if (!typed(env, info[4 + k], &ts[k])) return no(env);
  const int z = ts[0].itemsize;
  if (ts[1].itemsize != z || (accumulate && accumulate_itemsize(dtype) != z)) return no(env);
  for (int k = 2; k < nops; ++k)
    if (ts[k].type != napi_bigint64_array) return no(env);
  // operand 1 of the plan is the one indexed: dst; the value is operand 0's partner
  Typed order[kMaxOps];
  order[0] = ts[1];  // value: walked like index's out
  order[1] = ts[0];  // dst: self restrided, the indexed one
  for (int k = 2; k < nops; ++k) order[k] = ts[k];
  Plan p;
  Indexed idx;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, reinterpret_cast<const double*>(ix.data), ix.length, order, nops, p, idx)) return no(env);
  if (p.numel == 0) return yes(env);
  if (!indices_in_range(p, idx)) return no(env);
  // the row loops take dst as ptr[0] and value as ptr[1]: swap them back
  std::swap(p.base[0], p.base[1]);
  for (int d = 0; d < p.ndim; ++d) std::swap(p.strides[0][d], p.strides[1][d]);
  const bool ok = accumulate ? index_put_dtype<true>(dtype, z, p, idx) : index_put_dtype<false>(dtype, z, p, idx);
  return ok ? yes(env) : no(env);
}

// ---- nonzero ----
// nonzero_out_cpu's two passes: count the non-zero elements, then (once the result is sized) write
// their coordinates in row-major order. The elements are split in fixed chunks of kNonzeroChunk; the
// write pass counts each chunk again on the pool, so each chunk knows the row its first coordinates go
// to and the chunks are written in parallel. An element is non-zero when any bit but a float's sign bit
// is set (NaN counts, -0.0 does not), as `v != 0` in the TypeScript kernel and in PyTorch.

constexpr int64_t kNonzeroChunk = 32768;

struct Walk {
  int ndim = 0;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxDims];  // bytes
  const char* base = nullptr;
  int64_t numel = 1;
  uint64_t mask = ~uint64_t(0);  // the bits that make an element non-zero
};

// fn(coordinates, is_nonzero) for the elements [b, e) of w in row-major order
template <typename T, typename F>
void walk(const Walk& w, int64_t b, int64_t e, const F& fn) {
  int64_t idx[kMaxDims];
  const char* ptr = w.base;
  int64_t rem = b;
  for (int d = w.ndim - 1; d >= 0; --d) {
    idx[d] = rem % w.shape[d];
    rem /= w.shape[d];
    ptr += idx[d] * w.strides[d];
  }
  const int last = w.ndim - 1;
  const int64_t step = w.strides[last];
  const T mask = static_cast<T>(w.mask);
  for (int64_t i = b; i < e;) {
    const int64_t n = std::min(w.shape[last] - idx[last], e - i);
    for (int64_t k = 0; k < n; ++k) {
      T v;
      std::memcpy(&v, ptr + k * step, sizeof v);
      if ((v & mask) != 0) {
        idx[last] += k;
        fn(idx);
        idx[last] -= k;
      }
    }
    i += n;
    ptr += n * step;
    idx[last] += n;
    // carry into the outer dims
    for (int d = last; d > 0 && idx[d] == w.shape[d]; --d) {
      ptr -= idx[d] * w.strides[d];
      idx[d] = 0;
      ++idx[d - 1];
      ptr += w.strides[d - 1];
    }
  }
}

template <typename T>
void count_chunks(const Walk& w, std::vector<int64_t>& counts) {
  const int64_t chunks = (w.numel + kNonzeroChunk - 1) / kNonzeroChunk;
  counts.assign(static_cast<size_t>(chunks), 0);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      int64_t n = 0;
      walk<T>(w, c * kNonzeroChunk, std::min(w.numel, (c + 1) * kNonzeroChunk), [&](const int64_t*) { ++n; });
      counts[static_cast<size_t>(c)] = n;
    }
  });
}

// Reads meta = [ndim, shape..., offset, strides...] for self into a walk; false when malformed, out of
// the array, 0-d (the TypeScript kernel's [n, 0] result), or of an element size without a mask.
bool make_walk(const Typed& m, const Typed& t, int dtype, Walk& w) {
  const double* q = reinterpret_cast<const double*>(m.data);
  if (m.length < 1) return false;
  w.ndim = static_cast<int>(q[0]);
  if (w.ndim < 1 || w.ndim > kMaxDims || m.length < 2 + 2 * w.ndim) return false;
  const int64_t off = static_cast<int64_t>(q[1 + w.ndim]);
  int64_t lo = off, hi = off;
  bool empty = false;
  for (int d = 0; d < w.ndim; ++d) {
    w.shape[d] = static_cast<int64_t>(q[1 + d]);
    const int64_t s = static_cast<int64_t>(q[2 + w.ndim + d]);
    if (w.shape[d] < 0) return false;
    w.numel *= w.shape[d];
    empty = empty || w.shape[d] == 0;
    if (w.shape[d] > 0) (s >= 0 ? hi : lo) += s * (w.shape[d] - 1);
    w.strides[d] = s * t.itemsize;
  }
  if (!empty && (lo < 0 || hi >= t.length)) return false;
  w.base = t.data + off * t.itemsize;
  switch (dtype) {
    case kFloat: w.mask = 0x7fffffffu; return t.itemsize == 4;
    case kDouble: w.mask = 0x7fffffffffffffffull; return t.itemsize == 8;
    case kHalf: case kBFloat16: w.mask = 0x7fffu; return t.itemsize == 2;
    case kByte: case kChar: case kBool: return t.itemsize == 1;
    case kShort: return t.itemsize == 2;
    case kInt: return t.itemsize == 4;
    case kLong: return t.itemsize == 8;
    default: return false;
  }
}

template <typename F>
auto by_size(int itemsize, const F& f) {
  switch (itemsize) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

// adv_nonzero_count(dtype, meta, self) -> the number of non-zero elements, or -1 (declined)
Napi::Value NonzeroCount(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto declined = Napi::Number::New(env, -1);
  if (info.Length() < 3 || !info[0].IsNumber()) return declined;
  Typed m, t;
  if (!typed(env, info[1], &m) || m.type != napi_float64_array || !typed(env, info[2], &t)) return declined;
  Walk w;
  if (!make_walk(m, t, info[0].As<Napi::Number>().Int32Value(), w)) return declined;
  std::vector<int64_t> counts;
  by_size(t.itemsize, [&](auto tag) { count_chunks<decltype(tag)>(w, counts); return 0; });
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  return Napi::Number::New(env, static_cast<double>(total));
}

// adv_nonzero(dtype, meta, self, out, outOffset, count) -> bool: out[outOffset + d * count + r] = the
// d-th coordinate of the r-th non-zero element (the (ndim, count) layout nonzero_out_cpu returns
// transposed); count must be what adv_nonzero_count returned
Napi::Value Nonzero(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6 || !info[0].IsNumber() || !info[4].IsNumber() || !info[5].IsNumber()) return no(env);
  Typed m, t, o;
  if (!typed(env, info[1], &m) || m.type != napi_float64_array || !typed(env, info[2], &t)) return no(env);
  if (!typed(env, info[3], &o) || o.type != napi_bigint64_array) return no(env);
  Walk w;
  if (!make_walk(m, t, info[0].As<Napi::Number>().Int32Value(), w)) return no(env);
  const int64_t off = static_cast<int64_t>(info[4].As<Napi::Number>().DoubleValue());
  const int64_t count = static_cast<int64_t>(info[5].As<Napi::Number>().DoubleValue());
  if (off < 0 || count < 0 || off + count * w.ndim > o.length) return no(env);
  std::vector<int64_t> counts;
  by_size(t.itemsize, [&](auto tag) { count_chunks<decltype(tag)>(w, counts); return 0; });
  std::vector<int64_t> first(counts.size());
  int64_t total = 0;
  for (size_t c = 0; c < counts.size(); ++c) {
    first[c] = total;
    total += counts[c];
  }
  if (total != count) return no(env);  // (the data changed between the calls: the TS kernel recounts)
  int64_t* out = reinterpret_cast<int64_t*>(o.data) + off;
  const int nd = w.ndim;
  by_size(t.itemsize, [&](auto tag) {
    parallel_for(0, static_cast<int64_t>(counts.size()), 1, [&](int64_t cb, int64_t ce) {
      for (int64_t c = cb; c < ce; ++c) {
        int64_t r = first[static_cast<size_t>(c)];
        walk<decltype(tag)>(w, c * kNonzeroChunk, std::min(w.numel, (c + 1) * kNonzeroChunk), [&](const int64_t* idx) {
          for (int d = 0; d < nd; ++d) out[d * count + r] = idx[d];
          ++r;
        });
      }
    });
    return 0;
  });
  return yes(env);
}

}  // namespace
}  // namespace advidx

void InitAdvancedIndex(Napi::Env env, Napi::Object exports) {
  exports.Set("adv_index", Napi::Function::New(env, advidx::Index));
  exports.Set("adv_index_put", Napi::Function::New(env, advidx::IndexPut));
  exports.Set("adv_nonzero_count", Napi::Function::New(env, advidx::NonzeroCount));
  exports.Set("adv_nonzero", Napi::Function::New(env, advidx::Nonzero));
}

}  // namespace glasstorch
