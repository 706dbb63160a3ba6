// Instantiates the CUDA generators for every precision and group (one nvcc run).
#include "backend/cuda_exec.cuh"
#include "gen/generator_impl.h"
#include "gen/generator_instances.h"

namespace gf {

std::unique_ptr<Generator> make_cuda_generator(const HostField& host, const GeneratorOptions& opt) {
  switch (opt.precision) {
  case Precision::single:
    return make_generator_for<CudaExec, float, float>(host, opt);
  case Precision::mixed:
    return make_generator_for<CudaExec, float, double>(host, opt);
  case Precision::double_:
  default:
    return make_generator_for<CudaExec, double, double>(host, opt);
  }
}

} // namespace gf
