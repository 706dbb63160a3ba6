#include "app/generate_command.h"
#include "app/build_info.h"
#include "app/cli_checks.h"
#include "app/enum_option.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/log.h"
#include "io/file_lock.h"
#include "io/gauge_file_types.h"
#include "io/path_checks.h"
#include "tuning/tuning_setup.h"
#include <optional>

namespace gf {

void add_generate_options(CLI::App& generate, GenerateCommandOptions& opt) {
  EnsembleOptions& e = opt.ensemble;
  add_lattice_option(generate, e.lattice, "extents Lx,Ly,Lz,Lt (required for cold and hot starts)");
  add_enum_option<Group>(
      generate, "--group", [&e](Group g) { e.nc = group_nc(g); },
      "su2 or su3 (default: the start file's, else su3)");
  generate.add_option("--beta", e.generator.beta, "Wilson gauge coupling beta > 0")
      ->check(positive_real)
      ->required()
      ->default_str("");
  generate
      .add_option("--start", e.start,
                  "cold, hot or a configuration file in any format gaugefix reads (nersc, ildg, "
                  "scidac, milc, openqcd, hdf5; as fix --input)")
      ->check(non_empty);
  generate
      .add_option("--thermalisation", e.thermalisation, "sweeps before the first configuration")
      ->check(whole_number);
  generate.add_option("--separation", e.separation, "sweeps between saved configurations")
      ->check(whole_number);
  generate.add_option("--configs", e.configs, "number of configurations")->check(whole_number);
  generate.add_option("--or-sweeps", e.or_sweeps, "overrelaxation sweeps per heatbath sweep")
      ->check(whole_number);
  generate
      .add_option("--measure-interval", e.measure_interval, "sweeps between printed measurements")
      ->check(whole_number);
  generate.add_option("--seed", e.generator.seed, "seed of the random numbers")
      ->check(whole_number);
  add_enum_option(generate, "--precision,-p", e.generator.precision, "single, mixed or double");
  add_enum_option(generate, "--backend", e.generator.backend, "cpu or cuda");
  generate.add_option("--storage", opt.storage,
                      "reals stored per SU(3) link: 8, 12 or 18 (SU(2): 12 or 18)");
  add_enum_option(generate, "--tuning", opt.tuning,
                  "launch parameters: off (defaults), cached, on (tune what the cache lacks) or "
                  "force (default: $GAUGEFIX_TUNING, else on)");
  generate
      .add_option("--output-prefix,-o", e.output_prefix,
                  "configurations go to PREFIX.0000, PREFIX.0001, ... (64-bit, full matrices)")
      ->check(non_empty);
  generate.add_option("--output-format", opt.output_format,
                      "format of the configurations: nersc, ildg, scidac, hdf5, milc or openqcd "
                      "(milc and openqcd files do not record the ensemble label and sweep: a run "
                      "cannot resume from them)");
  add_log_options(generate, opt.log);
}

namespace {

// The value of `option` parsed by `parse`; an Error from it is prefixed with the option.
template <class F>
auto parse_option(const char* option, F parse) {
  try {
    return parse();
  } catch (const Error& e) {
    throw Error(std::string(option) + ": " + e.what());
  }
}

void parse_names(GenerateCommandOptions& opt) {
  GeneratorOptions& g = opt.ensemble.generator;
  g.storage = parse_storage(opt.storage);
  opt.ensemble.format =
      parse_option("--output-format", [&] { return parse_format(opt.output_format); });
}

EnsembleObserver printer(const GenerateCommandOptions& opt, const Tuner& tuner) {
  EnsembleObserver o;
  const EnsembleOptions& e = opt.ensemble;
  o.started = [&e, &opt](const EnsembleStart& s) {
    log::info("# generate: SU({}) {}x{}x{}x{}, beta = {:g}, 1 heatbath + {} overrelaxation sweeps "
              "per sweep, {} precision, {}-real storage on {}",
              s.nc, s.lattice[0], s.lattice[1], s.lattice[2], s.lattice[3], e.generator.beta,
              e.or_sweeps, name_of(e.generator.precision), opt.storage,
              name_of(e.generator.backend));
    if (!s.resumed_from.empty())
      log::info("# resuming after {} (sweep {})", s.resumed_from, long(s.sweep));
    if (s.next_config >= e.configs) log::info("# all {} configurations exist already", e.configs);
    log::info("# {:>8} {:>18} {:>11} {:>10}", "sweep", "plaquette", "acceptance", "seconds");
  };
  o.prepared = [&tuner] { log::info("# launches: {}", launches_used(tuner)); };
  o.measured = [](const EnsembleProgress& p) {
    log::info("  {:>8} {:>18.15f} {:>11.6f} {:>10.3f}", long(p.sweep), p.m.plaquette,
              p.m.acceptance, p.seconds);
  };
  o.saved = [](const SavedConfig& c) {
    log::info("# saved {}: sweep {}, plaquette {:.15f}; {} bytes written in {:.3f} s ({:.3f} GB/s)",
              c.path, long(c.sweep), c.plaquette, long(c.bytes), c.write_seconds,
              c.write_seconds > 0 ? 1e-9 * double(c.bytes) / c.write_seconds : 0.0);
  };
  return o;
}

// The start file is none of the files the run may write (configurations, lock file).
void check_paths(const EnsembleOptions& e, const std::string& log_file) {
  const std::vector<NamedPath> inputs = {
      {"--start", e.start == "cold" || e.start == "hot" ? "" : e.start}};
  std::vector<NamedPath> outputs = {{"--output-prefix (lock file)", lock_path(e.output_prefix)}};
  if (!log_file.empty()) outputs.push_back({"--log-file", log_file});
  check_run_paths(inputs, outputs);
  for (int j = 0; j < e.configs; ++j) {
    outputs.push_back({"--output-prefix", config_path(e.output_prefix, j)});
    check_run_paths(inputs, outputs);
    outputs.pop_back();
  }
}

} // namespace

std::string lock_path(const std::string& prefix) {
  return prefix + ".lock";
}

int run_generate(GenerateCommandOptions& opt, const std::string& command_line) {
  parse_names(opt);
  validate(opt.ensemble);
  check_paths(opt.ensemble, opt.log.file);
  const World world;
  const bool root = world.rank() == 0;
  std::optional<FileLock> lock; // held until the run ends
  if (root)
    lock.emplace(lock_path(opt.ensemble.output_prefix),
                 "a gaugefix generate run writing the ensemble '" + opt.ensemble.output_prefix +
                     "'");
  open_log(opt.log); // once the lock is held: a refused second run leaves the first one's log
  TuningSetup tuning = make_tuning(opt.tuning, opt.ensemble.generator.backend, world.node_rank(),
                                   log::stream(log::Kind::debug));
  log_run_header(world, command_line, device_text(tuning.device, world.node_rank()), "");
  if (!records_ensemble(opt.ensemble.format))
    log::info("# --output-format {}: its files do not store the ensemble label or the "
              "generator record (sweep, seed, beta, ...); a later run cannot resume from them, "
              "only start a new ensemble from one (--start)",
              format_name(opt.ensemble.format));
  opt.ensemble.generator.tuner = tuning.tuner.get();
  // The observer measures (a collective) and prints: every rank gets the same one, decided by
  // the verbosity (the same on every rank), never by whether this rank prints.
  const bool quiet = log::verbosity() == log::Verbosity::quiet;
  const EnsembleResult r =
      run_ensemble(opt.ensemble, quiet ? EnsembleObserver{} : printer(opt, *tuning.tuner));
  log::result("generated {} configurations in {} sweeps, {:.3f} s; {:.3f} sweeps/s (1 heatbath + "
              "{} overrelaxation each, updates only)",
              r.written, long(r.sweeps), r.seconds,
              r.update_seconds > 0 ? r.sweeps / r.update_seconds : 0.0, opt.ensemble.or_sweeps);
  return 0;
}

} // namespace gf
