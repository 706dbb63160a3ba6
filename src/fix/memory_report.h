// memory_report.h: the log line of what a Fourier-accelerated fix holds on one rank's device,
// for engines whose headers must stay free of the logging library (CUDA translation units).
// own_bytes: the links, g(x) and the fix's arrays; device_used: the memory in use on the
// device (every process), or -1 on the CPU; sites: the rank's.
#pragma once
#include <cstdint>

namespace gf {

void report_fourier_memory(std::int64_t own_bytes, std::int64_t device_used, std::int64_t sites);

} // namespace gf
