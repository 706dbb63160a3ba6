// summary.h: the YAML record of a fix run, one entry per configuration, with every
// number a user needs to trace the result (see docs/ for the keys).
#pragma once
#include "app/gribov_copies.h"
#include "fix/schedule.h"
#include <map>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace gf {

struct SummaryEntry {
  std::string input;
  std::string output;               // the file the field was written to ("": none)
  std::string transform_output;     // the file g(x) was written to ("": none)
  std::vector<std::string> history; // the convergence history of each copy (--history)
  std::string gauge;
  std::string precision;
  std::string backend;
  int ranks = 1;
  std::string input_checksum; // the checksums computed from the input file, "NAME=value ..."
  int nc = 3;
  int lattice[4] = {0, 0, 0, 0};
  FixResult result;      // of the copy written (the best)
  CopyStatistics copies; // every copy (one without --copies)
  double plaquette_before = 0, plaquette_after = 0;
  double polyakov_before = 0, polyakov_after = 0;
  std::string options;  // the options as given, one line
  std::string launches; // the launch parameters of every kernel (tuning/tuning_setup.h)
};

// Writes the entries to `path` (temporary name, then renamed); throws Error on failure. A log
// cut so far (core/log.h, cut_streams) is recorded as "log_cut: [stdout, stderr]".
void write_summary(const std::string& path, const std::vector<SummaryEntry>& entries);
// One entry as the YAML map write_summary writes (the journal's entries start from it).
YAML::Node summary_node(const SummaryEntry& e);
// The entry as key/value text: the record that travels with g(x) (gauge transformation
// files); the field's files carry it as provenance (app/fix_provenance.h).
std::map<std::string, std::string> run_record(const SummaryEntry& e);

} // namespace gf
