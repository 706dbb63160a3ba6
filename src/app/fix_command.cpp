#include "app/fix_command.h"
#include "app/cli_checks.h"
#include "app/fix_checks.h"
#include "app/fix_provenance.h"
#include "app/summary.h"
#include "tuning/tuning_setup.h"
#include "core/error.h"
#include "fix/random_field.h"
#include "fix/random_transform.h"
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "io/gauge_file.h"
#include "io/path_checks.h"
#include "io/transform_file.h"
#include "observables/observables.h"
#include <cstdio>
#include <iostream>
#include <filesystem>

namespace gf {

void add_fix_options(CLI::App& fix, FixCommandOptions& opt) {
  static std::string gauge = "landau", precision = "double", backend = "cpu", group = "su3";
  static int storage = 12;
  fix.add_option("--input,-i", opt.input,
                 "configuration to fix, any format gaugefix reads (default: generate one)")
      ->check(non_empty);
  fix.add_option("--generate", opt.generate, "field to generate without --input: unit, smooth, hot")
      ->check(CLI::IsMember({"unit", "smooth", "hot"}));
  fix.add_option("--lattice", opt.lattice, "extents Lx,Ly,Lz,Lt of a generated field")->delimiter(',');
  fix.add_option("--group", group, "gauge group of a generated field: su2, su3")
      ->check(CLI::IsMember({"su2", "su3"}));
  fix.add_option("--random-transform", opt.random_transform_seed,
                 "seed of a random gauge transformation applied first (0: none)");
  fix.add_option("--output,-o", opt.output, "where to write the fixed field")->check(non_empty);
  fix.add_option("--output-format", opt.output_format,
                 "nersc (3x3), nersc-2row, ildg, scidac, milc, openqcd or hdf5 (default: from "
                 "the extension of --output, e.g. .h5, .lime, else nersc)")
      ->check(CLI::IsMember({"nersc", "nersc-2row", "ildg", "scidac", "milc", "openqcd", "hdf5"}));
  fix.add_option("--output-bits", opt.output_bits,
                 "bits per real in the output: 32 or 64 (default: 32 for milc, else 64)")
      ->check(CLI::IsMember({32, 64}));
  fix.add_option("--transform-output", opt.transform_output,
                 "where to write the gauge transformation g(x) (it is tracked when given)")
      ->check(non_empty);
  fix.add_option("--transform-format", opt.transform_format,
                 "binary, hdf5 or lime (default: hdf5 for a .h5/.hdf5 --transform-output, lime "
                 "for .lime, else binary)")
      ->check(CLI::IsMember({"binary", "hdf5", "lime"}));
  fix.add_option("--exchange", opt.exchange,
                 "halo path between GPUs of several ranks: auto, staged, direct or peer")
      ->check(CLI::IsMember({"auto", "staged", "direct", "peer"}));
  fix.add_option("--tuning", opt.tuning,
                 "launch parameters: off (defaults), cached, on (tune what the cache lacks) or force "
                 "(default: $GAUGEFIX_TUNING, else on)")
      ->check(CLI::IsMember({"off", "cached", "on", "force"}));
  fix.add_option("--summary", opt.summary, "YAML summary file")->check(non_empty);
  fix.add_option("--unconverged", opt.unconverged,
                 "a field that did not converge: mark (written as <output>.unconverged, g(x) "
                 "likewise) or discard (not written)")
      ->check(CLI::IsMember({"mark", "discard"}));
  fix.add_option("--gauge,-g", gauge, "landau, coulomb or mag")
      ->check(CLI::IsMember({"landau", "coulomb", "mag"}));
  fix.add_option("--precision,-p", precision, "single, mixed or double")
      ->check(CLI::IsMember({"single", "mixed", "double"}));
  fix.add_option("--backend", backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  fix.add_option("--storage", storage,
                 "reals stored per SU(3) link: 8, 12 or 18 (SU(2): 12 or 18)")
      ->check(CLI::IsMember({8, 12, 18}));
  fix.add_option("--tolerance,-t", opt.fix.tolerance, "stop when theta < tolerance");
  fix.add_option("--algorithm", opt.algorithm, "relaxation, overrelaxation or stochastic");
  fix.add_option("--omega", opt.omega, "overrelaxation parameter in [1, 2)");
  fix.add_option("--max-iterations", opt.max_iterations, "sweeps of the final phase at most");
  fix.add_option("--check-interval", opt.fix.check_interval, "sweeps between measurements");
  fix.add_option("--reproject-interval", opt.fix.reproject_interval,
                 "sweeps between reprojections to SU(N) (0: never)");
  fix.add_option("--anneal-steps", opt.anneal_steps, "simulated-annealing heatbath steps (0: none)");
  fix.add_option("--t-max", opt.t_max, "annealing start temperature");
  fix.add_option("--t-min", opt.t_min, "annealing end temperature");
  fix.add_option("--micro-steps", opt.micro_steps, "microcanonical sweeps after each annealing step");
  fix.add_option("--sr-steps", opt.sr_steps, "stochastic relaxation sweeps before the final phase");
  fix.add_option("--sr-probability", opt.sr_probability, "stochastic relaxation probability p");
  fix.add_option("--seed", opt.engine.seed, "seed of the random numbers (annealing, stochastic)");
  fix.add_flag("--quiet,-q", opt.quiet, "print only the result");
  fix.add_flag("--checksum-warning-only", opt.checksum_warning_only,
               "report a checksum mismatch in the input as a warning, not an error");
  fix.callback([&opt, &fix]() {
    for (const CLI::Option* o : fix.get_options())
      if (o->count() > 0) opt.given.insert(o->get_name());
    opt.engine.gauge = parse_gauge(gauge);
    opt.engine.precision = parse_precision(precision);
    opt.engine.backend = parse_backend(backend);
    opt.engine.storage = parse_storage(storage);
    opt.nc = group == "su2" ? 2 : 3;
  });
}

namespace {

HostField generate_field(const FixCommandOptions& opt, const World& world) {
  const int L[4] = {opt.lattice[0], opt.lattice[1], opt.lattice[2], opt.lattice[3]};
  for (int d = 0; d < 4; ++d)
    if (L[d] < 2 || L[d] % 2 != 0)
      throw Error("--lattice: extent " + std::to_string(L[d]) + " in direction " + std::to_string(d) +
                  " must be even and >= 2 (checkerboard updates)");
  const double eps = opt.generate == "unit" ? 0.0 : opt.generate == "smooth" ? 0.2 : 1.0;
  return random_field(decompose_time(L, world), opt.nc, opt.engine.seed, eps,
                      RandomPurpose::generator);
}

// The name a field or g(x) gets: its final name only when the gauge condition was reached.
std::string written_path(const std::string& path, bool converged, const std::string& unconverged) {
  if (path.empty() || converged) return path;
  return unconverged == "mark" ? path + unconverged_suffix : "";
}

// Every file the run may write, against every file it reads; before anything is computed.
void check_paths(const FixCommandOptions& opt) {
  const std::vector<NamedPath> inputs = {{"--input", opt.input}, {"--config", opt.config}};
  std::vector<NamedPath> outputs;
  for (const auto& [option, path] :
       {std::pair{"--output", opt.output}, std::pair{"--transform-output", opt.transform_output}}) {
    if (path.empty()) continue;
    outputs.push_back({option, path});
    if (opt.unconverged == "mark")
      outputs.push_back({std::string(option) + " (not converged)", path + unconverged_suffix});
  }
  if (!opt.summary.empty()) outputs.push_back({"--summary", opt.summary});
  check_run_paths(inputs, outputs);
}

// After a converged run: a not-converged field of an earlier run under the same name is gone.
void remove_unconverged(const std::string& path, bool quiet) {
  std::error_code ec;
  if (!path.empty() && std::filesystem::remove(path + unconverged_suffix, ec) && !quiet)
    std::printf("# removed %s%s (an earlier run's field that had not converged)\n", path.c_str(),
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

} // namespace

int run_fix(FixCommandOptions& opt, const std::string& command_line) {
  const World world;
  const bool root = world.rank() == 0;
  build_schedule(opt);
  check_fix_options(opt);
  check_paths(opt);
  std::vector<std::string> inputs;
  if (!opt.input.empty()) inputs.push_back(opt.input);
  if (!opt.config.empty()) inputs.push_back(opt.config);

  SummaryEntry entry;
  HostField u;
  FileInfo info; // of the input file
  if (opt.input.empty()) {
    u = generate_field(opt, world);
  } else {
    ReadOptions ro;
    ro.checksum_warning_only = opt.checksum_warning_only;
    u = read_gauge_file(opt.input, world, ro, &info);
    for (const auto& [name, value] : info.computed)
      if (name.find("CHECKSUM") != std::string::npos || name.find("SUM") != std::string::npos)
        entry.input_checksum += (entry.input_checksum.empty() ? "" : " ") + name + "=" + value;
    if (info.reunitarised && !opt.quiet && root)
      std::printf("# %s: %d-bit links reunitarised on read\n", opt.input.c_str(),
                  8 * info.bytes_per_real);
  }
  check_output_holds(opt, u.nc);
  HostField g_random; // the random start, composed into the written g(x)
  if (opt.random_transform_seed) g_random = random_gauge_transform(u, opt.random_transform_seed);

  entry.input = opt.input.empty() ? "generated:" + opt.generate : opt.input;
  entry.gauge = gauge_name(opt.engine.gauge);
  entry.precision = precision_name(opt.engine.precision);
  entry.backend = backend_name(opt.engine.backend);
  entry.ranks = world.size();
  entry.nc = u.nc;
  for (int d = 0; d < 4; ++d) entry.lattice[d] = u.geom.L[d];
  entry.options = command_line;
  entry.plaquette_before = plaquette(u, world);
  entry.polyakov_before = polyakov_loop(u, world).re;

  opt.engine.track_transform = !opt.transform_output.empty();
  opt.engine.node_rank = world.node_rank();
  if (world.size() > 1) opt.engine.channel = make_channel(world, parse_exchange_path(opt.exchange));
  TuningSetup tuning = make_tuning(opt.tuning, opt.engine.backend, opt.engine.node_rank,
                                   opt.quiet || !root ? nullptr : &std::cout);
  opt.engine.tuner = tuning.tuner.get();
  auto engine = make_engine(u, opt.engine);
  engine->prepare(schedule_update_kinds(opt.fix));
  entry.launches = launches_used(*tuning.tuner);
  if (!opt.quiet && root)
    std::printf("# gaugefix fix: %s gauge, SU(%d) %dx%dx%dx%d, %s precision on %s, %d rank(s), "
                "halo path %s\n# %8s %-15s %22s %12s %10s\n",
                entry.gauge.c_str(), u.nc, u.geom.L[0], u.geom.L[1], u.geom.L[2], u.geom.L[3],
                entry.precision.c_str(), entry.backend.c_str(), world.size(), engine->halo_path(),
                "iter", "phase", "F", "theta", "seconds");
  const bool quiet = opt.quiet || !root;
  const FixResult r = run_schedule(
      *engine, opt.engine.gauge, u.nc, u.geom, opt.fix, [quiet](const Progress& p) {
        if (quiet) return;
        std::printf("  %8ld %-15s %22.16f %12.4e %10.3f\n", p.iteration, p.phase, p.m.functional,
                    p.m.theta, p.seconds);
        std::fflush(stdout);
      });
  HostField g(u.geom, u.nc, 1);
  engine->download(u, opt.engine.track_transform ? &g : nullptr);
  if (opt.engine.track_transform && opt.random_transform_seed)
    compose_gauge_transforms(g, g_random);
  entry.result = r;
  entry.output = written_path(opt.output, r.converged, opt.unconverged);
  entry.transform_output = written_path(opt.transform_output, r.converged, opt.unconverged);
  entry.plaquette_after = plaquette(u, world);
  entry.polyakov_after = polyakov_loop(u, world).re;

  if (root)
    std::printf("%s: %s after %ld iterations, F = %.16f, theta = %.6e, %.3f s\n",
                r.converged ? "converged" : "NOT CONVERGED", entry.gauge.c_str(), r.iterations,
                r.final.functional, r.final.theta, r.seconds);
  if (!entry.output.empty())
    write_gauge_file(entry.output, u,
                     write_options(opt, entry,
                                   fix_provenance(info.provenance, entry, opt.fix.tolerance, world)),
                     world, inputs);
  if (!entry.transform_output.empty())
    write_transform(entry.transform_output, g, parse_transform_format(opt.transform_format),
                    run_record(entry), world, inputs);
  if (!opt.summary.empty() && root) write_summary(opt.summary, {entry});
  if (r.converged) {
    if (root && opt.unconverged == "mark") {
      remove_unconverged(entry.output, opt.quiet);
      remove_unconverged(entry.transform_output, opt.quiet);
    }
    return 0;
  }
  if (root) {
    std::fprintf(stderr,
                 "error: the gauge condition theta < %g was not reached within the schedule "
                 "(theta = %.3e after %ld iterations); raise --max-iterations or change the "
                 "algorithm\n",
                 opt.fix.tolerance, r.final.theta, r.iterations);
    if (!opt.output.empty())
      std::fprintf(stderr, "the field was %s (--unconverged %s)\n",
                   entry.output.empty()
                       ? "not written"
                       : ("written to " + entry.output + ", not to its final name").c_str(),
                   opt.unconverged.c_str());
  }
  return 3;
}

} // namespace gf
