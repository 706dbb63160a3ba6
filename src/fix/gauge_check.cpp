#include "fix/gauge_check.h"
#include "comm/mpi_channel.h"

namespace gf {

Measurement measure_gauge(const HostField& u, GaugeKind gauge, const World& world) {
  EngineOptions opt;
  opt.gauge = gauge;
  opt.precision = Precision::double_;
  opt.backend = Backend::cpu;
  opt.storage = Storage::full;
  if (world.size() > 1) opt.channel = make_channel(world, ExchangePath::automatic);
  return normalise(make_engine(u, opt)->measure(), gauge, u.nc, u.geom);
}

} // namespace gf
