// journal.h: the journal of a `gaugefix fix` run (--journal; by default with several inputs):
// the ensemble's summary, rewritten atomically (temporary name, then rename: io/atomic_file.h)
// after each configuration, from which the same command, run again after a kill, continues.
//
//   program: gaugefix 0.1.0
//   command: <the command line of the latest run>
//   options: {gauge: landau, ...}   defining_options (fix_options.h) of the run that began it
//   configurations:                 one entry per input, in the order of the input list
//     - index: 0                    position in the input list
//       input: cfg.0000
//       input_bytes: 1234           size of the input when it was fixed
//       state: converged | not converged | failed | interrupted
//       checkpoint: ...             (interrupted: the checkpoint the next run continues from,
//       position: copy 0, iteration 40  app/checkpoint.h; no other keys)
//       error: ...                  (failed: why the input could not be read)
//       <the keys of its summary entry (summary.h): output, transform_output, input_checksum,
//        functional, theta, iterations, converged, seconds (in the schedules), copies ...>
//       summary: <its --summary file or "">
//       measurements: {gluon: <file>, ...}   the --measure outputs written for it (if any)
//       seconds_total: reading, every copy and writing
//       files: [{path, bytes, crc32}]   every file written for it (io/file_digest.h)
//
// Journal (collective; rank 0 reads, locks and writes, every rank gets its content):
// - the constructor takes the lock file <journal>.lock (io/file_lock.h: a second run on the
//   same journal is refused while the first lives) and reads an existing journal, which must
//   record the same defining options as this run: otherwise it throws gf::Error naming the
//   journal and every option that differs (a restart must be the same command; another
//   --journal starts afresh). A file that is not a journal throws naming it.
// - finished(c): the entry of c.input says converged, names the same output, transform_output,
//   summary and measurement outputs as c, the input has the recorded size, and every recorded file
//   still has its size and CRC-32. Such a configuration is not fixed again; anything else is
//   redone.
// - record(c, entry): replaces the entry of c.input and rewrites the journal.
#pragma once
#include "app/batch_plan.h"
#include "comm/world.h"
#include "io/file_lock.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace gf {

class Journal {
public:
  Journal(const std::string& path, const BatchPlan& plan, const FixCommandOptions& opt,
          const std::string& command_line, const World& world);
  // Why c is not finished ("" where it is); collective (reads the recorded files).
  std::string unfinished_reason(const ConfigPaths& c) const;
  void record(const ConfigPaths& c, const YAML::Node& entry);
  const std::string& path() const { return path_; }

private:
  void save() const;

  std::string path_;
  const World& world_;
  std::unique_ptr<FileLock> lock_; // rank 0
  YAML::Node options_;
  std::string command_;
  std::vector<std::string> order_;            // inputs of this run, in list order
  std::map<std::string, YAML::Node> entries_; // by input
  std::vector<std::string> earlier_; // inputs of earlier runs not in this run's list, in order
};

} // namespace gf
