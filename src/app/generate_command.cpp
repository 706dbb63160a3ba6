#include "app/generate_command.h"
#include "app/cli_checks.h"
#include "comm/world.h"
#include "core/error.h"
#include "io/file_lock.h"
#include "io/path_checks.h"
#include "tuning/tuning_setup.h"
#include <cstdio>
#include <iostream>
#include <optional>

namespace gf {

void add_generate_options(CLI::App& generate, GenerateCommandOptions& opt) {
  EnsembleOptions& e = opt.ensemble;
  generate
      .add_option("--lattice", e.lattice, "extents Lx,Ly,Lz,Lt (required for cold and hot starts)")
      ->delimiter(',');
  generate.add_option("--group", opt.group, "su2 or su3 (default: the start file's, else su3)");
  generate.add_option("--beta", e.generator.beta, "Wilson gauge coupling beta > 0")->required();
  generate.add_option("--start", e.start, "cold, hot or a NERSC file")->check(non_empty);
  generate.add_option("--thermalisation", e.thermalisation,
                      "sweeps before the first configuration");
  generate.add_option("--separation", e.separation, "sweeps between saved configurations");
  generate.add_option("--configs", e.configs, "number of configurations");
  generate.add_option("--or-sweeps", e.or_sweeps, "overrelaxation sweeps per heatbath sweep");
  generate.add_option("--measure-interval", e.measure_interval,
                      "sweeps between printed measurements");
  generate.add_option("--seed", e.generator.seed, "seed of the random numbers");
  generate.add_option("--precision,-p", opt.precision, "single, mixed or double");
  generate.add_option("--backend", opt.backend, "cpu or cuda");
  generate.add_option("--storage", opt.storage,
                      "reals stored per SU(3) link: 8, 12 or 18 (SU(2): 12 or 18)");
  generate
      .add_option("--tuning", opt.tuning,
                  "launch parameters: off (defaults), cached, on (tune what the cache lacks) or "
                  "force (default: $GAUGEFIX_TUNING, else on)")
      ->check(CLI::IsMember({"off", "cached", "on", "force"}));
  generate
      .add_option("--output-prefix,-o", e.output_prefix,
                  "configurations go to PREFIX.0000, PREFIX.0001, ... (NERSC, 64-bit)")
      ->check(non_empty);
  generate.add_flag("--quiet,-q", opt.quiet, "print only the result");
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
  g.precision = parse_option("--precision", [&] { return parse_precision(opt.precision); });
  g.backend = parse_option("--backend", [&] { return parse_backend(opt.backend); });
  g.storage = parse_storage(opt.storage);
  if (opt.group.empty()) return;
  if (opt.group != "su2" && opt.group != "su3")
    throw Error("--group: unknown group '" + opt.group + "' (expected su2 or su3)");
  opt.ensemble.nc = opt.group == "su2" ? 2 : 3;
}

EnsembleObserver printer(const GenerateCommandOptions& opt, const Tuner& tuner) {
  EnsembleObserver o;
  const EnsembleOptions& e = opt.ensemble;
  o.started = [&e, &opt](const EnsembleStart& s) {
    std::printf("# gaugefix generate: SU(%d) %dx%dx%dx%d, beta = %g, 1 heatbath + %d "
                "overrelaxation sweeps per sweep, %s precision, %d-real storage on %s\n",
                s.nc, s.lattice[0], s.lattice[1], s.lattice[2], s.lattice[3], e.generator.beta,
                e.or_sweeps, opt.precision.c_str(), opt.storage, opt.backend.c_str());
    if (!s.resumed_from.empty())
      std::printf("# resuming after %s (sweep %ld)\n", s.resumed_from.c_str(), long(s.sweep));
    if (s.next_config >= e.configs)
      std::printf("# all %d configurations exist already\n", e.configs);
    std::printf("# %8s %18s %11s %10s\n", "sweep", "plaquette", "acceptance", "seconds");
  };
  o.prepared = [&tuner] { std::printf("# launches: %s\n", launches_used(tuner).c_str()); };
  o.measured = [](const EnsembleProgress& p) {
    std::printf("  %8ld %18.15f %11.6f %10.3f\n", long(p.sweep), p.m.plaquette, p.m.acceptance,
                p.seconds);
    std::fflush(stdout);
  };
  o.saved = [](const SavedConfig& c) {
    std::printf("# saved %s: sweep %ld, plaquette %.15f\n", c.path.c_str(), long(c.sweep),
                c.plaquette);
    std::fflush(stdout);
  };
  return o;
}

// The start file is none of the files the run may write (configurations, lock file).
void check_paths(const EnsembleOptions& e) {
  const std::vector<NamedPath> inputs = {
      {"--start", e.start == "cold" || e.start == "hot" ? "" : e.start}};
  check_run_paths(inputs, {{"--output-prefix (lock file)", lock_path(e.output_prefix)}});
  for (int j = 0; j < e.configs; ++j)
    check_run_paths(inputs, {{"--output-prefix", config_path(e.output_prefix, j)}});
}

} // namespace

std::string lock_path(const std::string& prefix) {
  return prefix + ".lock";
}

int run_generate(GenerateCommandOptions& opt) {
  parse_names(opt);
  validate(opt.ensemble);
  check_paths(opt.ensemble);
  const World world;
  const bool root = world.rank() == 0;
  std::optional<FileLock> lock; // held until the run ends
  if (root)
    lock.emplace(lock_path(opt.ensemble.output_prefix),
                 "a gaugefix generate run writing the ensemble '" + opt.ensemble.output_prefix +
                     "'");
  const bool quiet = opt.quiet || !root;
  TuningSetup tuning = make_tuning(opt.tuning, opt.ensemble.generator.backend, world.node_rank(),
                                   quiet ? nullptr : &std::cout);
  opt.ensemble.generator.tuner = tuning.tuner.get();
  const EnsembleResult r =
      run_ensemble(opt.ensemble, quiet ? EnsembleObserver{} : printer(opt, *tuning.tuner));
  if (root)
    std::printf("generated %d configurations in %ld sweeps, %.3f s; %.3f sweeps/s "
              "(1 heatbath + %d overrelaxation each, updates only)\n",
              r.written, long(r.sweeps), r.seconds,
              r.update_seconds > 0 ? r.sweeps / r.update_seconds : 0.0, opt.ensemble.or_sweeps);
  return 0;
}

} // namespace gf
