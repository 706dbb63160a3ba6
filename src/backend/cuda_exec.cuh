// cuda_exec.cuh: the CUDA backend, included only by .cu files. parallel_for launches a
// one-thread-per-item kernel running the same functor the CPU backend runs, on the
// CudaExec's stream (the legacy default stream unless a Queue gave one), with the launch
// parameters of a LaunchConfig (launch_config.h); resident_blocks asks the occupancy API
// whether such a launch is possible; time_launches and device_identity serve the tuner;
// Buffer<CudaExec, T> is device memory; reduce_segments sums each segment with one
// thread block in a fixed order (deterministic from run to run), reduce_segments_then runs
// the work that needs every sum in the same launch; launch_overlapping queues a kernel whose
// blocks may start while the kernel before it drains (wait_for_previous_kernel): every
// parallel_for and the reductions are launched so. Queue owns a stream: non-blocking for the
// halo exchange, or one ordered with the legacy default stream (QueueOrder::with_default: a
// solver's own, beside another's); MessageBuffer is pinned host memory (so that copies are
// asynchronous and MPI sends from it), copy_async is cudaMemcpyAsync on the queue;
// IntervalTimer times queued work with events.
#pragma once
#include "backend/host_exec.h"
#include "backend/launch_config.h"
#include "core/error.h"
#include <cuda_runtime.h>
#include <string>
#include <utility>
#include <vector>

namespace gf {

struct CudaExec {
  static constexpr const char* name = "cuda";
  static constexpr bool asynchronous = true; // parallel_for returns at once
  static constexpr bool device_memory = true;
  static constexpr bool lane_groups = true;  // several threads per site (lane_sum.h)
  static constexpr bool simd_sweeps = false; // the CPU's SIMD sweep (fix/simd_sweep.h)
  cudaStream_t stream = nullptr;
};

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

// Programmatic dependent launch (compute capability 9.0 and later): `kernel` is queued on
// `stream` so that its blocks may be scheduled while the kernel before it there drains, and
// its launch latency is hidden; every block of it must call wait_for_previous_kernel() before
// it reads what that kernel wrote (it returns once that kernel has finished and its writes are
// visible). The order of the work and its results are those of an ordinary launch; on older
// GPUs it is one.
template <class... Params, class... Args>
void launch_overlapping(void (*kernel)(Params...), unsigned blocks, unsigned threads,
                        cudaStream_t stream, const char* what, Args&&... args) {
  cudaLaunchAttribute overlap[1];
  overlap[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = stream;
  config.attrs = overlap;
  config.numAttrs = 1;
  cuda_check(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), what);
}

// In a kernel queued by launch_overlapping: waits until the kernel before it has finished.
__device__ inline void wait_for_previous_kernel() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

template <class F>
__global__ void parallel_for_kernel(std::int64_t n, F f) {
  wait_for_previous_kernel();
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

template <int MinBlocks, class F>
__global__ void __launch_bounds__(bounded_block_max, MinBlocks)
    bounded_for_kernel(std::int64_t n, F f) {
  wait_for_previous_kernel();
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

template <class F>
using ForKernel = void (*)(std::int64_t, F);

// The compiled instance for c.min_blocks among Bounds<M...> (0: the unbounded kernel).
template <class F, int... M>
ForKernel<F> select_for_kernel(Bounds<M...>, const LaunchConfig& c) {
  ForKernel<F> k = c.min_blocks == 0 ? parallel_for_kernel<F> : nullptr;
  ((c.min_blocks == M ? (k = bounded_for_kernel<M, F>) : k), ...);
  if (!k || (c.min_blocks != 0 && c.block > bounded_block_max))
    throw Error("no compiled kernel instance for " + std::to_string(c.block) + " threads and " +
                std::to_string(c.min_blocks) + " blocks per SM");
  return k;
}

template <class B = Bounds<>, class F>
void parallel_for(CudaExec e, std::int64_t n, const F& f, const LaunchConfig& c = {}) {
  if (n == 0) return;
  const ForKernel<F> k = select_for_kernel<F>(B{}, c);
  cuda_check(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, c.carveout),
             "cudaFuncSetAttribute (carve-out)");
  const std::int64_t blocks = (n + c.block - 1) / c.block;
  launch_overlapping(k, static_cast<unsigned>(blocks), static_cast<unsigned>(c.block), e.stream,
                     "kernel launch", n, f);
}

// Blocks of the launch resident per SM (the occupancy API); 0: it cannot be launched.
template <class B = Bounds<>, class F>
int resident_blocks(CudaExec, const F&, const LaunchConfig& c) {
  ForKernel<F> k;
  try {
    k = select_for_kernel<F>(B{}, c);
  } catch (const Error&) {
    return 0;
  }
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, c.block, 0) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return blocks;
}

template <class T>
class Buffer<CudaExec, T> {
public:
  Buffer() = default;
  explicit Buffer(std::int64_t n) : n_(n) {
    cuda_check(cudaMalloc(&p_, sizeof(T) * static_cast<std::size_t>(n)), "cudaMalloc");
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : p_(o.p_), n_(o.n_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~Buffer() {
    if (p_) cudaFree(p_);
  }
  T* data() { return p_; }
  const T* data() const { return p_; }
  std::int64_t size() const { return n_; }
  void upload(const T* host) {
    cuda_check(cudaMemcpy(p_, host, sizeof(T) * n_, cudaMemcpyHostToDevice), "upload");
  }
  void download(T* host) const {
    cuda_check(cudaMemcpy(host, p_, sizeof(T) * n_, cudaMemcpyDeviceToHost), "download");
  }
  // The same in the order of e's stream, each returning once its copy is done (and the stream's
  // work before it), neither waiting for the work of other streams.
  void upload(const T* host, CudaExec e) {
    cuda_check(cudaMemcpyAsync(p_, host, sizeof(T) * n_, cudaMemcpyHostToDevice, e.stream),
               "upload");
    cuda_check(cudaStreamSynchronize(e.stream), "upload");
  }
  void download(T* host, CudaExec e) const {
    cuda_check(cudaMemcpyAsync(host, p_, sizeof(T) * n_, cudaMemcpyDeviceToHost, e.stream),
               "download");
    cuda_check(cudaStreamSynchronize(e.stream), "download");
  }

private:
  T* p_ = nullptr;
  std::int64_t n_ = 0;
};

constexpr int reduce_block_size = 256;

void reduce_segments(CudaExec, const double* values, int segments, std::int64_t len, double* out);

// The sum of segment blockIdx.x (`len` values from `values`), on thread 0 of a block of
// reduce_block_size threads: each thread adds every reduce_block_size-th value, then a tree in
// shared memory. The one order of reduce_segments and reduce_segments_then.
__device__ inline double segment_sum(const double* values, std::int64_t len) {
  __shared__ double partial[reduce_block_size];
  const double* seg = values + blockIdx.x * len;
  double acc = 0;
  for (std::int64_t i = threadIdx.x; i < len; i += reduce_block_size)
    acc += seg[i];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int s = reduce_block_size / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  return partial[0];
}

template <class Each, class Step>
__global__ void reduce_segments_then_kernel(const double* values, std::int64_t len, double* out,
                                            unsigned* done, int items, Each each, Step step) {
  __shared__ bool last;
  wait_for_previous_kernel();
  const double sum = segment_sum(values, len);
  if (threadIdx.x == 0) {
    out[blockIdx.x] = sum;
    __threadfence(); // the sum is visible before the count that says so
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int k = threadIdx.x; k < items; k += blockDim.x)
    each(k);
  __syncthreads();
  if (threadIdx.x == 0) {
    step(0);
    *done = 0;
  }
}

// The segments' sums as reduce_segments gives them, into `out` in device memory, then in the
// same launch, once every sum is there: each(k) for k < items (threads of one block), then
// step(0) (one thread). Queued on e's stream behind the work before it (launch_overlapping),
// no copy to the host and no wait: a pass's sums, totals and scalar step in one launch
// (measure/ghost_cg.h). `done`: the caller's device counter of the blocks that are done, 0
// before the first launch and left 0 by each; one launch at a time may use it.
template <class Each, class Step>
void reduce_segments_then(CudaExec e, const double* values, int segments, std::int64_t len,
                          double* out, unsigned* done, int items, const Each& each,
                          const Step& step) {
  launch_overlapping(reduce_segments_then_kernel<Each, Step>, static_cast<unsigned>(segments),
                     reduce_block_size, e.stream, "reduce_segments_then", values, len, out, done,
                     items, each, step);
}

inline void synchronize(CudaExec) {
  cuda_check(cudaDeviceSynchronize(), "synchronize");
}

// Device-to-device copy of n elements on e's stream.
template <class T>
void copy_buffer(CudaExec e, T* dst, const T* src, std::int64_t n) {
  cuda_check(cudaMemcpyAsync(dst, src, sizeof(T) * static_cast<std::size_t>(n),
                             cudaMemcpyDeviceToDevice, e.stream),
             "cudaMemcpyAsync (backup)");
}

// Seconds taken by `repeats` calls of run() launching on e's stream, timed with CUDA events.
template <class F>
double time_launches(CudaExec e, int repeats, const F& run) {
  cudaEvent_t begin, end;
  cuda_check(cudaEventCreate(&begin), "cudaEventCreate");
  cuda_check(cudaEventCreate(&end), "cudaEventCreate");
  cuda_check(cudaEventRecord(begin, e.stream), "cudaEventRecord");
  for (int r = 0; r < repeats; ++r)
    run();
  cuda_check(cudaEventRecord(end, e.stream), "cudaEventRecord");
  cuda_check(cudaEventSynchronize(end), "cudaEventSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  return 1e-3 * ms;
}

// Intervals of the work queued on the legacy default stream, timed by CUDA events recorded
// there: start() and stop() add no wait for the device. An interval's seconds are read once
// its end has run: at a later start() if it has, else in seconds(), which waits for it.
template <>
class IntervalTimer<CudaExec> {
public:
  IntervalTimer() = default;
  IntervalTimer(const IntervalTimer&) = delete;
  IntervalTimer& operator=(const IntervalTimer&) = delete;
  ~IntervalTimer() {
    for (const Marks& m : pending_)
      destroy(m);
    for (const Marks& m : spare_)
      destroy(m);
  }
  void start() {
    read(false);
    if (spare_.empty()) {
      Marks m;
      cuda_check(cudaEventCreate(&m.begin), "cudaEventCreate");
      cuda_check(cudaEventCreate(&m.end), "cudaEventCreate");
      spare_.push_back(m);
    }
    pending_.push_back(spare_.back());
    spare_.pop_back();
    cuda_check(cudaEventRecord(pending_.back().begin, nullptr), "cudaEventRecord");
  }
  void stop() { cuda_check(cudaEventRecord(pending_.back().end, nullptr), "cudaEventRecord"); }
  double seconds() const {
    read(true);
    return seconds_;
  }

private:
  struct Marks {
    cudaEvent_t begin, end;
  };
  static void destroy(const Marks& m) {
    cudaEventDestroy(m.begin);
    cudaEventDestroy(m.end);
  }
  // Adds the intervals whose ends have run, in order (wait: every interval's).
  void read(bool wait) const {
    std::size_t done = 0;
    for (; done < pending_.size(); ++done) {
      const Marks& m = pending_[done];
      if (wait)
        cuda_check(cudaEventSynchronize(m.end), "cudaEventSynchronize");
      else if (cudaEventQuery(m.end) == cudaErrorNotReady)
        break;
      float ms = 0;
      cuda_check(cudaEventElapsedTime(&ms, m.begin, m.end), "cudaEventElapsedTime");
      seconds_ += 1e-3 * ms;
      spare_.push_back(m);
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
  }
  mutable std::vector<Marks> pending_, spare_;
  mutable double seconds_ = 0;
};

// The identity of the current device (the tune cache's key).
DeviceIdentity device_identity(CudaExec);
// The current device's memory (host_exec.h's DeviceMemory).
DeviceMemory device_memory(CudaExec);

template <>
class Queue<CudaExec> {
public:
  explicit Queue(QueueOrder order = QueueOrder::independent) {
    const unsigned flags =
        order == QueueOrder::independent ? cudaStreamNonBlocking : cudaStreamDefault;
    cuda_check(cudaStreamCreateWithFlags(&s_, flags), "cudaStreamCreate");
  }
  ~Queue() { cudaStreamDestroy(s_); }
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
  CudaExec exec() const { return CudaExec{s_}; }
  void synchronize() const { cuda_check(cudaStreamSynchronize(s_), "cudaStreamSynchronize"); }

private:
  cudaStream_t s_ = nullptr;
};

// The queue's later work waits for the work e launched so far (an event on e's stream).
inline void queue_waits_for(const Queue<CudaExec>& q, CudaExec e) {
  cudaEvent_t done;
  cuda_check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
  cuda_check(cudaEventRecord(done, e.stream), "cudaEventRecord");
  cuda_check(cudaStreamWaitEvent(q.exec().stream, done, 0), "cudaStreamWaitEvent");
  cudaEventDestroy(done); // released once the wait is done
}
// Waits for the work e launched on its stream (not the other streams').
inline void synchronize_stream(CudaExec e) {
  cuda_check(cudaStreamSynchronize(e.stream), "cudaStreamSynchronize");
}

inline void copy_async(const Queue<CudaExec>& q, void* dst, const void* src, std::int64_t bytes) {
  cuda_check(cudaMemcpyAsync(dst, src, static_cast<std::size_t>(bytes), cudaMemcpyDefault,
                             q.exec().stream),
             "cudaMemcpyAsync (halo)");
}

// Peer access between processes on one node (CUDA IPC; PeerHandle in host_exec.h): a handle to a
// cudaMalloc allocation, sent to another process, which maps it and copies into it directly (over
// NVLink where the GPUs have it). open_peer_memory returns nullptr where the handle
// cannot be opened (another node, GPUs not visible to each other).
static_assert(sizeof(PeerHandle) == sizeof(cudaIpcMemHandle_t));
PeerHandle export_peer_memory(CudaExec, void* allocation);
void* open_peer_memory(CudaExec, const PeerHandle& h);
void close_peer_memory(CudaExec, void* mapped);

template <>
class MessageBuffer<CudaExec> {
public:
  explicit MessageBuffer(std::int64_t bytes) {
    cuda_check(cudaMallocHost(&p_, static_cast<std::size_t>(bytes)), "cudaMallocHost");
  }
  ~MessageBuffer() { cudaFreeHost(p_); }
  MessageBuffer(const MessageBuffer&) = delete;
  MessageBuffer& operator=(const MessageBuffer&) = delete;
  void* data() { return p_; }

private:
  void* p_ = nullptr;
};

} // namespace gf
