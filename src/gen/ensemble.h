// ensemble.h: one quenched ensemble run: start field, thermalisation, a configuration every
// `separation` sweeps written as files PREFIX.0000, PREFIX.0001, ..., and resumption.
//
// Sweep k (k = 1, 2, ...) is one heatbath sweep keyed by k followed by or_sweeps
// overrelaxation sweeps. Configuration j is the field after sweep thermalisation + j *
// separation (j = 0 right after thermalisation). Its file (full matrices, 64-bit; MILC: 32-bit)
// carries, where the format's provenance (io/provenance.h) has room (records_ensemble: nersc,
// ildg, scidac, hdf5; not milc, openqcd), the sequence number = that sweep and the ensemble
// label = ensemble_label(opt): "wilson" and the ensemble-defining parameters as option=value
// words (beta, seed, or-sweeps, precision, storage, start (cold, hot or file), thermalisation,
// separation). Before it is written the field is reprojected to SU(N) and the generator
// continues from exactly that field (MILC: from the 64-bit field, not from its 32-bit file), so
// a run resumed from a 64-bit file continues bit for bit as the uninterrupted run.
// Resume: if PREFIX.0000 ... PREFIX.j exist, the run reads PREFIX.j (any format that
// records the ensemble; a MILC or openQCD PREFIX.j is refused, naming --start as the way to
// continue the stream from it as a new ensemble), checks its label
// (every parameter; the Error names the first option that differs, or one the file does not
// record), group, extents and sequence number against the options (gf::Error otherwise) and
// continues with configuration j + 1; it does nothing if all `configs` exist. The backend
// may change between runs (CPU and GPU agree to rounding).
// The generator's launches are chosen before the first sweep (Generator::prepare, with
// opt.generator.tuner: tuned): the heatbath's, the overrelaxation's where or_sweeps > 0, and
// the plaquette's. Tuning leaves the field as it was, so it never changes the ensemble.
// validate() throws gf::Error naming the command-line option of a bad parameter.
#pragma once
#include "gen/generator.h"
#include "io/gauge_file_types.h"
#include <array>
#include <cstdint>
#include <functional>
#include <string>

namespace gf {

struct EnsembleOptions {
  std::array<int, 4> lattice = {0, 0, 0, 0}; // required for cold/hot; all 0: the file's
  int nc = 0;                                // 2 or 3; 0: the start file's, else 3
  std::string start = "cold";                // cold | hot | path of a file (any format)
  int thermalisation = 0;
  int separation = 1;
  int configs = 1;
  int or_sweeps = 0;        // overrelaxation sweeps per heatbath sweep
  int measure_interval = 1; // sweeps between measurements (when observed)
  std::string output_prefix;
  FileFormat format = FileFormat::nersc; // of the configurations written
  GeneratorOptions generator;
};

struct EnsembleStart {
  int nc;
  int lattice[4];
  std::int64_t sweep;       // sweeps already done
  int next_config;          // first configuration this run writes
  std::string resumed_from; // empty for a fresh start
};

struct EnsembleProgress {
  std::int64_t sweep;
  GeneratorMeasurement m;
  double seconds; // since the first sweep of this run
};

struct SavedConfig {
  int index;
  std::int64_t sweep;
  std::string path;
  double plaquette;
  double write_seconds; // the file's write: encoding, checksum, header values, write, rename
  std::int64_t bytes;   // the file's size
};

// Collective: on several ranks every rank passes an observer with the same callbacks set
// (`measured` and `saved` measure on every rank; only rank 0's log prints).
struct EnsembleObserver {
  std::function<void(const EnsembleStart&)> started;
  std::function<void()> prepared; // the launches are chosen, before the first sweep
  std::function<void(const EnsembleProgress&)> measured; // measures only when set
  std::function<void(const SavedConfig&)> saved;
};

struct EnsembleResult {
  int written = 0;           // configurations written by this run
  std::int64_t sweeps = 0;   // sweeps done by this run
  double update_seconds = 0; // time spent in sweeps
  double seconds = 0;        // whole run after the start field was read
};

void validate(const EnsembleOptions& opt);
bool records_ensemble(FileFormat format); // its files hold the ensemble label and the sweep
std::string config_path(const std::string& prefix, int index); // PREFIX.%04d
std::string ensemble_label(const EnsembleOptions& opt);
EnsembleResult run_ensemble(const EnsembleOptions& opt, const EnsembleObserver& observer = {});

} // namespace gf
