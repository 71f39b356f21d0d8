// Copy-like shape kernels, every dtype moved as its bits (1 to 16 bytes), each output element written
// once by one thread (the same result for any thread count):
//   shape_copy: a same-dtype copy between two storages. Rows that are contiguous on both sides are
//     memcpy'd; a transposing layout (the source's unit-stride dim is not the destination's) is copied
//     in square tiles, so the strided side's cache lines are used whole while they are in L1 (a plain
//     loop reads one element per line and the line is gone before its neighbour is wanted). Other
//     layouts decline (pw_cast's general walk).
//   shape_pad: reflection / replication padding (ReflectionPad.cpp, ReplicationPadding.cpp), the input
//     at each output element's mapped index, into a contiguous output; shape_pad_backward its adjoint.
#include "Shape.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "Pointwise.h"
#include "pointwise_kernels.h"
#include "ThreadPool.h"
#include "TypedArg.h"

namespace glasstorch {
namespace {

constexpr int kMaxDims = 25;

template <int N>
struct Bytes { char b[N]; };

// The elements a (sizes, strides) window at offset reaches lie inside a buffer of `bytes`.
bool window_inside(int nd, const int64_t* sizes, const int64_t* strides, int64_t off, int64_t item, size_t bytes) {
  int64_t lo = off, hi = off;
  for (int d = 0; d < nd; ++d) {
    if (sizes[d] == 0) return true;
    const int64_t span = (sizes[d] - 1) * strides[d];
    if (span < 0) lo += span; else hi += span;
  }
  return lo >= 0 && static_cast<uint64_t>((hi + 1) * item) <= bytes;
}

// ---- shape_copy ----

// The copy's dims after dropping size-1 dims, ordered by the destination's strides (outermost first)
// and merged where both operands step through them as one.
struct Layout {
  int nd = 0;
  int64_t size[kMaxDims], dst[kMaxDims], src[kMaxDims];
  int64_t dst_off = 0, src_off = 0;
};

// offsets of the t-th position over dims [0, nd) but those in `skip` (row-major), added to base
void offsets_at(const Layout& L, int64_t t, uint32_t skip, int64_t& d, int64_t& s) {
  d = L.dst_off, s = L.src_off;
  for (int k = L.nd - 1; k >= 0; --k) {
    if (skip & (1u << k)) continue;
    const int64_t c = t % L.size[k];
    t /= L.size[k];
    d += c * L.dst[k];
    s += c * L.src[k];
  }
}

// rows copied by pw::copy_bytes when their source is read again (copy_rows)
constexpr int64_t kVectorRowMin = 1024, kVectorRowMax = 16384;

template <typename T>
void copy_rows(const Layout& L, char* dst, const char* src) {
  // the innermost dim is unit-stride on both sides: one memcpy per row
  T* D = reinterpret_cast<T*>(dst);
  const T* S = reinterpret_cast<const T*>(src);
  const int in = L.nd - 1;
  const int64_t n = L.size[in];
  int64_t rows = 1;
  for (int k = 0; k < in; ++k) rows *= L.size[k];
  // split by elements, not rows: one long row (cat of vectors, clone) is still shared by the threads.
  // A chunk's first row's offsets come from its index; the rows after it run along the innermost outer
  // dim in a tight loop (pad's 32-float rows: a division per dim per row, or even a counter update
  // per dim per row, cost as much as copying the row), and the outer dims' counters step at its end.
  const int64_t run = in >= 1 ? L.size[in - 1] : 1;  // rows per pass of the innermost outer dim
  const int64_t rd = in >= 1 ? L.dst[in - 1] : 0, rs = in >= 1 ? L.src[in - 1] : 0;
  // A source row read again for other rows (an outer dim the source broadcasts: repeat, expand) is in
  // L1 at each copy, and rows of 1-16 KiB go at store speed in the unit's vectors, where memcpy's
  // `rep movsb` pays a start-up per row (pw::copy_bytes). Streaming rows keep memcpy: there the same
  // loop was slower than `rep movsb` from about 4 KiB up.
  bool reread = false;
  for (int k = 0; k < in; ++k) reread = reread || L.src[k] == 0;
  const int64_t row_bytes = n * static_cast<int64_t>(sizeof(T));
  void (*const vector_copy)(char*, const char*, int64_t) = pw::table().copy_bytes;
  const bool by_vectors = reread && vector_copy != nullptr && row_bytes >= kVectorRowMin && row_bytes <= kVectorRowMax;
  parallel_for(0, rows * n, GRAIN_SIZE, [&](int64_t b, int64_t e) {
    int64_t t = b / n, d, s;
    offsets_at(L, t, 1u << in, d, s);
    int64_t idx[kMaxDims];
    for (int64_t k = in - 1, r = t; k >= 0; --k) idx[k] = r % L.size[k], r /= L.size[k];
    int64_t j = b % n;  // the chunk may start and end inside a row
    const int64_t last = (e - 1) / n;  // the chunk's last row
    while (t <= last) {
      // rows t .. t + cnt - 1 lie along the innermost outer dim
      const int64_t cnt = std::min(in >= 1 ? run - idx[in - 1] : int64_t(1), last - t + 1);
      for (int64_t r = 0; r < cnt; ++r, ++t, d += rd, s += rs, j = 0) {
        const int64_t len = std::min(n, e - t * n) - j;
        if (by_vectors) vector_copy(reinterpret_cast<char*>(D + d + j), reinterpret_cast<const char*>(S + s + j), len * static_cast<int64_t>(sizeof(T)));
        else std::memcpy(D + d + j, S + s + j, len * sizeof(T));
      }
      if (in == 0) break;
      // the end of a pass: carry into the outer dims (d, s already stand at the pass's end)
      idx[in - 1] += cnt;
      for (int64_t k = in - 1; k > 0 && idx[k] == L.size[k]; --k) {
        d += L.dst[k - 1] - L.dst[k] * L.size[k], s += L.src[k - 1] - L.src[k] * L.size[k];
        idx[k] = 0;
        ++idx[k - 1];
      }
    }
  });
}

template <typename T>
void copy_tiles(const Layout& L, int p, char* dst, const char* src) {
  // dims `in` (dst unit stride) and p (src unit stride) in kTile x kTile tiles; the rest outside
  constexpr int64_t kTile = 32;
  T* D = reinterpret_cast<T*>(dst);
  const T* S = reinterpret_cast<const T*>(src);
  const int in = L.nd - 1;
  const int64_t ni = L.size[in], np = L.size[p], si = L.src[in], dp = L.dst[p];
  const int64_t ti = (ni + kTile - 1) / kTile, tp = (np + kTile - 1) / kTile;
  int64_t rest = 1;
  for (int k = 0; k < in; ++k) if (k != p) rest *= L.size[k];
  parallel_for(0, rest * tp * ti, at_least_1(GRAIN_SIZE / (kTile * kTile)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t r = t / (tp * ti), a0 = (t / ti) % tp * kTile, i0 = t % ti * kTile;
      const int64_t a1 = std::min(np, a0 + kTile), i1 = std::min(ni, i0 + kTile);
      int64_t d, s;
      offsets_at(L, r, (1u << in) | (1u << p), d, s);
      // through a buffer: each source run is read whole, then each destination run written whole.
      // Reading and writing in one loop keeps kTile lines of one side live at once, and with
      // power-of-two strides (a 1024-float matrix: 4 KiB) they share one L1 set and evict each other.
      T buf[kTile * kTile];
      for (int64_t i = i0; i < i1; ++i) {
        const T* srun = S + s + i * si;
        for (int64_t a = a0; a < a1; ++a) buf[(a - a0) * kTile + (i - i0)] = srun[a];
      }
      for (int64_t a = a0; a < a1; ++a) {
        T* drun = D + d + a * dp;
        const T* b = buf + (a - a0) * kTile - i0;
        for (int64_t i = i0; i < i1; ++i) drun[i] = b[i];
      }
    }
  });
}

// A short destination-contiguous dim (R elements, R = 2..4) just inside the source's unit-stride dim
// p, which the destination steps by R: each destination run of np * R elements interleaves R source
// runs (pixel_shuffle's rows at r = 2: out[2w + k] = in_k[w]). Square tiles would be R x 32 here, too
// small to pay for themselves; a zip loop over whole runs reads and writes every line whole.
template <typename T, int R>
void copy_zip(const Layout& L, char* dst, const char* src) {
  T* D = reinterpret_cast<T*>(dst);
  const T* S = reinterpret_cast<const T*>(src);
  const int in = L.nd - 1, p = L.nd - 2;
  const int64_t np = L.size[p], si = L.src[in];
  int64_t runs = 1;
  for (int k = 0; k < p; ++k) runs *= L.size[k];
  parallel_for(0, runs, at_least_1(GRAIN_SIZE / at_least_1(np * R)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t d, s;
      offsets_at(L, r, (1u << in) | (1u << p), d, s);
      T* out = D + d;
      const T* x = S + s;
      for (int64_t a = 0; a < np; ++a)
        for (int i = 0; i < R; ++i) out[a * R + i] = x[a + i * si];
    }
  });
}

template <typename T>
bool copy_as(const Layout& L, char* dst, const char* src) {
  const int in = L.nd - 1;
  if (L.dst[in] != 1) return false;
  if (L.src[in] == 1) {
    copy_rows<T>(L, dst, src);
    return true;
  }
  if (in >= 1 && L.src[in - 1] == 1 && L.dst[in - 1] == L.size[in] && L.size[in - 1] >= 16) {
    switch (L.size[in]) {
      case 2: copy_zip<T, 2>(L, dst, src); return true;
      case 3: copy_zip<T, 3>(L, dst, src); return true;
      case 4: copy_zip<T, 4>(L, dst, src); return true;
      default: break;
    }
  }
  for (int p = 0; p < in; ++p) {
    if (L.src[p] == 1) {
      copy_tiles<T>(L, p, dst, src);
      return true;
    }
  }
  return false;
}

// shape_copy(itemsize, dst, src, meta = [nd, sizes..., dst offset, strides..., src offset, strides...])
// false (nothing written) for a layout it leaves to the general walk: a destination without a
// unit-stride dim or with overlapping elements, a source without one.
Napi::Value ShapeCopy(const Napi::CallbackInfo& info) {
  const int64_t item = info[0].As<Napi::Number>().Int64Value();
  Buf dst, src, meta_b;
  if (!get_buf(info.Env(), info[1], dst) || !get_buf(info.Env(), info[2], src) || !get_buf(info.Env(), info[3], meta_b)) return fail(info, "shape_copy: typed arrays expected");
  const double* m = reinterpret_cast<const double*>(meta_b.data);
  const int nd = meta_b.bytes >= 8 ? static_cast<int>(m[0]) : -1;
  if (nd < 0 || nd > kMaxDims || meta_b.bytes / 8 < static_cast<size_t>(3 + 3 * nd)) return fail(info, "shape_copy: bad meta");
  int64_t sizes[kMaxDims], ds[kMaxDims], ss[kMaxDims];
  for (int d = 0; d < nd; ++d) {
    sizes[d] = static_cast<int64_t>(m[1 + d]);
    ds[d] = static_cast<int64_t>(m[2 + nd + d]);
    ss[d] = static_cast<int64_t>(m[3 + 2 * nd + d]);
  }
  Layout L;
  L.dst_off = static_cast<int64_t>(m[1 + nd]);
  L.src_off = static_cast<int64_t>(m[2 + 2 * nd]);
  if (!window_inside(nd, sizes, ds, L.dst_off, item, dst.bytes) || !window_inside(nd, sizes, ss, L.src_off, item, src.bytes)) {
    return fail(info, "shape_copy: arrays too short for the sizes");
  }
  for (int d = 0; d < nd; ++d) if (sizes[d] == 0) return Napi::Boolean::New(info.Env(), true);
  // the dims of size > 1, outermost (largest destination stride) first; the destination must not
  // overlap itself (each stride steps over the extent of the dims inside it)
  int order[kMaxDims], n = 0;
  for (int d = 0; d < nd; ++d) if (sizes[d] > 1) order[n++] = d;
  std::stable_sort(order, order + n, [&](int a, int b) { return ds[a] > ds[b]; });
  int64_t extent = 1;
  for (int k = n - 1; k >= 0; --k) {
    const int d = order[k];
    if (ds[d] < extent) return Napi::Boolean::New(info.Env(), false);
    extent += ds[d] * (sizes[d] - 1);
  }
  for (int k = 0; k < n; ++k) {
    const int d = order[k];
    if (L.nd > 0 && L.dst[L.nd - 1] == ds[d] * sizes[d] && L.src[L.nd - 1] == ss[d] * sizes[d]) {
      L.size[L.nd - 1] *= sizes[d];  // one run through memory on both sides: merge
      L.dst[L.nd - 1] = ds[d];
      L.src[L.nd - 1] = ss[d];
      continue;
    }
    L.size[L.nd] = sizes[d], L.dst[L.nd] = ds[d], L.src[L.nd] = ss[d];
    ++L.nd;
  }
  // rows whose copy moves more than the streaming threshold are pw_cast's: its streaming-store loop
  // skips the read for ownership of each destination line (the STREAM copy row: ~10% more bandwidth)
  int64_t numel = 1;
  for (int k = 0; k < L.nd; ++k) numel *= L.size[k];
  const bool rows = L.nd == 0 || (L.dst[L.nd - 1] == 1 && L.src[L.nd - 1] == 1);
  if (rows && 2 * numel * item > pw_stream_bytes()) return Napi::Boolean::New(info.Env(), false);
  if (L.nd == 0) {  // one element
    std::memcpy(dst.data + L.dst_off * item, src.data + L.src_off * item, item);
    return Napi::Boolean::New(info.Env(), true);
  }
  bool ok = false;
  switch (item) {
    case 1: ok = copy_as<uint8_t>(L, dst.data, src.data); break;
    case 2: ok = copy_as<uint16_t>(L, dst.data, src.data); break;
    case 4: ok = copy_as<uint32_t>(L, dst.data, src.data); break;
    case 8: ok = copy_as<uint64_t>(L, dst.data, src.data); break;
    case 16: ok = copy_as<Bytes<16>>(L, dst.data, src.data); break;
  }
  return Napi::Boolean::New(info.Env(), ok);
}

// ---- shape_pad ----

// the input index output index o reads along a spatial dim of n elements padded by l before it
inline int64_t pad_map(int64_t o, int64_t l, int64_t n, bool reflect) {
  const int64_t u = o - l;
  if (reflect) return u < 0 ? -u : u > n - 1 ? 2 * (n - 1) - u : u;
  return std::min(std::max<int64_t>(u, 0), n - 1);
}

template <typename T>
void pad_rows(T* D, const T* S, int nd, int k, const int64_t* in_sizes, const int64_t* in_strides, int64_t src_off, const int64_t* out_sizes, const double* pads, bool reflect) {
  const int64_t ow = out_sizes[nd - 1];
  // the source offset of each output column (the width is always padded: k >= 1)
  std::vector<int64_t> col(ow);
  for (int64_t w = 0; w < ow; ++w) col[w] = pad_map(w, static_cast<int64_t>(pads[0]), in_sizes[nd - 1], reflect) * in_strides[nd - 1];
  int64_t rows = 1;
  for (int d = 0; d < nd - 1; ++d) rows *= out_sizes[d];
  parallel_for(0, rows, at_least_1(GRAIN_SIZE / at_least_1(ow)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      int64_t s = src_off, r = t;
      for (int d = nd - 2; d >= 0; --d) {
        const int64_t o = r % out_sizes[d];
        r /= out_sizes[d];
        const int sp = nd - 1 - d;  // spatial position from the last dim: 0 = width
        const int64_t i = sp < k ? pad_map(o, static_cast<int64_t>(pads[2 * sp]), in_sizes[d], reflect) : o;
        s += i * in_strides[d];
      }
      T* drow = D + t * ow;
      const T* srow = S + s;
      for (int64_t w = 0; w < ow; ++w) drow[w] = srow[col[w]];
    }
  });
}

// shape_pad(itemsize, reflect, dst, dstOffset, src, meta = [nd, k, input sizes..., src offset, strides...,
// output sizes..., pads (2k: width's left, right, then height's, ...)]): dst contiguous from dstOffset.
// The mapped indices must lie in the input (the callers' checks: reflection pads below the size).
Napi::Value ShapePad(const Napi::CallbackInfo& info) {
  const int64_t item = info[0].As<Napi::Number>().Int64Value();
  const bool reflect = info[1].ToBoolean().Value();
  const int64_t dst_off = info[3].As<Napi::Number>().Int64Value();
  Buf dst, src, meta_b;
  if (!get_buf(info.Env(), info[2], dst) || !get_buf(info.Env(), info[4], src) || !get_buf(info.Env(), info[5], meta_b)) return fail(info, "shape_pad: typed arrays expected");
  const double* m = reinterpret_cast<const double*>(meta_b.data);
  const int nd = meta_b.bytes >= 16 ? static_cast<int>(m[0]) : -1, k = meta_b.bytes >= 16 ? static_cast<int>(m[1]) : -1;
  if (nd < 1 || nd > kMaxDims || k < 1 || k > nd || meta_b.bytes / 8 < static_cast<size_t>(3 + 3 * nd + 2 * k)) return fail(info, "shape_pad: bad meta");
  int64_t in_sizes[kMaxDims], in_strides[kMaxDims], out_sizes[kMaxDims];
  for (int d = 0; d < nd; ++d) {
    in_sizes[d] = static_cast<int64_t>(m[2 + d]);
    in_strides[d] = static_cast<int64_t>(m[3 + nd + d]);
    out_sizes[d] = static_cast<int64_t>(m[3 + 2 * nd + d]);
  }
  const int64_t src_off = static_cast<int64_t>(m[2 + nd]);
  const double* pads = m + 3 + 3 * nd;
  int64_t total = 1;
  for (int d = 0; d < nd; ++d) total *= out_sizes[d];
  if (total == 0) return Napi::Boolean::New(info.Env(), true);
  // every mapped index inside the input: the ends of each dim's range map to the extremes
  for (int d = 0; d < nd; ++d) {
    const int sp = nd - 1 - d;
    if (in_sizes[d] < 1) return fail(info, "shape_pad: an empty input dim");
    if (sp >= k) {
      if (out_sizes[d] != in_sizes[d]) return fail(info, "shape_pad: sizes differ along an unpadded dim");
      continue;
    }
    const int64_t l = static_cast<int64_t>(pads[2 * sp]), n = in_sizes[d];
    if (out_sizes[d] != n + l + static_cast<int64_t>(pads[2 * sp + 1])) return fail(info, "shape_pad: output size is not input + pads");
    if (reflect && (l >= n || static_cast<int64_t>(pads[2 * sp + 1]) >= n)) return fail(info, "shape_pad: a reflection pad not below the size");
  }
  if (dst_off < 0 || static_cast<uint64_t>((dst_off + total) * item) > dst.bytes || !window_inside(nd, in_sizes, in_strides, src_off, item, src.bytes)) {
    return fail(info, "shape_pad: arrays too short for the sizes");
  }
  char* d = dst.data + dst_off * item;
  switch (item) {
    case 1: pad_rows(reinterpret_cast<uint8_t*>(d), reinterpret_cast<const uint8_t*>(src.data), nd, k, in_sizes, in_strides, src_off, out_sizes, pads, reflect); break;
    case 2: pad_rows(reinterpret_cast<uint16_t*>(d), reinterpret_cast<const uint16_t*>(src.data), nd, k, in_sizes, in_strides, src_off, out_sizes, pads, reflect); break;
    case 4: pad_rows(reinterpret_cast<uint32_t*>(d), reinterpret_cast<const uint32_t*>(src.data), nd, k, in_sizes, in_strides, src_off, out_sizes, pads, reflect); break;
    case 8: pad_rows(reinterpret_cast<uint64_t*>(d), reinterpret_cast<const uint64_t*>(src.data), nd, k, in_sizes, in_strides, src_off, out_sizes, pads, reflect); break;
    default: return Napi::Boolean::New(info.Env(), false);
  }
  return Napi::Boolean::New(info.Env(), true);
}

// ---- shape_pad_backward ----

// grad_input = 0, then grad_input[map(o)] += grad_output[o] in output order, one rounding per add (the
// TS kernel's order: each input element sees its adds in the same sequence). Planes (the unpadded
// leading dims) are independent, so threads take whole planes.
template <typename T>
void pad_backward(T* gi, const T* go, int64_t planes, const int64_t in3[3], const int64_t out3[3], const std::vector<int64_t> maps[3]) {
  const int64_t in_plane = in3[0] * in3[1] * in3[2], out_plane = out3[0] * out3[1] * out3[2];
  parallel_for(0, planes, at_least_1(GRAIN_SIZE / at_least_1(out_plane)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      T* g = gi + p * in_plane;
      const T* o = go + p * out_plane;
      std::fill(g, g + in_plane, T(0));
      for (int64_t z = 0; z < out3[0]; ++z)
        for (int64_t y = 0; y < out3[1]; ++y) {
          T* row = g + (maps[0][z] * in3[1] + maps[1][y]) * in3[2];
          const int64_t* col = maps[2].data();
          for (int64_t x = 0; x < out3[2]; ++x, ++o) row[col[x]] = static_cast<T>(row[col[x]] + *o);
        }
    }
  });
}

// shape_pad_backward(dtype, reflect, gradInput, giOffset, gradOutput, goOffset, meta = [nd, k, input sizes...,
// output sizes..., pads (2k, width first)]): both contiguous, float32 / float64.
Napi::Value ShapePadBackward(const Napi::CallbackInfo& info) {
  const int dtype = info[0].As<Napi::Number>().Int32Value();
  const bool reflect = info[1].ToBoolean().Value();
  const int64_t gi_off = info[3].As<Napi::Number>().Int64Value(), go_off = info[5].As<Napi::Number>().Int64Value();
  Buf gi, go, meta_b;
  if (!get_buf(info.Env(), info[2], gi) || !get_buf(info.Env(), info[4], go) || !get_buf(info.Env(), info[6], meta_b)) return fail(info, "shape_pad_backward: typed arrays expected");
  if (dtype != 6 && dtype != 7) return Napi::Boolean::New(info.Env(), false);  // float32, float64
  const int64_t item = dtype == 6 ? 4 : 8;
  const double* m = reinterpret_cast<const double*>(meta_b.data);
  const int nd = meta_b.bytes >= 16 ? static_cast<int>(m[0]) : -1, k = meta_b.bytes >= 16 ? static_cast<int>(m[1]) : -1;
  if (nd < 1 || nd > kMaxDims || k < 1 || k > 3 || k > nd || meta_b.bytes / 8 < static_cast<size_t>(2 + 2 * nd + 2 * k)) return fail(info, "shape_pad_backward: bad meta");
  int64_t planes = 1, in_total = 1, out_total = 1;
  int64_t in3[3] = {1, 1, 1}, out3[3] = {1, 1, 1};
  std::vector<int64_t> maps[3];
  for (int d = 0; d < nd; ++d) {
    const int64_t n = static_cast<int64_t>(m[2 + d]), o = static_cast<int64_t>(m[2 + nd + d]);
    in_total *= n;
    out_total *= o;
    const int sp = nd - 1 - d;
    if (sp >= k) {
      if (n != o) return fail(info, "shape_pad_backward: sizes differ along an unpadded dim");
      planes *= n;
      continue;
    }
    const int64_t l = static_cast<int64_t>(m[2 + 2 * nd + 2 * sp]), r = static_cast<int64_t>(m[3 + 2 * nd + 2 * sp]);
    if (n < 1 || o != n + l + r || (reflect && (l >= n || r >= n))) return fail(info, "shape_pad_backward: sizes and pads do not match");
    const int slot = 2 - sp;  // width in slot 2, height in 1, depth in 0
    in3[slot] = n, out3[slot] = o;
    for (int64_t i = 0; i < o; ++i) maps[slot].push_back(pad_map(i, l, n, reflect));
  }
  for (int s = 0; s < 3; ++s) if (maps[s].empty()) maps[s].push_back(0);
  if (gi_off < 0 || go_off < 0 || static_cast<uint64_t>((gi_off + in_total) * item) > gi.bytes || static_cast<uint64_t>((go_off + out_total) * item) > go.bytes) {
    return fail(info, "shape_pad_backward: arrays too short for the sizes");
  }
  if (in_total == 0) return Napi::Boolean::New(info.Env(), true);
  if (dtype == 6) pad_backward(reinterpret_cast<float*>(gi.data) + gi_off, reinterpret_cast<const float*>(go.data) + go_off, planes, in3, out3, maps);
  else pad_backward(reinterpret_cast<double*>(gi.data) + gi_off, reinterpret_cast<const double*>(go.data) + go_off, planes, in3, out3, maps);
  return Napi::Boolean::New(info.Env(), true);
}

}  // namespace

void InitShape(Napi::Env env, Napi::Object exports) {
  exports.Set("shape_copy", Napi::Function::New(env, ShapeCopy));
  exports.Set("shape_pad", Napi::Function::New(env, ShapePad));
  exports.Set("shape_pad_backward", Napi::Function::New(env, ShapePadBackward));
}

}  // namespace glasstorch
