// state_bytes.h: backend buffers copied bitwise into and out of a checkpoint's bytes
// (Engine::save_state, DescentField::save_state). append_buffer adds a buffer's elements as
// stored (through the host where the buffer is device memory); take_buffer fills a buffer of
// its own length from position `at` of the bytes and returns the position after it, throwing
// Error where the bytes end first (a state saved by another engine).
#pragma once
#include "core/error.h"
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gf {

template <class Buf>
void append_buffer(std::vector<unsigned char>& out, const Buf& b) {
  using T = std::remove_const_t<std::remove_pointer_t<decltype(b.data())>>;
  std::vector<T> host(static_cast<std::size_t>(b.size()));
  b.download(host.data());
  const std::size_t at = out.size(), n = host.size() * sizeof(T);
  out.resize(at + n);
  std::memcpy(out.data() + at, host.data(), n);
}

template <class Buf>
std::size_t take_buffer(const std::vector<unsigned char>& in, std::size_t at, Buf& b) {
  using T = std::remove_const_t<std::remove_pointer_t<decltype(b.data())>>;
  std::vector<T> host(static_cast<std::size_t>(b.size()));
  const std::size_t n = host.size() * sizeof(T);
  if (at > in.size() || in.size() - at < n)
    throw Error("checkpoint state: fewer bytes than the engine's arrays (saved by an engine of "
                "other options or another slab)");
  std::memcpy(host.data(), in.data() + at, n);
  b.upload(host.data());
  return at + n;
}

} // namespace gf
