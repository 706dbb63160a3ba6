// milc.h: MILC version 5 binary gauge configuration files, read and written by time slab.
//
// Layout: a 96-byte header
//   int32 magic 20103 (its byte order is the file's), int32 dims[4] (x, y, z, t),
//   char time_stamp[64], int32 order (0: natural site order), uint32 sum29, uint32 sum31,
// then per site (x fastest, then y, z, t) the links mu = x, y, z, t, each a 3x3 complex
// single-precision matrix, row-major, (re, im).
// Checksums: with w_k the k-th 32-bit word of the data (k = 0 at the first byte after the
// header, byte order undone), sum29 is the XOR of w_k rotated left by k mod 29 and sum31
// the XOR of w_k rotated left by k mod 31.
//
// read_milc reads either byte order; each rank reads only its slab (decompose_time). It
// throws gf::Error naming the file and the check, in this order: header present (file at
// least 96 bytes), magic number, positive dims, order 0 (site lists are not supported),
// file size = 96 + 288 V (truncated, too long or wrong dims), sum29/sum31 (a mismatch is
// only a warning with checksum_warning_only), then check_links (field_codec.h; the
// single-precision links are always reunitarised: info.reunitarised). info: stored and
// computed SUM29, SUM31; stored TIME_STAMP.
//
// write_milc writes SU(3) in single precision only (opt.double_precision must be false),
// little-endian, or big-endian where opt.metadata["BYTE_ORDER"] is "big", through
// SlabFileWriter (every rank its own byte range of one file, renamed when complete).
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <string>
#include <vector>

namespace gf {

constexpr std::int32_t milc_magic = 20103;
constexpr std::int64_t milc_header_bytes = 96;

HostField read_milc(const std::string& path, const World& world, const ReadOptions& opt,
                    FileInfo* info);
void write_milc(const std::string& path, const HostField& slab, const WriteOptions& opt,
                const World& world, const std::vector<std::string>& inputs);

} // namespace gf
