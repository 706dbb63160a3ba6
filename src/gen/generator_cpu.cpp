// Instantiates the CPU generators for every precision and group.
#include "backend/host_exec.h"
#include "gen/generator_impl.h"
#include "gen/generator_instances.h"

namespace gf {

std::unique_ptr<Generator> make_cpu_generator(const HostField& host, const GeneratorOptions& opt) {
  switch (opt.precision) {
  case Precision::single:
    return make_generator_for<HostExec, float, float>(host, opt);
  case Precision::mixed:
    return make_generator_for<HostExec, float, double>(host, opt);
  case Precision::double_:
  default:
    return make_generator_for<HostExec, double, double>(host, opt);
  }
}

} // namespace gf
