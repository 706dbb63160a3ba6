#include "io/transform_file.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/hdf5_dataset.h"
#include "io/lime.h"
#include "io/parallel_file.h"
#include "io/transform_lime.h"
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace gf {

namespace {

const std::string transform_dataset = "/gauge/transform";
constexpr char magic[8] = {'G', 'F', 'G', 'T', 'R', 'A', 'N', 'S'};
constexpr char hdf5_signature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
constexpr std::uint32_t byte_order_mark = 0x01020304;
constexpr std::uint32_t version = 1;
constexpr std::int64_t header_bytes = 64;
constexpr std::int64_t sites_per_chunk = 4096;
constexpr std::int64_t max_text_bytes = std::int64_t(64) << 20;

std::string name_of(const std::string& path) {
  return "transform file '" + path + "'";
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(name_of(path) + ": " + what);
}

std::uint32_t word_at(const unsigned char* header, int offset, bool swap) {
  std::uint32_t w;
  std::memcpy(&w, header + offset, 4);
  return swap ? __builtin_bswap32(w) : w;
}

void put_word(unsigned char* header, int offset, std::uint32_t w) {
  std::memcpy(header + offset, &w, 4);
}

std::uint32_t word_sum(const Complex<double>* z, std::size_t n) {
  std::uint32_t sum = 0;
  for (std::size_t k = 0; k < n; ++k)
    for (const double v : {z[k].re, z[k].im}) {
      const auto w = std::bit_cast<std::uint64_t>(v);
      sum += static_cast<std::uint32_t>(w) + static_cast<std::uint32_t>(w >> 32);
    }
  return sum;
}

void check_metadata(const std::string& path, const std::map<std::string, std::string>& metadata) {
  for (const auto& [key, value] : metadata)
    if (key.empty() || key.find_first_of("=\r\n", 0) != std::string::npos ||
        key.find('\0') != std::string::npos || value.find_first_of("\r\n") != std::string::npos ||
        value.find('\0') != std::string::npos)
      fail(path, "output: metadata key '" + key +
                     "' is empty, or the key or its value holds '=', a line break or NUL");
}

std::string metadata_text(const std::map<std::string, std::string>& metadata) {
  std::string text;
  for (const auto& [key, value] : metadata)
    text += key + " = " + value + "\n";
  return text;
}

std::map<std::string, std::string> parse_metadata(const std::string& path,
                                                  const std::string& text) {
  std::map<std::string, std::string> metadata;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t nl = text.find('\n', pos);
    const std::size_t eq = text.find(" = ", pos);
    if (nl == std::string::npos || eq == std::string::npos || eq > nl)
      fail(path, "metadata: line '" + text.substr(pos, std::min(nl, text.size()) - pos) +
                     "' is not 'key = value'");
    metadata[text.substr(pos, eq - pos)] = text.substr(eq + 3, nl - eq - 3);
    pos = nl + 1;
  }
  return metadata;
}

void write_binary(const std::string& path, const HostField& g,
                  const std::map<std::string, std::string>& metadata, const World& world,
                  const std::vector<std::string>& inputs) {
  std::string text = metadata_text(metadata);
  world.broadcast(text, 0);
  const std::uint32_t checksum = world.sum_mod32(word_sum(g.data.data(), g.data.size()));
  const std::int64_t site_bytes = std::int64_t(g.nc) * g.nc * 16;

  SlabFileWriter file(path, world, inputs);
  if (world.rank() == 0) {
    std::vector<unsigned char> header(std::size_t(header_bytes) + text.size(), 0);
    std::memcpy(header.data(), magic, 8);
    put_word(header.data(), 8, byte_order_mark);
    put_word(header.data(), 12, version);
    put_word(header.data(), 16, std::uint32_t(g.nc));
    put_word(header.data(), 20, 8);
    for (int k = 0; k < 4; ++k)
      put_word(header.data(), 24 + 4 * k, std::uint32_t(g.geom.L[k]));
    put_word(header.data(), 40, checksum);
    put_word(header.data(), 44, std::uint32_t(text.size()));
    std::memcpy(header.data() + header_bytes, text.data(), text.size());
    file.write_at(0, header.data(), std::int64_t(header.size()));
  }
  const std::int64_t first_site = std::int64_t(g.geom.t0) * g.geom.v3;
  file.write_at(header_bytes + std::int64_t(text.size()) + first_site * site_bytes, g.data.data(),
                g.local_sites() * site_bytes);
  file.commit();
}

struct BinaryHeader {
  bool swap = false;
  int nc = 3;
  int L[4] = {0, 0, 0, 0};
  std::uint32_t checksum = 0;
  std::int64_t text_bytes = 0;
};

BinaryHeader read_binary_header(const std::string& path, std::int64_t file_bytes) {
  if (file_bytes < header_bytes)
    fail(path, "header: the file has " + std::to_string(file_bytes) + " bytes, less than the " +
                   std::to_string(header_bytes) + "-byte header (truncated file)");
  const std::vector<unsigned char> b = read_slab_bytes(path, 0, header_bytes);
  if (std::memcmp(b.data(), magic, 8) != 0)
    fail(path, "magic: the file does not start with GFGTRANS");
  BinaryHeader h;
  const std::uint32_t mark = word_at(b.data(), 8, false);
  if (mark != byte_order_mark && mark != __builtin_bswap32(byte_order_mark))
    fail(path, "byte-order mark: " + std::to_string(mark) + " is neither byte order of 0x01020304");
  h.swap = mark != byte_order_mark;
  if (const std::uint32_t v = word_at(b.data(), 12, h.swap); v != version)
    fail(path, "version: " + std::to_string(v) + ", this program reads version 1");
  const std::uint32_t nc = word_at(b.data(), 16, h.swap);
  if (nc != 2 && nc != 3) fail(path, "N = " + std::to_string(nc) + ", expected 2 or 3");
  h.nc = int(nc);
  if (const std::uint32_t bytes = word_at(b.data(), 20, h.swap); bytes != 8)
    fail(path, "precision: " + std::to_string(bytes) + " bytes per real, expected 8 (64-bit)");
  std::int64_t extents[4];
  for (int k = 0; k < 4; ++k)
    extents[k] = word_at(b.data(), 24 + 4 * k, h.swap);
  const std::int64_t sites = checked_sites(name_of(path), "lattice", extents);
  std::copy(extents, extents + 4, h.L);
  h.checksum = word_at(b.data(), 40, h.swap);
  h.text_bytes = word_at(b.data(), 44, h.swap);
  if (h.text_bytes > max_text_bytes)
    fail(path, "metadata: " + std::to_string(h.text_bytes) + " bytes, more than the " +
                   std::to_string(max_text_bytes) + " allowed");
  const std::int64_t data_bytes =
      checked_product(name_of(path), sites, std::int64_t(h.nc) * h.nc * 16);
  const std::int64_t expected = checked_sum(name_of(path), header_bytes + h.text_bytes, data_bytes);
  if (file_bytes != expected)
    fail(path, "size: the file has " + std::to_string(file_bytes) + " bytes, but the header (" +
                   std::to_string(h.L[0]) + "x" + std::to_string(h.L[1]) + "x" +
                   std::to_string(h.L[2]) + "x" + std::to_string(h.L[3]) + ", SU(" +
                   std::to_string(h.nc) + "), " + std::to_string(h.text_bytes) +
                   " bytes of metadata) needs " + std::to_string(expected) + ": " +
                   (file_bytes < expected ? "truncated file" : "file too long"));
  return h;
}

HostField read_binary(const std::string& path, std::int64_t file_bytes, const World& world,
                      TransformInfo* info) {
  const BinaryHeader h = read_binary_header(path, file_bytes);
  const std::vector<unsigned char> text = read_slab_bytes(path, header_bytes, h.text_bytes);
  const std::map<std::string, std::string> metadata =
      parse_metadata(path, std::string(text.begin(), text.end()));

  HostField g = allocate_slab(name_of(path), h.L, h.nc, 1, world);
  const std::int64_t site_bytes = std::int64_t(h.nc) * h.nc * 16;
  const std::int64_t data_offset =
      header_bytes + h.text_bytes + std::int64_t(g.geom.t0) * g.geom.v3 * site_bytes;
  std::uint32_t local_sum = 0;
  bool finite = true;
  for (std::int64_t first = 0; first < g.local_sites(); first += sites_per_chunk) {
    const std::int64_t n = std::min(sites_per_chunk, g.local_sites() - first);
    std::vector<unsigned char> buf =
        read_slab_bytes(path, data_offset + first * site_bytes, n * site_bytes);
    if (h.swap)
      for (std::size_t k = 0; k < buf.size(); k += 8)
        std::reverse(&buf[k], &buf[k] + 8);
    Complex<double>* out = g.matrix_data(first, 0);
    std::memcpy(out, buf.data(), buf.size());
    const std::size_t count = buf.size() / sizeof(Complex<double>);
    local_sum += word_sum(out, count);
    finite = finite && std::all_of(out, out + count, [](const Complex<double>& z) {
               return std::isfinite(z.re) && std::isfinite(z.im);
             });
  }
  const std::uint32_t checksum = world.sum_mod32(local_sum);
  if (checksum != h.checksum)
    fail(path, "checksum mismatch: header " + std::to_string(h.checksum) +
                   ", computed from the data " + std::to_string(checksum));
  if (world.any(!finite))
    fail(path,
         "unitarity: g(x) not in SU(" + std::to_string(h.nc) + "): the data holds NaN or Inf");
  const double deviation = check_in_su_n(name_of(path), g, 8, world);
  if (info) {
    *info = TransformInfo{};
    info->format = TransformFormat::binary;
    info->metadata = metadata;
    info->checksum = checksum;
    info->stored = {{"checksum", std::to_string(h.checksum)}};
    info->computed = {{"checksum", std::to_string(checksum)}};
    info->unitarity_deviation = deviation;
  }
  return g;
}

HostField read_hdf5_transform(const std::string& path, const World& world, TransformInfo* info,
                              bool checksum_warning_only) {
  Hdf5FieldData d = read_field_dataset(path, transform_dataset, 1, world, checksum_warning_only);
  const std::string file = "HDF5 file '" + path + "'";
  if (d.bytes_per_real != 8)
    throw Error(file + ": datatype: " + transform_dataset +
                " holds 32-bit floats, expected 64-bit");
  const double deviation = check_in_su_n(file, d.field, 8, world);
  if (info) {
    *info = TransformInfo{};
    info->format = TransformFormat::hdf5;
    info->metadata = {d.attributes.begin(), d.attributes.end()};
    info->checksum = d.stored_checksum;
    info->stored = {{"checksum", std::to_string(d.stored_checksum)}};
    info->computed = {{"checksum", std::to_string(d.computed_checksum)}};
    info->unitarity_deviation = deviation;
  }
  return std::move(d.field);
}

} // namespace

TransformFormat parse_transform_format(const std::string& name) {
  if (name == "binary") return TransformFormat::binary;
  if (name == "hdf5") return TransformFormat::hdf5;
  if (name == "lime") return TransformFormat::lime;
  throw Error("transform format '" + name + "': expected binary, hdf5 or lime");
}

const char* transform_format_name(TransformFormat f) {
  switch (f) {
  case TransformFormat::binary:
    return "binary";
  case TransformFormat::hdf5:
    return "hdf5";
  case TransformFormat::lime:
    return "lime";
  }
  return "unknown";
}

std::optional<TransformFormat> detect_transform_format(const std::string& path) {
  // its kind is not known yet: the file is named as a file, not as a transform file
  const std::int64_t size = file_bytes("file '" + path + "'", path);
  const std::vector<unsigned char> start =
      read_slab_bytes(path, 0, std::min<std::int64_t>(size, 8));
  if (start.size() == 8 && std::memcmp(start.data(), magic, 8) == 0) return TransformFormat::binary;
  if (is_lime_file(path))
    return is_lime_transform(path) ? std::optional(TransformFormat::lime) : std::nullopt;
  if (hdf5_has_dataset(path, transform_dataset)) return TransformFormat::hdf5;
  return std::nullopt;
}

void write_transform(const std::string& path, const HostField& slab_g, TransformFormat format,
                     const std::map<std::string, std::string>& metadata, const World& world,
                     const std::vector<std::string>& inputs) {
  if (slab_g.ndir != 1 || (slab_g.nc != 2 && slab_g.nc != 3))
    fail(path, "output: needs a gauge transformation (one matrix per site) with N = 2 or 3");
  if (world.sum(slab_g.local_sites()) != slab_g.geom.global_volume())
    fail(path, "output: the slabs of the ranks do not make up the lattice");
  check_metadata(path, metadata);
  if (format == TransformFormat::hdf5) {
    Hdf5Attributes attributes;
    attributes.strings = metadata;
    write_field_dataset(path, transform_dataset, slab_g, 8, attributes, world, inputs);
  } else if (format == TransformFormat::lime) {
    write_transform_lime(path, slab_g, metadata, world, inputs);
  } else {
    write_binary(path, slab_g, metadata, world, inputs);
  }
}

HostField read_transform(const std::string& path, const World& world, TransformInfo* info,
                         bool checksum_warning_only) {
  // its kind is not known yet: the file is named as a file, not as a transform file
  const std::int64_t size = file_bytes("file '" + path + "'", path);
  const std::vector<unsigned char> start =
      read_slab_bytes(path, 0, std::min<std::int64_t>(size, 8));
  HostField g;
  if (start.size() == 8 && std::memcmp(start.data(), hdf5_signature, 8) == 0) {
    g = read_hdf5_transform(path, world, info, checksum_warning_only);
  } else if (is_lime_file(path)) {
    LimeTransformInfo li;
    g = read_transform_lime(path, world, checksum_warning_only, &li);
    if (info) {
      *info = TransformInfo{};
      info->format = TransformFormat::lime;
      info->metadata = li.metadata;
      info->stored = li.stored;
      info->computed = li.computed;
      info->bytes_per_real = li.bytes_per_real;
      info->unitarity_deviation = li.unitarity_deviation;
      info->reunitarised = li.reunitarised;
    }
  } else {
    g = read_binary(path, size, world, info);
  }
  if (info) {
    std::copy(g.geom.L, g.geom.L + 4, info->dims);
    info->nc = g.nc;
  }
  return g;
}

} // namespace gf
