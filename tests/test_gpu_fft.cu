// test_gpu_fft.cu: the cuFFT transforms of Fourier-accelerated fixing (fourier/cufft_fft.h)
// on one GPU, without an engine:
//   - against FFTW (fourier/fftw_fft.h) to rounding, double and float, forward and backward;
//   - decomposition independence: each rank's slices and units of a lattice split over 3
//     ranks (units split unevenly), transformed in small groups (several executions of the
//     plan, the last group padded; the unit layout's blocks are the groups), equal the whole lattice's bit for bit, although a slice
//     or unit sits at another position in its group. Skips when no CUDA device is present.
#include "backend/cuda_exec.cuh"
#include "fix/engine.h"
#include "fourier/cufft_fft.h"
#include "fourier/fftw_fft.h"
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gf {
namespace {

const int lattice[4] = {6, 4, 2, 12}; // 2 x 4 x 2 = 16 or 32 units: uneven on 3 ranks

FourierLayout layout_of(int comps, int ranks, int rank) {
  FourierLayout l;
  for (int mu = 0; mu < 4; ++mu)
    l.L[mu] = lattice[mu];
  l.nt = lattice[3] / ranks;
  l.comps = comps;
  l.ranks = ranks;
  l.rank = rank;
  l.v3 = std::int64_t(lattice[0]) * lattice[1] * lattice[2];
  return l;
}

// The value at a global element index (a smooth but irregular pattern, never zero).
template <class R>
Complex<R> value(int stream, std::int64_t i) {
  const double a = 0.37 * double(i) + stream, b = 0.71 * double(i) - stream;
  return {static_cast<R>(0.5 * std::sin(a) + 0.1), static_cast<R>(0.5 * std::cos(b) - 0.2)};
}

template <class R>
struct Arrays {
  std::vector<Complex<R>> slices, units;
};

// This rank's slices and units, filled from the global pattern.
template <class R>
Arrays<R> input(const FourierLayout& lay) {
  Arrays<R> a;
  a.slices.resize(lay.slice_elements(lay.nt));
  a.units.assign(lay.unit_array_elements(), Complex<R>{0, 0}); // padding zero
  const std::int64_t slice_offset = std::int64_t(lay.rank) * lay.slice_elements(lay.nt);
  for (std::size_t i = 0; i < a.slices.size(); ++i)
    a.slices[i] = value<R>(1, slice_offset + std::int64_t(i));
  const std::int64_t first = lay.first_unit(lay.rank);
  for (std::int64_t u = 0; u < lay.local_units(); ++u)
    for (int t = 0; t < lay.L[3]; ++t)
      for (int x = 0; x < lay.L[0]; ++x)
        a.units[lay.unit_index(u, x, t)] =
            value<R>(2, ((first + u) * lay.L[3] + t) * lay.L[0] + x);
  return a;
}

template <class R>
void copy(LatticeFft<R>& fft, Arrays<R>& a, cudaMemcpyKind kind) {
  const bool up = kind == cudaMemcpyHostToDevice;
  const std::size_t s = sizeof(Complex<R>) * a.slices.size(),
                    u = sizeof(Complex<R>) * a.units.size();
  cuda_check(up ? cudaMemcpy(fft.slices(), a.slices.data(), s, kind)
                : cudaMemcpy(a.slices.data(), fft.slices(), s, kind),
             "cudaMemcpy (test slices)");
  cuda_check(up ? cudaMemcpy(fft.units(), a.units.data(), u, kind)
                : cudaMemcpy(a.units.data(), fft.units(), u, kind),
             "cudaMemcpy (test units)");
}

template <class R>
Arrays<R> on_gpu(const FourierLayout& lay, FftSign sign, std::int64_t group) {
  auto fft = make_cufft<R>(lay, true, group);
  Arrays<R> a = input<R>(lay);
  copy(*fft, a, cudaMemcpyHostToDevice);
  fft->spatial(sign);
  fft->temporal(sign);
  copy(*fft, a, cudaMemcpyDeviceToHost);
  return a;
}

template <class R>
Arrays<R> on_cpu(const FourierLayout& lay, FftSign sign) {
  auto fft = make_fftw<R>(lay, true);
  Arrays<R> a = input<R>(lay);
  std::memcpy(fft->slices(), a.slices.data(), sizeof(Complex<R>) * a.slices.size());
  std::memcpy(fft->units(), a.units.data(), sizeof(Complex<R>) * a.units.size());
  fft->spatial(sign);
  fft->temporal(sign);
  std::memcpy(a.slices.data(), fft->slices(), sizeof(Complex<R>) * a.slices.size());
  std::memcpy(a.units.data(), fft->units(), sizeof(Complex<R>) * a.units.size());
  return a;
}

template <class R>
double max_difference(const std::vector<Complex<R>>& a, const std::vector<Complex<R>>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    d = std::max(d, std::max(std::abs(double(a[i].re) - double(b[i].re)),
                             std::abs(double(a[i].im) - double(b[i].im))));
  return d;
}

template <class R>
void check_against_fftw(double tol) {
  for (int comps : {4, 2})
    for (FftSign sign : {FftSign::forward, FftSign::backward}) {
      FourierLayout lay = layout_of(comps, 1, 0);
      lay.unit_group = cufft_unit_group(lay);
      const Arrays<R> gpu = on_gpu<R>(lay, sign, cufft_group_elements);
      const Arrays<R> cpu = on_cpu<R>(lay, sign);
      // sums of v3 (or Lt) terms of size 1: rounding grows like their count
      EXPECT_LT(max_difference(gpu.slices, cpu.slices), tol * lay.v3) << comps;
      EXPECT_LT(max_difference(gpu.units, cpu.units), tol * lay.L[3]) << comps;
    }
}

TEST(GpuFft, MatchesFftw) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  check_against_fftw<double>(4e-15);
  check_against_fftw<float>(2e-6);
}

// Group sizes: 1 slice and 1 or 2 units per execution; 5 slices and 6 or 13 units (the last
// group padded); the default (everything in one execution).
template <class R>
void check_decomposition() {
  for (int comps : {4, 2})
    for (std::int64_t group :
         {std::int64_t(comps) * 48, std::int64_t(comps) * 48 * 5, cufft_group_elements})
      for (FftSign sign : {FftSign::forward, FftSign::backward}) {
        FourierLayout whole = layout_of(comps, 1, 0);
        whole.unit_group = cufft_unit_group(whole, group);
        const Arrays<R> ref = on_gpu<R>(whole, sign, group);
        for (int rank = 0; rank < 3; ++rank) {
          FourierLayout lay = layout_of(comps, 3, rank);
          lay.unit_group = whole.unit_group;
          const Arrays<R> mine = on_gpu<R>(lay, sign, group);
          const std::int64_t s0 = std::int64_t(rank) * lay.slice_elements(lay.nt);
          const std::string what = "comps " + std::to_string(comps) + ", group " +
                                   std::to_string(group) + ", rank " + std::to_string(rank);
          EXPECT_EQ(0, std::memcmp(mine.slices.data(), ref.slices.data() + s0,
                                   sizeof(Complex<R>) * mine.slices.size()))
              << "slices differ: " << what;
          const std::int64_t first = lay.first_unit(rank);
          std::int64_t differ = 0;
          for (std::int64_t u = 0; u < lay.local_units(); ++u)
            for (int t = 0; t < lay.L[3]; ++t)
              for (int x = 0; x < lay.L[0]; ++x)
                differ += std::memcmp(&mine.units[lay.unit_index(u, x, t)],
                                      &ref.units[whole.unit_index(first + u, x, t)],
                                      sizeof(Complex<R>)) != 0;
          EXPECT_EQ(0, differ) << "unit elements differ: " << what;
        }
      }
}

TEST(GpuFft, DecompositionIndependentBitwise) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  check_decomposition<double>();
  check_decomposition<float>();
}

} // namespace
} // namespace gf
