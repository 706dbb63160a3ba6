// The CPU's SIMD move of the Fourier-accelerated fixing (simd_apply_step.h), for the gauges of
// the Fourier methods, every precision and group.
#include "fourier/simd_apply_step.h"
#include "gauge/landau_coulomb.h"

namespace gf {

#define GF_SIMD_APPLY(Gauge, Prec, N)                                                              \
  template void run_simd_apply_step<Gauge, Prec, N>(const PrecApplyStep<Gauge, Prec, N>&,          \
                                                    std::int64_t, const LaunchConfig&);
#define GF_SIMD_APPLY_PRECISIONS(Gauge, N)                                                         \
  GF_SIMD_APPLY(Gauge, SinglePrecision, N)                                                         \
  GF_SIMD_APPLY(Gauge, MixedPrecision, N)                                                          \
  GF_SIMD_APPLY(Gauge, DoublePrecision, N)
GF_SIMD_APPLY_PRECISIONS(LandauGauge, 2)
GF_SIMD_APPLY_PRECISIONS(LandauGauge, 3)
GF_SIMD_APPLY_PRECISIONS(CoulombGauge, 2)
GF_SIMD_APPLY_PRECISIONS(CoulombGauge, 3)
#undef GF_SIMD_APPLY_PRECISIONS
#undef GF_SIMD_APPLY

} // namespace gf
