// generator_instances.h: the per-backend factories behind make_generator. The CUDA one
// exists only in a CUDA build (generator_cuda.cu, every precision in one translation unit).
#pragma once
#include "gen/generator.h"

namespace gf {

std::unique_ptr<Generator> make_cpu_generator(const HostField& host, const GeneratorOptions& opt);
std::unique_ptr<Generator> make_cuda_generator(const HostField& host, const GeneratorOptions& opt);

} // namespace gf
