// transform_lime.h: a gauge transformation g(x) as a SciDAC (QIO) LIME file (scidac.h): one
// field of QDP_D<N>_ColorMatrix, the record QIO-based codes (Chroma, MILC, QDP++) read a
// LatticeColorMatrix from:
//   scidac-private-file-xml   dims Lx Ly Lz Lt, volfmt 0
//   scidac-file-xml           <gaugefix> with the metadata as <meta name="key">value</meta>
//   scidac-private-record-xml datatype QDP_D<N>_ColorMatrix, precision D, colors N,
//                             typesize 16 N^2, datacount 1
//   scidac-record-xml         <gaugefix>
//   scidac-binary-data        g(x) big-endian, x fastest, then y, z, t; per site the N x N
//                             complex matrix row by row, (re, im)
//   scidac-checksum           suma, sumb of the binary data
// write_transform_lime writes 64-bit data through SlabFileWriter (every rank its slab).
// read_transform_lime reads D or F (QDP_F<N>_ColorMatrix) records by slab and throws
// gf::Error naming the file and the check: LIME structure (lime.h), records given twice,
// the private records (scidac.h: dims, precision, colors 2 or 3, datacount 1, typesize),
// the binary record's size, the checksum (missing or wrong: warning only with
// checksum_warning_only), no NaN/Inf, SU(N) within 1e-10 (64-bit) or 1e-5 (32-bit, then
// reunitarised). is_lime_transform: a LIME file whose private record has datacount 1.
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gf {

struct LimeTransformInfo {
  int bytes_per_real = 8;
  std::map<std::string, std::string> metadata;
  std::vector<std::pair<std::string, std::string>> stored, computed; // SCIDAC_SUMA, SCIDAC_SUMB
  double unitarity_deviation = 0;
  bool reunitarised = false;
};

bool is_lime_transform(const std::string& path);
void write_transform_lime(const std::string& path, const HostField& slab_g,
                          const std::map<std::string, std::string>& metadata, const World& world,
                          const std::vector<std::string>& inputs);
HostField read_transform_lime(const std::string& path, const World& world,
                              bool checksum_warning_only, LimeTransformInfo* info);

} // namespace gf
