// transform_file.h: the gauge transformation g(x) that took the input field to the fixed one
// (U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger), as a file, so that users can rotate propagators
// and other gauge-covariant objects with it. g is a HostField with ndir = 1 (this rank's
// slab; Engine::download(links, &transform) fills it when EngineOptions::track_transform
// is on).
//
// Three formats, all written by slab by every rank of a World to a temporary file that is
// renamed once every rank succeeded (parallel_file.h; an output in `inputs` is refused):
//
// TransformFormat::hdf5: dataset "/gauge/transform", shape [Lt, Lz, Ly, Lx, N, N, 2], IEEE
//   little-endian 64-bit floats, attributes lattice, nc, bytes_per_real, checksum, layout,
//   gaugefix_version (hdf5_dataset.h) and every metadata entry as a string attribute.
//
// TransformFormat::lime: a SciDAC (QIO) LIME file of one QDP_D<N>_ColorMatrix field with
//   its checksum, what Chroma and other QIO-based codes read (transform_lime.h).
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
// read_transform finds the format from the content (detect_transform_format: the HDF5
// signature with a /gauge/transform dataset, the LIME magic with a datacount-1 record, or
// the GFGTRANS magic), returns this rank's slab and checks, each failure a gf::Error naming
// the file and the check: binary: header size, magic, byte-order mark, version, N, bytes
// per real, extents (1 to 2^30, their product without overflow), metadata at most 64 MiB,
// file size = header + metadata + data (truncated or too long), checksum; HDF5: the checks
// of read_field_dataset (hdf5_dataset.h) on "/gauge/transform"; LIME: those of
// transform_lime.h; all: no NaN or Inf, every g(x) in SU(N) within 1e-10 (field_checks.h),
// memory for the slab (host_memory.h). With checksum_warning_only a checksum mismatch (LIME:
// also a missing checksum) is a warning. Metadata keys must be non-empty and neither keys
// nor values may hold line breaks or NUL (for the binary text; '=' not in keys).
#pragma once
#include "comm/world.h"
#include "lattice/host_field.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gf {

enum class TransformFormat { binary, hdf5, lime };

// "binary", "hdf5" or "lime"; throws gf::Error naming them for anything else.
TransformFormat parse_transform_format(const std::string& name);
const char* transform_format_name(TransformFormat f);
// The format of a g(x) file, nullopt for any other file (e.g. a gauge field); throws
// gf::Error "file '<path>': cannot open: <reason>" where the file cannot be read.
std::optional<TransformFormat> detect_transform_format(const std::string& path);

void write_transform(const std::string& path, const HostField& slab_g, TransformFormat format,
                     const std::map<std::string, std::string>& metadata, const World& world,
                     const std::vector<std::string>& inputs = {});

struct TransformInfo {
  TransformFormat format = TransformFormat::binary;
  // binary: the text; HDF5: the attributes; LIME: the <meta> elements
  std::map<std::string, std::string> metadata;
  std::uint32_t checksum = 0; // binary, HDF5: as stored (and computed)
  std::vector<std::pair<std::string, std::string>> stored, computed; // the checksums as text
  int dims[4] = {0, 0, 0, 0};                                        // x, y, z, t
  int nc = 3;
  int bytes_per_real = 8;
  double unitarity_deviation = 0; // max over sites, as stored
  bool reunitarised = false;      // 32-bit LIME data
};

HostField read_transform(const std::string& path, const World& world, TransformInfo* info = nullptr,
                         bool checksum_warning_only = false);

} // namespace gf
