// host_field.h: gauge fields and gauge transformations in natural order on the host, in
// double precision. This is the form files are read into and written from, and the form
// the slow reference implementation and the host-side observables work on.
//
// Order, slowest first: t, z, y, x, then mu (x, y, z, t), then row i, column j.
// The field holds the time slices [t0, t0 + nt) of the global lattice (all of them on a
// single rank). ndir is 4 for a gauge field, 1 for a gauge transformation g(x).
// The constructor checks that the slab fits into this machine's memory (host_memory.h):
// gf::Error "memory: ..." instead of std::bad_alloc. The numbers start at zero, from calloc
// (calloc_allocator.h): the pages are touched first by whoever fills them.
#pragma once
#include "lattice/calloc_allocator.h"
#include "lattice/geometry.h"
#include "lattice/host_memory.h"
#include "math/matrix.h"
#include <algorithm>
#include <vector>

namespace gf {

struct HostField {
  Geometry geom; // a slab without halo
  int nc = 3;
  int ndir = 4;
  std::vector<Complex<double>, CallocAllocator<Complex<double>>> data;

  HostField() = default;
  HostField(const Geometry& g, int nc_, int ndir_)
      : geom(g), nc(nc_), ndir(ndir_), data(host_field_elements(g, nc_, ndir_)) {}

  std::int64_t local_sites() const { return geom.local_volume(); }
  // Local natural index of global coordinates (t global, inside the slab).
  std::int64_t local_index(const SiteCoords& c) const {
    return geom.natural_index(c) - std::int64_t(geom.t0) * geom.v3;
  }
  SiteCoords coords(std::int64_t local_site) const {
    SiteCoords c;
    std::int64_t s = local_site;
    c.x[0] = static_cast<int>(s % geom.L[0]);
    s /= geom.L[0];
    c.x[1] = static_cast<int>(s % geom.L[1]);
    s /= geom.L[1];
    c.x[2] = static_cast<int>(s % geom.L[2]);
    c.x[3] = static_cast<int>(s / geom.L[2]) + geom.t0;
    return c;
  }

  Complex<double>* matrix_data(std::int64_t site, int mu) {
    return data.data() + (static_cast<std::size_t>(site) * ndir + mu) * nc * nc;
  }
  const Complex<double>* matrix_data(std::int64_t site, int mu) const {
    return data.data() + (static_cast<std::size_t>(site) * ndir + mu) * nc * nc;
  }

  // The time slices [t0, t0 + nt) of this field (global t0, inside this field's slab).
  HostField slab(int t0, int nt) const {
    HostField out(Geometry::slab(geom.L, t0, nt, false), nc, ndir);
    const std::size_t per_slice = static_cast<std::size_t>(geom.v3) * ndir * nc * nc;
    const auto first = data.begin() + static_cast<std::ptrdiff_t>((t0 - geom.t0) * per_slice);
    std::copy(first, first + static_cast<std::ptrdiff_t>(nt * per_slice), out.data.begin());
    return out;
  }

  template <int N>
  Matrix<double, N> get(std::int64_t site, int mu) const {
    Matrix<double, N> m;
    const Complex<double>* p = matrix_data(site, mu);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        m.m[i][j] = p[i * N + j];
    return m;
  }
  template <int N>
  void set(std::int64_t site, int mu, const Matrix<double, N>& m) {
    Complex<double>* p = matrix_data(site, mu);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        p[i * N + j] = m.m[i][j];
  }
};

} // namespace gf
