#include "app/batch_run.h"
#include "app/build_info.h"
#include "app/fix_one.h"
#include "app/journal.h"
#include "core/error.h"
#include "core/log.h"
#include "io/file_digest.h"
#include "io/signal_cleanup.h"
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <optional>

namespace gf {

namespace {

// The journal's entry of one configuration (journal.h).
YAML::Node journal_entry(const ConfigPaths& c, const ConfigOutcome& o, const World& world) {
  YAML::Node e(YAML::NodeType::Map);
  e["index"] = c.index;
  e["input"] = o.entry.input;
  if (o.stopped) { // redone from its checkpoint by the next run
    e["state"] = "interrupted";
    e["checkpoint"] = o.checkpoint;
    e["position"] = o.position;
    return e;
  }
  std::error_code ec;
  const auto bytes = c.input.empty() ? 0 : std::filesystem::file_size(c.input, ec);
  e["input_bytes"] = ec ? std::uintmax_t(0) : bytes;
  if (!o.error.empty()) {
    e["state"] = "failed";
    e["error"] = o.error;
    e["output"] = "";
    e["transform_output"] = "";
  } else {
    e["state"] = o.entry.result.converged ? "converged" : "not converged";
    for (const auto& kv : summary_node(o.entry))
      if (kv.first.as<std::string>() != "input") e[kv.first.as<std::string>()] = kv.second;
  }
  e["summary"] = o.error.empty() ? c.summary : "";
  if (o.error.empty() && o.entry.result.converged && !c.measurements.empty()) {
    YAML::Node measured(YAML::NodeType::Map); // only where measured: journals stay as they were
    for (const auto& [name, path] : c.measurements)
      measured[name] = path;
    e["measurements"] = measured;
  }
  e["seconds_total"] = o.seconds_total;
  YAML::Node files(YAML::NodeType::Sequence);
  for (const std::string& path : o.written) {
    const std::optional<FileDigest> d = file_digest(path, world);
    if (!d)
      throw Error("'" + path +
                  "', just written, cannot be read back (its size and CRC-32 go to the journal)");
    YAML::Node f(YAML::NodeType::Map);
    f["path"] = path;
    f["bytes"] = d->bytes;
    f["crc32"] = crc32_text(d->crc32);
    files.push_back(f);
  }
  e["files"] = files;
  return e;
}

// What a signal that ends the batch now leaves on stderr (signal_cleanup.h): the
// configurations finished so far and the command that goes on from there.
std::string stop_note(std::size_t done, std::size_t todo, int converged, int not_converged,
                      int failed, const std::string& journal, const std::string& command_line) {
  return fmt::format(
      "# stopped by a signal after {} of {} configuration(s) to do ({} converged, {} not "
      "converged, {} failed{}); to go on, run the same command again{}: {}\n",
      done, todo, converged, not_converged, failed,
      journal.empty() ? "" : "; the journal " + journal + " records them",
      journal.empty() ? " (it starts over)" : " (it skips what the journal records as converged)",
      command_line);
}

} // namespace

int run_batch(const BatchPlan& plan, FixCommandOptions& opt, const std::string& command_line) {
  const auto started = std::chrono::steady_clock::now();
  const World world;
  const bool root = world.rank() == 0;
  std::optional<Journal> journal;
  if (!plan.journal.empty()) {
    journal.emplace(plan.journal, plan, opt, command_line, world);
    log::result("# journal: {}{}", plan.journal,
                plan.default_journal ? " (the default with several inputs; --journal names another)"
                                     : "");
  }
  std::vector<const ConfigPaths*> todo;
  for (const ConfigPaths& c : plan.configs) {
    const std::string reason = journal ? journal->unfinished_reason(c) : "no journal";
    if (reason.empty()) {
      log::result("skip {}: finished and converged (journal)", c.input);
    } else {
      if (journal && reason != "not in the journal") log::result("redo {}: {}", c.input, reason);
      todo.push_back(&c);
    }
  }

  FixSession session(opt, world);
  log_run_header(world, command_line, device_text(session.device(), world.node_rank()), "");
  const bool several = plan.configs.size() > 1;
  int converged = 0, not_converged = 0, failed = 0;
  double schedule_seconds = 0;
  const auto note = [&](std::size_t done) {
    if (root)
      set_signal_note(stop_note(done, todo.size(), converged, not_converged, failed, plan.journal,
                                command_line));
  };
  std::size_t done = 0;
  note(done);
  for (const ConfigPaths* c : todo) {
    const std::string label =
        several ? "[" + std::to_string(c->index) + "] " + c->input + ": " : "";
    const ConfigOutcome o = fix_one(*c, opt, session, world, command_line, label);
    if (o.stopped) {
      if (journal) journal->record(*c, journal_entry(*c, o, world));
      world.barrier();
      log::result("# stopped at checkpoint {} ({}); to continue, run the same command again: {}",
                  o.checkpoint, o.position, command_line);
      end_as_by_signal();
    }
    if (!o.error.empty()) {
      if (!several && !journal) throw Error(o.error);
      ++failed;
      if (root) log::error("{}\n(going on with the next configuration)", o.error);
    } else {
      ++(o.entry.result.converged ? converged : not_converged);
      for (const FixResult& r : o.entry.copies.copies)
        schedule_seconds += r.seconds;
    }
    if (journal) journal->record(*c, journal_entry(*c, o, world));
    note(++done);
    if (holding_signals()) { // since the schedule: a signal that came after it waited for this
      if (world.any(signal_pending())) {
        world.barrier();
        end_as_by_signal(); // the note says what finished and how to go on
      }
      release_signals();
    }
  }
  if (root) set_signal_note("");

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (root && (several || journal)) {
    log::result("# {} configuration(s): {} converged, {} not converged, {} failed, {} finished "
                "before; {:.3f} s ({:.1f} configurations per hour), {:.3f} s in the schedules, "
                "{:.3f} s outside them",
                plan.configs.size(), converged, not_converged, failed,
                plan.configs.size() - todo.size(), seconds, 3600.0 * double(todo.size()) / seconds,
                schedule_seconds, seconds - schedule_seconds);
    if (failed + not_converged > 0)
      log::error("{} configuration(s) not finished; run the same command again to redo exactly "
                 "them{}",
                 failed + not_converged,
                 not_converged ? " (with a longer schedule for those that did not converge)" : "");
  }
  world.barrier(); // rank 0's files (summaries, journal) are written when any rank returns
  return failed ? 1 : not_converged ? 3 : 0;
}

} // namespace gf
