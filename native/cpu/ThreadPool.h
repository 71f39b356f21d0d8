// The intra-op thread pool (aten/src/ATen/ParallelNative.cpp, Parallel.h): persistent std::thread
// workers; parallel_for splits [begin, end) into at most num_threads chunks of at least grain_size
// elements, runs chunk 0 on the calling thread and the rest on the workers, and returns when all are
// done (kernels are synchronous). Like at::parallel_for, a range no larger than grain_size, or a call
// made from inside a parallel region, runs inline.
#pragma once
#include <cstdint>
#include <functional>

namespace glasstorch {

// at::internal::GRAIN_SIZE: below this many elements a pointwise op is not worth splitting.
constexpr int64_t GRAIN_SIZE = 32768;

void set_num_threads(int n);
int get_num_threads();
// The hardware's cores (std::thread::hardware_concurrency), the default thread count.
int default_num_threads();
bool in_parallel_region();

void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)>& f);

// parallel_for in up to kChunksPerThread pieces per thread (each at least grain_size): each thread
// takes its own contiguous run of pieces first, then the pieces another thread has not started (a
// worker that wakes late, on a busy machine, costs the caller only those instead of its fixed half).
// For work whose result does not depend on the split (pointwise rows, softmax rows, the sums' blocks).
constexpr int kChunksPerThread = 4;
void parallel_for_chunked(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)>& f);

}  // namespace glasstorch
