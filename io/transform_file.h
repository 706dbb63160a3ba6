// transform_file.h: the gauge transformation g(x) that took the input field to the fixed one
// (U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger), as a file, so that users can rotate propagators
// and other gauge-covariant objects with it. g is a HostField with ndir = 1 (this rank's
// slab; Engine::download(links, &transform) fills it when EngineOptions::track_transform
// is on).
//
// Two formats, both written by slab by every rank of a World to a temporary file that is
// renamed once every rank succeeded (parallel_file.h; an output in `inputs` is refused):
//
// TransformFormat::hdf5: dataset "/gauge/transform", shape [Lt, Lz, Ly, Lx, N, N, 2], IEEE
//   little-endian 64-bit floats, attributes lattice, nc, bytes_per_real, checksum, layout,
//   gaugefix_version (hdf5_dataset.h) and every metadata entry as a string attribute.
//
// TransformFormat::binary: a 64-byte header, a metadata text, then the data. Header
// integers are unsigned 32-bit in the file's byte order:
//   offset  0  magic "GFGTRANS" (8 ASCII bytes)
//           8  byte-order mark 0x01020304 (reads as 0x04030201 in the other byte order)
//          12  format version (1)
//          16  N (2 or 3)
//          20  bytes per real (8: IEEE 64-bit)
//          24  Lx, Ly, Lz, Lt
//          40  checksum: sum mod 2^32 of the data's 32-bit words taken as values (byte order
//              undone; a 64-bit real contributes its low and its high half, as NERSC)
//          44  metadata text length M in bytes
//          48  zero (16 reserved bytes)
//   offset 64       M bytes of "key = value\n" lines (UTF-8), the metadata in key order
//   offset 64 + M   g(x) in natural order: x fastest, then y, z, t; per site the N x N
//                   complex matrix row by row, each entry (re, im). Data size V N^2 16 bytes.
// gaugefix writes the host's byte order (little-endian on x86 and ARM) and reads either.
//
// read_transform finds the format from the first bytes (the HDF5 signature or the magic),
// returns this rank's slab and checks, each failure a gf::Error naming the file and the
// check: binary: header size, magic, byte-order mark, version, N, bytes per real,
// positive extents, file size = header + metadata + data (truncated or too long), checksum;
// HDF5: the checks of read_field_dataset (hdf5_dataset.h) on "/gauge/transform"; both: no
// NaN or Inf, every g(x) in SU(N) within 1e-10 (field_checks.h). Metadata keys must be
// non-empty and neither keys nor values may hold line breaks or NUL (for the binary text;
// '=' not in keys).
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <map>
#include <string>
#include <vector>

namespace gf {

enum class TransformFormat { binary, hdf5 };

// "binary" or "hdf5"; throws gf::Error naming both for anything else.
TransformFormat parse_transform_format(const std::string& name);

void write_transform(const std::string& path, const HostField& slab_g, TransformFormat format,
                     const std::map<std::string, std::string>& metadata, const World& world,
                     const std::vector<std::string>& inputs = {});

struct TransformInfo {
  TransformFormat format = TransformFormat::binary;
  std::map<std::string, std::string> metadata; // binary: the text; HDF5: the string attributes
  std::uint32_t checksum = 0;                  // as stored (and computed)
  double unitarity_deviation = 0;              // max over sites
};

HostField read_transform(const std::string& path, const World& world,
                         TransformInfo* info = nullptr);

} // namespace gf
