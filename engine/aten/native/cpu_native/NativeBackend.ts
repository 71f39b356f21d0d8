// The native CPU backend (issue #8): loads the C++ addon that `npm install` builds in
// native/build/Release (native/binding.gyp), installs its allocator, and reports what it found.
// Without the addon every kernel runs in TypeScript; the engine says so once, in one warning line.
//
//   GLASSTORCH_NATIVE=0            hide the addon (the TypeScript-only engine, e.g. to test the fallback)
//   GLASSTORCH_NATIVE_ADDON=path   load the addon from another file (tests point it at a missing one)
//   GLASSTORCH_REQUIRE_NATIVE=1    a failed load is an error (CI, where a compiler is present)
//   GLASSTORCH_NATIVE_ALLOCATOR=0  keep V8's ArrayBuffers for CPU storage (the kernels still run natively)
//   GLASSTORCH_EAGER_FREE=0        no eager freeing of backward's intermediates (engine/autograd/grad_ownership.ts)
//   GLASSTORCH_NATIVE_ISA=avx2     cap the kernels' instruction set (PyTorch's ATEN_CPU_CAPABILITY)
//   GLASSTORCH_CPU_CAPABILITY=ts   run the TypeScript kernels even when the addon is loaded (DispatchStub.ts)

import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";
import { RuntimeError } from "../../../c10/Errors.js";
import { COLOUR_MIN_BYTES, SetAllocator, smallHeapDataPtr, type Allocator, type DataPtr } from "../../../c10/Allocator.js";
import type { dtype } from "../../../c10/ScalarType.js";
import { set_native_backend } from "../DispatchStub.js";

/** The addon's exports (native/cpu/addon.cc). */
export interface NativeAddon {
  /** zero false: a reused block keeps its old bytes (torch.empty, iterator outputs); default true. */
  /** colour: where a block of 64 KiB or more starts in its 4 KiB page (-1: a reused block where it was, a fresh one the rotation's). */
  alloc(nbytes: number, zero?: boolean, colour?: number): ArrayBuffer;
  /** Detaches the buffer now; a block of alloc's goes back to the cache (native/cpu/Allocator.cc). */
  free(buffer: ArrayBuffer): boolean;
  /** [live bytes, live blocks, cached bytes, eager frees, total allocations, cache hits, peak live bytes] */
  allocator_stats(): number[];
  empty_cache(): void;
  set_allocator_cache(on: boolean): void;
  /** The allocation volume between the scavenges alloc asks for (0: none); returns the previous one. */
  set_allocator_young_gc(bytes: number): number;
  binary(op: number, dtype: number, meta: Float64Array, out: ArrayBufferView, a: ArrayBufferView, b: ArrayBufferView, alpha: number): boolean;
  unary(op: number, dtype: number, meta: Float64Array, out: ArrayBufferView, a: ArrayBufferView): boolean;
  set_num_threads(n: number): void;
  get_num_threads(): number;
  set_capability(name: string): boolean;
  status(): NativeAddonStatus;
  address_mod_4096(buffer: ArrayBuffer): number;
  /**
   * native/cpu/Pointwise.cc: an elementwise op (NativePointwise.ts PwOp) over out and its inputs; false if
   * none; "ZeroDivisionError" when an integer division met a zero divisor.
   */
  pw_op(op: number, dtype: number, meta: Float64Array, scalars: Float64Array, out: ArrayBufferView, a: ArrayBufferView, b?: ArrayBufferView, c?: ArrayBufferView): boolean | "ZeroDivisionError";
  /**
   * index_add_ (Pointwise.cc): out.select(dim, index[i]) += alpha * src.select(dim, i) in index order, by
   * add's loop; meta over the slices (out, out, src), strides in elements; index an int32 or int64 view
   * (offset, stride, count). false, with nothing written, when an index is outside [0, dimSize) or the
   * dtype has no loop.
   */
  pw_index_add(dtype: number, meta: Float64Array, scalars: Float64Array, index: ArrayBufferView, indexOffset: number, indexStride: number, count: number, dimSize: number,
    outDimStride: number, srcDimStride: number, out: ArrayBufferView, out2: ArrayBufferView, src: ArrayBufferView): boolean;
  /** dst = static_cast<to>(src) elementwise (copy_). */
  pw_cast(from: number, to: number, meta: Float64Array, out: ArrayBufferView, a: ArrayBufferView): boolean;
  /**
   * Pointwise.cc's streaming-store threshold: ops moving more bytes than it write their output with
   * non-temporal stores. Returns the threshold before the call and how many ops have streamed so far;
   * bytes >= 0 sets it.
   */
  pw_stream_threshold(bytes?: number): { threshold: number; calls: number };
  /** native/cpu/Reductions.cc: sum/mean/var/std/max/min over the flagged dims (NativeReductions.ts). */
  pw_reduce(kind: number, inDtype: number, outDtype: number, meta: Float64Array, input: ArrayBufferView, out: ArrayBufferView | null, out2: ArrayBufferView | null, scalars: Float64Array): boolean;
  // native/cpu/Gemm.cc
  gemm(dtype: number, meta: Float64Array, a: ArrayBufferView, b: ArrayBufferView, c: ArrayBufferView): boolean;
  set_blas(name: "own" | "cblas"): boolean;
  blas_info(): NativeBlasInfo;
  /** The f32 multiply-add peak measured on `threads` threads (default the pool's) with the current unit's vectors. */
  measure_fma_peak(threads?: number, iters?: number): NativeFmaPeak;
  /** The own GEMM's path: "auto" (direct no-pack kernel for small products, else packed), or forced (tests, benchmarks). */
  set_gemm_path(path: "auto" | "direct" | "packed"): boolean;
  /** Conv.cc: "auto" lets the stride-1 forward take the implicit-GEMM path, "im2col" always unfolds (tests, benchmarks). */
  set_conv_path(path: "auto" | "im2col" | "implicit" | "winograd"): boolean;
  // native/cpu/Conv.cc
  conv2d(dtype: number, meta: Float64Array, out: ArrayBufferView, input: ArrayBufferView, weight: ArrayBufferView, bias: ArrayBufferView | null): boolean;
  /** native/cpu/Fill.cc: elements [offset, offset + numel) of view become pattern's bytes (parallel); false if it declines. */
  fill_bytes(view: ArrayBufferView, offset: number, numel: number, pattern: Uint8Array): boolean;
  conv2d_backward(dtype: number, meta: Float64Array, gradInput: ArrayBufferView | null, gradWeight: ArrayBufferView | null, gradBias: ArrayBufferView | null, gradOutput: ArrayBufferView, input: ArrayBufferView, weight: ArrayBufferView): boolean;
  /** Conv.cc: the transposed convolution's forward as the grad_input of the convolution it transposes, then the bias; meta: that convolution's geometry, then the views of output, weight, input, bias. */
  conv_transpose2d(dtype: number, meta: Float64Array, out: ArrayBufferView, input: ArrayBufferView, weight: ArrayBufferView, bias: ArrayBufferView | null): boolean;
  // native/cpu/Random.cc: each advances `state` (mt19937.stateArray()) in place; false declines
  rng_uniform(state: Uint32Array, out: Float32Array | Float64Array, off: number, n: number, from: number, to: number): boolean;
  rng_normal(state: Uint32Array, out: Float32Array, off: number, n: number, mean: number, std: number): boolean;
  rng_random_from_to(state: Uint32Array, out: BigInt64Array | Int32Array | Float32Array | Float64Array, off: number, n: number, range: number, base: number): boolean;
  rng_randperm(state: Uint32Array, out: BigInt64Array, off: number, n: number): boolean;
  /** bernoulli_scalar_kernel's draws (one 53-bit uniform per element, 1 below p) into a contiguous window. */
  rng_bernoulli(state: Uint32Array, out: ArrayBufferView, off: number, n: number, p: number): boolean;
  /** kind: 0 float32, 1 float64, 2 bfloat16 probabilities (contiguous, from probsOff); false for a p outside [0, 1]. */
  rng_bernoulli_tensor(state: Uint32Array, out: ArrayBufferView, off: number, n: number, probs: ArrayBufferView, probsOff: number, kind: number): boolean;
  /** torch.multinomial(replacement=True): rows x samples int64 indices from contiguous float32/float64 probabilities; false for a row the TS kernel rejects (before any draw). */
  rng_multinomial_replacement(state: Uint32Array, out: BigInt64Array, off: number, rows: number, categories: number, samples: number, probs: Float32Array | Float64Array, probsOff: number): boolean;
  /** native/cpu/Bmm.cc: a batched GEMM in one call (NativeBmm.ts); meta = [batch, m, n, k, alpha, beta, per operand a, b, c: offset, batch/row/column strides]. */
  bmm(dtype: number, meta: Float64Array, a: ArrayBufferView, b: ArrayBufferView, c: ArrayBufferView): boolean;
  // native/cpu/Ops2.cc (NativeOps2.ts): false declines
  ops2_where(meta: Float64Array, out: ArrayBufferView, cond: ArrayBufferView, a: ArrayBufferView, b: ArrayBufferView): boolean;
  ops2_masked_fill(meta: Float64Array, self: ArrayBufferView, mask: ArrayBufferView, value: ArrayBufferView): boolean;
  ops2_cum(isSum: boolean, inDtype: number, outDtype: number, meta: Float64Array, input: ArrayBufferView, out: ArrayBufferView): boolean;
  ops2_arange(dtype: number, out: ArrayBufferView, offset: number, size: number, start: number, step: number): boolean;
  ops2_linspace(dtype: number, out: ArrayBufferView, offset: number, steps: number, start: number, end: number): boolean;
  /** tril/triu: meta = [ndim, shape..., out offset, strides..., self offset, strides...]; out may be self. */
  ops2_triangular(upper: boolean, k: number, meta: Float64Array, out: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Sorting.cc: each lane of self along meta's dim, sorted (stable, NaN largest) into values and its positions into indices. */
  sort_lanes(dtype: number, descending: boolean, meta: Float64Array, values: ArrayBufferView, indices: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Sorting.cc: TopKImpl.h's loop on each lane (values and indices have k entries along dim). */
  topk_lanes(dtype: number, k: number, largest: boolean, sorted: boolean, meta: Float64Array, values: ArrayBufferView, indices: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Sorting.cc: median / nanmedian of each lane (values and indices: one element along dim). */
  median_lanes(dtype: number, ignoreNan: boolean, meta: Float64Array, values: ArrayBufferView, indices: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Sorting.cc: median / nanmedian of n contiguous elements from offset into result[resultOffset]. */
  median_all(dtype: number, ignoreNan: boolean, self: ArrayBufferView, offset: number, n: number, result: ArrayBufferView, resultOffset: number): boolean;
  /** native/cpu/Sorting.cc: mode of each lane (values and indices: one element along dim). */
  mode_lanes(dtype: number, meta: Float64Array, values: ArrayBufferView, indices: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Sorting.cc: kthvalue of each lane by quick_select_template (values and indices: one element along dim). */
  kthvalue_lanes(dtype: number, k: number, meta: Float64Array, values: ArrayBufferView, indices: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Scan.cc: cummax (isMax) / cummin along meta's dim; meta operands: values, indices, self. */
  cum_extreme_lanes(dtype: number, isMax: boolean, meta: Float64Array, values: ArrayBufferView, indices: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Scan.cc: logcumsumexp along meta's dim; meta operands: result, self. */
  logcumsumexp_lanes(dtype: number, meta: Float64Array, result: ArrayBufferView, self: ArrayBufferView): boolean;
  /** native/cpu/Unique.cc: the k distinct values of self's n contiguous elements into values (then inverse, counts); k, or -1 for a dtype it does not take. */
  unique_values(dtype: number, self: ArrayBufferView, offset: number, n: number, sorted: boolean, values: ArrayBufferView, inverse: BigInt64Array | null, counts: BigInt64Array | null): number;
  /** take: meta walks index's shape for (out, index: int64); selfMeta = [ndim, sizes..., offset, strides...]; false: an index out of range (nothing written). */
  ops2_take(meta: Float64Array, out: ArrayBufferView, index: ArrayBufferView, self: ArrayBufferView, selfMeta: Float64Array): boolean;
  /** masked_select's serial kernel: meta walks the broadcast shape for (self, mask); false: a uint8 mask value other than 0 and 1. */
  ops2_masked_select(meta: Float64Array, out: ArrayBufferView, outOffset: number, outStride: number, self: ArrayBufferView, mask: ArrayBufferView): boolean;
  /** index_fill_: meta = the slice's window (self without dim); false: an index out of [-dimSize, dimSize) (nothing written). */
  ops2_index_fill(meta: Float64Array, self: ArrayBufferView, index: ArrayBufferView, indexOffset: number, indexStride: number, count: number, dimSize: number,
    dimStride: number, value: ArrayBufferView): boolean;
  // native/cpu/AdvancedIndex.cc (NativeAdvancedIndex.ts): meta over the indexing result for [out, src, indices...]
  // ([value, dst, indices...] for index_put), indexed = [n, then self's indexed dims: size, stride]; false declines
  adv_index(meta: Float64Array, indexed: Float64Array, out: ArrayBufferView, src: ArrayBufferView, ...indices: ArrayBufferView[]): boolean;
  adv_index_put(meta: Float64Array, indexed: Float64Array, dtype: number, accumulate: boolean, dst: ArrayBufferView, value: ArrayBufferView, ...indices: ArrayBufferView[]): boolean;
  /** The non-zero elements of self (meta = [ndim, shape..., offset, strides...]), or -1 (declined). */
  adv_nonzero_count(dtype: number, meta: Float64Array, self: ArrayBufferView): number;
  /** Their coordinates, out[outOffset + d * count + r]; count is adv_nonzero_count's. */
  adv_nonzero(dtype: number, meta: Float64Array, self: ArrayBufferView, out: ArrayBufferView, outOffset: number, count: number): boolean;
  /** native/cpu/Pooling.cc: max_pool1d over P contiguous planes of W into OW (float32, float64); false for another dtype. */
  pool_max1d(dtype: number, x: ArrayBufferView, xOffset: number, y: ArrayBufferView, yOffset: number, P: number, W: number, OW: number,
    kW: number, dW: number, padW: number, dilationW: number): boolean;
  /** native/cpu/Pooling.cc: adaptive_max_pool2d over P contiguous H x W planes, indices h * W + w (int64). */
  pool_adaptive_max2d(dtype: number, x: ArrayBufferView, xOffset: number, y: ArrayBufferView, yOffset: number, indices: ArrayBufferView, indOffset: number,
    P: number, H: number, W: number, OH: number, OW: number): boolean;
  /** native/cpu/Im2Col.cc: cols from image (im2col) or image from cols (col2im), contiguous; geometry [N, C, H, W, OH, OW, kh, kw, dh, dw, ph, pw, sh, sw]. */
  im2col(dtype: number, cols: ArrayBufferView, colsOffset: number, image: ArrayBufferView, imageOffset: number, geometry: Float64Array): boolean;
  col2im(dtype: number, cols: ArrayBufferView, colsOffset: number, image: ArrayBufferView, imageOffset: number, geometry: Float64Array): boolean;
  /** native/cpu/Loss.cc (NativeLoss.ts LossOp): a pointwise loss kernel over out and its inputs, all float32 or float64; false if none. */
  loss_op(op: number, dtype: number, meta: Float64Array, scalars: Float64Array, out: ArrayBufferView, a: ArrayBufferView, b: ArrayBufferView, c?: ArrayBufferView, e?: ArrayBufferView): boolean;
}

/** Which GEMM the addon runs (Gemm.cc): CBLAS when linked and chosen, else the own blocked GEMM. */
export interface NativeBlasInfo {
  blas: "cblas" | "own";
  cblas_linked: boolean;
  cblas_library: "openblas" | "cblas" | null;
  /** the own GEMM's instruction-set unit (follows the capability) */
  own_gemm: string;
}

/** measure_fma_peak's answer (Gemm.cc): rates from each thread's CPU time, and from the wall clock. */
export interface NativeFmaPeak {
  isa: string;
  threads: number;
  /** sum over threads of flops / thread CPU time */
  gflops: number;
  /** all threads' flops / wall time (lower when other processes share the cores) */
  gflops_wall: number;
  /** the clock under load, from a loop of dependent adds (one per cycle), mean over threads */
  clock_ghz: number;
  flops_per_cycle: number;
  per_thread: { gflops: number; clock_ghz: number }[];
  checksum: number;
}

export interface NativeAddonStatus {
  capability: string;
  best_capability: string;
  cpu_features: Record<string, boolean>;
  num_threads: number;
  default_num_threads: number;
  grain_size: number;
  /** Bytes of alloc's blocks that JavaScript can still reach (freed by free() or garbage collection). */
  external_bytes: number;
  external_allocations: number;
  peak_external_bytes: number;
  fallback_allocations: number;
  /** Freed blocks kept for reuse. */
  cached_bytes: number;
  freed_eagerly: number;
  total_allocations: number;
  cache_hits: number;
  alignment: number;
  /** Young collections alloc asked for (one per young_gc_bytes allocated, native/cpu/Allocator.cc). */
  young_gcs: number;
  young_gc_bytes: number;
  /** GLASSTORCH_ALLOC_POISON=1: uninitialised blocks are filled with 0xff bytes (the tests' audit of empty's callers). */
  poison: boolean;
  /** "cblas" or "own": the GEMM behind mm/bmm/conv (Gemm.cc) */
  blas: "cblas" | "own";
  gemm: NativeBlasInfo;
}

/** torch._C._native_status(): whether the addon loaded, and if not, why. */
export interface NativeStatus {
  loaded: boolean;
  /** The addon file, when found. */
  path: string | null;
  /** Why the TypeScript kernels run alone (absent, disabled, failed to load); null when loaded. */
  reason: string | null;
  /** The addon's own report (capability, threads, external memory) when loaded. */
  addon: NativeAddonStatus | null;
}

const ADDON_FILE = join("native", "build", "Release", "glasstorch_cpu.node");

/** The package root: the nearest folder above this module with native/ (engine/ from source, dist/engine/ built). */
function findAddon(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, ADDON_FILE);
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

function load(): { addon: NativeAddon | null; status: NativeStatus } {
  const env = typeof process !== "undefined" ? process.env : {};
  if (env.GLASSTORCH_NATIVE === "0") {
    return { addon: null, status: { loaded: false, path: null, reason: "disabled by GLASSTORCH_NATIVE=0", addon: null } };
  }
  const path = env.GLASSTORCH_NATIVE_ADDON ? (existsSync(env.GLASSTORCH_NATIVE_ADDON) ? env.GLASSTORCH_NATIVE_ADDON : null) : findAddon();
  let reason: string;
  if (path === null) {
    reason = env.GLASSTORCH_NATIVE_ADDON
      ? `the native addon is not built (${env.GLASSTORCH_NATIVE_ADDON} not found)`
      : `the native addon is not built (${ADDON_FILE} not found: npm install builds it where a C++ compiler is present)`;
  } else {
    try {
      const addon = createRequire(import.meta.url)(path) as NativeAddon;
      return { addon, status: { loaded: true, path, reason: null, addon: null } };
    } catch (e) {
      reason = `the native addon failed to load: ${(e as Error).message.split("\n")[0]}`;
    }
  }
  if (env.GLASSTORCH_REQUIRE_NATIVE === "1") throw new RuntimeError(`GLASSTORCH_REQUIRE_NATIVE=1: ${reason}`);
  // said once per process: the engine works, more slowly
  console.warn(`[glasstorch] ${reason}; using the TypeScript CPU kernels`);
  return { addon: null, status: { loaded: false, path, reason, addon: null } };
}

const loaded = load();

/** The loaded addon, or null: the kernels' registration (NativeKernels.ts) checks this. */
export const nativeAddon: NativeAddon | null = loaded.addon;

/**
 * Choosing by size, as PyTorch's kernels do: below `minNumel` elements a pointwise op or reduction
 * runs its TypeScript kernel, because crossing into the addon costs more than the loop itself
 * (measured: a 16-float add 2.7 µs native vs 1.4 µs TS; at 64 floats 2.5 vs 3.3).
 * GLASSTORCH_NATIVE_MIN_NUMEL overrides it; the native kernel tests set it to 0.
 */
export const nativeSizePolicy = { minNumel: Number(process.env.GLASSTORCH_NATIVE_MIN_NUMEL ?? 32) };

/**
 * The CPU allocator on native memory (c10's DefaultCPUAllocator, native/cpu/Allocator.cc): 64-byte
 * aligned, zeroed unless the caller writes every byte first (uninitialized), from a cache of freed blocks; V8 counts them as external memory, so garbage
 * collection sees them, and a block comes back either when the collector drops its ArrayBuffer or at
 * once through free() (Storage.release, where the engine holds the last reference). Small blocks stay
 * V8 ArrayBuffers: below 4 KiB crossing into the addon costs more than it saves (bench/native_alloc.mjs);
 * free() detaches those too, which frees them at once. The smallest (up to 64 bytes, with the dtype
 * known) are typed arrays on V8's heap, with no ArrayBuffer at all (Allocator.ts smallHeapDataPtr).
 */
const SMALL_ALLOCATION = 4096;
/** GLASSTORCH_ALLOC_POISON=1 (native/cpu/Allocator.cc): uninitialised storages are filled with 0xff bytes. */
const POISON = process.env.GLASSTORCH_ALLOC_POISON === "1";
let nextAddress = 0x7f0000000000 / 1024;

class NativeCPUAllocator implements Allocator {
  constructor(private readonly addon: NativeAddon) {}
  allocate(nbytes: number, uninitialized = false, dt?: dtype, colour = -1): DataPtr {
    const address = nextAddress;
    nextAddress += Math.ceil(Math.max(nbytes, 1) / 64) * 64;
    if (nbytes < SMALL_ALLOCATION) {
      // the smallest: a typed array on V8's heap (zeroed, so the audit mode does not apply)
      const heap = POISON ? null : smallHeapDataPtr(nbytes, dt, address);
      if (heap !== null) return heap;
      const buffer = new ArrayBuffer(nbytes);
      // the audit mode covers small storages too: an uninitialised one reads as 0xff bytes
      if (uninitialized && POISON) new Uint8Array(buffer).fill(0xff);
      return { buffer, address, zeroed: !(uninitialized && POISON) };
    }
    if (nbytes < COLOUR_MIN_BYTES) return { buffer: this.addon.alloc(nbytes, !uninitialized), address, zeroed: !uninitialized };
    // a block the addon places: at the colour asked for, else where it was (a fresh one: the next of
    // the addon's rotation), and DataPtr says which
    const buffer = this.addon.alloc(nbytes, !uninitialized, colour);
    return { buffer, address, zeroed: !uninitialized, colour: colour >= 0 ? colour : this.addon.address_mod_4096(buffer) };
  }
  free(dataPtr: DataPtr): void {
    if (dataPtr.buffer !== null) this.addon.free(dataPtr.buffer);
  }
  /** Only the addon's own blocks go back to its cache; a small V8 buffer is left to the collector. */
  reclaims(nbytes: number): boolean {
    return nbytes >= SMALL_ALLOCATION;
  }
}

if (nativeAddon) {
  if (process.env.GLASSTORCH_NATIVE_ALLOCATOR !== "0") SetAllocator("cpu", new NativeCPUAllocator(nativeAddon));
  set_native_backend({ capability: nativeAddon.status().capability });
}

export function _native_status(): NativeStatus {
  return { ...loaded.status, addon: nativeAddon ? nativeAddon.status() : null };
}

// ---- torch.set_num_threads / get_num_threads (torch/csrc/Module.cpp THPModule_setNumThreads) ----

let numThreads = typeof availableParallelism === "function" ? availableParallelism() : 1;

export function set_num_threads(n: number): void {
  if (typeof n !== "number" || !Number.isInteger(n)) throw new RuntimeError(`set_num_threads expects an int, but got ${typeof n === "number" ? "float" : typeof n}`);
  if (n <= 0) throw new RuntimeError("set_num_threads expects a positive integer");
  numThreads = n;
  nativeAddon?.set_num_threads(n);
}

/** The intra-op thread count (the native kernels' pool; the TypeScript kernels always run on one thread). */
export function get_num_threads(): number {
  return nativeAddon ? nativeAddon.get_num_threads() : numThreads;
}

/**
 * torch.backends.cpu.get_cpu_capability() (PyTorch 2.x): "AVX512", "AVX2" or "DEFAULT" — the
 * instruction set of the kernels that run; "DEFAULT" when they are the TypeScript ones.
 */
export function get_cpu_capability(): string {
  return nativeAddon ? nativeAddon.status().capability : "DEFAULT";
}

/** Selects the GEMM: "cblas" (the linked system CBLAS) or "own"; false if no CBLAS was linked. */
export function _set_native_blas(name: "own" | "cblas"): boolean {
  return nativeAddon ? nativeAddon.set_blas(name) : false;
}

/** Selects a lower instruction-set unit (tests compare them); false if the CPU cannot run it. */
export function _set_native_isa(name: "DEFAULT" | "AVX2" | "AVX512"): boolean {
  if (!nativeAddon) return false;
  const ok = nativeAddon.set_capability(name);
  if (ok) set_native_backend({ capability: nativeAddon.status().capability });
  return ok;
}
