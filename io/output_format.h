// output_format.h: the rules for choosing an output format, checked before anything is
// written (or computed):
// - format_limit: "" where `format` holds an SU(nc) field with bytes_per_real bytes per
//   real, else the reason, e.g. "MILC v5 files hold single precision (32 bits) only":
//     nersc, scidac, hdf5   SU(2) and SU(3), 32 and 64 bits
//     ildg                  SU(3), 32 and 64 bits
//     milc                  SU(3), 32 bits
//     openqcd               SU(3), 64 bits
//   The writers refuse the same fields themselves.
// - extension_formats: the formats a file name's extension (case-insensitive) stands for,
//   the one to infer first; empty for any other extension:
//     .nersc -> nersc; .lime -> ildg, scidac; .ildg -> ildg; .scidac -> scidac;
//     .milc -> milc; .openqcd, .oqcd -> openqcd; .h5, .hdf5 -> hdf5
// - output_format: the format for `path` given the format `requested_option` asks for:
//   the extension's where nothing was requested (nersc where the extension says nothing);
//   a requested format the extension contradicts throws gf::Error naming `option`, `path`,
//   the extension and `requested_option`.
#pragma once
#include "io/gauge_file_types.h"
#include <optional>
#include <string>
#include <vector>

namespace gf {

std::string format_limit(FileFormat format, int nc, int bytes_per_real);
std::vector<FileFormat> extension_formats(const std::string& path);
FileFormat output_format(const std::string& option, const std::string& path,
                         const std::string& requested_option, std::optional<FileFormat> requested);

} // namespace gf
