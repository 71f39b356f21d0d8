#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
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

  // One job at a time: the caller of run() holds this. The pool is the process's, and a Node worker
  // thread (a DataLoader worker, with its own isolate) calls kernels too: two callers at once
  // overwrote each other's job (its task, its pending count) and one waited forever (main and a worker
  // thread each adding 2^20 floats in a loop hung within seconds). A caller that finds the pool busy
  // runs its range inline (split), as a call from inside a parallel region does.
  std::mutex& caller() { return caller_; }

  void resize(int nthreads) {
    std::lock_guard<std::mutex> busy(caller_);  // not while another thread's job runs on the workers
    stop();
    nthreads_ = std::max(1, nthreads);
    claimed_.reset(new std::atomic<uint64_t>[static_cast<size_t>(nthreads_) * kChunksPerThread]());
    stopping_ = false;
    stopping_flag_.store(false);
    // nthreads_ - 1 workers: the calling thread does a share of every job
    // a new worker starts at the current generation: the jobs before it are over (their task_ is gone)
    for (int i = 1; i < nthreads_; ++i) workers_.emplace_back([this, i, gen = generation_] { worker(i, gen); });
  }

  // Runs task(i) for i in [0, ntasks) on the caller (thread 0) and the workers; waits for all.
  // ntasks <= size() * kChunksPerThread.
  void run(int ntasks, const std::function<void(int)>& task) {
    {
      std::lock_guard<std::mutex> lk(m_);
      task_ = &task;
      ntasks_ = ntasks;
      pending_.store(ntasks);
      ++generation_;
      published_.store(generation_, std::memory_order_release);
    }
    cv_.notify_all();
    tl_in_parallel = true;
    work_on(0, generation_, ntasks, task);
    tl_in_parallel = false;
    if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock<std::mutex> lk(m_);
      done_cv_.wait(lk, [this] { return pending_.load() == 0; });
    }
    std::lock_guard<std::mutex> lk(m_);
    task_ = nullptr;
  }

 private:
  // Task i belongs to thread i * size() / ntasks (contiguous runs, as at::parallel_for's static
  // chunks): a thread does its own tasks first, front to back, so the same thread reads the same part
  // of a tensor call after call (on this project's 2-vCPU VM no speed difference was measurable; on
  // machines with per-core or per-CCX caches this is OpenMP's reason for the static schedule). Then it
  // takes what another thread has not started, from the back of that thread's run: a worker that
  // wakes late (a busy machine) costs the caller only the pieces it never got to.
  int first_task(int thread, int ntasks) const {
    return static_cast<int>((static_cast<int64_t>(thread) * ntasks + nthreads_ - 1) / nthreads_);
  }

  void work_on(int self, uint64_t gen, int ntasks, const std::function<void(int)>& task) {
    for (int i = first_task(self, ntasks), e = first_task(self + 1, ntasks); i < e; ++i)
      if (claim(i, gen)) task(i), finish_one();
    for (int k = 1; k < nthreads_; ++k) {
      const int other = (self + k) % nthreads_;
      for (int i = first_task(other + 1, ntasks) - 1, b = first_task(other, ntasks); i >= b; --i)
        if (claim(i, gen)) task(i), finish_one();
    }
  }

  // Marks task i as taken by job `gen`; false when a thread already has it. Every task of a job is
  // taken before the job ends, so a late worker still holding an older generation finds each of its
  // indices at that generation or newer and takes nothing from a newer job.
  bool claim(int i, uint64_t gen) {
    std::atomic<uint64_t>& c = claimed_[i];
    uint64_t v = c.load(std::memory_order_relaxed);
    while (v < gen)
      if (c.compare_exchange_weak(v, gen, std::memory_order_acq_rel)) return true;
    return false;
  }

  // the last task's finisher wakes a sleeping caller (under the lock, so the caller cannot test the
  // count and then miss the notification)
  void finish_one() {
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lk(m_);
      done_cv_.notify_one();
    }
  }

  void worker(int self, uint64_t seen) {
    tl_in_parallel = true;
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
      work_on(self, seen, ntasks, *task);
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
  std::mutex caller_;
  std::vector<std::thread> workers_;
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int)>* task_ = nullptr;
  int ntasks_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> claimed_;  // per task: the last job (generation) that took it
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
  std::unique_lock<std::mutex> mine(p.caller(), std::try_to_lock);
  if (!mine.owns_lock()) {  // another thread's job has the pool (see Pool::caller)
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
