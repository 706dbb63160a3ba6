// fix_provenance.h: what a fixed field's file says about it (io/provenance.h).
// fix_provenance: the input's ensemble id, label and sequence number, carried over (none
// for a generated field), and the record of this gauge fixing from the summary entry:
// gauge, tolerance, theta, max_t theta_t, F, iterations, converged, precision, the algorithm
// (--algorithm), the gaugefix version and the date (UTC). Collective: every rank gets rank 0's date, so that every rank
// lays out the same file.
// input_record: the run's text record for the formats that hold text (HDF5 string
// attributes, ILDG/SciDAC <meta> elements): input, input_checksum and the options.
// input_checksum: the checksums computed on reading a gauge file ("CHECKSUM=1a2b3c4d", the
// FileInfo::computed entries named *SUM*), the input_checksum of the g(x) a fix writes and
// what `gaugefix transform` compares with it.
#pragma once
#include "app/summary.h"
#include "comm/world.h"
#include "io/gauge_file_types.h"
#include "io/provenance.h"
#include <map>
#include <string>

namespace gf {

Provenance fix_provenance(const Provenance& input, const SummaryEntry& e, double tolerance,
                          const std::string& algorithm, const World& world);
std::map<std::string, std::string> input_record(const SummaryEntry& e);
std::string input_checksum(const FileInfo& info);

} // namespace gf
