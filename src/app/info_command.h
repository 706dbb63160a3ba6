// info_command.h: `gaugefix info FILE...`: for each file its format (detected from the
// content), lattice size, gauge group, precision, byte order, the checksums and values the
// file stores next to those computed from its data, the unitarity deviation as stored, the
// plaquette and the link trace (observables.h conventions), and its provenance
// (io/provenance.h): the ensemble and the record of a gauge fixing. With
// --check landau|coulomb|mag it measures the gauge condition as `gaugefix fix` does
// (gauge_check.h) and prints F, theta and max_t theta_t, for Coulomb gauge also theta_t of
// every time slice. Every rank reads its slab and rank 0 prints. A file failing a check
// throws gf::Error naming it (exit status 1); with --checksum-warning-only a checksum
// mismatch is a warning and both values are printed.
#pragma once
#include "comm/world.h"
#include "fix/schedule.h"
#include "io/gauge_file_types.h"
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gf {

struct InfoCommandOptions {
  std::vector<std::string> files;
  bool checksum_warning_only = false;
  std::string check; // landau | coulomb | mag; empty: no measurement
};

void add_info_options(CLI::App& info, InfoCommandOptions& opt);
int run_info(const InfoCommandOptions& opt, const World& world);
// The text run_info prints for one file, and for its --check measurement.
std::string describe_file(const std::string& path, const FileInfo& info);
std::string describe_check(GaugeKind gauge, const Measurement& m);

} // namespace gf
