#include "app/fix_one.h"
#include "app/checkpoint.h"
#include "app/fix_checks.h"
#include "app/fix_provenance.h"
#include "app/history_file.h"
#include "app/measurements.h"
#include "app/output_pattern.h"
#include "app/progress_log.h"
#include "comm/decomposition.h"
#include "core/error.h"
#include "core/log.h"
#include "fix/random_field.h"
#include "fix/random_transform.h"
#include "io/gauge_file.h"
#include "io/signal_cleanup.h"
#include "io/temporary_file.h"
#include "io/transform_file.h"
#include "observables/observables.h"
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace gf {

namespace {

HostField generate_field(const FixCommandOptions& opt, const World& world) {
  const int L[4] = {opt.lattice[0], opt.lattice[1], opt.lattice[2], opt.lattice[3]};
  for (int d = 0; d < 4; ++d)
    if (L[d] < 2 || L[d] % 2 != 0)
      throw Error("--lattice: extent " + std::to_string(L[d]) + " in direction " +
                  std::to_string(d) + " must be even and >= 2 (checkerboard updates)");
  const double eps = opt.generate == "unit" ? 0.0 : opt.generate == "smooth" ? 0.2 : 1.0;
  return random_field(decompose_time(L, world), group_nc(opt.group), opt.plan.seed, eps,
                      RandomPurpose::generator);
}

// The name a field or g(x) gets: its final name only when the gauge condition was reached.
std::string written_path(const std::string& path, bool converged, const std::string& unconverged) {
  if (path.empty() || converged) return path;
  return unconverged == "mark" ? path + unconverged_suffix : "";
}

// After a converged copy: a not-converged field of an earlier run under the same name is gone.
void remove_unconverged(const std::string& path) {
  std::error_code ec;
  if (!path.empty() && std::filesystem::remove(path + unconverged_suffix, ec))
    log::info("# removed {}{} (an earlier run's field that had not converged)", path,
              unconverged_suffix);
}

WriteOptions write_options(const FixCommandOptions& opt, const SummaryEntry& e,
                           Provenance provenance) {
  WriteOptions w;
  const bool two_rows = opt.output_format == "nersc-2row";
  w.format = parse_format(two_rows ? "nersc" : opt.output_format);
  w.full_matrix = !two_rows;
  w.double_precision = opt.output_bits == 64;
  w.provenance = std::move(provenance);
  w.metadata = input_record(e);
  return w;
}

// What one configuration writes, with the inputs no output may be.
class Writer {
public:
  Writer(const FixCommandOptions& opt, const ConfigPaths& c, const FileInfo& info,
         const World& world, ConfigOutcome& out)
      : opt_(opt), info_(info), world_(world), out_(out) {
    for (const std::string* p : {&c.input, &opt.config})
      if (!p->empty()) inputs_.push_back(*p);
  }

  // The provenance of a field fixed with result e.result (fix_provenance.h): the one written
  // with the field and with its measurements.
  Provenance provenance(const SummaryEntry& e) const {
    return fix_provenance(info_.provenance, e, opt_.plan.tolerance, name_of(opt_.plan.algorithm),
                          world_);
  }

  // The field and g(x) (where asked for) of a copy whose result is e.result.
  void field(const std::string& output, const std::string& transform_output, const SummaryEntry& e,
             const Provenance& provenance, const HostField& links, const HostField& g) {
    const bool converged = e.result.converged;
    if (const std::string path = written_path(output, converged, opt_.unconverged); !path.empty()) {
      write_gauge_file(path, links, write_options(opt_, e, provenance), world_, inputs_);
      out_.written.push_back(path);
    }
    if (const std::string path = written_path(transform_output, converged, opt_.unconverged);
        !path.empty()) {
      write_transform(path, g, parse_transform_format(opt_.transform_format), run_record(e), world_,
                      inputs_);
      out_.written.push_back(path);
    }
    if (converged && world_.rank() == 0 && opt_.unconverged == "mark") {
      remove_unconverged(output);
      remove_unconverged(transform_output);
    }
  }

private:
  const FixCommandOptions& opt_;
  const FileInfo& info_;
  const World& world_;
  ConfigOutcome& out_;
  std::vector<std::string> inputs_;
};

// The configuration's header: the input and what the fix does with it.
void log_header(const SummaryEntry& e, const FixCommandOptions& opt, const Engine& engine,
                int ranks) {
  log::info("# input: {}{}", e.input,
            e.input_checksum.empty() ? "" : " (" + e.input_checksum + ")");
  log::info("# fix: {} gauge, SU({}) {}x{}x{}x{}, {} precision, {}-real storage on {}, {} rank(s) "
            "({} time slices each), halo path {}, tolerance {:g}",
            e.gauge, e.nc, e.lattice[0], e.lattice[1], e.lattice[2], e.lattice[3], e.precision,
            storage_reals(opt.plan), e.backend, ranks, e.lattice[3] / ranks, engine.halo_path(),
            opt.plan.tolerance);
}

void log_result(const std::string& label, const SummaryEntry& e) {
  const FixResult& r = e.result;
  const CopyStatistics& s = e.copies;
  if (s.copies.size() > 1)
    log::result("{}copies: best {} of {}, spread of F {:.3e}, {} reached the best within {:g}",
                label, s.best, s.copies.size(), s.spread, s.reached_best, s.tolerance);
  const bool coulomb = e.gauge == name_of(GaugeKind::coulomb);
  log::result("{}{}: {} after {} iterations, F = {:.16f}, theta = {:.6e}{}, {:.3f} s", label,
              r.converged ? "converged" : "NOT CONVERGED", e.gauge, r.iterations,
              r.final.functional, r.final.theta,
              coulomb ? fmt::format(", max theta_t = {:.6e}", r.final.theta_max_slice) : "",
              r.seconds);
  if (r.fourier.gradients > 0)
    log::result("{}fourier: {} gradients, {:.3f} s preconditioning, of it {:.3f} s transposing "
                "(path {}, preconditioner {})",
                label, r.fourier.gradients, r.fourier.precondition_seconds,
                r.fourier.transpose_seconds, r.fourier.transpose_path,
                r.fourier.preconditioner_precision);
}

void report_not_converged(const FixCommandOptions& opt, const ConfigPaths& c,
                          const SummaryEntry& e) {
  const FixResult& r = e.result;
  const std::string of = c.input.empty() ? "" : " for '" + c.input + "'";
  const bool coulomb = opt.plan.gauge == GaugeKind::coulomb;
  log::error("the gauge condition {} < {:g} was not reached within the schedule{} ({} = {:.3e} "
             "after {} iterations); raise --max-iterations or change the algorithm",
             coulomb ? "max theta_t" : "theta", opt.plan.tolerance, of,
             coulomb ? "max theta_t" : "theta", coulomb ? r.final.theta_max_slice : r.final.theta,
             r.iterations);
  if (!c.output.empty())
    log::error("the field was {} (--unconverged {})",
               e.output.empty() ? "not written"
                                : "written to " + e.output + ", not to its final name",
               opt.unconverged);
}

// The reals of a field (HostField::data), for a checkpoint, and back.
std::vector<double> reals(const HostField& f) {
  std::vector<double> v(f.data.size() * 2);
  std::memcpy(v.data(), f.data.data(), v.size() * sizeof(double));
  return v;
}

HostField field_of(const std::vector<double>& v, const Geometry& geom, int nc, int ndir,
                   const std::string& path) {
  HostField f(geom, nc, ndir);
  if (v.size() != f.data.size() * 2)
    throw Error("checkpoint '" + path + "': its best copy does not fit this rank's slab");
  std::memcpy(f.data.data(), v.data(), v.size() * sizeof(double));
  return f;
}

} // namespace

FixResult fix_field(Engine& engine, const FixOptions& schedule, GaugeKind gauge, int nc,
                    const Geometry& geom, const ScheduleCheckpoints* checkpoints) {
  ProgressLog progress(schedule, gauge);
  progress.header();
  FixOptions fix = schedule;
  fix.checkpoints = checkpoints;
  if (checkpoints) hold_signals(); // released by the batch once the outputs are written
  return run_schedule(engine, gauge, nc, geom, fix,
                      [&progress](const Progress& p) { progress.line(p); });
}

ConfigOutcome fix_one(const ConfigPaths& c, const FixCommandOptions& opt, FixSession& session,
                      const World& world, const std::string& command_line,
                      const std::string& label) {
  const auto started = std::chrono::steady_clock::now();
  const bool root = world.rank() == 0;
  ConfigOutcome out;
  SummaryEntry& entry = out.entry;
  entry.input = c.input.empty() ? "generated:" + opt.generate : c.input;

  HostField u;
  FileInfo info; // of the input file
  if (c.input.empty()) {
    u = generate_field(opt, world);
  } else {
    ReadOptions ro;
    ro.checksum_warning_only = opt.checksum_warning_only;
    try {
      u = read_gauge_file(c.input, world, ro, &info);
    } catch (const Error& e) {
      out.error = e.what();
    }
    // the readers fail on every rank alike; the ranks agree before going on
    if (world.any(!out.error.empty())) {
      if (out.error.empty())
        out.error = "gauge file '" + c.input + "': another rank could not read it";
      return out;
    }
    entry.input_checksum = input_checksum(info);
    if (info.reunitarised)
      log::info("# {}: {}-bit links reunitarised on read", c.input, 8 * info.bytes_per_real);
  }
  check_output_holds(opt, u.nc, c.input);

  entry.output = c.output; // until the result decides the name
  entry.gauge = name_of(opt.plan.gauge);
  entry.precision = name_of(opt.plan.precision);
  entry.backend = name_of(opt.plan.backend);
  entry.ranks = world.size();
  entry.nc = u.nc;
  for (int d = 0; d < 4; ++d)
    entry.lattice[d] = u.geom.L[d];
  entry.options = command_line;
  entry.plaquette_before = plaquette(u, world);
  entry.polyakov_before = polyakov_loop(u, world).re;

  Writer writer(opt, c, info, world, out);
  const bool track = opt.plan.track_transform;
  const Geometry geom = u.geom;
  const int nc = u.nc;
  CopyStatistics& stats = entry.copies;
  stats.tolerance = opt.copy_tolerance;
  const std::uint64_t fingerprint = opt.copies > 1 ? field_fingerprint(u, world) : 0;
  HostField work, best_links, g, best_g;
  ConfigCheckpoints checkpoints(opt, c,
                                c.output.empty()
                                    ? CheckpointHeader{}
                                    : checkpoint_header(opt, c, u, entry.input_checksum, world),
                                world);
  int first = 0; // the copy to start with: a checkpoint's
  if (const std::optional<Checkpoint>& ck = checkpoints.resumed()) {
    const CheckpointCopies& done = ck->copies;
    first = done.copy;
    stats.copies = done.results;
    stats.seeds = done.seeds;
    stats.best = done.best;
    out.written = done.written;
    for (const std::string& h : c.history)
      if (std::find(done.written.begin(), done.written.end(), h) != done.written.end())
        entry.history.push_back(h);
    if (first > 0) {
      best_links = field_of(done.best_links, geom, nc, 4, checkpoints.path());
      if (track) best_g = field_of(done.best_transform, geom, nc, 1, checkpoints.path());
    }
  }
  // The copies before copy k, for its checkpoints.
  const auto copies_before = [&](int k) {
    return [&, k] {
      CheckpointCopies s;
      s.copy = k;
      s.results = stats.copies;
      s.seeds = stats.seeds;
      s.best = stats.best;
      if (k > 0) {
        s.best_links = reals(best_links);
        if (track) s.best_transform = reals(best_g);
      }
      s.written = out.written;
      return s;
    };
  };
  for (int k = first; k < opt.copies; ++k) {
    const std::uint64_t seed =
        k == 0 ? opt.random_transform_seed : copy_seed(opt.plan.seed, fingerprint, k);
    if (k + 1 == opt.copies)
      work = std::move(u); // the input is not needed after the last start
    else
      work = u;
    HostField g_random; // the random start, composed into the written g(x)
    if (seed) g_random = random_gauge_transform(work, seed);
    Engine& engine = session.load(work);
    if (k == first) log_header(entry, opt, engine, world.size());
    if (opt.copies > 1)
      log::info("# copy {} of {}: {}", k, opt.copies,
                seed ? "random start, seed " + std::to_string(seed) : "the input as read");
    const bool resuming = checkpoints.resumed() && k == first;
    if (resuming) engine.restore_state(checkpoints.resumed()->engine);
    std::optional<ScheduleCheckpoints> hooks;
    if (checkpoints.enabled())
      hooks = checkpoints.hooks(engine, copies_before(k),
                                resuming ? &checkpoints.resumed()->schedule : nullptr);
    FixResult r =
        fix_field(engine, session.schedule(), opt.plan.gauge, nc, geom, hooks ? &*hooks : nullptr);
    if (r.stopped) {
      out.stopped = true;
      out.checkpoint = checkpoint_path(c.output, 0);
      out.position = "copy " + std::to_string(k) + ", iteration " + std::to_string(r.iterations);
      return out;
    }
    if (!c.history.empty()) {
      if (root) write_history(c.history[std::size_t(k)], r.history);
      out.written.push_back(c.history[std::size_t(k)]);
      entry.history.push_back(c.history[std::size_t(k)]);
      r.history.clear(); // written; the statistics keep F, theta and iterations
    }
    if (track && g.data.size() != std::size_t(geom.local_volume()) * nc * nc)
      g = HostField(geom, nc, 1);
    engine.download(work, track ? &g : nullptr);
    if (track && seed) compose_gauge_transforms(g, g_random);
    stats.copies.push_back(r);
    stats.seeds.push_back(seed);
    if (opt.keep_copies) {
      SummaryEntry copy_entry = entry;
      copy_entry.result = r;
      writer.field(c.output.empty() ? "" : copy_path(c.output, k),
                   c.transform_output.empty() ? "" : copy_path(c.transform_output, k), copy_entry,
                   writer.provenance(copy_entry), work, g);
    }
    if (k == 0 || better_copy(r, stats.copies[std::size_t(stats.best)])) {
      stats.best = k;
      std::swap(best_links, work);
      std::swap(best_g, g);
    }
  }
  summarise_copies(stats);
  entry.result = stats.copies[std::size_t(stats.best)];
  entry.launches = session.launches();
  entry.output = written_path(c.output, entry.result.converged, opt.unconverged);
  entry.transform_output =
      written_path(c.transform_output, entry.result.converged, opt.unconverged);
  entry.plaquette_after = plaquette(best_links, world);
  entry.polyakov_after = polyakov_loop(best_links, world).re;
  log_result(label, entry);

  if (opt.signal_before_output) ::raise(SIGTERM); // a signal during the writes (tests)
  // one record (one date) for the written field and its measurements
  const Provenance provenance = writer.provenance(entry);
  writer.field(c.output, c.transform_output, entry, provenance, best_links, best_g);
  if (!c.measurements.empty()) {
    if (entry.result.converged) {
      std::vector<MeasureOutput> outputs;
      for (const Observable& m : observables())
        if (const auto it = c.measurements.find(m.name); it != c.measurements.end())
          outputs.push_back({&m, it->second});
      const RunRecord record = measurement_record(command_line, entry.input, entry.input_checksum,
                                                  provenance, opt.plan.gauge);
      MeasureOptions measure = opt.measure;
      measure.backend = opt.plan.backend; // the ghost propagator's CG runs where the fix ran
      measure_field(best_links, measure, opt.plan.gauge, outputs, record, world);
      for (const MeasureOutput& o : outputs)
        out.written.push_back(o.path);
    } else {
      log::warning("{}not measured: the field did not converge", label);
    }
  }
  if (!c.summary.empty()) {
    if (root) write_summary(c.summary, {entry});
    out.written.push_back(c.summary);
  }
  checkpoints.remove(); // the outputs are in place
  if (root) {
    for (const NamedPath& p : possible_outputs(c, opt))
      remove_stale_temporaries(p.path);
    if (!entry.result.converged) report_not_converged(opt, c, entry);
  }
  out.seconds_total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return out;
}

} // namespace gf
