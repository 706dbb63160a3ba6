// host_exec.h: the CPU backend. parallel_for runs a site functor in an OpenMP loop;
// Buffer<HostExec, T> is host memory; reduce_segments sums fixed-length segments in a
// fixed order (one segment per time slice), so reductions do not depend on the number
// of threads. The CUDA backend (cuda_exec.cuh) offers the same three things.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace gf {

struct HostExec {
  static constexpr const char* name = "cpu";
};

template <class F>
void parallel_for(HostExec, std::int64_t n, const F& f) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) f(i);
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

private:
  std::vector<T> v_;
};

// out[s] = sum_{i < len} values[s * len + i], summed in index order.
inline void reduce_segments(HostExec, const double* values, int segments, std::int64_t len,
                            double* out) {
#pragma omp parallel for schedule(static)
  for (int s = 0; s < segments; ++s) {
    double acc = 0;
    for (std::int64_t i = 0; i < len; ++i) acc += values[s * len + i];
    out[s] = acc;
  }
}

inline void synchronize(HostExec) {}

} // namespace gf
