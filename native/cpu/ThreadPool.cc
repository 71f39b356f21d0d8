#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace glasstorch {
namespace {

thread_local bool tl_in_parallel = false;

// How long a worker keeps polling for the next job, and the caller for the last task, before
// sleeping on the condition variable: a futex wake-up costs tens of microseconds, so back-to-back
// ~1e6-element ops paid it twice per call (OpenMP, which PyTorch's at::parallel_for runs on, also
// spins before it sleeps). Short enough that an idle pool costs nothing measurable.
constexpr auto kSpin = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls done() until it is true or kSpin has passed; true when done() became true.
template <typename Done>
bool spin_until(Done done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (done()) return true;
    cpu_relax();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
  }
}

class Pool {
 public:
  explicit Pool(int nthreads) { resize(nthreads); }
  ~Pool() { stop(); }

  int size() const { return nthreads_; }

  void resize(int nthreads) {
    stop();
    nthreads_ = std::max(1, nthreads);
    stopping_ = false;
    stopping_flag_.store(false);
    // nthreads_ - 1 workers: the calling thread does a share of every job
    for (int i = 1; i < nthreads_; ++i) workers_.emplace_back([this, i] { worker(i); });
  }

  // Runs task(i) for i in [0, ntasks) on the caller (i = 0) and the workers; waits for all.
  void run(int ntasks, const std::function<void(int)>& task) {
    {
      std::lock_guard<std::mutex> lk(m_);
      task_ = &task;
      ntasks_ = ntasks;
      pending_.store(ntasks - 1);
      ++generation_;
      next_.store((generation_ & 0xffffffffu) << 32 | 1);
      published_.store(generation_, std::memory_order_release);
    }
    cv_.notify_all();
    tl_in_parallel = true;
    task(0);
    // the caller also takes tasks no worker has started (parallel_for_chunked makes more tasks than threads)
    for (int i; (i = claim(generation_, ntasks)) >= 0;) { task(i); finish_one(); }
    tl_in_parallel = false;
    if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock<std::mutex> lk(m_);
      done_cv_.wait(lk, [this] { return pending_.load() == 0; });
    }
    std::lock_guard<std::mutex> lk(m_);
    task_ = nullptr;
  }

 private:
  // Takes the next task index of job `gen`, or -1 when that job has none left (or a newer job began:
  // the generation in the counter's high half keeps a late worker from taking a newer job's task).
  int claim(uint64_t gen, int ntasks) {
    uint64_t v = next_.load();
    for (;;) {
      if ((v >> 32) != (gen & 0xffffffffu) || static_cast<int>(v & 0xffffffffu) >= ntasks) return -1;
      if (next_.compare_exchange_weak(v, v + 1)) return static_cast<int>(v & 0xffffffffu);
    }
  }

  // the last task's finisher wakes a sleeping caller (under the lock, so the caller cannot test the
  // count and then miss the notification)
  void finish_one() {
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lk(m_);
      done_cv_.notify_one();
    }
  }

  void worker(int) {
    tl_in_parallel = true;
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* task;
      int ntasks;
      spin_until([&] { return published_.load(std::memory_order_acquire) != seen || stopping_flag_.load(std::memory_order_relaxed); });
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        task = task_;
        ntasks = ntasks_;
      }
      for (int i; (i = claim(seen, ntasks)) >= 0;) { (*task)(i); finish_one(); }
    }
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stopping_ = true;
      stopping_flag_.store(true);
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  int nthreads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int)>* task_ = nullptr;
  int ntasks_ = 0;
  std::atomic<uint64_t> next_{0};
  std::atomic<int> pending_{0};
  uint64_t generation_ = 0;
  std::atomic<uint64_t> published_{0};  // generation_, readable without the lock (the workers' polling)
  bool stopping_ = false;
  std::atomic<bool> stopping_flag_{false};
};

Pool& pool() {
  static Pool* p = new Pool(default_num_threads());  // never destroyed: workers outlive static teardown order
  return *p;
}

}  // namespace

int default_num_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

void set_num_threads(int n) { pool().resize(n); }
int get_num_threads() { return pool().size(); }
bool in_parallel_region() { return tl_in_parallel; }

namespace {
void split(int64_t begin, int64_t end, int64_t grain_size, int per_thread, const std::function<void(int64_t, int64_t)>& f) {
  if (begin >= end) return;
  const int64_t range = end - begin;
  Pool& p = pool();
  if (range <= grain_size || p.size() == 1 || tl_in_parallel) {
    f(begin, end);
    return;
  }
  // at::parallel_for: as many chunks as threads (here up to per_thread times that), each at least grain_size long
  const int64_t max_tasks = (range + grain_size - 1) / std::max<int64_t>(grain_size, 1);
  const int ntasks = static_cast<int>(std::min<int64_t>(static_cast<int64_t>(p.size()) * per_thread, max_tasks));
  const int64_t chunk = (range + ntasks - 1) / ntasks;
  p.run(ntasks, [&](int i) {
    const int64_t b = begin + i * chunk;
    const int64_t e = std::min(end, b + chunk);
    if (b < e) f(b, e);
  });
}
}  // namespace

void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)>& f) {
  split(begin, end, grain_size, 1, f);
}

void parallel_for_chunked(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)>& f) {
  split(begin, end, grain_size, kChunksPerThread, f);
}

}  // namespace glasstorch
