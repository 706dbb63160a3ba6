// Instantiates the CPU engines for every precision, group and gauge.
#include "backend/host_exec.h"
#include "fix/engine_impl.h"
#include "fix/engine_instances.h"

namespace gf {

std::unique_ptr<Engine> make_cpu_engine(const HostField& host, const EngineOptions& opt) {
  const bool su2 = host.nc == 2;
  switch (opt.precision) {
  case Precision::single:
    return su2 ? make_engine_for<HostExec, SinglePrecision, 2>(host, opt)
               : make_engine_for<HostExec, SinglePrecision, 3>(host, opt);
  case Precision::mixed:
    return su2 ? make_engine_for<HostExec, MixedPrecision, 2>(host, opt)
               : make_engine_for<HostExec, MixedPrecision, 3>(host, opt);
  case Precision::double_:
  default:
    return su2 ? make_engine_for<HostExec, DoublePrecision, 2>(host, opt)
               : make_engine_for<HostExec, DoublePrecision, 3>(host, opt);
  }
}

} // namespace gf
