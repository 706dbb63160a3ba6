// stream_bandwidth.h: the streaming limit the benchmarks quote their kernels against,
// measured in the same run on the same GPU: an in-place read + write of a large float4
// array (bytes counted: read plus written), the median of several repetitions, in GB/s.
// pinned_copy_gbs: host <-> device copies from pinned memory (the staged halo path), the
// median over repetitions, in GB/s.
#pragma once

namespace gf {

double stream_bandwidth_gbs(double gib = 2.0, int repetitions = 20);
const char* cuda_device_name();
double pinned_copy_gbs(double mib, bool to_device, int repetitions = 20);

} // namespace gf
