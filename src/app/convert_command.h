// convert_command.h: `gaugefix convert IN OUT [--format F] [--precision 32|64]
// [--checksum-warning-only]`: reads IN (any format, detected from the content, with every
// check of its reader) and writes OUT in format F (default: OUT's extension, else nersc; an
// extension that contradicts F is refused, output_format.h), with IN's provenance (ensemble
// and gauge-fixing record, io/provenance.h) where F has a place for it. The precision defaults to
// the input's where F can hold it, else the one F holds (milc: 32, openqcd: 64). OUT must not
// be IN (check_output_path, also through links); OUT appears complete or not at all. Every
// rank handles its slab; rank 0 prints one line. Bad options or input throw gf::Error.
// A gauge transformation file IN (transform_file.h) is written as g(x) again, in format F
// = binary, hdf5 or lime (default: the extension's: .h5/.hdf5 hdf5, .lime/.ildg lime, else
// binary), 64-bit, with its metadata.
#pragma once
#include "app/log_options.h"
#include "comm/world.h"
#include <CLI/CLI.hpp>
#include <string>

namespace gf {

struct ConvertCommandOptions {
  std::string input;
  std::string output;
  std::string format; // empty: from the output's extension
  int output_bits = 0;   // 32, 64 or 0 (see above)
  std::string precision; // "32" or "64": the deprecated name of output_bits (output_bits.h)
  std::string lfn; // ILDG output: the ildg-data-lfn record; empty: the output's file name
  bool checksum_warning_only = false;
  LogOptions log;
};

void add_convert_options(CLI::App& convert, ConvertCommandOptions& opt);
int run_convert(const ConvertCommandOptions& opt, const World& world);

} // namespace gf
