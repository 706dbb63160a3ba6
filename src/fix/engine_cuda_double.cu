// Instantiates the CUDA engines of double precision (storage double, arithmetic double).
#include "backend/cuda_exec.cuh"
#include "fix/engine_impl.h"
#include "fix/engine_instances.h"

namespace gf {

std::unique_ptr<Engine> make_cuda_engine_double(const HostField& host, const EngineOptions& opt) {
  return host.nc == 2 ? make_engine_for<CudaExec, DoublePrecision, 2>(host, opt)
                      : make_engine_for<CudaExec, DoublePrecision, 3>(host, opt);
}

} // namespace gf
