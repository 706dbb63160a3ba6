// simd_apply.h: what FourierField (fourier_field.h) needs of the CPU's SIMD move
// (simd_apply_step.h), without its SIMD types, so that it can name it for every backend:
//   run_simd_apply_step<Gauge, Prec, N>(scalar, sites, config)  the move that `scalar`
//                             (ApplyStep) does over items 0 .. sites - 1, W sites at once
//                             (simd_apply_step.h);
//                             bitwise the same links, A_mu(x) and F. Instantiated in
//                             fourier_cpu_simd.cpp for every gauge of the Fourier methods,
//                             precision and group.
#pragma once
#include "backend/launch_config.h"
#include "fix/precision_types.h"
#include "fourier/fourier_functors.h"
#include <cstdint>

namespace gf {

template <class Gauge, class Prec, int N>
using PrecApplyStep =
    ApplyStep<Gauge, typename Prec::storage, typename Prec::link, typename Prec::problem, N>;

template <class Gauge, class Prec, int N>
void run_simd_apply_step(const PrecApplyStep<Gauge, Prec, N>& scalar, std::int64_t sites,
                         const LaunchConfig& config);

} // namespace gf
