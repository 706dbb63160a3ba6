// gauge_file_types.h: the types shared by every gauge configuration file reader and writer
// (gauge_file.h dispatches to them): the format names, the read and write options and what
// a reader reports about a file. format_name and parse_format live in gauge_file.cpp.
#pragma once
#include "io/provenance.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gf {

enum class FileFormat { nersc, ildg, scidac, milc, openqcd, hdf5 };

// "nersc", "ildg", "scidac", "milc", "openqcd", "hdf5".
const char* format_name(FileFormat f);
// The inverse of format_name (case-insensitive); throws gf::Error naming the known formats.
FileFormat parse_format(const std::string& name);

struct ReadOptions {
  bool checksum_warning_only = false; // a checksum mismatch is reported on stderr only
};

// What a reader found in a file. stored and computed hold (name, value) pairs as text,
// e.g. {"CHECKSUM", "717938df"}, {"PLAQUETTE", "0.0382422893"}: the values the file states
// and the values computed from its data, under the same names where they correspond.
struct FileInfo {
  FileFormat format = FileFormat::nersc;
  int dims[4] = {0, 0, 0, 0}; // x, y, z, t
  int nc = 3;
  int bytes_per_real = 8;
  bool big_endian = true;
  std::vector<std::pair<std::string, std::string>> stored;
  std::vector<std::pair<std::string, std::string>> computed;
  double plaquette = 0;           // of the returned field (observables.h conventions)
  double link_trace = 0;          // of the returned field
  bool reunitarised = false;      // the returned links were projected back onto SU(N)
  double unitarity_deviation = 0; // max over links as stored, before any reunitarisation
  Provenance provenance;          // what the file says about its origin (provenance.h)
  std::string lfn;                // ILDG: the ildg-data-lfn record, where the file has one
};

struct WriteOptions {
  FileFormat format = FileFormat::nersc;
  bool double_precision = true;
  bool full_matrix = false;                    // NERSC only
  Provenance provenance; // written where the format has a place for it (provenance.h)
  std::string lfn;       // ILDG: the logical file name (ildg-data-lfn); empty: the file's name
  // Further text: HDF5 string attributes, ILDG/SciDAC <meta> elements; BYTE_ORDER (NERSC,
  // MILC).
  std::map<std::string, std::string> metadata;
};

} // namespace gf
