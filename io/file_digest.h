// file_digest.h: what a written file is, to recognise it later (the journal of a batch run,
// app/journal.h): its size and the CRC-32 (zlib) of its bytes.
// file_digest(path, world) is collective: the file is cut into one byte range per rank (the
// first size mod ranks ranks one byte more), each rank reads and checksums its range, and the
// CRC-32 of the whole file is combined in rank order (crc32_combine), so every rank returns
// the same digest whatever the number of ranks. A missing or unreadable file gives
// nullopt on every rank (the ranks agree), never an exception.
// digest_text / parse_digest_crc: the CRC-32 as 8 lower-case hex digits and back.
#pragma once
#include "comm/world.h"
#include <cstdint>
#include <optional>
#include <string>

namespace gf {

struct FileDigest {
  std::int64_t bytes = 0;
  std::uint32_t crc32 = 0;
  bool operator==(const FileDigest&) const = default;
};

std::optional<FileDigest> file_digest(const std::string& path, const World& world);
std::string crc32_text(std::uint32_t crc);
std::optional<std::uint32_t> parse_crc32(const std::string& text);

} // namespace gf
