// fnv1a.h: the 64-bit FNV-1a hash of a string, for short stable names derived from longer text
// (the tune cache's file name, tuning/device_identity.cpp; hashed temporary names,
// io/temporary_name.cpp). Not for security: any change of the text changes the hash.
#pragma once
#include <cstdint>
#include <string>

namespace gf {

inline std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (const unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

} // namespace gf
