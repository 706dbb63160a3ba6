#include "app/fix_command.h"
#include "app/output_bits.h"
#include "app/batch_plan.h"
#include "app/batch_run.h"
#include "app/cli_checks.h"
#include "app/fix_checks.h"
#include "app/log_options.h"
#include "core/log.h"

namespace gf {

void add_fix_options(CLI::App& fix, FixCommandOptions& opt) {
  static std::string gauge = "landau", precision = "double", backend = "cpu", group = "su3";
  fix.add_option("--input,-i", opt.input,
                 "configurations to fix, any format gaugefix reads; a quoted glob "
                 "('cfg/*.lime') is expanded (default: generate one)")
      ->check(non_empty)
      ->expected(1, -1)
      ->default_str("");
  fix.add_option("--input-list", opt.input_list,
                 "file of configurations to fix, one path per line (# comments skipped)")
      ->check(non_empty);
  fix.add_option("--generate", opt.generate, "field to generate without --input: unit, smooth, hot")
      ->check(CLI::IsMember({"unit", "smooth", "hot"}));
  add_lattice_option(fix, opt.lattice, "extents Lx,Ly,Lz,Lt of a generated field");
  fix.add_option("--group", group, "gauge group of a generated field: su2, su3")
      ->check(CLI::IsMember({"su2", "su3"}));
  fix.add_option("--random-transform", opt.random_transform_seed,
                 "seed of a random gauge transformation applied first (0: none)")
      ->check(whole_number);
  fix.add_option("--output,-o", opt.output,
                 "where to write the fixed field; several inputs: a pattern with {stem}, "
                 "{name}, {index} or {seq}")
      ->check(non_empty);
  fix.add_option("--output-format", opt.output_format,
                 "nersc (3x3), nersc-2row, ildg, scidac, milc, openqcd or hdf5 (default: from "
                 "the extension of --output, e.g. .h5, .lime, else nersc)")
      ->check(CLI::IsMember({"nersc", "nersc-2row", "ildg", "scidac", "milc", "openqcd", "hdf5"}));
  add_output_bits_option(fix, opt.output_bits, "32 for milc, else 64");
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
  fix.add_option(
         "--tuning", opt.tuning,
         "launch parameters: off (defaults), cached, on (tune what the cache lacks) or force "
         "(default: $GAUGEFIX_TUNING, else on)")
      ->check(CLI::IsMember({"off", "cached", "on", "force"}));
  fix.add_option("--summary", opt.summary,
                 "YAML summary file (several inputs: a pattern, one per input)")
      ->check(non_empty);
  fix.add_option("--history", opt.history,
                 "CSV of the convergence, one row per check (docs/history.md); several inputs: a "
                 "pattern; {copy} names the Gribov copy")
      ->check(non_empty);
  fix.add_option("--journal", opt.journal,
                 "journal of the run, from which the same command continues after a kill "
                 "(default with several inputs: gaugefix-journal.yaml beside the first output)")
      ->check(non_empty);
  fix.add_option("--copies", opt.copies,
                 "Gribov copies: starts per configuration; the largest F is written")
      ->check(whole_number);
  fix.add_flag("--keep-copies", opt.keep_copies,
               "write every copy too, as <output stem>.copy<c>.<extension> (g(x) likewise)");
  fix.add_option("--copy-tolerance", opt.copy_tolerance,
                 "a copy counts as reaching the best when F_best - F <= this")
      ->check(non_negative_real);
  fix.add_option("--unconverged", opt.unconverged,
                 "a field that did not converge: mark (written as <output>.unconverged, g(x) "
                 "likewise) or discard (not written)")
      ->check(CLI::IsMember({"mark", "discard"}));
  fix.add_option("--gauge,-g", gauge, "landau, coulomb or mag")
      ->check(CLI::IsMember({"landau", "coulomb", "mag"}));
  fix.add_option("--precision,-p", precision, "single, mixed or double")
      ->check(CLI::IsMember({"single", "mixed", "double"}));
  fix.add_option("--backend", backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  fix.add_option("--storage", opt.storage,
                 "reals stored per SU(3) link: 8, 12 or 18 (SU(2): 12 or 18), or auto: 18 for "
                 "fasd/facg on the cpu, else 12")
      ->check(CLI::IsMember({"auto", "8", "12", "18"}));
  fix.add_option("--tolerance,-t", opt.fix.tolerance,
                 "stop when theta < tolerance (Coulomb gauge: theta of every time slice)")
      ->check(positive_real);
  fix.add_option("--algorithm", opt.algorithm,
                 "relaxation, overrelaxation, stochastic, or Fourier-accelerated fasd or facg "
                 "(Landau, Coulomb)")
      ->check(CLI::IsMember({"relaxation", "overrelaxation", "stochastic", "fasd", "facg"}));
  fix.add_option("--alpha", opt.alpha,
                 "fasd/facg step: auto (fasd: Barzilai-Borwein, facg: line search) or a fixed step "
                 "> 0 (fasd; facg: first trial)")
      ->check(auto_or_positive_real);
  fix.add_option("--omega", opt.omega, "overrelaxation parameter in [1, 2)")
      ->check(real_in(1, 2, true));
  fix.add_option("--max-iterations", opt.max_iterations, "sweeps of the final phase at most")
      ->check(whole_number);
  fix.add_option("--check-interval", opt.fix.check_interval, "sweeps between measurements")
      ->check(whole_number);
  fix.add_option("--reproject-interval", opt.fix.reproject_interval,
                 "sweeps between reprojections to SU(N) (0: never)")
      ->check(whole_number);
  fix.add_option("--anneal-steps", opt.anneal_steps, "simulated-annealing heatbath steps (0: none)")
      ->check(whole_number);
  fix.add_option("--t-max", opt.t_max, "annealing start temperature")->check(positive_real);
  fix.add_option("--t-min", opt.t_min, "annealing end temperature")->check(positive_real);
  fix.add_option("--micro-steps", opt.micro_steps,
                 "microcanonical sweeps after each annealing step")
      ->check(whole_number);
  fix.add_option("--sr-steps", opt.sr_steps, "stochastic relaxation sweeps before the final phase")
      ->check(whole_number);
  fix.add_option("--sr-probability", opt.sr_probability, "stochastic relaxation probability p")
      ->check(real_in(0, 1, false));
  fix.add_option("--seed", opt.engine.seed, "seed of the random numbers (annealing, stochastic)")
      ->check(whole_number);
  fix.add_option("--checkpoint-interval", opt.checkpoint_interval,
                 "save the fix's state to <output>.checkpoint every this many seconds (0: after "
                 "every sweep; default: only at SIGTERM/SIGINT/SIGHUP); the same command "
                 "continues from it (docs/checkpoints.md)")
      ->check(non_negative_real)
      ->default_str("");
  fix.add_option("--stop-after-iterations", opt.stop_after_iterations,
                 "stop with a checkpoint, as at SIGTERM, once this process has done this many "
                 "iterations (tests)")
      ->check(whole_number)
      ->group("");
  add_measure_options(fix, opt.measure, true);
  add_log_options(fix, opt.log);
  fix.add_flag("--checksum-warning-only", opt.checksum_warning_only,
               "report a checksum mismatch in the input as a warning, not an error");
  fix.callback([&opt, &fix]() {
    for (const CLI::Option* o : fix.get_options())
      if (o->count() > 0) opt.given.insert(o->get_name());
    opt.engine.gauge = parse_gauge(gauge);
    opt.engine.precision = parse_precision(precision);
    opt.engine.backend = parse_backend(backend);
    opt.nc = group == "su2" ? 2 : 3;
  });
}

int run_fix(FixCommandOptions& opt, const std::string& command_line) {
  build_schedule(opt);
  check_fix_options(opt);
  check_measure_options(opt.measure, opt.given, true, opt.engine.gauge);
  const BatchPlan plan = plan_batch(opt); // every path checked before anything is read
  open_log(opt.log);
  if (opt.output.empty())
    log::warning("no output requested: without --output (-o) the fixed field is not written");
  if (!opt.measure.static_potential.empty() && opt.engine.gauge != GaugeKind::coulomb)
    log::warning("--static-potential on {}-gauge fields: the static potential from Wilson lines "
                 "assumes Coulomb gauge",
                 gauge_name(opt.engine.gauge));
  return run_batch(plan, opt, command_line);
}

} // namespace gf
