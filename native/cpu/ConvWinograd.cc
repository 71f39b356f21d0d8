// The Winograd F(2x2, 3x3) convolution (winograd_kernels.h has the algebra). cuDNN, NNPACK and oneDNN
// take 3x3 stride-1 layers this way; PyTorch 1.13's CPU build reaches it through NNPACK or oneDNN.
// Against the implicit GEMM (Conv.cc) it does 16 multiplies per 2x2 outputs where the direct sum does
// 36, for two cheap transforms around the products, and rounds differently: each output is a
// combination of 16 sums rather than one sum of 9 C terms (the error stays within a few ulps of the
// values summed; the tests bound it as the GEMM's).
//
// Work is cut into blocks of whole tile rows (kTilesPerBlock tiles or a few more; small images share a
// block), one block per task on whichever thread is free. A block: each channel's tiles transformed
// into V[pos][c][t], read straight from the input rows (zeros where a tile reaches into the padding);
// the 16 products M[pos] = U[pos] V[pos] (O x C times C x T) on the implicit-GEMM kernel, its rows of
// B at V[pos] + c T; the outputs transformed back from M[pos][o][t], plus the bias. U[pos] = (G g
// G^T)[pos] for every filter, once per call, packed once for the kernel.
// Where the time goes (8x64x56x56 * 64, 1 thread, ~7 ms a call): the products ~4.5 ms (181 GFLOP/s,
// ~80% of a core's FMA peak, on 822 MFLOP where the direct sum has 1.85 G), the input transform ~1.4
// (the input read from L3, V written), the output transform ~0.5, the filters ~0.06. On 2 threads the
// transforms, bound by memory traffic, scale less than the products.
// Every output depends on its own tile only, summed over the channels in order, so no result
// depends on the thread count or on how the blocks fall.
#include "ConvWinograd.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "ThreadPool.h"
#include "cpu_features.h"
#include "winograd_kernels.h"

namespace glasstorch {
namespace {

const winograd::Fns& transforms() {
  const char* name = kernels().name;
  if (std::strcmp(name, "AVX512") == 0) return winograd::kTableAVX512.f32;
  if (std::strcmp(name, "AVX2") == 0) return winograd::kTableAVX2.f32;
  return winograd::kTableDefault.f32;
}

// Tiles per block, at least: V and M of a 64-channel layer (16 x 64 x T floats each) stay within L2
// with the packed U (16, 32 and 64 measured within the host's noise on 8x64x56x56).
constexpr int64_t kTilesPerBlock = 64;

template <class T>
T* grow(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

// U[pos] = G g G^T for every filter g = w[o, c] (G's rows: g0, (g0 + g1 + g2) / 2, (g0 - g1 + g2) / 2,
// g2), stored C x O (u[pos][c][o]: the pack then copies runs of o). A channel's 16 rows are made in a
// buffer and copied out whole: written in place, the 16 rows a filter touches lie a multiple of 16 KiB
// apart, one L1 set, and the transform ran 34 ns a filter instead of 5.
void filter_transform(const WinogradConv& p, float* u) {
  const int64_t plane = p.O * p.C;
  parallel_for(0, p.C, std::max<int64_t>(1, 4096 / p.O), [&](int64_t c0, int64_t c1) {
    std::vector<float> t(size_t(16 * p.O));
    for (int64_t c = c0; c < c1; ++c) {
      for (int64_t o = 0; o < p.O; ++o) {
        const float* g = p.w + o * p.ws[0] + c * p.ws[1];
        float h[4][3];  // G g
        for (int j = 0; j < 3; ++j) {
          const float g0 = g[j * p.ws[3]], g1 = g[p.ws[2] + j * p.ws[3]], g2 = g[2 * p.ws[2] + j * p.ws[3]];
          h[0][j] = g0;
          h[1][j] = (g0 + g1 + g2) * 0.5f;
          h[2][j] = (g0 - g1 + g2) * 0.5f;
          h[3][j] = g2;
        }
        for (int i = 0; i < 4; ++i) {
          float* row = t.data() + (4 * i) * p.O + o;
          row[0] = h[i][0];
          row[p.O] = (h[i][0] + h[i][1] + h[i][2]) * 0.5f;
          row[2 * p.O] = (h[i][0] - h[i][1] + h[i][2]) * 0.5f;
          row[3 * p.O] = h[i][2];
        }
      }
      for (int pos = 0; pos < 16; ++pos) std::copy(t.data() + pos * p.O, t.data() + (pos + 1) * p.O, u + pos * plane + c * p.O);
    }
  });
}

}  // namespace

// Measured on 2 threads against the implicit GEMM (min ms of 12 interleaved rounds; the host's noise is
// ~10%): 8x64x56x56 * 64: 5.1-5.5 -> 3.6-4.3; 2x64x56x56: 1.29 -> 1.04; 8x64x28x28: 1.45 -> 1.29;
// but 16x32x28x28 * 32: 0.71-0.92 -> 0.75-1.12, 4x128x14x14 * 128: 0.79-0.96 -> 0.94-1.23, 2x256x7x7 *
// 256: 0.80-1.04 -> 1.37-1.68. With few channels the transforms (per tile: the input's C rows, the
// output's O) weigh as much as the products they spare; with few tiles per filter, the filters'
// transform and pack (16 C O values, every call) do.
bool winograd_pays(const WinogradConv& p) {
  const int64_t tiles = p.N * ((p.OH + 1) / 2) * ((p.OW + 1) / 2);
  return p.C >= 64 && p.O >= 64 && tiles >= std::max<int64_t>(768, p.C * p.O / 8);
}

void conv2d_winograd(const WinogradConv& p, const GemmUnit& unit) {
  const int64_t TH = (p.OH + 1) / 2, TW = (p.OW + 1) / 2;  // tile rows and columns (the last may be half outside)
  // blocks of R tile rows, counted across the images (image n's tile row ty is row n TH + ty)
  const int64_t G = p.N * TH;
  if (G == 0 || p.O == 0) return;  // (no outputs)
  const int64_t R = std::min(G, (kTilesPerBlock + TW - 1) / TW), blocks = (G + R - 1) / R;
  const int64_t Wp = 2 * TW + 2;  // a band row: input columns -pw .. 2 TW + 2 - pw, zero outside the image
  const int64_t plane = p.O * p.C;
  // (the caller's buffers, kept between calls: a fresh 1 MB vector is a fresh mapping, zeroed and
  // faulted in page by page, 4x the whole 128-channel 14x14 layer's time)
  thread_local std::vector<float> us, packs;
  float* u = grow(us, size_t(16 * plane));
  filter_transform(p, u);
  // each U[pos] packed once for the GEMM kernel, shared by the threads
  const int64_t packed_size = unit.pack_sconv_rows_a(p.O, p.C, nullptr, 0, 0, nullptr);
  float* packed = grow(packs, size_t(16 * packed_size));
  parallel_for(0, 16, 1, [&](int64_t b, int64_t e) {
    for (int64_t pos = b; pos < e; ++pos) unit.pack_sconv_rows_a(p.O, p.C, u + pos * plane, 1, p.O, packed + pos * packed_size);
  });
  const int64_t rows_slack = unit.conv_rows_slack;
  const winograd::Fns& k = transforms();
  parallel_for_chunked(0, blocks, 1, [&](int64_t b, int64_t e) {
    thread_local std::vector<float> xs, vs, ms, es, ys, zeros;
    thread_local std::vector<int64_t> offs;
    for (int64_t block = b; block < e; ++block) {
      const int64_t g0 = block * R, rows = std::min(R, G - g0), T = rows * TW;
      // V[pos][c][t] straight from the input rows (zero rows above and below the image, zero columns
      // outside it: a band column x is input column x - pw), and B's row offsets for the products
      // (the kernel reads rows_slack past a row)
      float* v = grow(vs, size_t(16 * p.C * T + rows_slack));
      float* scratch = grow(es, size_t(4 * Wp));
      const int64_t lo = std::min(p.pw, Wp), inside = std::max<int64_t>(0, std::min(p.W, Wp - p.pw));
      const float* zero = grow(zeros, size_t(p.W));
      float* gathered = p.is[3] == 1 ? nullptr : grow(xs, size_t(4 * p.W));
      for (int64_t c = 0; c < p.C; ++c)
        for (int64_t q = 0; q < rows; ++q) {
          const float* band[4];
          const int64_t n = (g0 + q) / TH, ty = (g0 + q) % TH;
          for (int r = 0; r < 4; ++r) {
            const int64_t y = 2 * ty + r - p.ph;
            if (y < 0 || y >= p.H) {
              band[r] = zero;
              continue;
            }
            const float* src = p.in + n * p.is[0] + c * p.is[1] + y * p.is[2];
            if (gathered == nullptr) band[r] = src;
            else {  // (a strided row, gathered)
              for (int64_t i = 0; i < inside; ++i) gathered[r * p.W + i] = src[i * p.is[3]];
              band[r] = gathered + r * p.W;
            }
          }
          k.input_row(band, lo, inside, TW, v + c * T + q * TW, p.C * T, scratch);
        }
      int64_t* off = grow(offs, size_t(p.C));
      for (int64_t c = 0; c < p.C; ++c) off[c] = c * T;
      // M[pos] = U[pos] V[pos]: O x T each
      float* m = grow(ms, size_t(16 * p.O * T));
      for (int pos = 0; pos < 16; ++pos)
        unit.sconv_rows(ConvRowsProblem<float>{p.O, T, p.C, nullptr, 0, 0, v + pos * p.C * T, off, m + pos * p.O * T, T, 0, packed + pos * packed_size}, 1);
      // back to 2x2 outputs, two output rows per tile row (the last row or column of an odd size dropped)
      float* y2 = grow(ys, size_t(4 * TW));
      for (int64_t o = 0; o < p.O; ++o) {
        const float bias = p.bias != nullptr ? p.bias[o * p.bias_stride] : 0.0f;
        for (int64_t q = 0; q < rows; ++q) {
          const int64_t n = (g0 + q) / TH, y = 2 * ((g0 + q) % TH);
          float* row0 = p.out + n * p.os[0] + o * p.os[1] + y * p.os[2];
          const bool second = y + 1 < p.OH;
          if (p.os[3] == 1 && p.OW == 2 * TW && second) {
            k.output_row(m + o * T + q * TW, p.O * T, TW, bias, row0, row0 + p.os[2]);
            continue;
          }
          k.output_row(m + o * T + q * TW, p.O * T, TW, bias, y2, y2 + 2 * TW);
          for (int64_t i = 0; i < (second ? 2 : 1); ++i) {
            float* dst = row0 + i * p.os[2];
            const float* src = y2 + i * 2 * TW;
            if (p.os[3] == 1) std::memcpy(dst, src, size_t(p.OW) * sizeof(float));
            else
              for (int64_t j = 0; j < p.OW; ++j) dst[j * p.os[3]] = src[j];
          }
        }
      }
    }
  });
}

}  // namespace glasstorch
