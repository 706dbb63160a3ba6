// fourier_layout.h: where the Fourier-accelerated fixing keeps its fields on one rank, host
// and device (indices only; the arrays belong to fourier_field.h and the transforms).
//
// Slice layout (gradient, preconditioned gradient, direction, the x-y-z transforms): the
// C = ceil((N^2 - 1) / 2) complex components of the traceless Hermitian field (component c
// holds the reals 2c and 2c + 1 of math/hermitian.h's order; SU(2)'s last imaginary part is
// unused), slowest first
//   [local slice t][component c][z][y][x],   index (t C + c) V3 + s,  s = x + Lx (y + Ly z).
// A field with a forward halo has one more slice, t = nt (the next rank's slice 0, or this
// rank's own slice 0 on one rank).
//
// Unit layout (the t transforms, Landau gauge): a unit is one (c, z, y) row of Lx x Lt points,
// u = (c Lz + z) Ly + y; the units are split over the ranks in contiguous ranges, rank q
// holding [first_unit(q), first_unit(q + 1)). On each rank the local units l = u -
// first_unit(rank) form blocks of G = unit_group units (the last one padded with zeros),
//   [block l / G][global t][l % G][x],   x fastest,
// so that every copy between the layouts moves runs of Lx contiguous elements on both sides
// (a GPU's neighbouring threads read and write neighbouring addresses), and the t transforms
// of one block are G Lx lines of stride G Lx, one fixed plan whatever the decomposition (G
// comes from the lattice alone: the GPU's transform group, 1 on a CPU).
// The distributed transpose goes through a message array ordered [unit][local t][x]: on the
// sending side its units run over the whole lattice (the block for rank q is q's unit range),
// on the receiving side [source rank][own unit][source's local t][x]. Both are one array on one
// rank, where no message travels.
#pragma once
#include "core/qualifiers.h"
#include <cstdint>

namespace gf {

// a / b for a >= 0, b > 0, in 32-bit arithmetic where both fit (every realistic local
// lattice): a 64-bit division is several times slower, on CPUs and GPUs alike.
GF_HD inline std::int64_t index_div(std::int64_t a, std::int64_t b) {
  constexpr std::int64_t fits = std::int64_t(1) << 32;
  if (a < fits && b < fits) return std::uint32_t(a) / std::uint32_t(b);
  return a / b;
}

struct FourierLayout {
  int L[4];
  int nt;    // local time slices
  int comps; // complex components per site
  int ranks, rank;
  std::int64_t v3;
  int unit_group = 1;      // G: units per block of the unit layout
  bool site_major = false; // per-site arrays of the step and the links' algebra: site-major (CPU)

  // The step g(x) = exp(-i a D(x)), N x N complex per site, element e = i N + j:
  // [t][e][s] (a GPU's neighbouring threads read neighbouring addresses) or, site-major,
  // [t][s][e] (one site's matrix in one piece, for a CPU core's cache lines and prefetch).
  GF_HD std::int64_t step_index(int t, int e, int elements, std::int64_t s) const {
    return site_major ? (std::int64_t(t) * v3 + s) * elements + e
                      : (std::int64_t(t) * elements + e) * v3 + s;
  }

  GF_HD std::int64_t slice_index(int t, int c, std::int64_t s) const {
    return (std::int64_t(t) * comps + c) * v3 + s;
  }
  GF_HD std::int64_t slice_elements(int slices) const { return std::int64_t(slices) * comps * v3; }
  GF_HD std::int64_t spatial_index(int x, int y, int z) const {
    return x + std::int64_t(L[0]) * (y + std::int64_t(L[1]) * z);
  }

  GF_HD std::int64_t units() const { return std::int64_t(comps) * L[1] * L[2]; }
  GF_HD std::int64_t first_unit(int q) const { return units() * q / ranks; }
  GF_HD std::int64_t local_units() const { return first_unit(rank + 1) - first_unit(rank); }
  // The rank holding unit u: the q with first_unit(q) <= u < first_unit(q + 1).
  GF_HD int unit_owner(std::int64_t u) const {
    return static_cast<int>(index_div((u + 1) * ranks - 1, units()));
  }
  GF_HD std::int64_t unit_elements() const { return std::int64_t(L[0]) * L[3]; }
  GF_HD std::int64_t local_blocks() const { return (local_units() + unit_group - 1) / unit_group; }
  // Elements of a unit array: the whole blocks of the rank with the most units, so that every
  // rank's array is as large (a rank can write into another's; padding stays zero).
  GF_HD std::int64_t unit_array_elements() const {
    const std::int64_t most = (units() + ranks - 1) / ranks;
    return (most + unit_group - 1) / unit_group * unit_group * unit_elements();
  }
  // Elements of this rank's blocks (the t transforms' and the UnitsToPeerSlices' items).
  GF_HD std::int64_t local_block_elements() const {
    return local_blocks() * unit_group * unit_elements();
  }
  GF_HD std::int64_t unit_index(std::int64_t local_unit, int x, int t) const {
    const std::int64_t block = index_div(local_unit, unit_group);
    const std::int64_t in_block = local_unit - block * unit_group;
    return ((block * L[3] + t) * unit_group + in_block) * L[0] + x;
  }
  // Where element i of the unit array lies: its local unit, x and (global) t; false for the
  // padding of the last block. The inverse of unit_index.
  GF_HD bool unit_position(std::int64_t i, std::int64_t& local, int& x, int& t) const {
    const std::int64_t row = index_div(i, L[0]), block_t = index_div(row, unit_group);
    const std::int64_t block = index_div(block_t, L[3]);
    x = static_cast<int>(i - row * L[0]);
    t = static_cast<int>(block_t - block * L[3]);
    local = block * unit_group + (row - block_t * unit_group);
    return local < local_units();
  }
  // Elements of the message block of one unit: nt slices of one x row.
  GF_HD std::int64_t block_elements() const { return std::int64_t(nt) * L[0]; }
};

} // namespace gf
