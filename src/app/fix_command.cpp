#include "app/fix_command.h"
#include "app/batch_plan.h"
#include "app/batch_run.h"
#include "app/cli_checks.h"
#include "app/enum_option.h"
#include "app/fix_checks.h"
#include "app/log_options.h"
#include "app/output_bits.h"
#include "core/log.h"

namespace gf {

void add_fix_options(CLI::App& fix, FixCommandOptions& opt) {
  FixPlan& plan = opt.plan;
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
  add_enum_option(fix, "--group", opt.group, "gauge group of a generated field: su2, su3");
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
  add_enum_option(fix, "--exchange", plan.exchange,
                  "halo path between GPUs of several ranks: auto, staged, direct or peer");
  add_enum_option(fix, "--tuning", plan.tuning,
                  "launch parameters: off (defaults), cached, on (tune what the cache lacks) or "
                  "force (default: $GAUGEFIX_TUNING, else on)");
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
  add_enum_option(fix, "--gauge,-g", plan.gauge, "landau, coulomb or mag");
  add_enum_option(fix, "--precision,-p", plan.precision, "single, mixed or double");
  add_enum_option(fix, "--preconditioner-precision", plan.preconditioner_precision,
                  "fasd/facg: the preconditioner's transforms in single or double (single in a "
                  "double or mixed fix: half their bytes), or auto: the fix's precision");
  add_enum_option(fix, "--backend", plan.backend, "cpu or cuda");
  fix.add_option_function<std::string>(
         "--storage",
         [&plan](const std::string& reals) {
           plan.storage = reals == "auto" ? 0 : std::stoi(reals);
         },
         "reals stored per SU(3) link: 8, 12 or 18 (SU(2): 12 or 18), or auto: 18 for "
         "fasd/facg on the cpu, else 12")
      ->check(CLI::IsMember({"auto", "8", "12", "18"}))
      ->default_str("auto");
  fix.add_option("--tolerance,-t", plan.tolerance,
                 "stop when theta < tolerance (Coulomb gauge: theta of every time slice)")
      ->check(positive_real);
  add_enum_option(fix, "--algorithm", plan.algorithm,
                  "relaxation, overrelaxation, stochastic, or Fourier-accelerated fasd or facg "
                  "(Landau, Coulomb)");
  fix.add_option_function<std::string>(
         "--alpha",
         [&plan](const std::string& step) { plan.alpha = step == "auto" ? 0 : std::stod(step); },
         "fasd/facg step: auto (fasd: Barzilai-Borwein, facg: line search) or a fixed step "
         "> 0 (fasd; facg: first trial)")
      ->check(auto_or_positive_real)
      ->default_str("auto");
  fix.add_option("--omega", plan.omega, "overrelaxation parameter in [1, 2)")
      ->check(real_in(1, 2, true));
  fix.add_option("--max-iterations", plan.max_iterations, "sweeps of the final phase at most")
      ->check(whole_number);
  fix.add_option("--check-interval", plan.check_interval, "sweeps between measurements")
      ->check(whole_number);
  fix.add_option("--reproject-interval", plan.reproject_interval,
                 "sweeps between reprojections to SU(N) (0: never)")
      ->check(whole_number);
  fix.add_option("--anneal-steps", plan.anneal_steps,
                 "simulated-annealing heatbath steps (0: none)")
      ->check(whole_number);
  fix.add_option("--t-max", plan.t_max, "annealing start temperature")->check(positive_real);
  fix.add_option("--t-min", plan.t_min, "annealing end temperature")->check(positive_real);
  fix.add_option("--micro-steps", plan.micro_steps,
                 "microcanonical sweeps after each annealing step")
      ->check(whole_number);
  fix.add_option("--sr-steps", plan.sr_steps, "stochastic relaxation sweeps before the final phase")
      ->check(whole_number);
  fix.add_option("--sr-probability", plan.sr_probability, "stochastic relaxation probability p")
      ->check(real_in(0, 1, false));
  fix.add_option("--seed", plan.seed, "seed of the random numbers (annealing, stochastic)")
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
  fix.add_flag("--signal-before-output", opt.signal_before_output,
               "send this process SIGTERM after the schedule, before the outputs are written "
               "(tests: the outputs are written, then the run ends by the signal)")
      ->group("");
  add_measure_options(fix, opt.measure, true);
  add_log_options(fix, opt.log);
  fix.add_flag("--checksum-warning-only", opt.checksum_warning_only,
               "report a checksum mismatch in the input as a warning, not an error");
  fix.callback([&opt, &fix]() {
    for (const CLI::Option* o : fix.get_options())
      if (o->count() > 0) opt.given.insert(o->get_name());
  });
}

int run_fix(FixCommandOptions& opt, const std::string& command_line) {
  complete_plan(opt);
  check_fix_options(opt);
  check_measure_options(opt.measure, opt.given, true, opt.plan.gauge);
  const BatchPlan plan = plan_batch(opt); // every path checked before anything is read
  open_log(opt.log);
  if (opt.output.empty())
    log::warning("no output requested: without --output (-o) the fixed field is not written");
  if (!opt.measure.static_potential.empty() && opt.plan.gauge != GaugeKind::coulomb)
    log::warning("--static-potential on {}-gauge fields: the static potential from Wilson lines "
                 "assumes Coulomb gauge",
                 name_of(opt.plan.gauge));
  return run_batch(plan, opt, command_line);
}

} // namespace gf
