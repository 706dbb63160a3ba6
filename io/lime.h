// lime.h: the LIME container (the record layer of ILDG and SciDAC files).
//
// A LIME file is a sequence of records. Each record is a 144-byte big-endian header
//   uint32 magic 0x456789ab, uint16 version (1), uint16 flags (bit 15: message begin MB,
//   bit 14: message end ME), uint64 payload length, char[128] type (NUL-padded)
// followed by the payload, padded with zero bytes to a multiple of 8 bytes.
//
// Reading: list_lime_records walks the headers (reading 144 bytes per record, never the
// payloads) and throws gf::Error naming the file and the record for a bad magic number, an
// unsupported version, a header or payload running past the end of the file (truncated),
// an empty file, more than 65536 records, or a broken message structure: the first
// record and every record after one with the message-end flag must have the message-begin
// flag, no other record may have it, and the last record must end its message (a file cut
// between two records of a message, e.g. before its scidac-checksum, is truncated).
// Payloads are then read whole (XML records, at most 64 MiB) or by byte range (binary data).
// Writing: LimePlan lays records out one after another; the caller writes the large
// payloads itself at the offsets the plan gives (every rank its own part), and one rank
// writes the headers, the small payloads and the padding with write().
#pragma once
#include "io/parallel_file.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gf {

constexpr std::uint32_t lime_magic = 0x456789ab;
constexpr std::int64_t lime_header_bytes = 144;

struct LimeRecord {
  std::string type;
  std::int64_t header_offset = 0; // of the 144-byte header
  std::int64_t data_offset = 0;   // of the payload
  std::int64_t data_bytes = 0;    // payload length without padding
  bool message_begin = false;
  bool message_end = false;
};

// True where the file starts with the LIME magic number (false for a missing or short file).
bool is_lime_file(const std::string& path);
std::vector<LimeRecord> list_lime_records(const std::string& path);
// The first record of the given type, or nullptr.
const LimeRecord* find_lime_record(const std::vector<LimeRecord>& records, const std::string& type);
// A record's payload as text, trailing NUL bytes removed.
std::string read_lime_text(const std::string& path, const LimeRecord& record);
// The bytes [offset, offset + bytes) of a record's payload (checked against its length).
std::vector<unsigned char> read_lime_bytes(const std::string& path, const LimeRecord& record,
                                           std::int64_t offset, std::int64_t bytes);

class LimePlan {
public:
  // Appends a record holding `payload`; returns the payload's offset.
  std::int64_t add(const std::string& type, const std::string& payload, bool message_begin,
                   bool message_end);
  // Appends a record of `bytes` payload bytes that the caller writes at the returned offset.
  std::int64_t add_external(const std::string& type, std::int64_t bytes, bool message_begin,
                            bool message_end);
  // Writes every header, every payload given to add() and all padding.
  void write(SlabFileWriter& out) const;
  // The size of the whole file.
  std::int64_t size() const { return end_; }

private:
  struct Entry {
    std::string type;
    std::string payload;
    std::int64_t bytes;
    bool external;
    bool mb, me;
    std::int64_t header_offset;
  };
  std::vector<Entry> entries_;
  std::int64_t end_ = 0;
};

} // namespace gf
