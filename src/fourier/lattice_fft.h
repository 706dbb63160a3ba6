// lattice_fft.h: the discrete Fourier transforms of the Fourier-accelerated fixing, behind a
// small interface so that each backend brings its library: FFTW on the CPU (fftw_fft.h),
// cuFFT on a GPU (cufft_fft.h). A LatticeFft owns two work arrays in the backend's memory
// and transforms them in place, unnormalised, with the signs of momentum.h:
//   slices()  nt time slices in the slice layout (fourier_layout.h); spatial() applies the
//             3-D transform over (x, y, z) to each component of each slice;
//   units()   this rank's units in the unit layout (Landau gauge only); temporal() applies
//             the 1-D transform over t to each (unit, x) line.
// Implementations compute every slice and every unit with one fixed plan (FFTW: one slice or
// block of units per execution; cuFFT: fixed groups of them, cufft_fft.h), so that a value does not
// depend on how many slices or units a rank holds (results are the same for any number of
// ranks and threads). The arrays are in the backend's memory (device memory on a GPU).
// bytes() is the memory the transforms hold.
#pragma once
#include "fourier/fourier_layout.h"
#include "math/complex.h"
#include <cstdint>
#include <memory>

namespace gf {

enum class FftSign { forward, backward };

template <class R>
class LatticeFft {
public:
  virtual ~LatticeFft() = default;
  virtual Complex<R>* slices() = 0;
  virtual Complex<R>* units() = 0;        // null without temporal transforms
  virtual std::int64_t bytes() const = 0; // of the work arrays and the plans' work areas

  // The transforms run in groups (one execution of a plan each): groups of slices (spatial)
  // and of this rank's unit blocks (temporal), each of *_group_elements() consecutive
  // elements of its array (the last group may extend into the padding). The range versions
  // transform groups [first, first + count) only, so that a transpose can send the groups
  // already transformed while the next ones are.
  virtual int spatial_groups() const = 0;
  virtual std::int64_t spatial_group_elements() const = 0;
  virtual int temporal_groups() const = 0;
  virtual std::int64_t temporal_group_elements() const = 0;
  virtual void spatial(FftSign sign, int first, int count) = 0;
  virtual void temporal(FftSign sign, int first, int count) = 0;

  void spatial(FftSign sign) { spatial(sign, 0, spatial_groups()); }
  void temporal(FftSign sign) { temporal(sign, 0, temporal_groups()); }
};

} // namespace gf
