// gauge_file.h: gauge configuration files of every supported format, by time slab.
//
// detect_format decides a file's format from its content, never from its name:
//   NERSC    the file starts with "BEGIN_HEADER" (leading white space allowed);
//   LIME     the first 4 bytes are 0x456789ab big-endian: ildg where an ildg-format record
//            exists, scidac otherwise;
//   MILC     the first 4 bytes are 20103 in either byte order;
//   HDF5     the signature \x89HDF\r\n\x1a\n at byte 0 (or at 512, 1024, 2048, ... after a
//            user block);
//   openQCD  the first 4 little-endian int32 are positive even extents whose field size
//            24 + 576 V is exactly the file size.
// Anything else throws gf::Error naming the file and what was tried.
//
// read_gauge_file detects the format and calls the format's reader (nersc.h, ildg.h,
// milc.h, openqcd.h, hdf5_file.h): every rank gets its slab (decompose_time) and info (where
// given) says what the file stored and what was computed. write_gauge_file calls the writer
// of opt.format; every rank passes its slab; the output path must not be one of `inputs`.
// read_sequence_number reads only the header (no field data, this process alone): the
// configuration's sequence number where the format and the file hold one (NERSC
// SEQUENCE_NUMBER; ILDG/SciDAC and HDF5 as gaugefix writes it, provenance.h), else nullopt
// (MILC, openQCD, files without it); a header that does not parse throws gf::Error.
// format_name and parse_format (gauge_file_types.h) are implemented here.
#pragma once
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "lattice/host_field.h"
#include <optional>
#include <string>
#include <vector>

namespace gf {

FileFormat detect_format(const std::string& path);

HostField read_gauge_file(const std::string& path, const World& world, const ReadOptions& opt = {},
                          FileInfo* info = nullptr);
std::optional<long long> read_sequence_number(const std::string& path);
void write_gauge_file(const std::string& path, const HostField& slab, const WriteOptions& opt,
                      const World& world, const std::vector<std::string>& inputs = {});

} // namespace gf
