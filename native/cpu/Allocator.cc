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
#include "Allocator.h"

#include <v8.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace glasstorch {
namespace {

constexpr size_t kAlignment = 64;                 // c10's gAlignment
constexpr size_t kCacheLimit = size_t(256) << 20;  // bytes kept for reuse, at most

struct Block {
  void* raw;     // what calloc returned
  void* data;    // raw rounded up to kAlignment
  size_t bytes;  // the caller's size (the cache key)
};

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

void release_block(Block* b) {
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
          std::free(old->raw);
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
  std::free(b->raw);
  delete b;
}

// BackingStore deleter: runs when the last reference to the memory goes (detach, or garbage collection).
void delete_block(void*, size_t, void* deleter_data) { release_block(static_cast<Block*>(deleter_data)); }

// A zeroed block: from the cache (memset), or calloc's (fresh pages are zero already).
Block* take_block(size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_total_allocations;
    auto it = g_cache.find(bytes);
    if (it != g_cache.end() && !it->second.empty()) {
      Block* b = it->second.back();
      it->second.pop_back();
      g_cached_bytes -= bytes;
      ++g_cache_hits;
      g_live_bytes += static_cast<int64_t>(bytes);
      ++g_live_count;
      if (g_live_bytes > g_peak_live_bytes) g_peak_live_bytes = g_live_bytes;
      std::memset(b->data, 0, bytes);
      return b;
    }
  }
  void* raw = std::calloc(bytes + kAlignment, 1);
  if (raw == nullptr) return nullptr;
  void* data = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(raw) + kAlignment - 1) & ~static_cast<uintptr_t>(kAlignment - 1));
  std::lock_guard<std::mutex> lock(g_mutex);
  g_live_bytes += static_cast<int64_t>(bytes);
  ++g_live_count;
  if (g_live_bytes > g_peak_live_bytes) g_peak_live_bytes = g_live_bytes;
  return new Block{raw, data, bytes};
}

inline v8::Local<v8::Value> to_v8(napi_value v) {
  v8::Local<v8::Value> local;
  static_assert(sizeof(local) == sizeof(v), "napi_value is a v8::Local");
  std::memcpy(static_cast<void*>(&local), &v, sizeof(v));
  return local;
}

inline napi_value to_napi(v8::Local<v8::Value> local) { return reinterpret_cast<napi_value>(*local); }

// alloc(nbytes) -> ArrayBuffer, zeroed, its data 64-byte aligned.
Napi::Value Alloc(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double requested = info[0].As<Napi::Number>().DoubleValue();
  const size_t bytes = requested > 0 ? static_cast<size_t>(requested) : 0;
#ifndef V8_ENABLE_SANDBOX
  if (bytes > 0) {
    Block* b = take_block(bytes);
    if (b == nullptr) {
      Napi::Error::New(env, "DefaultCPUAllocator: not enough memory: you tried to allocate " + std::to_string(bytes) + " bytes.").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    v8::Isolate* isolate = v8::Isolate::GetCurrent();
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
  if (ab->Detach(v8::Local<v8::Value>()).IsNothing()) return Napi::Boolean::New(env, false);
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

// empty_cache(): gives the cached blocks back to the C library (torch.cuda.empty_cache's role).
Napi::Value EmptyCache(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& kv : g_cache)
    for (Block* b : kv.second) {
      std::free(b->raw);
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
}

void InitAllocator(Napi::Env env, Napi::Object exports) {
  exports.Set("alloc", Napi::Function::New(env, Alloc));
  exports.Set("free", Napi::Function::New(env, Free));
  exports.Set("allocator_stats", Napi::Function::New(env, Stats));
  exports.Set("empty_cache", Napi::Function::New(env, EmptyCache));
  exports.Set("set_allocator_cache", Napi::Function::New(env, SetUseCache));
  exports.Set("address_mod_4096", Napi::Function::New(env, Address));
}

}  // namespace glasstorch
