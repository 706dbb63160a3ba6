// Instantiates the CUDA engines of mixed precision (storage float, arithmetic double).
#include "backend/cuda_exec.cuh"
#include "fix/engine_impl.h"
#include "fix/engine_instances.h"

namespace gf {

std::unique_ptr<Engine> make_cuda_engine_mixed(const HostField& host, const EngineOptions& opt) {
  return host.nc == 2 ? make_engine_for<CudaExec, MixedPrecision, 2>(host, opt)
                      : make_engine_for<CudaExec, MixedPrecision, 3>(host, opt);
}

} // namespace gf
