// gaugefix: command-line entry point. Subcommands: fix, generate, info, convert, transform, tune.
// Options come from the command line and, with --config FILE, from a YAML file of the same names.
#include "app/convert_command.h"
#include "app/fix_command.h"
#include "app/generate_command.h"
#include "app/info_command.h"
#include "app/repeated_options.h"
#include "app/transform_command.h"
#include "app/tune_command.h"
#include "app/yaml_config.h"
#include "comm/world.h"
#include "core/error.h"
#include "gaugefix_version.h"
#include <algorithm>
#include <cstdio>

namespace {

std::vector<std::string> long_option_names(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* o : sub.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back(n);
  return names;
}

// The long names of the options that take several values, one argument each (--input a b).
std::vector<std::string> list_option_names(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* o : sub.get_options())
    if (o->get_expected_max() > 1 && o->get_delimiter() == '\0')
      for (const std::string& n : o->get_lnames())
        names.push_back(n);
  return names;
}

// The option of sub an argument names ("--input", "--input=a", "-i", "-ia"), or null.
const CLI::Option* option_of(const CLI::App& sub, const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return nullptr;
  const std::string name = arg[1] == '-' ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
  return sub.get_option_no_throw(name);
}

// Expands "--config FILE" of the subcommand into the file's options, placed before the
// command-line options so that those win (an option the command line gives is dropped from the
// file's, so that a list such as --input is replaced, not extended); `config` gets FILE.
std::vector<std::string> expand_config(const std::vector<std::string>& args, const CLI::App& sub,
                                       std::string& config) {
  std::vector<std::string> out, config_args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--config" || args[i].rfind("--config=", 0) == 0) {
      std::string path;
      if (args[i] == "--config") {
        if (i + 1 >= args.size()) throw gf::Error("--config needs a file name");
        path = args[++i];
      } else {
        path = args[i].substr(9);
      }
      if (path.empty()) throw gf::Error("--config: empty value (a file name is required)");
      config = path;
      config_args = gf::yaml_config_arguments(path, long_option_names(sub), list_option_names(sub));
    } else {
      out.push_back(args[i]);
    }
  }
  if (out.size() < 2) return out;
  std::vector<std::string> merged(out.begin(), out.begin() + 2); // program, subcommand
  std::vector<const CLI::Option*> on_command_line;
  for (std::size_t i = 2; i < out.size() && out[i] != "--"; ++i)
    if (const CLI::Option* o = option_of(sub, out[i])) on_command_line.push_back(o);
  bool dropping = false;
  for (const std::string& a : config_args) { // "--key" then its values
    if (a.rfind("--", 0) == 0)
      dropping = std::find(on_command_line.begin(), on_command_line.end(), option_of(sub, a)) !=
                 on_command_line.end();
    if (!dropping) merged.push_back(a);
  }
  merged.insert(merged.end(), out.begin() + 2, out.end());
  return merged;
}

} // namespace

int main(int argc, char** argv) {
  gf::MpiSession mpi(argc, argv);
  const gf::World world;
  CLI::App app{"gaugefix " GAUGEFIX_VERSION
               ": Landau, Coulomb and maximally Abelian gauge fixing of lattice gauge fields"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gaugefix " GAUGEFIX_VERSION);
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  gf::FixCommandOptions fix_opt;
  CLI::App* fix = app.add_subcommand("fix", "fix the gauge of a configuration");
  fix->add_option("--config", "YAML file with options (same names as the long options)");
  gf::add_fix_options(*fix, fix_opt);
  gf::GenerateCommandOptions generate_opt;
  CLI::App* generate =
      app.add_subcommand("generate", "generate a quenched ensemble (Wilson action)");
  gf::add_generate_options(*generate, generate_opt);
  gf::InfoCommandOptions info_opt;
  CLI::App* info = app.add_subcommand("info", "describe gauge configuration files and check them");
  gf::add_info_options(*info, info_opt);
  gf::ConvertCommandOptions convert_opt;
  CLI::App* convert =
      app.add_subcommand("convert", "convert a configuration to another file format");
  gf::add_convert_options(*convert, convert_opt);
  gf::TransformCommandOptions transform_opt;
  CLI::App* transform =
      app.add_subcommand("transform", "apply a stored gauge transformation g(x) to a gauge field");
  gf::add_transform_options(*transform, transform_opt);

  gf::TuneCommandOptions tune_opt;
  CLI::App* tune = app.add_subcommand(
      "tune", "tune the kernels of a fix on this device and store the winners in the tune cache");
  gf::add_tune_options(*tune, tune_opt);

  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    std::vector<std::string> args(argv, argv + argc);
    gf::check_repeated_options(args, {fix, generate, info, convert, transform, tune});
    args = expand_config(args, *fix, fix_opt.config);
    std::vector<std::string> rev(args.rbegin(), args.rend() - 1); // CLI11 wants reversed, no argv[0]
    app.parse(rev);
    if (app.got_subcommand(fix)) return gf::run_fix(fix_opt, command_line);
    if (app.got_subcommand(generate)) return gf::run_generate(generate_opt);
    if (app.got_subcommand(info)) return gf::run_info(info_opt, world);
    if (app.got_subcommand(convert)) return gf::run_convert(convert_opt, world);
    if (app.got_subcommand(transform)) return gf::run_transform(transform_opt, world);
    if (app.got_subcommand(tune)) return gf::run_tune(tune_opt);
  } catch (const CLI::ParseError& e) {
    if (world.rank() == 0) app.exit(e); // prints help, the version or the error
    return e.get_exit_code() == 0 ? 0 : 1;
  } catch (const gf::Error& e) {
    world.abort_all(e.what(), 1); // stops every rank, not only this one
  } catch (const std::exception& e) {
    world.abort_all(std::string("internal error: ") + e.what(), 2);
  }
  return 0;
}
