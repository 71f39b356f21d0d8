// The second batch of common ops for the native backend (issue #8 item 4): the ones a workshop model
// hits that ran TypeScript loops. Each mirrors its TypeScript kernel exactly (the tests compare them):
//
//   ops2_where(meta, out, cond, a, b)            where_kernel (cpu/TensorCompareKernel.cpp): out = cond ? a : b,
//                                                the elements copied as bits (every dtype of one item size)
//   ops2_masked_fill(meta, self, mask, value)    masked_fill_kernel (cpu/IndexKernel.cpp): a bool mask's
//                                                true elements of self become value's bits
//   ops2_cum(isSum, inDtype, outDtype, meta, in, out)
//                                                cumsum_stub / cumprod_stub (cpu/ReduceOpsKernel.cpp):
//                                                each lane scanned in order in at::acc_type (double for
//                                                float32/float64, int64 wrapping for integers)
//   ops2_arange(dtype, out, off, size, start, step)
//   ops2_linspace(dtype, out, off, steps, start, end)
//                                                arange_stub / linspace_stub (cpu/RangeFactoriesKernel.cpp):
//                                                cpu_serial_kernel_vec's vector blocks (two vectors of the
//                                                AVX2 build's lanes, base + j*step per lane) then the scalar tail
//   ops2_triangular(upper, k, meta, out, self)   tril / triu (TriangularOps.cpp apply_triu_tril): the kept
//                                                columns of each row copied, the others zeroed, every dtype
//
// meta (where, masked_fill) = [ndim, shape..., then per operand: offset, strides...] in elements of
// that operand's typed array, as Pointwise.cc takes it. Every function returns false for what it does
// not cover and the TypeScript kernel runs. Work is split over the intra-op pool (parallel_for, GRAIN_SIZE).
#include "Ops2.h"
#include "Coalesce.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "Loops.h"
#include "TypedArg.h"
#include "ThreadPool.h"

namespace glasstorch {
namespace ops2 {
namespace {

constexpr int kMaxOps = 4;

// ScalarType codes (c10/ScalarType.ts)
enum DType { kByte = 0, kChar = 1, kShort = 2, kInt = 3, kLong = 4, kFloat = 6, kDouble = 7, kBool = 11 };

// ---- the strided driver (TensorIteratorBase::for_each over coalesced dims) ----

using Plan = StridedPlan<kMaxOps>;

template <typename Row>
void run(const Plan& p, const Row& row) {
  if (p.numel == 0) return;
  parallel_for(0, p.numel, GRAIN_SIZE, [&](int64_t b, int64_t e) { run_range(p, row, b, e); });
}

// ---- arguments ----


Napi::Value no(Napi::Env env) { return Napi::Boolean::New(env, false); }
Napi::Value yes(Napi::Env env) { return Napi::Boolean::New(env, true); }

// Reads meta for the operands ts[0..nops) into a plan; false when meta is malformed or an operand's
// window leaves its array (checked on the extreme offsets, so a bad call cannot write out of bounds).
bool make_plan(const double* m, int64_t mlen, const Typed* ts, int nops, Plan& p) {
  if (mlen < 1) return false;
  const int ndim = static_cast<int>(m[0]);
  if (ndim < 0 || ndim > kMaxDims || mlen < 1 + ndim + nops * (1 + ndim)) return false;
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
    if (!empty && (lo < 0 || hi >= ts[k].length)) return false;
    p.base[k] = ts[k].data + off * ts[k].itemsize;
  }
  coalesce(p, ndim, shape, strides);
  return true;
}

// ---- where ----

template <typename T>
void where_row(char** p, const int64_t* s, int64_t n) {
  char* o = p[0];
  const char* c = p[1];
  const char* a = p[2];
  const char* b = p[3];
  constexpr int64_t z = sizeof(T);
  if (s[0] == z && s[1] == 1 && s[2] == z && s[3] == z) {
    T* out = reinterpret_cast<T*>(o);
    const uint8_t* cond = reinterpret_cast<const uint8_t*>(c);
    const T* x = reinterpret_cast<const T*>(a);
    const T* y = reinterpret_cast<const T*>(b);
    // a bit select, not a branch: the condition is data (random masks would mispredict), and it vectorizes
    for (int64_t i = 0; i < n; ++i) {
      const T mk = static_cast<T>(0) - static_cast<T>(cond[i] != 0);
      out[i] = (x[i] & mk) | (y[i] & ~mk);
    }
    return;
  }
  if (s[0] == z && s[1] == 1 && (s[2] == 0 || s[2] == z) && (s[3] == 0 || s[3] == z)) {
    // a or b broadcast along the row (a mask with a Scalar fill): the same loop with stride-0 reads
    T* out = reinterpret_cast<T*>(o);
    const uint8_t* cond = reinterpret_cast<const uint8_t*>(c);
    const T* x = reinterpret_cast<const T*>(a);
    const T* y = reinterpret_cast<const T*>(b);
    const int64_t sx = s[2] / z, sy = s[3] / z;
    for (int64_t i = 0; i < n; ++i) {
      const T mk = static_cast<T>(0) - static_cast<T>(cond[i] != 0);
      out[i] = (x[i * sx] & mk) | (y[i * sy] & ~mk);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, *reinterpret_cast<const uint8_t*>(c + i * s[1]) != 0 ? a + i * s[2] : b + i * s[3], sizeof(T));
    std::memcpy(o + i * s[0], &v, sizeof(T));
  }
}

// ops2_where(meta, out, cond, a, b) -> bool
Napi::Value Where(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 5) return no(env);
  Typed m, ts[4];
  if (!typed(env, info[0], &m) || m.type != napi_float64_array) return no(env);
  for (int k = 0; k < 4; ++k)
    if (!typed(env, info[1 + k], &ts[k])) return no(env);
  const int z = ts[0].itemsize;
  if (ts[1].itemsize != 1 || ts[2].itemsize != z || ts[3].itemsize != z) return no(env);
  Plan p;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, ts, 4, p)) return no(env);
  switch (z) {
    case 1: run(p, where_row<uint8_t>); break;
    case 2: run(p, where_row<uint16_t>); break;
    case 4: run(p, where_row<uint32_t>); break;
    default: run(p, where_row<uint64_t>); break;
  }
  return yes(env);
}

// ---- masked_fill_ ----

template <typename T>
void masked_fill_typed(const Plan& p, const char* value) {
  T v;
  std::memcpy(&v, value, sizeof(T));
  run(p, [v](char** ptr, const int64_t* s, int64_t n) {
    char* o = ptr[0];
    const char* mk = ptr[1];
    if (s[0] == static_cast<int64_t>(sizeof(T)) && s[1] == 1) {
      T* out = reinterpret_cast<T*>(o);
      const uint8_t* mask = reinterpret_cast<const uint8_t*>(mk);
      for (int64_t i = 0; i < n; ++i) {
        const T mk = static_cast<T>(0) - static_cast<T>(mask[i] != 0);  // a bit select (see where_row)
        out[i] = (v & mk) | (out[i] & ~mk);
      }
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      if (*reinterpret_cast<const uint8_t*>(mk + i * s[1]) != 0) std::memcpy(o + i * s[0], &v, sizeof(T));
  });
}

// ops2_masked_fill(meta, self, mask, value) -> bool; value: one element of self's array type
Napi::Value MaskedFill(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 4) return no(env);
  Typed m, ts[2], v;
  if (!typed(env, info[0], &m) || m.type != napi_float64_array) return no(env);
  if (!typed(env, info[1], &ts[0]) || !typed(env, info[2], &ts[1]) || !typed(env, info[3], &v)) return no(env);
  if (ts[1].itemsize != 1 || v.itemsize != ts[0].itemsize || v.length < 1) return no(env);
  Plan p;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, ts, 2, p)) return no(env);
  switch (ts[0].itemsize) {
    case 1: masked_fill_typed<uint8_t>(p, v.data); break;
    case 2: masked_fill_typed<uint16_t>(p, v.data); break;
    case 4: masked_fill_typed<uint32_t>(p, v.data); break;
    default: masked_fill_typed<uint64_t>(p, v.data); break;
  }
  return yes(env);
}

// ---- cumsum / cumprod ----

// The lanes along `dim`: `other` dims enumerated by a linear index; the innermost of them is taken in
// blocks of kLaneBlock lanes scanned together (the scan dim strided: one load per lane per step), or
// one lane at a time when the scan dim is the contiguous one.
constexpr int64_t kLaneBlock = 64;

struct CumPlan {
  int nother = 0;
  int64_t osize[kMaxDims];
  int64_t ostride_in[kMaxDims], ostride_out[kMaxDims];  // elements
  int64_t len = 0, sd_in = 0, sd_out = 0;              // the scan dim
};

template <typename In, typename Out, typename Acc, bool kSum>
void cum_run(const CumPlan& c, const In* in, Out* out) {
  // the innermost other dim (if any) is blocked; the rest are "outer"
  const int nd = c.nother;
  const int64_t isz = nd > 0 ? c.osize[nd - 1] : 1;
  const int64_t is_in = nd > 0 ? c.ostride_in[nd - 1] : 0, is_out = nd > 0 ? c.ostride_out[nd - 1] : 0;
  const int64_t block = (c.sd_in == 1 || c.len == 1) ? 1 : kLaneBlock;
  const int64_t nblocks = (isz + block - 1) / block;
  int64_t outer = 1;
  for (int d = 0; d < nd - 1; ++d) outer *= c.osize[d];
  const int64_t items = outer * nblocks;
  const int64_t per_item = std::max<int64_t>(1, c.len * std::min(block, isz));
  parallel_for(0, items, std::max<int64_t>(1, GRAIN_SIZE / per_item), [&](int64_t b, int64_t e) {
    Acc acc[kLaneBlock];
    for (int64_t it = b; it < e; ++it) {
      int64_t o = it / nblocks;
      const int64_t j0 = (it % nblocks) * block;
      const int64_t w = std::min(block, isz - j0);
      int64_t off_in = j0 * is_in, off_out = j0 * is_out;
      for (int d = nd - 2; d >= 0; --d) {
        const int64_t k = o % c.osize[d];
        o /= c.osize[d];
        off_in += k * c.ostride_in[d];
        off_out += k * c.ostride_out[d];
      }
      const In* x = in + off_in;
      Out* y = out + off_out;
      if (block == 1) {
        // one lane along a contiguous scan dim: the accumulator in a register
        Acc a = kSum ? Acc(0) : Acc(1);
        for (int64_t k = 0; k < c.len; ++k) {
          const Acc v = static_cast<Acc>(x[k * c.sd_in]);
          a = kSum ? static_cast<Acc>(a + v) : static_cast<Acc>(a * v);
          y[k * c.sd_out] = static_cast<Out>(a);
        }
        continue;
      }
      for (int64_t j = 0; j < w; ++j) acc[j] = kSum ? Acc(0) : Acc(1);
      for (int64_t k = 0; k < c.len; ++k) {
        const In* xr = x + k * c.sd_in;
        Out* yr = y + k * c.sd_out;
        for (int64_t j = 0; j < w; ++j) {
          const Acc v = static_cast<Acc>(xr[j * is_in]);
          acc[j] = kSum ? static_cast<Acc>(acc[j] + v) : static_cast<Acc>(acc[j] * v);
          yr[j * is_out] = static_cast<Out>(acc[j]);
        }
      }
    }
  });
}

// Integer scans accumulate in int64 with two's-complement wrap (BigInt.asIntN(64) in the TS kernel):
// cum_run in uint64_t is that wrap without signed overflow (an int converts to uint64_t modulo 2^64, as
// through int64_t, and the int64_t result is the same bits).
template <typename In, bool kSum>
void cum_int(const CumPlan& c, const In* in, int64_t* out) {
  cum_run<In, int64_t, uint64_t, kSum>(c, in, out);
}

template <bool kSum>
bool cum_dispatch(int in_t, int out_t, const CumPlan& c, char* in, char* out) {
  if (in_t == kFloat && out_t == kFloat) return cum_run<float, float, double, kSum>(c, reinterpret_cast<float*>(in), reinterpret_cast<float*>(out)), true;
  if (in_t == kFloat && out_t == kDouble) return cum_run<float, double, double, kSum>(c, reinterpret_cast<float*>(in), reinterpret_cast<double*>(out)), true;
  if (in_t == kDouble && out_t == kDouble) return cum_run<double, double, double, kSum>(c, reinterpret_cast<double*>(in), reinterpret_cast<double*>(out)), true;
  if (out_t != kLong) return false;
  switch (in_t) {
    case kByte: case kBool: cum_int<uint8_t, kSum>(c, reinterpret_cast<uint8_t*>(in), reinterpret_cast<int64_t*>(out)); return true;
    case kChar: cum_int<int8_t, kSum>(c, reinterpret_cast<int8_t*>(in), reinterpret_cast<int64_t*>(out)); return true;
    case kShort: cum_int<int16_t, kSum>(c, reinterpret_cast<int16_t*>(in), reinterpret_cast<int64_t*>(out)); return true;
    case kInt: cum_int<int32_t, kSum>(c, reinterpret_cast<int32_t*>(in), reinterpret_cast<int64_t*>(out)); return true;
    case kLong: cum_int<int64_t, kSum>(c, reinterpret_cast<int64_t*>(in), reinterpret_cast<int64_t*>(out)); return true;
    default: return false;
  }
}

int itemsize_of(int t) {
  switch (t) {
    case kByte: case kChar: case kBool: return 1;
    case kShort: return 2;
    case kInt: case kFloat: return 4;
    case kLong: case kDouble: return 8;
    default: return 0;
  }
}

// ops2_cum(isSum, inDtype, outDtype, meta, input, out) -> bool
// meta = [ndim, sizes..., inOffset, inStrides..., outOffset, outStrides..., dim] (elements; out has input's sizes)
Napi::Value Cum(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6) return no(env);
  const bool is_sum = info[0].As<Napi::Boolean>().Value();
  const int in_t = info[1].As<Napi::Number>().Int32Value();
  const int out_t = info[2].As<Napi::Number>().Int32Value();
  Typed m, in, out;
  if (!typed(env, info[3], &m) || m.type != napi_float64_array || !typed(env, info[4], &in) || !typed(env, info[5], &out)) return no(env);
  if (itemsize_of(in_t) == 0 || in.itemsize != itemsize_of(in_t) || out.itemsize != itemsize_of(out_t)) return no(env);
  const double* q = reinterpret_cast<const double*>(m.data);
  if (m.length < 1) return no(env);
  const int ndim = static_cast<int>(q[0]);
  if (ndim < 1 || ndim > kMaxDims || m.length < 1 + ndim + 2 * (1 + ndim) + 1) return no(env);
  const int dim = static_cast<int>(q[1 + 3 * ndim + 2]);
  if (dim < 0 || dim >= ndim) return no(env);
  const double* sz = q + 1;
  const double* si = q + 1 + ndim;  // [offset, strides...]
  const double* so = q + 2 + 2 * ndim;
  CumPlan c;
  int64_t lo_i = static_cast<int64_t>(si[0]), hi_i = lo_i, lo_o = static_cast<int64_t>(so[0]), hi_o = lo_o;
  bool empty = false;
  for (int d = 0; d < ndim; ++d) {
    const int64_t n = static_cast<int64_t>(sz[d]);
    const int64_t a = static_cast<int64_t>(si[1 + d]), b = static_cast<int64_t>(so[1 + d]);
    if (n < 0) return no(env);
    empty = empty || n == 0;
    if (n > 0) {
      (a >= 0 ? hi_i : lo_i) += a * (n - 1);
      (b >= 0 ? hi_o : lo_o) += b * (n - 1);
    }
    if (d == dim) {
      c.len = n, c.sd_in = a, c.sd_out = b;
    } else if (n != 1) {
      c.osize[c.nother] = n, c.ostride_in[c.nother] = a, c.ostride_out[c.nother] = b;
      ++c.nother;
    }
  }
  if (empty) return yes(env);
  if (lo_i < 0 || hi_i >= in.length || lo_o < 0 || hi_o >= out.length) return no(env);
  char* ip = in.data + static_cast<int64_t>(si[0]) * in.itemsize;
  char* op = out.data + static_cast<int64_t>(so[0]) * out.itemsize;
  const bool ok = is_sum ? cum_dispatch<true>(in_t, out_t, c, ip, op) : cum_dispatch<false>(in_t, out_t, c, ip, op);
  return Napi::Boolean::New(env, ok);
}

// ---- arange / linspace ----

// std::fma / std::fmaf with the FMA instruction where the CPU has it (this unit is built for the x86-64
// baseline, where they are library calls); the same single rounding either way.
__attribute__((target("fma"))) double fma_hw(double a, double b, double c) { return __builtin_fma(a, b, c); }
__attribute__((target("fma"))) float fmaf_hw(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
const bool kHaveFma = __builtin_cpu_supports("fma");
inline double fma_d(double a, double b, double c) { return kHaveFma ? fma_hw(a, b, c) : std::fma(a, b, c); }
inline float fma_f(float a, float b, float c) { return kHaveFma ? fmaf_hw(a, b, c) : std::fmaf(a, b, c); }

// cpu_serial_kernel_vec's layout (RangeFactoriesKernel.ts): blocks of 2 vectors of `lanes` elements
// from index 0, each vector from a base computed by the scalar formula, then the scalar tail. Chunks
// for the pool start on block boundaries, so each element's formula is the one-chunk loop's.
template <typename Block, typename Tail>
void serial_kernel_vec(int64_t n, int64_t lanes, const Block& block, const Tail& tail) {
  const int64_t two = 2 * lanes;
  const int64_t nblocks = n / two;
  const int64_t vend = nblocks * two;
  parallel_for(0, nblocks, std::max<int64_t>(1, GRAIN_SIZE / two), [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      block(k * two);
      block(k * two + lanes);
    }
  });
  for (int64_t i = vend; i < n; ++i) tail(i);
}

// The hot loops as leaf functions built twice: for the x86-64 baseline and with AVX2 + FMA (chosen at
// run time), so the 1e6-element fills run 8 lanes wide. Same operations, same bits: the unit keeps
// -ffp-contract=off, and the only fused operations are the explicit fma calls. Output and lane
// constants are __restrict (an output that might alias js[] kept linspace to one store at a time).
typedef float v8f __attribute__((vector_size(32)));

// integral start and step, every value within 2^24: start + step * i is exact in float, so float
// arithmetic gives the exactly computed value's bits (i < size <= 2^24 is exact in float too)
// (unrolled: the one-vector loop ran at half speed when it straddled a 64-byte code boundary)
#define GT_ARANGE_F32_EXACT_BODY                                                                \
  _Pragma("GCC unroll 4")                                                                      \
  for (int32_t k = 0; k < n; ++k) o[k] = start + step * static_cast<float>(i0 + k);
void arange_f32_exact_base(float* __restrict o, int32_t i0, int32_t n, float start, float step) { GT_ARANGE_F32_EXACT_BODY }
__attribute__((target("avx2,fma"))) void arange_f32_exact_avx2(float* __restrict o, int32_t i0, int32_t n, float start, float step) { GT_ARANGE_F32_EXACT_BODY }

// blocks [b, e) of `lanes` elements (cpu_serial_kernel_vec's vectors): base = the element formula at
// the block's first index rounded to T, then each lane fma(j, step, base) rounded to T
#define GT_ARANGE_BLOCKS_BODY(FMA)                                                              \
  for (int64_t blk = b; blk < e; ++blk) {                                                      \
    const int64_t f = blk * lanes;                                                             \
    const double base = static_cast<T>(FMA(step, static_cast<double>(f), start));              \
    for (int j = 0; j < lanes; ++j) o[f + j] = static_cast<T>(FMA(static_cast<double>(j), step, base)); \
  }
template <typename T, int lanes>
void arange_blocks_base(T* __restrict o, int64_t b, int64_t e, double start, double step) { GT_ARANGE_BLOCKS_BODY(std::fma) }
template <typename T, int lanes>
__attribute__((target("avx2,fma"))) void arange_blocks_avx2(T* __restrict o, int64_t b, int64_t e, double start, double step) { GT_ARANGE_BLOCKS_BODY(__builtin_fma) }

// blocks [b, e) of linspace float32 (8 lanes each): base = the scalar formula, then base + js[j]
#define GT_LINSPACE_F32_BODY(FMA)                                                               \
  v8f jv;                                                                                      \
  std::memcpy(&jv, js, sizeof jv);                                                             \
  for (int64_t blk = b; blk < e; ++blk) {                                                      \
    const int64_t f = blk * 8;                                                                 \
    const float base = f < halfway ? FMA(step, static_cast<float>(f), s) : FMA(-step, static_cast<float>(steps - f - 1), en); \
    const v8f v = jv + base;                                                                   \
    std::memcpy(p + f, &v, sizeof v);                                                          \
  }
void linspace_f32_blocks_base(float* __restrict p, int64_t b, int64_t e, int64_t halfway, int64_t steps, float step, float s, float en, const float* js) {
  GT_LINSPACE_F32_BODY(std::fmaf)
}
__attribute__((target("avx2,fma"))) void linspace_f32_blocks_avx2(float* __restrict p, int64_t b, int64_t e, int64_t halfway, int64_t steps, float step, float s, float en, const float* js) {
  GT_LINSPACE_F32_BODY(__builtin_fmaf)
}
const bool kHaveAvx2Fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");

template <typename T>
void arange_float(T* out, int64_t size, double start, double step) {
  constexpr int64_t lanes = sizeof(T) == 4 ? 8 : 4;
  const bool exact = std::nearbyint(start) == start && std::nearbyint(step) == step &&
                     std::fabs(start) + std::fabs(step) * static_cast<double>(size + 2 * lanes) <= 4503599627370496.0;  // 2^52
  const double span = std::fabs(start) + std::fabs(step) * static_cast<double>(size + 2 * lanes);
  if (exact && (sizeof(T) == 8 || span <= 16777216.0)) {
    // integral start and step below 2^52: fma(step, i, start) is exact, and so are the plain operations;
    // with the block bases exact in T too (float64, or float32 below 2^24), every element, block or tail,
    // is the exactly computed start + i*step rounded once to T: one vectorizable loop
    parallel_for(0, size, GRAIN_SIZE, [&](int64_t b, int64_t e) {
      if constexpr (sizeof(T) == 4) {  // size <= span <= 2^24: int32 indices
        (kHaveAvx2Fma ? arange_f32_exact_avx2 : arange_f32_exact_base)(out + b, static_cast<int32_t>(b), static_cast<int32_t>(e - b), static_cast<float>(start), static_cast<float>(step));
      } else {  // the index as the chunk base + an int32 offset (both exact in double): a vectorizable conversion
        for (int64_t c0 = b; c0 < e; c0 += int64_t(1) << 30) {
          const double db = static_cast<double>(c0);
          const int32_t n = static_cast<int32_t>(std::min<int64_t>(e - c0, int64_t(1) << 30));
          T* __restrict o = out + c0;
          for (int32_t k = 0; k < n; ++k) o[k] = step * (db + static_cast<double>(k)) + start;
        }
      }
    });
  } else if (exact) {
    // float32 past 2^24: each block's base is rounded to float first (cpu_serial_kernel_vec's vector path)
    serial_kernel_vec(size, lanes,
      [&](int64_t f) {
        const double base = static_cast<T>(step * static_cast<double>(f) + start);
        for (int64_t j = 0; j < lanes; ++j) out[f + j] = static_cast<T>(static_cast<double>(j) * step + base);
      },
      [&](int64_t i) { out[i] = static_cast<T>(step * static_cast<double>(i) + start); });
  } else {
    // cpu_serial_kernel_vec's blocks (the vectors of its pairs: every `lanes` block from index 0 up to
    // the last whole pair), then the scalar tail
    const int64_t nblocks = size / (2 * lanes) * 2;
    parallel_for(0, nblocks, std::max<int64_t>(1, GRAIN_SIZE / lanes), [&](int64_t b, int64_t e) {
      (kHaveAvx2Fma ? arange_blocks_avx2<T, lanes> : arange_blocks_base<T, lanes>)(out, b, e, start, step);
    });
    for (int64_t i = nblocks * lanes; i < size; ++i) out[i] = static_cast<T>(fma_d(step, static_cast<double>(i), start));
  }
}

// ops2_arange(dtype, out, offset, size, start, step) -> bool: float32/float64 (any start and step),
// int32/int64 when start, step and every value are integers below 2^53 (then start + i*step exactly,
// what the TS kernel's fma in double and truncation give).
Napi::Value Arange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6) return no(env);
  const int t = info[0].As<Napi::Number>().Int32Value();
  Typed out;
  if (!typed(env, info[1], &out)) return no(env);
  const double off = info[2].As<Napi::Number>().DoubleValue();
  const double size = info[3].As<Napi::Number>().DoubleValue();
  const double start = info[4].As<Napi::Number>().DoubleValue();
  const double step = info[5].As<Napi::Number>().DoubleValue();
  if (!(off >= 0) || !(size >= 0) || off + size > static_cast<double>(out.length) || !std::isfinite(start) || !std::isfinite(step)) return no(env);
  const int64_t o = static_cast<int64_t>(off), n = static_cast<int64_t>(size);
  if (t == kFloat && out.type == napi_float32_array) return arange_float<float>(reinterpret_cast<float*>(out.data) + o, n, start, step), yes(env);
  if (t == kDouble && out.type == napi_float64_array) return arange_float<double>(reinterpret_cast<double*>(out.data) + o, n, start, step), yes(env);
  if ((t == kInt && out.type == napi_int32_array) || (t == kLong && out.type == napi_bigint64_array)) {
    if (std::trunc(start) != start || std::trunc(step) != step) return no(env);
    const double last = start + step * (size > 0 ? size - 1 : 0);
    const double lim = t == kInt ? 2147483647.0 : 9007199254740992.0;
    if (std::fabs(start) > lim || std::fabs(last) > lim || std::fabs(step) * size > 9007199254740992.0) return no(env);
    const int64_t s0 = static_cast<int64_t>(start), st = static_cast<int64_t>(step);
    // each value the one before it plus step (exact: every value is an integer below the limit), an
    // induction GCC vectorizes with adds (s0 + st * i needs a 64-bit multiply per element, which the
    // baseline unit does one at a time)
    if (t == kInt) {
      int32_t* p = reinterpret_cast<int32_t*>(out.data) + o;
      parallel_for(0, n, GRAIN_SIZE, [&](int64_t b, int64_t e) {
        uint32_t v = static_cast<uint32_t>(s0 + st * b);  // (unsigned: the step past the last value may wrap)
        const uint32_t d = static_cast<uint32_t>(st);
        for (int64_t i = b; i < e; ++i, v += d) p[i] = static_cast<int32_t>(v);
      });
    } else {
      int64_t* p = reinterpret_cast<int64_t*>(out.data) + o;
      parallel_for(0, n, GRAIN_SIZE, [&](int64_t b, int64_t e) {
        uint64_t v = static_cast<uint64_t>(s0 + st * b);
        const uint64_t d = static_cast<uint64_t>(st);
        for (int64_t i = b; i < e; ++i, v += d) p[i] = static_cast<int64_t>(v);
      });
    }
    return yes(env);
  }
  return no(env);
}

// ops2_linspace(dtype, out, offset, steps, start, end) -> bool: float32 (steps <= 2^24, where the
// index is exact in float) and float64. The first half counts up from start, the second half down
// from end (both ends exact); step is computed in the dtype; lanes add j*step rounded.
Napi::Value Linspace(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6) return no(env);
  const int t = info[0].As<Napi::Number>().Int32Value();
  Typed out;
  if (!typed(env, info[1], &out)) return no(env);
  const double off = info[2].As<Napi::Number>().DoubleValue();
  const double stepsd = info[3].As<Napi::Number>().DoubleValue();
  const double start = info[4].As<Napi::Number>().DoubleValue();
  const double end = info[5].As<Napi::Number>().DoubleValue();
  if (!(off >= 0) || !(stepsd >= 1) || off + stepsd > static_cast<double>(out.length)) return no(env);
  const int64_t o = static_cast<int64_t>(off), steps = static_cast<int64_t>(stepsd);
  const int64_t halfway = steps / 2;
  if (t == kFloat && out.type == napi_float32_array) {
    if (steps > (int64_t(1) << 24)) return no(env);
    float* p = reinterpret_cast<float*>(out.data) + o;
    const float s = static_cast<float>(start), e_ = static_cast<float>(end);
    if (steps == 1) return p[0] = s, yes(env);
    const float step = static_cast<float>(e_ - s) / static_cast<float>(steps - 1);
    auto at = [&](int64_t idx) -> float {
      return idx < halfway ? fma_f(step, static_cast<float>(idx), s) : fma_f(-step, static_cast<float>(steps - idx - 1), e_);
    };
    float js[8];  // the lanes' j*step, each rounded (Vectorized::arange)
    for (int j = 0; j < 8; ++j) js[j] = static_cast<float>(j) * step;
    // serial_kernel_vec's blocks (pairs of 8-lane vectors: every 8-element block from index 0 up to
    // the last whole pair), then the scalar tail
    const int64_t nblocks = steps / 16 * 2;
    parallel_for(0, nblocks, GRAIN_SIZE / 8, [&](int64_t b, int64_t e) {
      (kHaveAvx2Fma ? linspace_f32_blocks_avx2 : linspace_f32_blocks_base)(p, b, e, halfway, steps, step, s, e_, js);
    });
    for (int64_t i = nblocks * 8; i < steps; ++i) p[i] = at(i);
    return yes(env);
  }
  if (t == kDouble && out.type == napi_float64_array) {
    double* p = reinterpret_cast<double*>(out.data) + o;
    const double s = start, e = end;
    if (steps == 1) return p[0] = s, yes(env);
    const double step = (e - s) / static_cast<double>(steps - 1);
    auto at = [&](int64_t idx) -> double {
      return idx < halfway ? fma_d(step, static_cast<double>(idx), s) : fma_d(-step, static_cast<double>(steps - idx - 1), e);
    };
    double js[4];
    for (int j = 0; j < 4; ++j) js[j] = static_cast<double>(j) * step;
    serial_kernel_vec(steps, 4,
      [&](int64_t f) {
        const double base = at(f);
        for (int64_t j = 0; j < 4; ++j) p[f + j] = base + js[j];
      },
      [&](int64_t i) { p[i] = at(i); });
    return yes(env);
  }
  return no(env);
}

// ---- tril / triu ----
// apply_triu_tril (TriangularOps.cpp): each row i of the last two dims keeps its columns j with
// j - i <= k (tril) or j - i >= k (triu) and zeroes the others: per row one kept range, copied, and one
// zeroed range (all-zero bytes: +0, false, 0 in every dtype). Rows are split over the pool.

// ops2_triangular(upper, k, meta, out, self) -> bool; meta = [ndim, shape..., then for out and self:
// offset, strides...] in elements; ndim >= 2. out may be self itself (in place: the kept elements are
// not touched), but no other overlap (NativeOps2.ts declines).
Napi::Value Triangular(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 5 || !info[0].IsBoolean() || !info[1].IsNumber()) return no(env);
  const bool upper = info[0].As<Napi::Boolean>().Value();
  const double kd = info[1].As<Napi::Number>().DoubleValue();
  Typed m, ts[2];
  if (!typed(env, info[2], &m) || m.type != napi_float64_array) return no(env);
  if (!typed(env, info[3], &ts[0]) || !typed(env, info[4], &ts[1]) || ts[0].itemsize != ts[1].itemsize) return no(env);
  const double* q = reinterpret_cast<const double*>(m.data);
  if (m.length < 1) return no(env);
  const int nd = static_cast<int>(q[0]);
  if (nd < 2 || nd > kMaxDims || m.length < 1 + nd + 2 * (1 + nd)) return no(env);
  const int64_t z = ts[0].itemsize;
  int64_t shape[kMaxDims], st[2][kMaxDims], off[2];
  bool empty = false;
  for (int d = 0; d < nd; ++d) {
    shape[d] = static_cast<int64_t>(q[1 + d]);
    if (shape[d] < 0) return no(env);
    empty = empty || shape[d] == 0;
  }
  for (int k = 0; k < 2; ++k) {
    const double* o = q + 1 + nd + k * (1 + nd);
    off[k] = static_cast<int64_t>(o[0]);
    int64_t lo = off[k], hi = off[k];
    for (int d = 0; d < nd; ++d) {
      st[k][d] = static_cast<int64_t>(o[1 + d]);
      if (shape[d] > 0) (st[k][d] >= 0 ? hi : lo) += st[k][d] * (shape[d] - 1);
    }
    if (!empty && (lo < 0 || hi >= ts[k].length)) return no(env);
  }
  if (empty) return yes(env);
  const bool in_place = ts[0].data == ts[1].data && off[0] == off[1] && std::equal(st[0], st[0] + nd, st[1]);
  const int64_t rows = shape[nd - 2], cols = shape[nd - 1];
  int64_t batch = 1;
  for (int d = 0; d < nd - 2; ++d) batch *= shape[d];
  // the diagonal clamped to what a row can see (|k| beyond the matrix changes nothing)
  const int64_t k = static_cast<int64_t>(std::max(-static_cast<double>(rows + 1), std::min(static_cast<double>(cols + 1), kd)));
  char* out = ts[0].data + off[0] * z;
  const char* src = ts[1].data + off[1] * z;
  parallel_for(0, batch * rows, std::max<int64_t>(1, GRAIN_SIZE / std::max<int64_t>(1, cols)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t rem = r / rows, oo = 0, so = 0;
      const int64_t i = r % rows;
      for (int d = nd - 3; d >= 0; --d) {
        const int64_t c = rem % shape[d];
        rem /= shape[d];
        oo += c * st[0][d];
        so += c * st[1][d];
      }
      oo += i * st[0][nd - 2];
      so += i * st[1][nd - 2];
      // kept columns: [0, i + k + 1) for tril, [i + k, cols) for triu
      const int64_t split = std::max<int64_t>(0, std::min<int64_t>(cols, upper ? i + k : i + k + 1));
      const int64_t keep0 = upper ? split : 0, keep1 = upper ? cols : split;
      const int64_t zero0 = upper ? 0 : split, zero1 = upper ? split : cols;
      const int64_t so_c = st[1][nd - 1], oo_c = st[0][nd - 1];
      char* orow = out + oo * z;
      const char* srow = src + so * z;
      if (!in_place) {
        if (oo_c == 1 && so_c == 1) std::memcpy(orow + keep0 * z, srow + keep0 * z, static_cast<size_t>((keep1 - keep0) * z));
        else for (int64_t j = keep0; j < keep1; ++j) std::memcpy(orow + j * oo_c * z, srow + j * so_c * z, z);
      }
      if (oo_c == 1) std::memset(orow + zero0 * z, 0, static_cast<size_t>((zero1 - zero0) * z));
      else for (int64_t j = zero0; j < zero1; ++j) std::memset(orow + j * oo_c * z, 0, z);
    }
  });
  return yes(env);
}


// ---- take, masked_select, index_fill_ (cpu/IndexKernel.cpp) ----

// bits of one element of z bytes from src to dst
inline void copy_bits(char* dst, const char* src, int z) {
  switch (z) {
    case 1: *dst = *src; break;
    case 2: std::memcpy(dst, src, 2); break;
    case 4: std::memcpy(dst, src, 4); break;
    default: std::memcpy(dst, src, 8); break;
  }
}

// A tensor seen as 1-D in row-major order (take's self): the storage offset of its i-th element.
struct RowMajor {
  int ndim = 0;
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims];  // elements
  int64_t offset = 0;
  bool contiguous = true;
  int64_t at(int64_t i) const {
    if (contiguous) return offset + i;
    int64_t o = offset;
    for (int d = ndim - 1; d >= 0; --d) {
      o += (i % sizes[d]) * strides[d];
      i /= sizes[d];
    }
    return o;
  }
};

// out[k] = self's element number index[k] (negative from the end), the indices known to be in range
template <typename T>
void take_rows(const Plan& p, const char* self, const RowMajor& src, int64_t numel) {
  const T* x = reinterpret_cast<const T*>(self);
  run(p, [&](char** ptr, const int64_t* s, int64_t n) {
    if (src.contiguous && s[0] == static_cast<int64_t>(sizeof(T)) && s[1] == 8) {
      T* out = reinterpret_cast<T*>(ptr[0]);
      const int64_t* ix = reinterpret_cast<const int64_t*>(ptr[1]);
      const T* base = x + src.offset;
      for (int64_t i = 0; i < n; ++i) out[i] = base[ix[i] < 0 ? ix[i] + numel : ix[i]];
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      int64_t k = *reinterpret_cast<const int64_t*>(ptr[1] + i * s[1]);
      if (k < 0) k += numel;
      std::memcpy(ptr[0] + i * s[0], x + src.at(k), sizeof(T));
    }
  });
}

// ops2_take(meta, out, index, self, selfMeta) -> bool. meta walks index's shape for (out, index: int64);
// selfMeta = [ndim, sizes..., offset, strides...]. Every index is checked first (in [-numel, numel)):
// false, with nothing written, when one is not (the TS kernel raises PyTorch's error at it).
Napi::Value Take(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 5) return no(env);
  Typed m, ts[2], self, sm;
  if (!typed(env, info[0], &m) || m.type != napi_float64_array || !typed(env, info[1], &ts[0]) || !typed(env, info[2], &ts[1]) ||
      !typed(env, info[3], &self) || !typed(env, info[4], &sm) || sm.type != napi_float64_array)
    return no(env);
  if (ts[1].type != napi_bigint64_array || self.itemsize != ts[0].itemsize) return no(env);
  Plan p;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, ts, 2, p)) return no(env);
  const double* q = reinterpret_cast<const double*>(sm.data);
  RowMajor src;
  src.ndim = static_cast<int>(q[0]);
  if (src.ndim < 0 || src.ndim > kMaxDims || sm.length < 2 + 2 * src.ndim) return no(env);
  src.offset = static_cast<int64_t>(q[1 + src.ndim]);
  int64_t numel = 1, expected = 1, lo = src.offset, hi = src.offset;
  for (int d = src.ndim - 1; d >= 0; --d) {
    src.sizes[d] = static_cast<int64_t>(q[1 + d]);
    src.strides[d] = static_cast<int64_t>(q[2 + src.ndim + d]);
    src.contiguous = src.contiguous && (src.sizes[d] == 1 || src.strides[d] == expected);
    expected *= src.sizes[d];
    numel *= src.sizes[d];
    if (src.sizes[d] > 0) (src.strides[d] >= 0 ? hi : lo) += src.strides[d] * (src.sizes[d] - 1);
  }
  if (numel == 0 || lo < 0 || hi >= self.length) return no(env);
  // the smallest and largest index (a min/max the compiler vectorizes), checked once
  int64_t kmin = 0, kmax = 0;
  bool first = true;
  run_range(p, [&](char** ptr, const int64_t* s, int64_t n) {
    const char* ix = ptr[1];
    int64_t lo_k = first ? *reinterpret_cast<const int64_t*>(ix) : kmin, hi_k = first ? lo_k : kmax;
    first = false;
    if (s[1] == 8) {
      const int64_t* v = reinterpret_cast<const int64_t*>(ix);
      for (int64_t i = 0; i < n; ++i) {
        lo_k = v[i] < lo_k ? v[i] : lo_k;
        hi_k = v[i] > hi_k ? v[i] : hi_k;
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t k = *reinterpret_cast<const int64_t*>(ix + i * s[1]);
        lo_k = k < lo_k ? k : lo_k;
        hi_k = k > hi_k ? k : hi_k;
      }
    }
    kmin = lo_k;
    kmax = hi_k;
  }, 0, p.numel);
  if (p.numel > 0 && (kmin < -numel || kmax >= numel)) return no(env);
  switch (ts[0].itemsize) {
    case 1: take_rows<uint8_t>(p, self.data, src, numel); break;
    case 2: take_rows<uint16_t>(p, self.data, src, numel); break;
    case 4: take_rows<uint32_t>(p, self.data, src, numel); break;
    default: take_rows<uint64_t>(p, self.data, src, numel); break;
  }
  return yes(env);
}

// The serial walk of masked_select: each element of self whose mask byte is 1 goes to the next out
// slot. Without a branch on the mask (a random mask mispredicts half the time): every element is
// written to the next slot and the slot advances only for a 1, while room remains (the slot after the
// last is a scratch element). false for a mask byte other than 0 and 1, or more ones than room.
template <typename T>
bool masked_select_rows(const Plan& p, char* out_base, int64_t ostride, int64_t room) {
  T* out = reinterpret_cast<T*>(out_base);
  T scratch;
  int64_t k = 0;
  uint8_t bad = 0;
  run_range(p, [&](char** ptr, const int64_t* s, int64_t n) {
    const char* x = ptr[0];
    const uint8_t* mk = reinterpret_cast<const uint8_t*>(ptr[1]);
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t v = mk[i * s[1]];
      bad |= v;
      T e;
      std::memcpy(&e, x + i * s[0], sizeof(T));
      *(k < room ? out + k * ostride : &scratch) = e;
      k += v != 0;
    }
  }, 0, p.numel);
  return bad <= 1 && k <= room;
}

// ops2_masked_select(meta, out, outOffset, outStride, self, mask) -> bool: meta walks the broadcast shape
// for (self, mask: bool or uint8); mask's true elements of self are copied in row-major order to out
// (the count known). One thread: the order is the output's. false when a uint8 mask holds a value other
// than 0 and 1 (the TS kernel then raises "Mask tensor can take 0 and 1 values only").
Napi::Value MaskedSelect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6) return no(env);
  Typed m, out, ts[2];
  if (!typed(env, info[0], &m) || m.type != napi_float64_array || !typed(env, info[1], &out) || !typed(env, info[4], &ts[0]) || !typed(env, info[5], &ts[1]))
    return no(env);
  if (ts[1].itemsize != 1 || out.itemsize != ts[0].itemsize) return no(env);
  const int64_t ooff = static_cast<int64_t>(info[2].As<Napi::Number>().DoubleValue());
  const int64_t ostride = static_cast<int64_t>(info[3].As<Napi::Number>().DoubleValue());
  Plan p;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, ts, 2, p)) return no(env);
  if (ooff < 0 || ostride < 0 || ooff >= out.length) return no(env);
  const int64_t room = ostride == 0 ? 1 : (out.length - 1 - ooff) / ostride + 1;  // the elements out can take
  bool ok = false;
  switch (out.itemsize) {
    case 1: ok = masked_select_rows<uint8_t>(p, out.data + ooff, ostride, room); break;
    case 2: ok = masked_select_rows<uint16_t>(p, out.data + 2 * ooff, ostride, room); break;
    case 4: ok = masked_select_rows<uint32_t>(p, out.data + 4 * ooff, ostride, room); break;
    default: ok = masked_select_rows<uint64_t>(p, out.data + 8 * ooff, ostride, room); break;
  }
  return Napi::Boolean::New(env, ok);
}

// ops2_index_fill(meta, self, index, indexOffset, indexStride, count, dimSize, dimStride, value) -> bool:
// self.select(dim, index[i]) = value for each i (index int64, negative counting from the end); meta
// walks the slice (self's shape without dim). Every index is checked first: false, nothing written,
// when one is outside [-dimSize, dimSize) (the TS kernel raises PyTorch's error).
Napi::Value IndexFill(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 9) return no(env);
  Typed m, ts[1], ix, v;
  if (!typed(env, info[0], &m) || m.type != napi_float64_array || !typed(env, info[1], &ts[0]) || !typed(env, info[2], &ix) || !typed(env, info[8], &v)) return no(env);
  if (ix.type != napi_bigint64_array || v.itemsize != ts[0].itemsize || v.length < 1) return no(env);
  const int64_t ioff = static_cast<int64_t>(info[3].As<Napi::Number>().DoubleValue());
  const int64_t istride = static_cast<int64_t>(info[4].As<Napi::Number>().DoubleValue());
  const int64_t n = static_cast<int64_t>(info[5].As<Napi::Number>().DoubleValue());
  const int64_t size = static_cast<int64_t>(info[6].As<Napi::Number>().DoubleValue());
  const int64_t dim_stride = static_cast<int64_t>(info[7].As<Napi::Number>().DoubleValue());
  if (n > 0 && (ioff < 0 || ioff + (n - 1) * istride >= ix.length || ioff + (n - 1) * istride < 0)) return no(env);
  Plan p;
  if (!make_plan(reinterpret_cast<const double*>(m.data), m.length, ts, 1, p)) return no(env);
  // the slices' byte offsets, every index checked (make_plan checked slice 0's window; the others lie
  // dim_stride apart inside self, whose dim has `size` entries)
  const int z = ts[0].itemsize;
  std::vector<int64_t> offs(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t k = reinterpret_cast<const int64_t*>(ix.data)[ioff + i * istride];
    if (k < -size || k >= size) return no(env);
    if (k < 0) k += size;
    offs[static_cast<size_t>(i)] = k * dim_stride * z;
  }
  if (p.numel == 0 || n == 0) return yes(env);
  const char* value = v.data;
  parallel_for(0, p.numel, std::max<int64_t>(1, GRAIN_SIZE / n), [&](int64_t b, int64_t e) {
    Plan q = p;
    for (int64_t i = 0; i < n; ++i) {
      q.base[0] = p.base[0] + offs[static_cast<size_t>(i)];
      run_range(q, [&](char** ptr, const int64_t* s, int64_t len) {
        for (int64_t j = 0; j < len; ++j) copy_bits(ptr[0] + j * s[0], value, z);
      }, b, e);
    }
  });
  return yes(env);
}

}  // namespace
}  // namespace ops2

void InitOps2(Napi::Env env, Napi::Object exports) {
  exports.Set("ops2_where", Napi::Function::New(env, ops2::Where));
  exports.Set("ops2_masked_fill", Napi::Function::New(env, ops2::MaskedFill));
  exports.Set("ops2_cum", Napi::Function::New(env, ops2::Cum));
  exports.Set("ops2_arange", Napi::Function::New(env, ops2::Arange));
  exports.Set("ops2_linspace", Napi::Function::New(env, ops2::Linspace));
  exports.Set("ops2_triangular", Napi::Function::New(env, ops2::Triangular));
  exports.Set("ops2_take", Napi::Function::New(env, ops2::Take));
  exports.Set("ops2_masked_select", Napi::Function::New(env, ops2::MaskedSelect));
  exports.Set("ops2_index_fill", Napi::Function::New(env, ops2::IndexFill));
}

}  // namespace glasstorch
