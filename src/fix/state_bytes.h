// state_bytes.h: backend buffers copied bitwise into and out of a checkpoint's bytes
// (Engine::save_state, DescentField::save_state). append_buffer adds a buffer's elements as
// stored (through the host where the buffer is device memory); take_buffer fills a buffer of
// its own length from position `at` of the bytes and returns the position after it, throwing
// Error where the bytes end first (a state saved by another engine). append_bytes and
// take_bytes do the same for n bytes of host memory.
#pragma once
#include "core/error.h"
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gf {

inline void append_bytes(std::vector<unsigned char>& out, const void* p, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  std::memcpy(out.data() + at, p, n);
}

inline std::size_t take_bytes(const std::vector<unsigned char>& in, std::size_t at, void* p,
                              std::size_t n) {
  if (at > in.size() || in.size() - at < n)
    throw Error("checkpoint state: fewer bytes than the engine's arrays (saved by an engine of "
                "other options or another slab)");
  std::memcpy(p, in.data() + at, n);
  return at + n;
}

template <class Buf>
void append_buffer(std::vector<unsigned char>& out, const Buf& b) {
  using T = std::remove_const_t<std::remove_pointer_t<decltype(b.data())>>;
  std::vector<T> host(static_cast<std::size_t>(b.size()));
  b.download(host.data());
  append_bytes(out, host.data(), host.size() * sizeof(T));
}

template <class Buf>
std::size_t take_buffer(const std::vector<unsigned char>& in, std::size_t at, Buf& b) {
  using T = std::remove_const_t<std::remove_pointer_t<decltype(b.data())>>;
  std::vector<T> host(static_cast<std::size_t>(b.size()));
  at = take_bytes(in, at, host.data(), host.size() * sizeof(T));
  b.upload(host.data());
  return at;
}

} // namespace gf
