// The CPU allocator on native memory (c10/core/CPUAllocator.cpp's DefaultCPUAllocator, issue #8):
// 64-byte aligned, zeroed blocks handed to JavaScript as external ArrayBuffers, with a size-keyed
// cache of freed blocks (a training loop allocates the same sizes every step: a cached block costs a
// memset, a fresh one a page fault per page on first touch).
//
// A block comes back to the cache in two ways:
//  - eagerly: free(buffer) detaches the ArrayBuffer (every typed array over it drops to length 0, so a
//    stale view reads nothing instead of reused memory) and the block is reusable at once. The engine
//    calls this where it provably holds the last reference (engine/c10/Storage.ts release());
//  - at garbage collection: the backing store's deleter, which V8 may run on its sweeper thread,
//    hence the mutex.
// The buffers are made with V8's BackingStore API rather than napi_create_external_arraybuffer: Node
// runs N-API external-buffer finalizers from a setImmediate, so a synchronous training loop (no await)
// never got its memory back and its external bytes grew without bound. V8 counts every backing store
// as external memory itself (ArrayBufferExtension accounting), so garbage collection sees these
// blocks without napi_adjust_external_memory.
// Under V8's sandbox (Electron) external backing stores are not allowed: there the buffers are V8's
// own (napi_create_arraybuffer) and free() still detaches them, which frees them at once.
//
// Uninitialised blocks (alloc(n, false)): torch.empty and the outputs a TensorIterator allocates (every
// element is written by the kernel) skip the memset, as c10's allocator never clears. A block is only
// ever reused after its ArrayBuffer is dead or detached, so stale bytes can reach only a tensor whose
// contents PyTorch leaves undefined too; zeros() still gets zeroed memory (alloc(n) clears).
//
// Young collections on allocation volume (bench/native_alloc.mjs, issue #8): a dropped tensor's block
// comes back when its ArrayBuffer is collected. V8 counts the blocks as external memory and answers
// every 64 MB of growth with a full mark-compact of the whole heap (measured: one per ~35 allocations
// of 4 MB, 0.7 ms of CPU per allocation). Most such tensors die young, so every g_young_gc_bytes of
// allocation this allocator asks for a scavenge instead: the dead blocks come back to the cache, the
// external total stays under V8's limit, and full collections are left to the tensors that live
// long (V8's accounting still triggers those, unchanged). A block given back by free() before any
// collection is no garbage for a scavenge to find: its bytes come off the count (a training step frees
// most of its big temporaries so; counting them made the MLP step pay a scavenge every ~15 steps).
#include "Allocator.h"
#include "Fill.h"

#include <v8.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <unordered_map>
#include <vector>

namespace glasstorch {
namespace {

constexpr size_t kAlignment = 64;                 // c10's gAlignment
constexpr size_t kCacheLimit = size_t(256) << 20;  // bytes kept for reuse, at most

struct Block {
  void* raw;        // what calloc or mmap returned
  void* data;       // where the caller's bytes start: base, or base plus the colour asked for
  uintptr_t base;   // raw rounded up to kAlignment (for mapped blocks: to a 2 MiB boundary)
  size_t bytes;     // the caller's size (the cache key)
  size_t mapped;    // the mapping's length for an mmap'd block, 0 for a malloc'd one
  bool colourable;  // a page of slack after base: data may start at any colour (see kColourMin)
};

// Blocks of 2 MiB and more are their own mapping, 2 MiB aligned and advised as transparent huge pages
// (THP is "madvise" on Debian). A streaming kernel then crosses a page boundary every 2 MiB instead
// of every 4 KiB: the hardware prefetchers, which stop at page boundaries, keep running, and the TLB
// covers the tensor. A fresh block also costs one page fault per 2 MiB rather than 512 (bench, add
// and mul of 1e7 floats with a fresh result: 3.9 and 4.4 ms -> 2.8 ms). The mapping's pages are zero already.
constexpr size_t kHugePage = size_t(2) << 20;

// A mapped block (and any block of kColourMin bytes or more) starts some number of cache lines into
// its first page (its colour). Asked for none, a block starts 23 lines (1472 bytes) further on than the
// block placed before it, cycling through all 64 line offsets of a 4 KiB page. Blocks that all began on a 2 MiB boundary put the i-th elements of a, b and out at
// the same address modulo 4096, and the core's load/store unit, which compares those low 12 bits to
// see whether a load depends on an earlier store, stalled loads behind unrelated stores ("4K
// aliasing"): add 1e6 out= with three such blocks took 0.185-0.21 ms on one thread, 0.172-0.18 with
// the operands 1-3 KiB apart (0.087 vs 0.09-0.10 ms on two; PyTorch, whose malloc'd blocks start
// anywhere: 0.088). The page-fault and TLB gains of the 2 MiB pages stay.
constexpr size_t kColourStep = 23 * 64;
std::atomic<size_t> g_next_colour{0};

// Blocks of kColourMin bytes and more can start at any colour the caller names (alloc's third
// argument): each has 4 KiB of slack, and a block from the cache moves its start to the colour asked
// for. The engine names one for a TensorIterator's output away from its inputs' colours
// (c10/Allocator.ts colour_away_from): in-cache adds of 1e6 floats on two threads (bench scan, a at colour 0) took
// 79 us with b 2 KiB from a whatever out's colour, 80-86 with a and b on one colour, 81 with out
// 320 bytes after a (the colour the rotation happened to give add's fresh result), 79 for out midway.
constexpr size_t kColourMin = size_t(64) << 10;
constexpr size_t kPage = 4096;

// The colour (byte offset mod 4096, a multiple of kAlignment) a block's data starts at: `colour`
// when one is asked for (>= 0), else the next of the rotation.
size_t pick_colour(long colour) {
  if (colour >= 0) return static_cast<size_t>(colour) % kPage / kAlignment * kAlignment;
  return g_next_colour.fetch_add(1, std::memory_order_relaxed) * kColourStep % kPage;
}

// data at `colour` within the page of slack after base
inline void* at_colour(uintptr_t base, size_t colour) {
  return reinterpret_cast<void*>(base + (colour + kPage - base % kPage) % kPage);
}

bool map_block(size_t bytes, void** raw, uintptr_t* base, size_t* mapped) {
  const size_t span = (kPage + bytes + kHugePage - 1) / kHugePage * kHugePage;  // the huge pages any colour's data touches
  const size_t len = span + kHugePage;                                           // room to align
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~static_cast<uintptr_t>(kHugePage - 1);
  madvise(reinterpret_cast<void*>(aligned), span, MADV_HUGEPAGE);  // advice only
  *raw = p;
  *base = aligned;
  *mapped = len;
  return true;
}

void free_memory(Block* b) {
  if (b->mapped) munmap(b->raw, b->mapped);
  else std::free(b->raw);
}

std::mutex g_mutex;  // the cache and the counters: the deleter may run on a V8 background thread
std::unordered_map<size_t, std::vector<Block*>> g_cache;
size_t g_cached_bytes = 0;
int64_t g_live_bytes = 0;      // blocks handed out and not yet back (native memory JavaScript can reach)
int64_t g_live_count = 0;
int64_t g_peak_live_bytes = 0;
int64_t g_total_allocations = 0;
int64_t g_cache_hits = 0;
int64_t g_freed_eagerly = 0;   // free() calls that detached a buffer
int64_t g_fallback_count = 0;  // allocations that had to be V8-owned (sandbox)
bool g_use_cache = true;       // a switch for the benchmark
int64_t g_young_gcs = 0;       // scavenges this allocator asked for
// The allocation volume between them (0: never): a quarter of V8's 64 MB external soft limit, because the
// young sweep that returns the dead blocks runs concurrently and its external-memory decrement lands up
// to one scavenge late (at 32 MB, add 1e6 with its inputs live still hit the limit every ~80 calls).
std::atomic<size_t> g_young_gc_bytes{size_t(16) << 20};
// per thread: each Node worker has its own isolate (and heap) on its own thread
thread_local size_t tl_allocated_since_gc = 0;
// Bytes of blocks whose memory came back on this thread (free()'s detach runs the deleter right here):
// a block freed eagerly (Tensor.dispose, the engine's eager frees) needs no scavenge, so free() takes it
// off tl_allocated_since_gc. Without that, a loop that disposes a 4 MB result per call still asked V8
// for a scavenge every 4 calls (~30 us of a ~70 us add 1e6).
thread_local size_t tl_released_here = 0;
// GLASSTORCH_ALLOC_POISON=1: uninitialised blocks are filled with 0xff bytes (NaN as a float, -1 as an
// int) instead of left as they are, so a caller that reads before writing shows up in the tests.
bool g_poison = false;

void release_block(Block* b) {
  tl_released_here += b->bytes;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_live_bytes -= static_cast<int64_t>(b->bytes);
  --g_live_count;
  if (g_use_cache && b->bytes <= kCacheLimit) {
    // a full cache gives back blocks of other sizes first: the sizes in use now are the ones to keep
    for (auto it = g_cache.begin(); g_cached_bytes + b->bytes > kCacheLimit && it != g_cache.end();) {
      if (it->first != b->bytes) {
        while (!it->second.empty() && g_cached_bytes + b->bytes > kCacheLimit) {
          Block* old = it->second.back();
          it->second.pop_back();
          g_cached_bytes -= old->bytes;
          free_memory(old);
          delete old;
        }
      }
      it = it->second.empty() ? g_cache.erase(it) : std::next(it);
    }
  }
  if (g_use_cache && g_cached_bytes + b->bytes <= kCacheLimit) {
    g_cache[b->bytes].push_back(b);
    g_cached_bytes += b->bytes;
    return;
  }
  free_memory(b);
  delete b;
}

// BackingStore deleter: runs when the last reference to the memory goes (detach, or garbage collection).
void delete_block(void*, size_t, void* deleter_data) { release_block(static_cast<Block*>(deleter_data)); }

// A reused block's bytes set to `byte`, outside the allocator's lock (the collector's deleter thread
// takes it too, and a large block's memset held it for the whole clear), over the intra-op pool as
// fill_ is, split as a float fill would be (blocks under 128 KiB stay on the calling thread):
// torch.zeros(1e6) on two threads took 44 us with one memset here, PyTorch's 31.
inline void fill_block(void* data, int byte, size_t bytes) { fill_bytes_parallel(static_cast<char*>(data), byte, static_cast<int64_t>(bytes), 4); }

// A block, zeroed when asked: from the cache (memset), or calloc's or mmap's (fresh pages are zero
// already). A colourable block's data starts at `colour`; asked for none (< 0), a cached block stays
// where it was (torch.empty's reused block keeps its bytes where they were) and a fresh one takes the
// next of the rotation.
Block* take_block(size_t bytes, bool zero, long colour) {
  Block* cached = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_total_allocations;
    auto it = g_cache.find(bytes);
    if (it != g_cache.end() && !it->second.empty()) {
      cached = it->second.back();
      it->second.pop_back();
      g_cached_bytes -= bytes;
      ++g_cache_hits;
      g_live_bytes += static_cast<int64_t>(bytes);
      ++g_live_count;
      if (g_live_bytes > g_peak_live_bytes) g_peak_live_bytes = g_live_bytes;
    }
  }
  if (cached != nullptr) {
    if (cached->colourable && colour >= 0) cached->data = at_colour(cached->base, pick_colour(colour));
    if (zero || g_poison) fill_block(cached->data, zero ? 0 : 0xff, bytes);
    return cached;
  }
  void* raw;
  uintptr_t base;
  size_t mapped = 0;
  const bool colourable = bytes >= kColourMin;
  if (bytes >= kHugePage) {
    if (!map_block(bytes, &raw, &base, &mapped)) return nullptr;
  } else {
    const size_t len = bytes + kAlignment + (colourable ? kPage : 0);
    raw = zero ? std::calloc(len, 1) : std::malloc(len);
    if (raw == nullptr) return nullptr;
    base = (reinterpret_cast<uintptr_t>(raw) + kAlignment - 1) & ~static_cast<uintptr_t>(kAlignment - 1);
  }
  void* data = colourable ? at_colour(base, pick_colour(colour)) : reinterpret_cast<void*>(base);
  if (!zero && g_poison) fill_block(data, 0xff, bytes);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_live_bytes += static_cast<int64_t>(bytes);
  ++g_live_count;
  if (g_live_bytes > g_peak_live_bytes) g_peak_live_bytes = g_live_bytes;
  return new Block{raw, data, base, bytes, mapped, colourable};
}

inline v8::Local<v8::Value> to_v8(napi_value v) {
  v8::Local<v8::Value> local;
  static_assert(sizeof(local) == sizeof(v), "napi_value is a v8::Local");
  std::memcpy(static_cast<void*>(&local), &v, sizeof(v));
  return local;
}

inline napi_value to_napi(v8::Local<v8::Value> local) { return reinterpret_cast<napi_value>(*local); }

// Whether `gc` was exposed when the process started (--expose-gc): then the flag stays on.
int g_gc_exposed_at_start = -1;
// The flag is process-wide and every isolate (the main thread's, each worker thread's: DataLoader
// workers) scavenges through here: without this lock one thread cleared the flag between another's
// setting it and its call, and V8 aborted the process ("RequestGarbageCollectionForTesting Must use
// --expose-gc"; test/aten/native/cpu_native_alloc.test.ts).
std::mutex g_gc_flag_mutex;

// A scavenge (RequestGarbageCollectionForTesting, the call behind gc({type: "minor"}), which V8 only
// allows under --expose-gc: the flag is set for the call and cleared again, so no context created
// later sees a `gc` global that the user did not ask for).
void collect_young(v8::Isolate* isolate) {
  std::lock_guard<std::mutex> flag_lock(g_gc_flag_mutex);
  if (g_gc_exposed_at_start < 0) {
    v8::Local<v8::Context> context = isolate->GetCurrentContext();
    bool has = false;
    if (!context.IsEmpty()) {
      v8::Local<v8::String> name = v8::String::NewFromUtf8Literal(isolate, "gc");
      has = context->Global()->Has(context, name).FromMaybe(false);
    }
    g_gc_exposed_at_start = has ? 1 : 0;
  }
  if (g_gc_exposed_at_start == 0) v8::V8::SetFlagsFromString("--expose-gc");
  isolate->RequestGarbageCollectionForTesting(v8::Isolate::kMinorGarbageCollection);
  if (g_gc_exposed_at_start == 0) v8::V8::SetFlagsFromString("--no-expose-gc");
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_young_gcs;
}

// alloc(nbytes, zero = true, colour = -1) -> ArrayBuffer, its data 64-byte aligned; zeroed unless zero is
// false; a block of kColourMin bytes or more starts `colour` bytes into a 4 KiB page (-1: the rotation's).
Napi::Value Alloc(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double requested = info[0].As<Napi::Number>().DoubleValue();
  const size_t bytes = requested > 0 ? static_cast<size_t>(requested) : 0;
  const bool zero = info.Length() < 2 || !info[1].IsBoolean() || info[1].As<Napi::Boolean>().Value();
  const long colour = info.Length() >= 3 && info[2].IsNumber() ? static_cast<long>(info[2].As<Napi::Number>().DoubleValue()) : -1;
#ifndef V8_ENABLE_SANDBOX
  if (bytes > 0) {
    v8::Isolate* isolate = v8::Isolate::GetCurrent();
    // before taking a block, so the blocks the scavenge frees can serve this request. The volume counted
    // is the one allocated before this request: a single block of 16 MB or more (F.embedding's 65536 x
    // 64 rows) asked for a scavenge on every call, though a dispose gave it back each time; now only
    // when such blocks were left to the collector does the next request ask.
    const size_t every = g_young_gc_bytes.load(std::memory_order_relaxed);
    if (every > 0 && tl_allocated_since_gc >= every) {
      tl_allocated_since_gc = 0;
      collect_young(isolate);
    }
    tl_allocated_since_gc += bytes;
    Block* b = take_block(bytes, zero, colour);
    if (b == nullptr) {
      Napi::Error::New(env, "DefaultCPUAllocator: not enough memory: you tried to allocate " + std::to_string(bytes) + " bytes.").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    std::shared_ptr<v8::BackingStore> store = v8::ArrayBuffer::NewBackingStore(b->data, bytes, delete_block, b);
    return Napi::Value(env, to_napi(v8::ArrayBuffer::New(isolate, std::move(store))));
  }
#else
  if (bytes > 0) {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_fallback_count;
  }
#endif
  void* data;
  napi_value ab;
  napi_create_arraybuffer(env, bytes, &data, &ab);
  return Napi::Value(env, ab);
}

// free(buffer) -> bool: detaches the ArrayBuffer now (one of ours goes back to the cache at once, a
// V8-owned one is freed). The caller guarantees nothing will read it again; a view that does sees length 0.
Napi::Value Free(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  v8::Local<v8::Value> v = to_v8(info[0]);
  if (!v->IsArrayBuffer()) return Napi::Boolean::New(env, false);
  v8::Local<v8::ArrayBuffer> ab = v.As<v8::ArrayBuffer>();
  if (!ab->IsDetachable() || ab->WasDetached()) return Napi::Boolean::New(env, false);
  const size_t released_before = tl_released_here;
  if (ab->Detach(v8::Local<v8::Value>()).IsNothing()) return Napi::Boolean::New(env, false);
  // one of our blocks came back now: it no longer counts toward the next scavenge (see tl_released_here)
  const size_t back = tl_released_here - released_before;
  tl_allocated_since_gc -= back < tl_allocated_since_gc ? back : tl_allocated_since_gc;
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_freed_eagerly;
  return Napi::Boolean::New(env, true);
}

// allocator_stats() -> [live bytes, live blocks, cached bytes, eager frees, total allocations, cache hits, peak live bytes]
Napi::Value Stats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array a = Napi::Array::New(env, 7);
  std::lock_guard<std::mutex> lock(g_mutex);
  const int64_t v[7] = {g_live_bytes, g_live_count, static_cast<int64_t>(g_cached_bytes), g_freed_eagerly, g_total_allocations, g_cache_hits, g_peak_live_bytes};
  for (uint32_t i = 0; i < 7; ++i) a.Set(i, Napi::Number::New(env, static_cast<double>(v[i])));
  return a;
}

// empty_cache(): gives the cached blocks back to the C library and the kernel (torch.cuda.empty_cache's role).
Napi::Value EmptyCache(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& kv : g_cache)
    for (Block* b : kv.second) {
      free_memory(b);
      delete b;
    }
  g_cache.clear();
  g_cached_bytes = 0;
  return info.Env().Undefined();
}

// set_allocator_cache(on): the benchmark compares with and without the cache.
Napi::Value SetUseCache(const Napi::CallbackInfo& info) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_use_cache = info[0].As<Napi::Boolean>().Value();
  }
  if (!g_use_cache) EmptyCache(info);
  return info.Env().Undefined();
}

// set_allocator_young_gc(bytes): the allocation volume between the scavenges alloc asks for (0: none;
// the benchmark and the soak compare). Returns the previous value.
Napi::Value SetYoungGc(const Napi::CallbackInfo& info) {
  const double v = info[0].As<Napi::Number>().DoubleValue();
  const size_t old = g_young_gc_bytes.exchange(v > 0 ? static_cast<size_t>(v) : 0);
  return Napi::Number::New(info.Env(), static_cast<double>(old));
}

// The address of a buffer's first byte modulo 4096 (the alignment test).
Napi::Value Address(const Napi::CallbackInfo& info) {
  void* data;
  size_t len;
  napi_get_arraybuffer_info(info.Env(), info[0], &data, &len);
  return Napi::Number::New(info.Env(), static_cast<double>(reinterpret_cast<uintptr_t>(data) % 4096));
}

}  // namespace

void AllocatorStatus(Napi::Object& o) {
  std::lock_guard<std::mutex> lock(g_mutex);
  o.Set("external_bytes", static_cast<double>(g_live_bytes));
  o.Set("external_allocations", static_cast<double>(g_live_count));
  o.Set("peak_external_bytes", static_cast<double>(g_peak_live_bytes));
  o.Set("fallback_allocations", static_cast<double>(g_fallback_count));
  o.Set("cached_bytes", static_cast<double>(g_cached_bytes));
  o.Set("freed_eagerly", static_cast<double>(g_freed_eagerly));
  o.Set("total_allocations", static_cast<double>(g_total_allocations));
  o.Set("cache_hits", static_cast<double>(g_cache_hits));
  o.Set("alignment", static_cast<double>(kAlignment));
  o.Set("young_gcs", static_cast<double>(g_young_gcs));
  o.Set("poison", g_poison);
  o.Set("young_gc_bytes", static_cast<double>(g_young_gc_bytes.load()));
}

void InitAllocator(Napi::Env env, Napi::Object exports) {
  const char* poison = std::getenv("GLASSTORCH_ALLOC_POISON");
  g_poison = poison != nullptr && std::strcmp(poison, "1") == 0;
  exports.Set("alloc", Napi::Function::New(env, Alloc));
  exports.Set("free", Napi::Function::New(env, Free));
  exports.Set("allocator_stats", Napi::Function::New(env, Stats));
  exports.Set("empty_cache", Napi::Function::New(env, EmptyCache));
  exports.Set("set_allocator_cache", Napi::Function::New(env, SetUseCache));
  exports.Set("address_mod_4096", Napi::Function::New(env, Address));
  exports.Set("set_allocator_young_gc", Napi::Function::New(env, SetYoungGc));
}

}  // namespace glasstorch
