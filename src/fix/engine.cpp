#include "fix/engine.h"
#include "core/error.h"
#include "fix/engine_instances.h"
#include "fix/launch_tunable.h"
#include "fix/simd_sweep.h"

namespace gf {

#ifdef GAUGEFIX_HAVE_CUDA
bool cuda_available() {
  return cuda_device_count() > 0;
}
#else
bool cuda_available() {
  return false;
}
#endif

int variant_lanes(const std::string& variant) {
  for (int lanes : {1, 2, 4, 8})
    if (variant == lanes_variant(lanes) || variant == lanes_variant(lanes, true)) return lanes;
  throw Error(
      "unknown sweep variant '" + variant +
      "' (expected site1, site2, site4, site8, site2-rows, site4-rows or simd4, simd8, simd16)");
}

SweepVariant sweep_variant(const LaunchParams& p) {
  if (const int w = simd_variant_width(p.variant)) return {1, launch_config(p), w};
  const int lanes = variant_lanes(p.variant);
  return {lanes, launch_config(p), 0, p.variant == lanes_variant(lanes, true)};
}

void check_updatable(const HostField& links, const Channel* channel) {
  if (links.nc != 2 && links.nc != 3)
    throw Error("gauge group SU(" + std::to_string(links.nc) + ") is not supported (SU(2), SU(3))");
  for (int d = 0; d < 4; ++d)
    if (links.geom.L[d] < 2 || links.geom.L[d] % 2 != 0)
      throw Error("lattice extent " + std::to_string(links.geom.L[d]) + " in direction " +
                  std::to_string(d) + " must be even and >= 2 (checkerboard updates)");
  if (links.geom.v3h >= (std::int64_t(1) << 31))
    throw Error("the spatial volume " + std::to_string(links.geom.v3) +
                " is too large (at most 2^32 sites per time slice)");
  const int ranks = channel ? channel->ranks() : 1;
  const Geometry& g = links.geom;
  if (g.nt * ranks != g.L[3] || (ranks == 1 && g.t0 != 0))
    throw Error("the field holds time slices " + std::to_string(g.t0) + ".." +
                std::to_string(g.t0 + g.nt - 1) + " of " + std::to_string(g.L[3]) +
                ", which is not one of " + std::to_string(ranks) + " equal slabs");
  if (ranks > 1 && g.nt < 2)
    throw Error("at least 2 time slices per rank are needed (got " + std::to_string(g.nt) + ")");
}

std::unique_ptr<Engine> make_engine(const HostField& links, const EngineOptions& opt) {
  check_updatable(links, opt.channel.get());
  check_storage(opt.storage, links.nc);
  if (opt.backend == Backend::cpu) return make_cpu_engine(links, opt);
#ifdef GAUGEFIX_HAVE_CUDA
  if (!cuda_available()) throw Error("backend cuda requested, but no CUDA device was found");
  select_cuda_device(opt.node_rank);
  switch (opt.precision) {
  case Precision::single:
    return make_cuda_engine_single(links, opt);
  case Precision::mixed:
    return make_cuda_engine_mixed(links, opt);
  case Precision::double_:
  default:
    return make_cuda_engine_double(links, opt);
  }
#else
  throw Error("backend cuda requested, but this gaugefix was built without CUDA (-Dcuda=enabled)");
#endif
}

} // namespace gf
