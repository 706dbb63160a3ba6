// fftw_fft.h: LatticeFft on the CPU with FFTW 3 (double: libfftw3, float: libfftw3f).
// Plans are made once with FFTW_ESTIMATE (deterministic: no timing decides them) for one
// slice (the C components as a batch of 3-D transforms) and one block of units (G Lx
// transforms of length Lt and stride G Lx, fourier_layout.h; G = 1 on a CPU); the work arrays come
// from fftw_malloc, so every slice and unit has the alignment the plans were made for. The slices,
// and the units, are shared among the OpenMP threads (fftw_execute_dft on distinct arrays is
// thread-safe), which is FFTW's own threading made deterministic: a value never depends on the
// number of threads.
#pragma once
#include "fourier/lattice_fft.h"

namespace gf {

// temporal: whether the t transforms (and units()) exist (Landau gauge).
template <class R>
std::unique_ptr<LatticeFft<R>> make_fftw(const FourierLayout& layout, bool temporal);

} // namespace gf
