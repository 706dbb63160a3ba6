// provenance.h: where a configuration comes from and what was done to it, as a file carries
// it (docs/formats.md, "Provenance"). Readers fill FileInfo::provenance, writers write
// WriteOptions::provenance where the format has a place for it:
//   NERSC         header keys (nersc_provenance.h)
//   ILDG/SciDAC   a <gaugefix> element in the scidac-file-xml and scidac-record-xml records
//                 (scidac_provenance.h)
//   HDF5          typed attributes of /gauge/links (hdf5_provenance.h)
//   MILC, openQCD nothing: their headers hold no such fields.
// Ensemble: the ensemble's id and label and the configuration's sequence number, as the
// input gave them (empty or absent where unknown). GaugeFixing: the record of the gauge
// fixing that produced the field.
// The text forms NERSC and XML share: real numbers in the shortest form that reads back
// exactly (std::to_chars), integers in decimal; the parsers take the whole string or
// return nullopt.
#pragma once
#include <optional>
#include <string>

namespace gf {

struct GaugeFixingRecord {
  std::string gauge;          // landau | coulomb | mag
  double tolerance = 0;       // the run's tolerance on theta
  double theta = 0;           // theta reached
  double theta_max_slice = 0; // max over time slices of theta_t (the Coulomb criterion)
  double functional = 0;      // F reached
  long long iterations = 0;   // sweeps
  bool converged = false;     // theta (Coulomb: every theta_t) below the tolerance
  std::string precision;      // single | mixed | double
  std::string version;        // gaugefix version that fixed the field
  std::string date;           // when, UTC ("Sun Nov 22 04:56:19 2026 UTC")
  // the final phase's update: relaxation | overrelaxation | stochastic | fasd | facg (empty in
  // files written before it was recorded)
  std::string algorithm;
};

struct Provenance {
  std::string ensemble_id;
  std::string ensemble_label;
  std::optional<long long> sequence_number;
  std::optional<GaugeFixingRecord> gauge_fixing;
};

std::string provenance_text(double v);
std::optional<double> parse_real(const std::string& s);
std::optional<long long> parse_integer(const std::string& s);

} // namespace gf
