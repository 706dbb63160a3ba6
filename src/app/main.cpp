// gaugefix: command-line entry point. Subcommands: fix, generate, info, convert, transform, tune,
// measure.
// Options come from the command line and, with --config FILE after the subcommand, from a YAML
// file of the same names (yaml_config.h, CLI11's config mechanism; the command line wins).
// Exit status: 0 done (also where the reader of stdout closed it early: docs/logs.md); 1 bad
// input or options (CLI11's parse errors included: the message names the option, the config
// file and key, or the file), or standard output not written; 2 an internal error; 3 (fix)
// not converged.
#include "app/build_info.h"
#include "app/cli_checks.h"
#include "app/convert_command.h"
#include "app/fix_command.h"
#include "app/generate_command.h"
#include "app/info_command.h"
#include "app/measure_command.h"
#include "app/option_suggestions.h"
#include "app/repeated_options.h"
#include "app/transform_command.h"
#include "app/tune_command.h"
#include "app/yaml_config.h"
#include "comm/world.h"
#include "core/error.h"
#include "core/log.h"
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>

namespace {

// The options of every subcommand.
struct Commands {
  gf::FixCommandOptions fix;
  gf::GenerateCommandOptions generate;
  gf::InfoCommandOptions info;
  gf::ConvertCommandOptions convert;
  gf::TransformCommandOptions transform;
  gf::TuneCommandOptions tune;
  gf::MeasureCommandOptions measure;
};

// Every rank runs the same command of the same build: ranks started with different command
// lines (an MPMD launch, mpirun -n 1 gaugefix fix A : -n 1 gaugefix fix B) would take
// different paths and wait for each other forever. Collective; the first thing every rank does.
void check_same_command(const gf::World& world, int argc, char** argv) {
  if (world.size() == 1) return;
  std::string mine = gf::build_line();
  std::string shown;
  for (int i = 1; i < argc; ++i) {
    mine += '\n';
    mine += argv[i];
    shown += ' ';
    shown += argv[i];
  }
  const std::vector<std::string> all = world.gather_strings(mine);
  const std::vector<std::string> lines = world.gather_strings(shown);
  for (std::size_t r = 1; r < all.size(); ++r)
    if (all[r] != all[0])
      throw gf::Error("the ranks were started with different command lines or builds (rank 0: "
                      "gaugefix" +
                      lines[0] + "; rank " + std::to_string(r) + ": gaugefix" + lines[r] +
                      "): every rank must run the same gaugefix command");
}

} // namespace

int main(int argc, char** argv) {
  // A reader that closes the log's pipe (`| head`) ends the log there, not the run (log.h).
  std::signal(SIGPIPE, SIG_IGN);
  gf::MpiSession mpi(argc, argv);
  const gf::World world;
  CLI::App app{"gaugefix: Landau, Coulomb and maximally Abelian gauge fixing of lattice gauge "
               "fields",
               "gaugefix"};
  app.require_subcommand(1);
  app.set_version_flag(
      "--version", [] { return gf::version_text(); },
      "print the version and how this gaugefix was built, then exit");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.option_defaults()->always_capture_default();
  auto yaml = std::make_shared<gf::YamlConfig>(app);
  app.config_formatter(yaml);
  app.set_config("--config", "", "YAML file of options (after the subcommand)")
      ->type_name("FILE")
      ->check(gf::non_empty);
  app.fallthrough(); // --config after the subcommand
  Commands c;
  CLI::App* fix = app.add_subcommand("fix", "fix the gauge of a configuration");
  gf::add_fix_options(*fix, c.fix);
  CLI::App* generate =
      app.add_subcommand("generate", "generate a quenched ensemble (Wilson action)");
  gf::add_generate_options(*generate, c.generate);
  CLI::App* info = app.add_subcommand("info", "describe gauge configuration files and check them");
  gf::add_info_options(*info, c.info);
  CLI::App* convert =
      app.add_subcommand("convert", "convert a configuration to another file format");
  gf::add_convert_options(*convert, c.convert);
  CLI::App* transform =
      app.add_subcommand("transform", "apply a stored gauge transformation g(x) to a gauge field");
  gf::add_transform_options(*transform, c.transform);
  CLI::App* tune = app.add_subcommand(
      "tune", "tune the kernels of a fix on this device and store the winners in the tune cache");
  gf::add_tune_options(*tune, c.tune);
  CLI::App* measure = app.add_subcommand(
      "measure", "measure the gluon or ghost propagator, the static potential, the Faddeev-Popov "
                 "eigenvalue or the Abelian projection of a gauge-fixed field");
  gf::add_measure_command_options(*measure, c.measure);
  for (CLI::App* sub : {fix, generate, info, convert, transform, tune, measure})
    sub->footer(gf::config_footer(*sub));

  std::string command_line;
  for (int i = 0; i < argc; ++i)
    command_line += (i ? " " : "") + std::string(argv[i]);
  // Errors of the command line and the config file: every rank parses the same ones, so where
  // every rank fails the run ends without MPI_Abort (World::end_if_every_rank_failed).
  // A check's message names the options; the config file and key are added where the file gave
  // one of them.
  const auto with_config_source = [&yaml](std::string message) {
    if (message.find("config file '") == std::string::npos)
      message += gf::config_source(*yaml, message);
    return message;
  };
  std::string parse_error;
  try {
    check_same_command(world, argc, argv);
    try {
      const std::vector<std::string> args(argv, argv + argc);
      gf::check_repeated_options(args, {fix, generate, info, convert, transform, tune, measure});
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      if (world.rank() == 0) std::cout << app.help(); // the subcommand's help when it was named
      gf::log::finish_stdout();
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      if (world.rank() == 0) std::cout << app.help("", CLI::AppFormatMode::All);
      gf::log::finish_stdout();
      return 0;
    } catch (const CLI::CallForVersion& e) {
      if (world.rank() == 0) std::cout << e.what();
      gf::log::finish_stdout();
      return 0;
    } catch (const CLI::FileError&) { // --config names no readable file
      const std::string path = app.get_config_ptr()->as<std::string>();
      throw gf::Error("--config '" + path + "': " +
                      (std::filesystem::is_directory(path) ? "a directory, not a YAML file"
                                                           : "no such file, or not readable"));
    } catch (const CLI::ExtrasError& e) { // an option the subcommand does not have
      std::string hint;
      for (const CLI::App* sub : {fix, generate, info, convert, transform, tune})
        if (sub->parsed()) hint = gf::unknown_option_hint(*sub, {argv + 1, argv + argc});
      throw gf::Error(e.what() + hint + gf::config_source(*yaml, e.what()));
    } catch (const CLI::ParseError& e) {
      throw gf::Error(e.what() + gf::config_source(*yaml, e.what()));
    }
  } catch (const gf::Error& e) {
    parse_error = with_config_source(e.what());
  } catch (const std::exception& e) {
    world.abort_all(std::string("internal error: ") + e.what(), 2);
  }
  world.end_if_every_rank_failed(parse_error, 1);
  try {
    if (!parse_error.empty()) throw gf::Error(parse_error); // some ranks only: abort_all
    const gf::LogOptions* log = nullptr;
    for (const auto& [sub, opt] :
         std::initializer_list<std::pair<CLI::App*, gf::LogOptions*>>{{fix, &c.fix.log},
                                                                      {generate, &c.generate.log},
                                                                      {info, &c.info.log},
                                                                      {convert, &c.convert.log},
                                                                      {transform, &c.transform.log},
                                                                      {tune, &c.tune.log},
                                                                      {measure, &c.measure.log}})
      if (app.got_subcommand(sub)) log = opt;
    gf::set_log_verbosity(*log);
    int status = 0;
    if (app.got_subcommand(fix)) {
      c.fix.config = yaml->path(); // an input: never written
      status = gf::run_fix(c.fix, command_line);
    }
    if (app.got_subcommand(generate)) status = gf::run_generate(c.generate, command_line);
    if (app.got_subcommand(info)) status = gf::run_info(c.info, world);
    if (app.got_subcommand(convert)) status = gf::run_convert(c.convert, world);
    if (app.got_subcommand(transform)) status = gf::run_transform(c.transform, world);
    if (app.got_subcommand(tune)) status = gf::run_tune(c.tune);
    if (app.got_subcommand(measure)) {
      c.measure.config = yaml->path(); // an input: never written
      status = gf::run_measure(c.measure, command_line, world);
    }
    gf::log::finish_stdout();
    gf::log::close_file();
    return status;
  } catch (const gf::Error& e) {
    // The stack is unwound here: every file the run had open, HDF5 handles included (owned
    // by objects that close them), is closed before abort_all finalises or aborts MPI.
    // a check after parsing: two options that contradict each other, a path
    world.abort_all(with_config_source(e.what()), 1); // stops every rank, not only this one
  } catch (const std::exception& e) {
    world.abort_all(std::string("internal error: ") + e.what(), 2);
  }
  return 0;
}
