// host_exec.h: the CPU backend. parallel_for runs a site functor in an OpenMP loop; of the
// LaunchConfig it reads the block only, as the schedule: 0 (the default here) a static one,
// one contiguous range of items per thread; k > 0 chunks of k items handed out dynamically
// (every item is independent, so the result does not depend on it). The sweep's SIMD
// variant (simd_sweeps; fix/simd_sweep.h) is this backend's own. time_launches and
// device_identity serve the tuner, device_memory the memory report and the tuner's backups;
// Buffer<HostExec, T> is host memory; reduce_segments sums fixed-length segments in a
// fixed order (one segment per time slice), so reductions do not depend on the number
// of threads; IntervalTimer times intervals of queued work. For the halo exchange: Queue (an
// ordered stream of work; on the CPU every call completes before it returns), MessageBuffer (host
// memory that MPI sends from) and copy_async. The CUDA backend (cuda_exec.cuh) offers the same
// things.
#pragma once
#include "backend/launch_config.h"
#include "tuning/device_identity.h"
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gf {

struct HostExec {
  static constexpr const char* name = "cpu";
  static constexpr bool asynchronous = false;  // parallel_for returns when the work is done
  static constexpr bool device_memory = false; // buffers are host memory (no peer access)
  static constexpr bool lane_groups = false;   // one thread per site only (no warps)
  static constexpr bool simd_sweeps = true;    // sweeps of W sites at once (fix/simd_sweep.h)
};

// The static schedule, which calls without launch parameters get.
inline constexpr LaunchConfig host_static_schedule = {0, 0, -1};

template <class B = Bounds<>, class F>
void parallel_for(HostExec, std::int64_t n, const F& f,
                  const LaunchConfig& config = host_static_schedule) {
  if (config.block <= 0) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      f(i);
  } else {
    const int chunk = config.block;
#pragma omp parallel for schedule(dynamic, chunk)
    for (std::int64_t i = 0; i < n; ++i)
      f(i);
  }
}

// Items 0 .. n - 1 of `scalar`, W at a time: item i of `lanes` does the scalar items
// W i .. W i + W - 1, in parallel_for with config's schedule (a chunk of k items becomes k / W
// calls); the n % W items left go through `scalar`. The CPU's SIMD sweep and move use it.
template <int W, class Lanes, class Scalar>
void parallel_for_lanes(std::int64_t n, const Lanes& lanes, const Scalar& scalar,
                        const LaunchConfig& config) {
  const std::int64_t vectors = n / W;
  LaunchConfig schedule = config;
  if (schedule.block > 0) schedule.block = std::max(1, schedule.block / W);
  parallel_for(HostExec{}, vectors, lanes, schedule);
  for (std::int64_t i = vectors * W; i < n; ++i)
    scalar(i);
}

template <class B = Bounds<>, class F>
int resident_blocks(HostExec, const F&, const LaunchConfig&) {
  return 1;
}

template <class Exec, class T>
class Buffer;

template <class T>
class Buffer<HostExec, T> {
public:
  Buffer() = default;
  explicit Buffer(std::int64_t n) : v_(static_cast<std::size_t>(n)) {}
  T* data() { return v_.data(); }
  const T* data() const { return v_.data(); }
  std::int64_t size() const { return static_cast<std::int64_t>(v_.size()); }
  void upload(const T* host) { std::memcpy(v_.data(), host, v_.size() * sizeof(T)); }
  void download(T* host) const { std::memcpy(host, v_.data(), v_.size() * sizeof(T)); }
  // the same, in the order of the work launched on a stream (on the CPU all of it is done)
  void upload(const T* host, HostExec) { upload(host); }
  void download(T* host, HostExec) const { download(host); }

private:
  std::vector<T> v_;
};

// out[s] = sum_{i < len} values[s * len + i], summed in index order.
inline void reduce_segments(HostExec, const double* values, int segments, std::int64_t len,
                            double* out) {
#pragma omp parallel for schedule(static)
  for (int s = 0; s < segments; ++s) {
    double acc = 0;
    for (std::int64_t i = 0; i < len; ++i)
      acc += values[s * len + i];
    out[s] = acc;
  }
}

inline void synchronize(HostExec) {}

template <class T>
void copy_buffer(HostExec, T* dst, const T* src, std::int64_t n) {
  std::memcpy(dst, src, sizeof(T) * static_cast<std::size_t>(n));
}

// Seconds taken by `repeats` calls of run() (each launching on this backend), for the tuner.
template <class F>
double time_launches(HostExec, int repeats, const F& run) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r)
    run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

inline DeviceIdentity device_identity(HostExec) {
  return host_identity();
}

// Seconds of work between start() and stop(), summed over the intervals. On the CPU every
// call's work is done when it returns: the host's clock.
template <class Exec>
class IntervalTimer;

template <>
class IntervalTimer<HostExec> {
public:
  void start() { begin_ = std::chrono::steady_clock::now(); }
  void stop() {
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
  }
  double seconds() const { return seconds_; }

private:
  std::chrono::steady_clock::time_point begin_;
  double seconds_ = 0;
};

// The device's memory, bytes: in use (by every process on it) and free; on the CPU in use is
// -1 (not a device) and free unbounded.
struct DeviceMemory {
  std::int64_t used, free;
};
inline DeviceMemory device_memory(HostExec) {
  return {-1, INT64_MAX};
}

template <class Exec>
class Queue;

// How a Queue's work is ordered against the work on the default stream (the copies, launches
// and reductions given a default Exec): not at all (independent: the halo copies), or both ways
// (with_default: a solver's own stream, whose work waits for the default stream's and which the
// default stream's waits for, while the work of other such queues runs beside it).
enum class QueueOrder { independent, with_default };

template <>
class Queue<HostExec> {
public:
  explicit Queue(QueueOrder = QueueOrder::independent) {}
  HostExec exec() const { return {}; }
  void synchronize() const {}
};

// The queue's later work waits for the work e launched so far (on the CPU it is done).
inline void queue_waits_for(const Queue<HostExec>&, HostExec) {}
// Waits for the work e launched (on its stream alone; on the CPU it is done).
inline void synchronize_stream(HostExec) {}

inline void copy_async(const Queue<HostExec>&, void* dst, const void* src, std::int64_t bytes) {
  std::memcpy(dst, src, static_cast<std::size_t>(bytes));
}

// A handle that lets another process on the node map a device allocation (CUDA IPC; the
// functions that use it exist for device backends only, see cuda_exec.cuh).
struct PeerHandle {
  unsigned char bytes[64];
};

template <class Exec>
class MessageBuffer;

template <>
class MessageBuffer<HostExec> {
public:
  explicit MessageBuffer(std::int64_t bytes) : v_(static_cast<std::size_t>(bytes)) {}
  void* data() { return v_.data(); }

private:
  std::vector<unsigned char> v_;
};

} // namespace gf
