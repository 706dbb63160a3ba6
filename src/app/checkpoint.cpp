#include "app/checkpoint.h"
#include "app/checkpoint_file.h"
#include "core/error.h"
#include "core/log.h"
#include "gaugefix_commit.h"
#include "gaugefix_version.h"
#include "io/file_digest.h"
#include "io/signal_cleanup.h"
#include "io/temporary_name.h"
#include <filesystem>

namespace gf {

CheckpointHeader checkpoint_header(const FixCommandOptions& opt, const ConfigPaths& c,
                                   const HostField& u, const std::string& input_checksum,
                                   const World& world) {
  const Geometry& g = u.geom;
  CheckpointHeader h = {{"checkpoint of", std::string("gaugefix ") + GAUGEFIX_VERSION +
                                              " (commit " + GAUGEFIX_COMMIT + ")"},
                        {"ranks", std::to_string(world.size())},
                        {"rank", std::to_string(world.rank())},
                        {"lattice", std::to_string(g.L[0]) + "x" + std::to_string(g.L[1]) + "x" +
                                        std::to_string(g.L[2]) + "x" + std::to_string(g.L[3])},
                        {"group", "SU(" + std::to_string(u.nc) + ")"}};
  if (c.input.empty()) {
    h.push_back({"input", "generated: " + opt.generate});
    h.push_back({"input digest", "seed " + std::to_string(opt.plan.seed)});
  } else {
    h.push_back({"input", c.input});
    std::string digest = input_checksum;
    if (digest.empty()) {
      const std::optional<FileDigest> d = file_digest(c.input, world);
      if (!d) throw Error("input '" + c.input + "' cannot be read for its digest (checkpoint)");
      digest = std::to_string(d->bytes) + " bytes, crc32 " + crc32_text(d->crc32);
    }
    h.push_back({"input digest", digest});
  }
  h.push_back({"backend", name_of(opt.plan.backend)});
  h.push_back({"max-iterations", std::to_string(opt.plan.max_iterations)});
  h.push_back({"transform tracked", opt.plan.track_transform ? "yes" : "no"});
  for (const auto& [key, value] : defining_options(opt))
    h.push_back({key, value});
  return h;
}

ConfigCheckpoints::ConfigCheckpoints(const FixCommandOptions& opt, const ConfigPaths& c,
                                     CheckpointHeader header, const World& world)
    : opt_(opt), world_(world), header_(std::move(header)),
      last_save_(std::chrono::steady_clock::now()) {
  if (c.output.empty()) return;
  output_ = c.output;
  path_ = checkpoint_path(c.output, world.rank());
  check_name_lengths("--output (its checkpoint)", path_); // before any sweep
  // rank 0's file first: a checkpoint of another number of ranks is refused by its header
  std::string error;
  try {
    if (world.rank() == 0) resumed_ = read_checkpoint(path_, header_);
  } catch (const Error& e) {
    error = e.what();
  }
  if (world.any(!error.empty())) {
    if (error.empty()) error = "checkpoint '" + checkpoint_path(c.output, 0) + "' is refused";
    throw Error(error);
  }
  if (!world.any(resumed_.has_value())) return;
  try {
    if (world.rank() > 0) {
      resumed_ = read_checkpoint(path_, header_);
      if (!resumed_)
        error = "checkpoint '" + path_ + "' of rank " + std::to_string(world.rank()) +
                " is missing (rank 0 has '" + checkpoint_path(c.output, 0) +
                "'); remove the checkpoint files to start afresh";
    }
  } catch (const Error& e) {
    error = e.what();
  }
  if (world.any(!error.empty())) {
    if (error.empty()) error = "the checkpoint of another rank is refused";
    throw Error(error);
  }
  const std::vector<std::string> positions = world.gather_strings(resumed_->position());
  for (std::size_t r = 1; r < positions.size(); ++r)
    if (positions[r] != positions[0])
      throw Error("checkpoint '" + checkpoint_path(c.output, int(r)) + "' is at " + positions[r] +
                  ", rank 0's '" + checkpoint_path(c.output, 0) + "' at " + positions[0] +
                  " (a run killed while saving); remove the checkpoint files to start afresh");
  log::result("# resuming from checkpoint {} ({})", checkpoint_path(c.output, 0),
              resumed_->position());
}

ScheduleCheckpoints ConfigCheckpoints::hooks(Engine& engine,
                                             const std::function<CheckpointCopies()>& copies,
                                             const ScheduleState* resume) {
  ScheduleCheckpoints h;
  h.resume = resume;
  // iterations done by this process, of every copy and configuration (--stop-after-iterations)
  static long done_here = 0;
  h.due = [this, last = resume ? resume->iteration : 0L](long iteration) mutable {
    done_here += iteration - last;
    last = iteration;
    const bool stop = signal_pending() ||
                      (opt_.stop_after_iterations > 0 && done_here >= opt_.stop_after_iterations);
    const bool save =
        opt_.checkpoint_interval >= 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - last_save_).count() >=
            opt_.checkpoint_interval;
    const double code = world_.max(stop ? 2.0 : save ? 1.0 : 0.0);
    return code == 2.0   ? CheckpointAction::save_and_stop
           : code == 1.0 ? CheckpointAction::save
                         : CheckpointAction::none;
  };
  h.save = [this, &engine, copies](const ScheduleState& s) {
    Checkpoint c;
    c.copies = copies();
    c.schedule = s;
    c.engine = engine.save_state();
    write_checkpoint(path_, header_, c);
    world_.barrier(); // every rank's file is in place before the run goes on or stops
    last_save_ = std::chrono::steady_clock::now();
    log::info("# checkpoint: {} ({})", checkpoint_path(output_, 0), c.position());
  };
  return h;
}

void ConfigCheckpoints::remove() const {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

} // namespace gf
