#include "app/tune_command.h"
#include "app/cli_checks.h"
#include "app/enum_option.h"
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "fix/random_field.h"
#include "tuning/default_params.h"
#include "tuning/tune_report.h"
#include "tuning/tuning_setup.h"
#include <iostream>
#ifdef GAUGEFIX_HAVE_CUDA
#include "backend/stream_bandwidth.h"
#endif

namespace gf {

void add_tune_options(CLI::App& tune, TuneCommandOptions& opt) {
  add_lattice_option(tune, opt.lattice, "extents Lx,Ly,Lz,Lt of the whole lattice");
  add_enum_option(tune, "--gauge,-g", opt.gauge, "landau, coulomb or mag");
  add_enum_option(tune, "--group", opt.group, "su2 or su3");
  add_enum_option(tune, "--precision,-p", opt.precision, "single, mixed or double");
  add_enum_option(tune, "--backend", opt.backend,
                  "cpu or cuda (default: cuda where the build has it)");
  tune.add_option("--storage", opt.storage,
                  "reals stored per SU(3) link: 8, 12 or 18 (SU(2): 12 or 18)")
      ->check(CLI::IsMember({8, 12, 18}));
  tune.add_flag("--transform", opt.transform, "the launches that also update g(x)");
  tune.add_flag("--anneal", opt.anneal, "also the heatbath of simulated annealing");
  add_enum_option(tune, "--tuning", opt.tuning,
                  "force (retune), on (tune what the cache lacks) or cached")
      ->check(CLI::IsMember({"force", "on", "cached"}));
  add_enum_option(tune, "--exchange", opt.exchange,
                  "halo path between GPUs: auto, staged, direct or peer");
  tune.add_flag("--table", opt.table, "print the lines of the default table for the winners");
  add_log_options(tune, opt.log);
}

int run_tune(const TuneCommandOptions& opt) {
  check_run_paths({}, with_log_file({}, opt.log));
  open_log(opt.log);
  const World world;
  const int L[4] = {opt.lattice[0], opt.lattice[1], opt.lattice[2], opt.lattice[3]};
  for (int d = 0; d < 4; ++d)
    if (L[d] < 2 || L[d] % 2 != 0)
      throw Error("--lattice: extent " + std::to_string(L[d]) + " in direction " + std::to_string(d) +
                  " must be even and >= 2");
  EngineOptions eo;
  eo.gauge = opt.gauge;
  eo.precision = opt.precision;
  eo.backend = opt.backend;
  eo.storage = parse_storage(opt.storage);
  eo.track_transform = opt.transform;
  eo.node_rank = world.node_rank();
  if (world.size() > 1) eo.channel = make_channel(world, opt.exchange);
  const bool root = world.rank() == 0;
  TuningSetup tuning = make_tuning(opt.tuning, eo.backend, eo.node_rank, nullptr);
  double stream = 0;
#ifdef GAUGEFIX_HAVE_CUDA
  if (eo.backend == Backend::cuda && cuda_available()) stream = stream_bandwidth_gbs();
#endif
  tuning.tuner->set_stream_bandwidth(stream);
  eo.tuner = tuning.tuner.get();

  HostField u =
      random_field(decompose_time(L, world), group_nc(opt.group), 1, 0.4, RandomPurpose::test);
  auto engine = make_engine(u, eo);
  UpdateParams local; // overrelaxation: the local family's kernel
  engine->sweep(local, 0);
  if (opt.anneal) {
    UpdateParams heat;
    heat.kind = UpdateKind::heatbath;
    heat.temperature = 1.0;
    engine->sweep(heat, 1);
  }
  engine->measure();
  engine->reproject();
  engine->synchronize();

  if (!root) return 0;
  std::cout << "# gaugefix tune: " << tuning.device.to_string() << "\n# streaming bandwidth "
            << (stream > 0 ? std::to_string(stream) + " GB/s (same run)" : std::string("not measured"))
            << "\n# cache " << (tuning.cache ? tuning.cache->path() : std::string("none")) << "\n";
  for (const TuneReport& r : tuning.tuner->reports()) print_tune_report(std::cout, r);
  if (tuning.tuner->reports().empty())
    std::cout << "# nothing tuned (every kernel came from the cache: use --tuning force)\n";
  for (const auto& [key, params] : tuning.tuner->used()) {
    std::cout << "used " << key.kernel << " [" << key.region << "] " << key.aux << " " << key.extents << ": "
              << format_launch_params(params) << "\n";
    if (opt.table) std::cout << default_table_row(tuning.device, key, params) << "\n";
  }
  return 0;
}

} // namespace gf
