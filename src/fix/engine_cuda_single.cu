// Instantiates the CUDA engines of single precision (storage float, arithmetic float).
#include "backend/cuda_exec.cuh"
#include "fix/engine_impl.h"
#include "fix/engine_instances.h"

namespace gf {

std::unique_ptr<Engine> make_cuda_engine_single(const HostField& host, const EngineOptions& opt) {
  return host.nc == 2 ? make_engine_for<CudaExec, SinglePrecision, 2>(host, opt)
                      : make_engine_for<CudaExec, SinglePrecision, 3>(host, opt);
}

} // namespace gf
