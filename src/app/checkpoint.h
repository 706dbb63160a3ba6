// checkpoint.h: the checkpoints of one configuration's fix (docs/checkpoints.md).
// A ConfigCheckpoints is made for each configuration with an output (without one there is no
// name for the file, and no checkpoint). Collective. It
// - reads the configuration's checkpoint where one exists (checkpoint_file.h): refused by
//   name when it belongs to another run (checkpoint_header below), when the ranks' files do
//   not agree on the position, or when some rank lacks its file;
// - gives the schedule its ScheduleCheckpoints for a copy (hooks): a checkpoint is due every
//   --checkpoint-interval seconds (0: after every sweep or step), and a stop with a checkpoint
//   when a SIGTERM, SIGINT or SIGHUP came (signals are held while the schedule runs:
//   io/signal_cleanup.h) or, with --stop-after-iterations N, once this process has done N
//   iterations (sweeps and Fourier steps of every copy and configuration) or more. The ranks decide
//   together (one reduction per sweep): where any rank has a reason, every rank saves, and stops;
// - removes the files once the configuration's outputs are written (remove).
// checkpoint_header: what a checkpoint must match to be continued: gaugefix's version and
// commit, the ranks and this rank, the lattice and group, the input and its digest (the
// checksums its format computed on reading, else its size and CRC-32; a generated field: how
// it was generated), the backend, --max-iterations, whether g(x) is tracked, and the options
// that decide the result (defining_options, fix_options.h).
#pragma once
#include "app/batch_plan.h"
#include "app/checkpoint_file.h"
#include "app/fix_options.h"
#include "comm/world.h"
#include "fix/engine.h"
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace gf {

CheckpointHeader checkpoint_header(const FixCommandOptions& opt, const ConfigPaths& c,
                                   const HostField& u, const std::string& input_checksum,
                                   const World& world);

class ConfigCheckpoints {
public:
  ConfigCheckpoints(const FixCommandOptions& opt, const ConfigPaths& c, CheckpointHeader header,
                    const World& world);
  bool enabled() const { return !path_.empty(); }
  // The checkpoint read at construction, if any.
  const std::optional<Checkpoint>& resumed() const { return resumed_; }
  // This rank's file.
  const std::string& path() const { return path_; }
  // For one copy: `copies` gives the state of the copies before it at a save; `resume` the
  // schedule's state to continue from (the engine's arrays restored by the caller) or null.
  ScheduleCheckpoints hooks(Engine& engine, const std::function<CheckpointCopies()>& copies,
                            const ScheduleState* resume);
  void remove() const;

private:
  const FixCommandOptions& opt_;
  const World& world_;
  CheckpointHeader header_;
  std::string output_; // the configuration's --output
  std::string path_;
  std::optional<Checkpoint> resumed_;
  std::chrono::steady_clock::time_point last_save_;
};

} // namespace gf
