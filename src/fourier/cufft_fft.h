// cufft_fft.h: LatticeFft on an NVIDIA GPU with cuFFT (double: Z2Z, float: C2C), on the
// default stream, the work arrays in device memory (cudaMalloc). Defined in cufft_fft.cu,
// which only the CUDA build compiles.
//
// Decomposition independence: cuFFT may choose different kernels (transforms per block,
// elements per thread) for different batch counts, so a plan's batch never depends on the
// number of slices or units a rank holds. Each transform is one fixed plan over a fixed
// group: h time slices (h C three-dimensional transforms) or g units (g Lx lines of length
// Lt, of stride g Lx: a block of the unit layout), h and g chosen from the lattice alone
// (about 2^20 complex numbers per group), and executed once per group of the rank's slices
// or units. The arrays are padded to whole
// groups with zeros that no other step reads (and that stay zero). So each slice and each
// line is computed by the same plan whatever the decomposition; only its position inside
// the group's batch can differ, which selects its data, not its arithmetic (checked
// bitwise against the whole lattice on 2 and 3 GPUs: FourierRanks.* under mpirun).
#pragma once
#include "fourier/lattice_fft.h"

namespace gf {

// Complex numbers per group (per execution of a plan): large enough that a launch is not
// dominated by its overhead, small enough that padding the last group costs little.
inline constexpr std::int64_t cufft_group_elements = std::int64_t(1) << 20;

// g: the units of the t plan's group, from the lattice alone (at least one); the layout's
// unit_group (fourier_layout.h), which make_cufft takes from the layout.
inline int cufft_unit_group(const FourierLayout& layout,
                            std::int64_t group_elements = cufft_group_elements) {
  const std::int64_t g = group_elements / layout.unit_elements();
  return static_cast<int>(g < 1 ? 1 : g > layout.units() ? layout.units() : g);
}

// temporal: whether the t transforms (and units()) exist (Landau gauge). group_elements sets
// h (whole slices, at least one); tests make it small to have many groups (and set the
// layout's unit_group small).
template <class R>
std::unique_ptr<LatticeFft<R>> make_cufft(const FourierLayout& layout, bool temporal,
                                          std::int64_t group_elements = cufft_group_elements);

} // namespace gf
