#include "io/lime.h"
#include "core/error.h"
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace gf {

namespace {

constexpr std::int64_t type_bytes = 128;
constexpr std::size_t max_records = 1 << 16;
constexpr std::int64_t max_text_bytes = std::int64_t(64) << 20;

std::int64_t padded(std::int64_t bytes) {
  return (bytes + 7) / 8 * 8;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error("LIME file '" + path + "': " + what);
}

std::uint64_t load_be(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v = v << 8 | p[i];
  return v;
}

void store_be(std::uint64_t v, unsigned char* p, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8)
    p[i] = static_cast<unsigned char>(v & 0xff);
}

std::string header_bytes(const std::string& type, std::int64_t bytes, bool mb, bool me) {
  std::string h(lime_header_bytes, '\0');
  auto* p = reinterpret_cast<unsigned char*>(h.data());
  store_be(lime_magic, p, 4);
  store_be(1, p + 4, 2);
  store_be((mb ? 0x8000u : 0u) | (me ? 0x4000u : 0u), p + 6, 2);
  store_be(static_cast<std::uint64_t>(bytes), p + 8, 8);
  std::copy_n(type.begin(), std::min<std::size_t>(type.size(), type_bytes - 1), h.begin() + 16);
  return h;
}

} // namespace

bool is_lime_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char m[4];
  if (!in.read(reinterpret_cast<char*>(m), 4)) return false;
  return load_be(m, 4) == lime_magic;
}

std::vector<LimeRecord> list_lime_records(const std::string& path) {
  std::error_code ec;
  const auto file_bytes = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  if (ec) fail(path, "cannot open: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading");
  if (file_bytes == 0) fail(path, "the file is empty");

  std::vector<LimeRecord> records;
  for (std::int64_t pos = 0; pos < file_bytes;) {
    const std::string where =
        "record " + std::to_string(records.size()) + " at byte " + std::to_string(pos);
    if (pos + lime_header_bytes > file_bytes)
      fail(path, where + ": truncated file: " + std::to_string(file_bytes - pos) +
                     " bytes left, a record header needs " + std::to_string(lime_header_bytes));
    unsigned char h[lime_header_bytes];
    in.seekg(pos);
    if (!in.read(reinterpret_cast<char*>(h), lime_header_bytes)) fail(path, where + ": read error");
    const std::uint64_t magic = load_be(h, 4);
    if (magic != lime_magic) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%08llx", static_cast<unsigned long long>(magic));
      fail(path, where + ": bad magic number " + hex + " (LIME: 456789ab)");
    }
    const auto version = load_be(h + 4, 2);
    if (version != 1) fail(path, where + ": unsupported LIME version " + std::to_string(version));
    const std::uint64_t flags = load_be(h + 6, 2);
    const std::uint64_t length = load_be(h + 8, 8);
    LimeRecord r;
    const char* type = reinterpret_cast<const char*>(h + 16);
    r.type.assign(type, std::find(type, type + type_bytes, '\0'));
    r.header_offset = pos;
    r.data_offset = pos + lime_header_bytes;
    r.message_begin = flags & 0x8000;
    r.message_end = flags & 0x4000;
    if (length > static_cast<std::uint64_t>(file_bytes - r.data_offset))
      fail(path, where + " (" + r.type + "): truncated file: the payload of " +
                     std::to_string(length) + " bytes runs past the end of the file (" +
                     std::to_string(file_bytes) + " bytes)");
    r.data_bytes = static_cast<std::int64_t>(length);
    // Messages: a record after a message's end begins the next one, any other continues it.
    const bool begins = records.empty() || records.back().message_end;
    if (r.message_begin != begins)
      fail(path, where + " (" + r.type + "): message structure: " +
                     (begins ? "the record after a message's end lacks the message-begin flag"
                             : "a message-begin flag inside a message whose end is missing"));
    if (records.size() == max_records)
      fail(path, where + ": more than " + std::to_string(max_records) + " records");
    // The padding of the last record may be missing; anything else must be a whole record.
    pos = std::min(r.data_offset + padded(r.data_bytes), file_bytes);
    records.push_back(r);
  }
  if (!records.back().message_end)
    fail(path, "truncated file: the file ends inside a message: its last record " +
                   records.back().type + " lacks the message-end flag (records cut off after it)");
  return records;
}

const LimeRecord* find_lime_record(const std::vector<LimeRecord>& records,
                                   const std::string& type) {
  const auto it = std::find_if(records.begin(), records.end(),
                               [&](const LimeRecord& r) { return r.type == type; });
  return it == records.end() ? nullptr : &*it;
}

std::string read_lime_text(const std::string& path, const LimeRecord& record) {
  if (record.data_bytes > max_text_bytes)
    fail(path, "record " + record.type + ": " + std::to_string(record.data_bytes) +
                   " bytes, more than the " + std::to_string(max_text_bytes) +
                   " a text record may have");
  const std::vector<unsigned char> b = read_slab_bytes(path, record.data_offset, record.data_bytes);
  std::string s(b.begin(), b.end());
  while (!s.empty() && s.back() == '\0')
    s.pop_back();
  return s;
}

std::vector<unsigned char> read_lime_bytes(const std::string& path, const LimeRecord& record,
                                           std::int64_t offset, std::int64_t bytes) {
  if (offset < 0 || bytes < 0 || offset + bytes > record.data_bytes)
    fail(path, "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + bytes) +
                   ") lie outside the " + std::to_string(record.data_bytes) +
                   "-byte payload of record " + record.type);
  return read_slab_bytes(path, record.data_offset + offset, bytes);
}

std::int64_t LimePlan::add(const std::string& type, const std::string& payload, bool message_begin,
                           bool message_end) {
  entries_.push_back({type, payload, static_cast<std::int64_t>(payload.size()), false,
                      message_begin, message_end, end_});
  end_ += lime_header_bytes + padded(entries_.back().bytes);
  return entries_.back().header_offset + lime_header_bytes;
}

std::int64_t LimePlan::add_external(const std::string& type, std::int64_t bytes, bool message_begin,
                                    bool message_end) {
  entries_.push_back({type, "", bytes, true, message_begin, message_end, end_});
  end_ += lime_header_bytes + padded(bytes);
  return entries_.back().header_offset + lime_header_bytes;
}

void LimePlan::write(SlabFileWriter& out) const {
  for (const Entry& e : entries_) {
    std::string head = header_bytes(e.type, e.bytes, e.mb, e.me);
    const std::string pad(static_cast<std::size_t>(padded(e.bytes) - e.bytes), '\0');
    if (e.external) {
      out.write_at(e.header_offset, head.data(), lime_header_bytes);
      if (!pad.empty())
        out.write_at(e.header_offset + lime_header_bytes + e.bytes, pad.data(),
                     static_cast<std::int64_t>(pad.size()));
    } else {
      head += e.payload + pad;
      out.write_at(e.header_offset, head.data(), static_cast<std::int64_t>(head.size()));
    }
  }
}

} // namespace gf
