#include "gen/generator.h"
#include "core/error.h"
#include "fix/engine_instances.h"
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
  if (links.nc != 2 && links.nc != 3)
    throw Error("gauge group SU(" + std::to_string(links.nc) + ") is not supported (SU(2), SU(3))");
  for (int d = 0; d < 4; ++d)
    if (links.geom.L[d] < 2 || links.geom.L[d] % 2 != 0)
      throw Error("lattice extent " + std::to_string(links.geom.L[d]) + " in direction " +
                  std::to_string(d) + " must be even and >= 2 (checkerboard updates)");
  const int ranks = opt.channel ? opt.channel->ranks() : 1;
  if (links.geom.nt * ranks != links.geom.L[3] || (ranks > 1 && links.geom.nt < 2))
    throw Error("the field's time slices do not form one of " + std::to_string(ranks) +
                " equal slabs of at least 2 slices");
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
