// info_command.h: `gaugefix info FILE...`: for each file its format (detected from the
// content), lattice size, gauge group, precision, byte order, the checksums and values the
// file stores next to those computed from its data, the unitarity deviation as stored, the
// plaquette and the link trace (observables.h conventions), and its provenance
// (io/provenance.h): the ensemble and the record of a gauge fixing. With
// --check landau|coulomb|mag it measures the gauge condition as `gaugefix fix` does
// (gauge_check.h) and prints F, theta and max_t theta_t, for Coulomb gauge also theta_t of
// every time slice; with --tolerance T also whether theta (Coulomb gauge: max_t theta_t) is
// below T, the test of `gaugefix fix` (gauge_condition_holds, schedule.h). A gauge transformation
// file (transform_file.h, any format) is described as such: format, lattice, group, precision,
// checksums stored and computed, unitarity deviation, metadata. Every rank reads its slab and rank
// 0 prints. Every file is read: one failing a check is reported in the log ("error: <file>:
// <check>: ...") and the next one is read; the exit status is 1 where any failed, else 3 where any
// missed --tolerance (a warning naming the file, theta and T), else 0. With --checksum-warning-only
// a checksum mismatch is a warning and both values are printed.
// --format text (the default: lines for people), json or yaml (for scripts: a list with one
// map per file, structured_output.h; a file that failed has its path and "error"). The keys
// are those of the text, with "_" for spaces; docs/formats.md lists them.
#pragma once
#include "app/log_options.h"
#include "app/structured_output.h"
#include "comm/world.h"
#include "fix/schedule.h"
#include "io/gauge_file_types.h"
#include "io/transform_file.h"
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace gf {

struct InfoCommandOptions {
  std::vector<std::string> files;
  bool checksum_warning_only = false;
  std::string check;           // landau | coulomb | mag; empty: no measurement
  double tolerance = 0;        // with check: exit status 3 where theta is not below it; 0: no test
  std::string format = "text"; // text | json | yaml
  LogOptions log;
};

void add_info_options(CLI::App& info, InfoCommandOptions& opt);
int run_info(const InfoCommandOptions& opt, const World& world);
// The text run_info prints for one file, and for its --check measurement.
std::string describe_file(const std::string& path, const FileInfo& info);
std::string describe_check(GaugeKind gauge, const Measurement& m);
std::string describe_transform(const std::string& path, const TransformInfo& info);
// The same as a map (--format json|yaml).
Value record_file(const std::string& path, const FileInfo& info);
void add_check(Value& file, GaugeKind gauge, const Measurement& m);
Value record_transform(const std::string& path, const TransformInfo& info);

} // namespace gf
