#include "gen/generator.h"
#include "core/error.h"
#include "fix/engine_instances.h"
#include "gen/gen_functors.h"
#include "gen/generator_instances.h"
#include <string>

namespace gf {

GeneratorMeasurement normalise(const GeneratorSums& s, const Geometry& geom, int nc) {
  double plaquette = 0, accepted = 0;
  for (std::size_t t = 0; t < s.plaquette.size(); ++t) {
    plaquette += s.plaquette[t];
    accepted += s.accepted[t];
  }
  const double v = static_cast<double>(geom.global_volume());
  const int subgroups = nc * (nc - 1) / 2;
  return {plaquette / (6.0 * nc * v), accepted / (4.0 * subgroups * v)};
}

void Generator::sweep(LinkUpdateKind kind, std::uint32_t sweep) {
  for (int mu = 0; mu < 4; ++mu)
    for (int parity = 0; parity < 2; ++parity)
      sub_sweep(kind, mu, parity, sweep);
}

std::unique_ptr<Generator> make_generator(const HostField& links, const GeneratorOptions& opt) {
  check_updatable(links, opt.channel.get());
  check_storage(opt.storage, links.nc);
  if (opt.sub_sweep_launch && opt.sub_sweep_launch->variant != "site1" &&
      opt.sub_sweep_launch->variant != split_variant)
    throw Error("unknown generator sub-sweep variant '" + opt.sub_sweep_launch->variant +
                "' (expected site1 or split)");
  if (opt.backend == Backend::cpu) return make_cpu_generator(links, opt);
#ifdef GAUGEFIX_HAVE_CUDA
  if (!cuda_available()) throw Error("backend cuda requested, but no CUDA device was found");
  select_cuda_device(opt.node_rank);
  return make_cuda_generator(links, opt);
#else
  throw Error("backend cuda requested, but this gaugefix was built without CUDA (-Dcuda=enabled)");
#endif
}

} // namespace gf
