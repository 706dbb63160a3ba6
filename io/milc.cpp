#include "io/milc.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/parallel_file.h"
#include <algorithm>
#include <cmath>
#include <cstring>

namespace gf {

namespace {

constexpr std::int64_t words_per_site = 4 * 9 * 2;
constexpr std::int64_t site_bytes = 4 * words_per_site;

struct Sums {
  std::uint32_t s29 = 0, s31 = 0;
};

// Adds the words of sites [first, first + n) (global natural index) to s.
void add_sums(const unsigned char* p, std::int64_t first, std::int64_t n, bool big, Sums& s) {
  for (std::int64_t k = first * words_per_site; k < (first + n) * words_per_site; ++k, p += 4) {
    const std::uint32_t w = load_u32(p, big);
    s.s29 ^= rotate_left(w, static_cast<int>(k % 29));
    s.s31 ^= rotate_left(w, static_cast<int>(k % 31));
  }
}

std::string dims_text(const int d[4]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]) + "x" +
         std::to_string(d[3]);
}

} // namespace

HostField read_milc(const std::string& path, const World& world, const ReadOptions& opt,
                    FileInfo* info) {
  const std::string src = "MILC file '" + path + "'";
  const std::int64_t file_size = file_bytes(src, path);
  if (file_size < milc_header_bytes)
    throw Error(src + ": truncated file: " + std::to_string(file_size) +
                " bytes, the header alone needs " + std::to_string(milc_header_bytes));
  const std::vector<unsigned char> h = read_slab_bytes(path, 0, milc_header_bytes);
  bool big;
  if (load_u32(h.data(), false) == milc_magic)
    big = false;
  else if (load_u32(h.data(), true) == milc_magic)
    big = true;
  else
    throw Error(src + ": bad magic number " + hex32(load_u32(h.data(), false)) +
                " (little-endian reading): MILC v5 files start with 20103 in either byte order");
  int dims[4];
  std::int64_t extents[4];
  for (int k = 0; k < 4; ++k)
    extents[k] = static_cast<std::int32_t>(load_u32(h.data() + 4 + 4 * k, big));
  const std::int64_t sites = checked_sites(src, "dims", extents);
  std::copy(extents, extents + 4, dims);
  const auto* stamp = reinterpret_cast<const char*>(h.data() + 20);
  const std::string time_stamp(stamp, std::find(stamp, stamp + 64, '\0'));
  const auto order = static_cast<std::int32_t>(load_u32(h.data() + 84, big));
  if (order != 0)
    throw Error(src + ": order flag " + std::to_string(order) +
                " is not supported: only natural site order (0) is read, not site lists");
  const Sums stored{load_u32(h.data() + 88, big), load_u32(h.data() + 92, big)};
  const std::int64_t data_bytes = checked_product(src, sites, site_bytes);
  const std::int64_t expected = checked_sum(src, milc_header_bytes, data_bytes);
  if (file_size != expected)
    throw Error(src + ": size: the file has " + std::to_string(file_size) + " bytes, but dims " +
                dims_text(dims) + " need " + std::to_string(expected) + " (header 96 + data " +
                std::to_string(data_bytes) + "): " +
                (file_size < expected ? "truncated file" : "file too long") + " or wrong dims");

  HostField u = allocate_slab(src, dims, 3, 4, world);
  const std::int64_t v3 = u.geom.v3;
  Sums sums;
  bool finite = true;
  for (int t = 0; t < u.geom.nt; ++t) {
    const std::int64_t first = (u.geom.t0 + t) * v3;
    const std::vector<unsigned char> buf =
        read_slab_bytes(path, milc_header_bytes + first * site_bytes, v3 * site_bytes);
    add_sums(buf.data(), first, v3, big, sums);
    const unsigned char* p = buf.data();
    for (std::int64_t s = t * v3; s < (t + 1) * v3; ++s)
      for (int mu = 0; mu < 4; ++mu) {
        Complex<double>* m = u.matrix_data(s, mu);
        for (int k = 0; k < 9; ++k, p += 8) {
          m[k] = {load_real(p, 4, big), load_real(p + 4, 4, big)};
          finite = finite && std::isfinite(m[k].re) && std::isfinite(m[k].im);
        }
      }
  }
  sums.s29 = world.bit_xor(sums.s29);
  sums.s31 = world.bit_xor(sums.s31);
  if (sums.s29 != stored.s29 || sums.s31 != stored.s31)
    checksum_mismatch(src,
                      "checksum mismatch: stored sum29 " + hex32(stored.s29) + " sum31 " +
                          hex32(stored.s31) + ", computed from the data sum29 " + hex32(sums.s29) +
                          " sum31 " + hex32(sums.s31),
                      opt.checksum_warning_only, world);
  check_links(src, u, 4, finite, world, info);
  if (info) {
    info->format = FileFormat::milc;
    std::copy(dims, dims + 4, info->dims);
    info->big_endian = big;
    info->stored = {
        {"SUM29", hex32(stored.s29)}, {"SUM31", hex32(stored.s31)}, {"TIME_STAMP", time_stamp}};
    info->computed = {{"SUM29", hex32(sums.s29)}, {"SUM31", hex32(sums.s31)}};
  }
  return u;
}

void write_milc(const std::string& path, const HostField& slab, const WriteOptions& opt,
                const World& world, const std::vector<std::string>& inputs) {
  const std::string src = "MILC output '" + path + "'";
  if (slab.ndir != 4 || slab.nc != 3)
    throw Error(src + ": MILC v5 files hold SU(3) gauge fields only");
  if (opt.double_precision)
    throw Error(src + ": MILC v5 files hold single precision only: write them with precision 32");
  const auto order = opt.metadata.find("BYTE_ORDER");
  const std::string byte_order = order == opt.metadata.end() ? "little" : order->second;
  if (byte_order != "little" && byte_order != "big")
    throw Error(src + ": BYTE_ORDER '" + byte_order + "' (known: little, big)");
  const bool big = byte_order == "big";

  const std::int64_t v3 = slab.geom.v3;
  std::vector<unsigned char> data(static_cast<std::size_t>(slab.local_sites() * site_bytes));
  unsigned char* p = data.data();
  for (std::int64_t s = 0; s < slab.local_sites(); ++s)
    for (int mu = 0; mu < 4; ++mu)
      for (int k = 0; k < 9; ++k, p += 8) {
        store_real(slab.matrix_data(s, mu)[k].re, p, 4, big);
        store_real(slab.matrix_data(s, mu)[k].im, p + 4, 4, big);
      }
  Sums sums;
  add_sums(data.data(), slab.geom.t0 * v3, slab.local_sites(), big, sums);
  sums.s29 = world.bit_xor(sums.s29);
  sums.s31 = world.bit_xor(sums.s31);

  SlabFileWriter out(path, world, inputs);
  if (world.rank() == 0) {
    unsigned char h[milc_header_bytes] = {};
    store_u32(static_cast<std::uint32_t>(milc_magic), h, big);
    for (int k = 0; k < 4; ++k)
      store_u32(static_cast<std::uint32_t>(slab.geom.L[k]), h + 4 + 4 * k, big);
    const std::string date = utc_date(); // 64-byte time stamp field, NUL-padded
    std::memcpy(h + 20, date.data(), std::min<std::size_t>(date.size(), 63));
    store_u32(0, h + 84, big);
    store_u32(sums.s29, h + 88, big);
    store_u32(sums.s31, h + 92, big);
    out.write_at(0, h, milc_header_bytes);
  }
  out.write_at(milc_header_bytes + slab.geom.t0 * v3 * site_bytes, data.data(),
               static_cast<std::int64_t>(data.size()));
  out.commit();
}

} // namespace gf
