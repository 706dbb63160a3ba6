// engine_instances.h: the per-backend engine factories behind make_engine. The CUDA
// ones exist only in a CUDA build (one translation unit per precision, to keep each
// nvcc run small: engine_cuda_single.cu, engine_cuda_mixed.cu, engine_cuda_double.cu).
#pragma once
#include "fix/engine.h"

namespace gf {

std::unique_ptr<Engine> make_cpu_engine(const HostField& host, const EngineOptions& opt);
std::unique_ptr<Engine> make_cuda_engine_single(const HostField& host, const EngineOptions& opt);
std::unique_ptr<Engine> make_cuda_engine_mixed(const HostField& host, const EngineOptions& opt);
std::unique_ptr<Engine> make_cuda_engine_double(const HostField& host, const EngineOptions& opt);
int cuda_device_count();
// Makes device node_rank mod cuda_device_count() current for this process.
void select_cuda_device(int node_rank);

} // namespace gf
