#include "gen/ensemble.h"
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "fix/random_field.h"
#include "io/gauge_file.h"
#include "io/output_format.h"
#include "observables/observables.h"
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <sstream>

namespace gf {

namespace {

bool is_generated_start(const std::string& start) {
  return start == "cold" || start == "hot";
}

std::string lattice_text(const std::array<int, 4>& L) {
  return std::to_string(L[0]) + "," + std::to_string(L[1]) + "," + std::to_string(L[2]) + "," +
         std::to_string(L[3]);
}

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

std::int64_t config_sweep(const EnsembleOptions& opt, int index) {
  return opt.thermalisation + std::int64_t(index) * opt.separation;
}

// The field's group and extents against --group and --lattice, where those were given.
void check_matches(const HostField& u, const EnsembleOptions& opt, const std::string& path) {
  const std::array<int, 4> L = {u.geom.L[0], u.geom.L[1], u.geom.L[2], u.geom.L[3]};
  require(opt.nc == 0 || opt.nc == u.nc, "--group su" + std::to_string(opt.nc) +
                                             " does not match " + path + " (SU(" +
                                             std::to_string(u.nc) + "))");
  require(opt.lattice == std::array<int, 4>{0, 0, 0, 0} || opt.lattice == L,
          "--lattice " + lattice_text(opt.lattice) + " does not match " + path + " (" +
              lattice_text(L) + ")");
}

HostField start_field(const EnsembleOptions& opt) {
  if (!is_generated_start(opt.start)) {
    HostField u;
    try {
      u = read_gauge_file(opt.start, World());
    } catch (const Error& e) {
      throw Error(std::string("--start: ") + e.what());
    }
    check_matches(u, opt, opt.start);
    return u;
  }
  const int L[4] = {opt.lattice[0], opt.lattice[1], opt.lattice[2], opt.lattice[3]};
  const double eps = opt.start == "hot" ? 1.0 : 0.0; // eps = 0: the unit field
  return random_field(decompose_time(L, World()), opt.nc == 0 ? 3 : opt.nc, opt.generator.seed, eps,
                      RandomPurpose::generator);
}

// The "key=value" words of an ENSEMBLE_LABEL after its first word (the action).
std::map<std::string, std::string> label_parameters(const std::string& label) {
  std::map<std::string, std::string> m;
  std::istringstream words(label);
  std::string word;
  words >> word;
  while (words >> word)
    if (const auto eq = word.find('='); eq != std::string::npos)
      m[word.substr(0, eq)] = word.substr(eq + 1);
  return m;
}

// The ensemble-defining parameters of `path` (its ENSEMBLE_LABEL) against this run's; an
// Error names the first option that differs.
void check_label(const EnsembleOptions& opt, const std::string& path, const std::string& found) {
  const std::string ours = ensemble_label(opt);
  require(found.substr(0, found.find(' ')) == ours.substr(0, ours.find(' ')),
          path + " belongs to another ensemble (ENSEMBLE_LABEL '" + found + "', this run '" + ours +
              "'); choose another --output-prefix");
  const std::map<std::string, std::string> theirs = label_parameters(found);
  for (const auto& [key, value] : label_parameters(ours)) {
    const auto it = theirs.find(key);
    require(it != theirs.end(),
            path + " does not record --" + key + " (ENSEMBLE_LABEL '" + found +
                "'): it cannot be continued safely; choose another --output-prefix");
    // beta compared as the number (labels of earlier versions wrote 17 digits)
    const bool same = it->second == value || (key == "beta" && parse_real(it->second) &&
                                              parse_real(it->second) == parse_real(value));
    require(same, "--" + key + " " + value + " does not match the ensemble: " + path +
                      " was generated with " + key + "=" + it->second + "; resume with --" + key +
                      " " + it->second + " or choose another --output-prefix");
  }
}

// Reads the last configuration of an interrupted run and checks that it belongs to this one;
// a file that cannot say so (MILC, openQCD) is refused.
HostField resume_field(const EnsembleOptions& opt, int index, std::int64_t& sweep) {
  const std::string path = config_path(opt.output_prefix, index);
  const FileFormat format = detect_format(path);
  require(records_ensemble(format),
          path + " is a " + format_name(format) +
              " file: it records neither the ensemble label nor the sweep, so this run cannot "
              "check that it continues the same ensemble. Continue the stream from it as a new "
              "ensemble (--start " +
              path +
              " and another --output-prefix), or generate with "
              "--output-format nersc, ildg, scidac or hdf5 to resume runs");
  FileInfo info;
  HostField u = read_gauge_file(path, World(), {}, &info);
  check_label(opt, path, info.provenance.ensemble_label);
  sweep = info.provenance.sequence_number.value_or(-1);
  require(sweep == config_sweep(opt, index),
          path + ": sequence number " + std::to_string(sweep) + ", but --thermalisation " +
              std::to_string(opt.thermalisation) + " and --separation " +
              std::to_string(opt.separation) + " put configuration " + std::to_string(index) +
              " at sweep " + std::to_string(config_sweep(opt, index)));
  check_matches(u, opt, path);
  return u;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

void validate(const EnsembleOptions& opt) {
  char beta[32];
  std::snprintf(beta, sizeof beta, "%g", opt.generator.beta);
  require(std::isfinite(opt.generator.beta) && opt.generator.beta > 0,
          std::string("--beta must be > 0 (got ") + beta + ")");
  require(opt.nc == 0 || opt.nc == 2 || opt.nc == 3, "--group must be su2 or su3");
  const bool given = opt.lattice != std::array<int, 4>{0, 0, 0, 0};
  require(given || !is_generated_start(opt.start),
          "--lattice Lx,Ly,Lz,Lt is required with --start " + opt.start);
  for (int d = 0; d < 4 && given; ++d)
    require(opt.lattice[d] >= 2 && opt.lattice[d] % 2 == 0,
            "--lattice " + lattice_text(opt.lattice) + ": every extent must be even and >= 2");
  require(opt.thermalisation >= 0, "--thermalisation must be >= 0");
  require(opt.separation >= 1, "--separation must be >= 1");
  require(opt.configs >= 1, "--configs must be >= 1");
  require(opt.or_sweeps >= 0, "--or-sweeps must be >= 0");
  require(opt.measure_interval >= 1, "--measure-interval must be >= 1");
  require(config_sweep(opt, opt.configs - 1) <= INT_MAX,
          "--thermalisation + (--configs - 1) * --separation exceeds 2^31 - 1 sweeps");
  require(!opt.output_prefix.empty(), "--output-prefix is required");
  // The prefix starts file names (PREFIX.0000): "gen/" or an existing directory would give
  // hidden files inside it (gen/.0000).
  const std::filesystem::path prefix(opt.output_prefix);
  const std::string name = prefix.filename().string();
  require(!name.empty() && name != "." && name != ".." && !std::filesystem::is_directory(prefix),
          "--output-prefix '" + opt.output_prefix +
              "' names a directory: give the start of the file names, e.g. '" +
              (prefix / "cfg").lexically_normal().string() + "' for " +
              (prefix / "cfg.0000").lexically_normal().string() + ", ...");
  const std::filesystem::path dir = prefix.parent_path();
  require(dir.empty() || std::filesystem::is_directory(dir),
          "--output-prefix: directory '" + dir.string() + "' does not exist");
}

bool records_ensemble(FileFormat format) {
  return format != FileFormat::milc && format != FileFormat::openqcd;
}

std::string config_path(const std::string& prefix, int index) {
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, ".%04d", index);
  return prefix + suffix;
}

std::string ensemble_label(const EnsembleOptions& opt) {
  // beta in the shortest form that reads back exactly (5.7, not 5.7000000000000002)
  return fmt::format("wilson beta={} seed={} or-sweeps={} precision={} storage={} start={} "
                     "thermalisation={} separation={}",
                     opt.generator.beta, opt.generator.seed, opt.or_sweeps,
                     name_of(opt.generator.precision), storage_option(opt.generator.storage),
                     is_generated_start(opt.start) ? opt.start : std::string("file"),
                     opt.thermalisation, opt.separation);
}

EnsembleResult run_ensemble(const EnsembleOptions& opt, const EnsembleObserver& observer) {
  validate(opt);
  int last = -1;
  while (std::filesystem::exists(config_path(opt.output_prefix, last + 1)))
    ++last;
  std::int64_t sweep = 0;
  HostField u = last >= 0 ? resume_field(opt, last, sweep) : start_field(opt);
  const int bytes_per_real = opt.format == FileFormat::milc ? 4 : 8; // MILC v5: 32 bits only
  const std::string limit = format_limit(opt.format, u.nc, bytes_per_real);
  require(limit.empty(), std::string("--output-format ") + format_name(opt.format) + ": " + limit);
  int next = last + 1;
  if (observer.started)
    observer.started({u.nc,
                      {u.geom.L[0], u.geom.L[1], u.geom.L[2], u.geom.L[3]},
                      sweep,
                      next,
                      last >= 0 ? config_path(opt.output_prefix, last) : ""});

  const auto t_start = std::chrono::steady_clock::now();
  EnsembleResult result;
  if (next >= opt.configs) return result;
  GeneratorOptions gen_opt = opt.generator;
  const World world;
  gen_opt.node_rank = world.node_rank();
  if (world.size() > 1) gen_opt.channel = make_channel(world, ExchangePath::automatic);
  std::unique_ptr<Generator> gen = make_generator(u, gen_opt);
  std::vector<LinkUpdateKind> kinds = {LinkUpdateKind::heatbath};
  if (opt.or_sweeps > 0) kinds.push_back(LinkUpdateKind::overrelaxation);
  gen->prepare(kinds);
  if (observer.prepared) observer.prepared();
  WriteOptions w;
  w.format = opt.format;
  w.full_matrix = true;
  w.double_precision = bytes_per_real == 8;
  w.provenance.ensemble_id = std::filesystem::path(opt.output_prefix).filename().string();
  w.provenance.ensemble_label = ensemble_label(opt);
  const std::vector<std::string> inputs =
      is_generated_start(opt.start) ? std::vector<std::string>{} : std::vector{opt.start};
  for (;;) {
    if (sweep == config_sweep(opt, next)) {
      const std::string path = config_path(opt.output_prefix, next);
      gen->download(u);
      reunitarize_all(u);
      w.provenance.sequence_number = sweep;
      const auto t_write = std::chrono::steady_clock::now();
      write_gauge_file(path, u, w, World(), inputs);
      const double write_seconds = seconds_since(t_write);
      gen->upload(u); // continue from exactly the field written (bitwise resume)
      ++result.written;
      if (observer.saved)
        observer.saved({next, sweep, path, plaquette(u), write_seconds,
                        static_cast<std::int64_t>(std::filesystem::file_size(path))});
      if (++next >= opt.configs) break;
    }
    const auto t_sweep = std::chrono::steady_clock::now();
    ++sweep;
    gen->sweep(LinkUpdateKind::heatbath, static_cast<std::uint32_t>(sweep));
    for (int k = 0; k < opt.or_sweeps; ++k)
      gen->sweep(LinkUpdateKind::overrelaxation, static_cast<std::uint32_t>(sweep));
    gen->synchronize();
    result.update_seconds += seconds_since(t_sweep);
    ++result.sweeps;
    if (observer.measured && sweep % opt.measure_interval == 0)
      observer.measured({sweep, normalise(gen->measure(), u.geom, u.nc), seconds_since(t_start)});
  }
  result.seconds = seconds_since(t_start);
  return result;
}

} // namespace gf
