// ildg.h: ILDG and SciDAC (QIO) gauge configuration files, read and written by time slab.
//
// Both are LIME files (lime.h). The binary data, in record ildg-binary-data (ILDG) or
// scidac-binary-data (SciDAC), is big-endian: x fastest, then y, z, t; per site the links
// mu = x, y, z, t; each link N x N complex numbers, row-major, (re, im).
// - ILDG: the ildg-format XML record gives field (su3gauge: ILDG holds SU(3) only),
//   precision (32 or 64) and lx, ly, lz, lt.
// - SciDAC without ildg-format: scidac-private-file-xml gives dims, and
//   scidac-private-record-xml gives precision (F or D), colors (2 or 3), datacount (4) and
//   typesize (2 N^2 bytes per real).
// SciDAC checksum (record scidac-checksum, suma and sumb in hexadecimal): for every site
// with global natural index r, c = CRC-32 (zlib) of the site's stored bytes; suma is the
// XOR of c rotated left by r mod 29, sumb the XOR of c rotated left by r mod 31.
//
// read_ildg reads format ildg where an ildg-format record exists, else scidac; each rank
// reads only its slab (decompose_time) of the binary record. It throws gf::Error naming
// the file and the check, in this order: LIME structure (lime.h), ildg-format / SciDAC
// XML (field, precision, dims, colors, datacount, typesize; dims of ildg-format and
// scidac-private-file-xml agree where both exist), binary record present with exactly the
// size the dims and precision imply, scidac-checksum (where the record exists; a mismatch
// is only a warning with checksum_warning_only), then check_links (field_codec.h: finite,
// SU(N); 32-bit data, and 64-bit data of single-precision accuracy, reunitarised). The
// <gaugefix> element of scidac-record-xml, else of scidac-file-xml, must parse
// (scidac_provenance.h). info: stored and computed SCIDAC_SUMA, SCIDAC_SUMB; provenance.
//
// write_ildg (opt.format ildg or scidac; 32- or 64-bit, opt.double_precision) writes the
// records scidac-private-file-xml, scidac-file-xml (the <gaugefix> element of
// opt.provenance and opt.metadata as <meta name="key">), scidac-private-record-xml,
// scidac-record-xml (the <gaugefix> element of opt.provenance), ildg-format (ildg only),
// ildg-binary-data (ildg) or scidac-binary-data (scidac), scidac-checksum, through
// SlabFileWriter: every rank writes its slab's byte range of one file, renamed when
// complete. ildg needs nc 3; scidac takes nc 2 or 3.
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <string>
#include <vector>

namespace gf {

// The provenance of the <gaugefix> element (as read_ildg finds it), from the XML records
// alone, without the binary data: a header probe for one process.
Provenance read_ildg_provenance(const std::string& path);
HostField read_ildg(const std::string& path, const World& world, const ReadOptions& opt,
                    FileInfo* info);
void write_ildg(const std::string& path, const HostField& slab, const WriteOptions& opt,
                const World& world, const std::vector<std::string>& inputs);

} // namespace gf
