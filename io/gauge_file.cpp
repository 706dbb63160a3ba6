#include "io/gauge_file.h"
#include "core/error.h"
#include "io/field_codec.h"
#include "io/hdf5_file.h"
#include "io/ildg.h"
#include "io/lime.h"
#include "io/milc.h"
#include "io/nersc.h"
#include "io/nersc_provenance.h"
#include "io/openqcd.h"
#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace gf {

namespace {

struct Named {
  FileFormat format;
  const char* name;
};
constexpr Named names[] = {{FileFormat::nersc, "nersc"},     {FileFormat::ildg, "ildg"},
                           {FileFormat::scidac, "scidac"},   {FileFormat::milc, "milc"},
                           {FileFormat::openqcd, "openqcd"}, {FileFormat::hdf5, "hdf5"}};

constexpr unsigned char hdf5_signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

bool hdf5_signature_at(std::ifstream& in, std::int64_t offset) {
  unsigned char b[8];
  in.clear();
  in.seekg(offset);
  return in.read(reinterpret_cast<char*>(b), 8) && std::memcmp(b, hdf5_signature, 8) == 0;
}

bool openqcd_sized(const unsigned char* h, std::int64_t file_bytes) {
  std::int64_t sites = 1;
  for (int k = 0; k < 4; ++k) {
    const auto n = static_cast<std::int32_t>(load_u32(h + 4 * k, false));
    if (n <= 0 || n > (1 << 24) || n % 2 != 0 || __builtin_mul_overflow(sites, n, &sites) ||
        sites > (std::int64_t(1) << 50))
      return false;
  }
  return file_bytes == openqcd_header_bytes + sites / 2 * 8 * 144;
}

} // namespace

const char* format_name(FileFormat f) {
  for (const Named& n : names)
    if (n.format == f) return n.name;
  return "unknown";
}

FileFormat parse_format(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  for (const Named& n : names)
    if (lower == n.name) return n.format;
  throw Error("unknown file format '" + name +
              "' (known: nersc, ildg, scidac, milc, openqcd, hdf5)");
}

FileFormat detect_format(const std::string& path) {
  std::error_code ec;
  const auto file_bytes = static_cast<std::int64_t>(std::filesystem::file_size(path, ec));
  if (ec) throw Error("gauge file '" + path + "': cannot open: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("gauge file '" + path + "': cannot open for reading");
  unsigned char h[64] = {};
  in.read(reinterpret_cast<char*>(h), sizeof h);
  const auto got = static_cast<std::int64_t>(in.gcount());

  const auto* text = reinterpret_cast<const char*>(h);
  const auto* first = std::find_if(
      text, text + got, [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
  if (text + got - first >= 12 && std::memcmp(first, "BEGIN_HEADER", 12) == 0)
    return FileFormat::nersc;
  if (got >= 4 && load_u32(h, true) == lime_magic)
    return find_lime_record(list_lime_records(path), "ildg-format") ? FileFormat::ildg
                                                                    : FileFormat::scidac;
  if (got >= 4 && (load_u32(h, false) == static_cast<std::uint32_t>(milc_magic) ||
                   load_u32(h, true) == static_cast<std::uint32_t>(milc_magic)))
    return FileFormat::milc;
  for (std::int64_t offset = 0; offset + 8 <= file_bytes; offset = offset == 0 ? 512 : 2 * offset)
    if (hdf5_signature_at(in, offset)) return FileFormat::hdf5;
  if (got >= openqcd_header_bytes && openqcd_sized(h, file_bytes)) return FileFormat::openqcd;
  throw Error(
      "gauge file '" + path +
      "': unknown format: no NERSC BEGIN_HEADER, LIME magic 456789ab, MILC magic 20103, HDF5 "
      "signature, or openQCD header whose lattice size matches the file size (" +
      std::to_string(file_bytes) + " bytes)");
}

HostField read_gauge_file(const std::string& path, const World& world, const ReadOptions& opt,
                          FileInfo* info) {
  switch (detect_format(path)) {
  case FileFormat::nersc:
    return read_nersc(path, world, opt, info);
  case FileFormat::ildg:
  case FileFormat::scidac:
    return read_ildg(path, world, opt, info);
  case FileFormat::milc:
    return read_milc(path, world, opt, info);
  case FileFormat::openqcd:
    return read_openqcd(path, world, opt, info);
  case FileFormat::hdf5:
    return read_hdf5(path, world, opt, info);
  }
  throw Error("gauge file '" + path + "': unknown format");
}

std::optional<long long> read_sequence_number(const std::string& path) {
  switch (detect_format(path)) {
  case FileFormat::nersc:
    return nersc_provenance(read_nersc_header(path).entries, path).sequence_number;
  case FileFormat::ildg:
  case FileFormat::scidac:
    return read_ildg_provenance(path).sequence_number;
  case FileFormat::hdf5:
    return read_hdf5_sequence_number(path);
  case FileFormat::milc:
  case FileFormat::openqcd:
    break;
  }
  return std::nullopt;
}

void write_gauge_file(const std::string& path, const HostField& slab, const WriteOptions& opt,
                      const World& world, const std::vector<std::string>& inputs) {
  switch (opt.format) {
  case FileFormat::nersc:
    return write_nersc(path, slab, opt, world, inputs);
  case FileFormat::ildg:
  case FileFormat::scidac:
    return write_ildg(path, slab, opt, world, inputs);
  case FileFormat::milc:
    return write_milc(path, slab, opt, world, inputs);
  case FileFormat::openqcd:
    return write_openqcd(path, slab, opt, world, inputs);
  case FileFormat::hdf5:
    return write_hdf5(path, slab, opt, world, inputs);
  }
  throw Error("output '" + path + "': unknown format");
}

} // namespace gf
