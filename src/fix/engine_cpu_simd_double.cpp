// The CPU's SIMD sweeps (simd_site_sweep.h) in double precision, for every gauge and group: one
// translation unit per precision, so that the three compile in parallel.
#include "fix/simd_site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"

namespace gf {

#define GF_SIMD_SWEEP(Gauge, N)                                                                    \
  template void simd_sweep<Gauge, DoublePrecision, N>(                                             \
      int, const ScalarLocalSweep<Gauge, DoublePrecision, N>&, std::int64_t, const LaunchConfig&);
GF_SIMD_SWEEP(LandauGauge, 2)
GF_SIMD_SWEEP(LandauGauge, 3)
GF_SIMD_SWEEP(CoulombGauge, 2)
GF_SIMD_SWEEP(CoulombGauge, 3)
GF_SIMD_SWEEP(MagGauge, 2)
GF_SIMD_SWEEP(MagGauge, 3)
#undef GF_SIMD_SWEEP

} // namespace gf
