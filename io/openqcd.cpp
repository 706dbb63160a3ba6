#include "io/openqcd.h"
#include "comm/host_halo.h"
#include "core/error.h"
#include "io/field_checks.h"
#include "io/field_codec.h"
#include "io/parallel_file.h"
#include "observables/observables.h"
#include <cmath>
#include <cstdio>

namespace gf {

namespace {

constexpr std::int64_t matrix_bytes = 9 * 16;
constexpr std::int64_t entry_bytes = 8 * matrix_bytes; // the 8 links of one odd site
constexpr double plaquette_tolerance = 1e-10;

// openQCD's direction (0 = time) of our direction mu (3 = time).
int openqcd_dir(int mu) {
  return (mu + 1) % 4;
}

// Index of the odd site with spatial coordinates c among the odd sites of its time slice.
std::int64_t entry_index(const Geometry& g, const SiteCoords& c) {
  return (c.x[2] + std::int64_t(g.L[2]) * (c.x[1] + std::int64_t(g.L[1]) * c.x[0])) / 2;
}

std::int64_t slice_bytes(const Geometry& g) {
  return g.v3h * entry_bytes;
}

bool odd(const SiteCoords& c) {
  return ((c.x[0] + c.x[1] + c.x[2] + c.x[3]) & 1) != 0;
}

// Local natural index of spatial coordinates c in local slice d.
std::int64_t local_site(const Geometry& g, const SiteCoords& c, int d) {
  return c.x[0] + std::int64_t(g.L[0]) *
                      (c.x[1] + std::int64_t(g.L[1]) * (c.x[2] + std::int64_t(g.L[2]) * d));
}

std::string general(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.15g", v);
  return b;
}

} // namespace

HostField read_openqcd(const std::string& path, const World& world, const ReadOptions&,
                       FileInfo* info) {
  const std::string src = "openQCD file '" + path + "'";
  const std::int64_t file_size = file_bytes(src, path);
  if (file_size < openqcd_header_bytes)
    throw Error(src + ": truncated file: " + std::to_string(file_size) +
                " bytes, the header alone needs " + std::to_string(openqcd_header_bytes));
  const std::vector<unsigned char> h = read_slab_bytes(path, 0, openqcd_header_bytes);
  int n[4];
  std::int64_t extents[4];
  for (int k = 0; k < 4; ++k)
    extents[k] = static_cast<std::int32_t>(load_u32(h.data() + 4 * k, false));
  const std::int64_t sites = checked_sites(src, "dims N0..N3", extents);
  for (int k = 0; k < 4; ++k) {
    n[k] = static_cast<int>(extents[k]);
    if (n[k] % 2 != 0)
      throw Error(src + ": dims: N" + std::to_string(k) + " = " + std::to_string(n[k]) +
                  " is not a positive even lattice extent");
  }
  const double stored = load_real(h.data() + 16, 8, false);
  const int L[4] = {n[1], n[2], n[3], n[0]};
  const std::int64_t expected =
      checked_sum(src, openqcd_header_bytes, checked_product(src, sites / 2, entry_bytes));
  if (file_size != expected)
    throw Error(src + ": size: the file has " + std::to_string(file_size) +
                " bytes, but N0..N3 = " + std::to_string(n[0]) + " " + std::to_string(n[1]) + " " +
                std::to_string(n[2]) + " " + std::to_string(n[3]) + " need " +
                std::to_string(expected) + ": " +
                (file_size < expected ? "truncated file" : "file too long") + " or wrong dims");

  HostField u = allocate_slab(src, L, 3, 4, world);
  const Geometry& g = u.geom;
  // The odd sites of the slab's slices, then those of the next slice.
  std::vector<unsigned char> buf =
      read_slab_bytes(path, openqcd_header_bytes + g.t0 * slice_bytes(g), g.nt * slice_bytes(g));
  const std::vector<unsigned char> next = read_slab_bytes(
      path, openqcd_header_bytes + (g.t0 + g.nt) % g.L[3] * slice_bytes(g), slice_bytes(g));
  buf.insert(buf.end(), next.begin(), next.end());

  bool finite = true;
  for (int d = 0; d < g.nt; ++d)
    for (std::int64_t i = 0; i < g.v3; ++i) {
      const std::int64_t s = d * g.v3 + i;
      const SiteCoords c = u.coords(s);
      for (int mu = 0; mu < 4; ++mu) {
        // U(y, mu) is U(y, mu) of y where y is odd, else U(x - mu, mu) of x = y + mu.
        const SiteCoords x = odd(c) ? c : g.forward(c, mu);
        const int dx = x.x[3] - g.t0;
        const int slot = 2 * openqcd_dir(mu) + (odd(c) ? 0 : 1);
        const unsigned char* p =
            buf.data() + (dx * g.v3h + entry_index(g, x)) * entry_bytes + slot * matrix_bytes;
        Complex<double>* m = u.matrix_data(s, mu);
        for (int k = 0; k < 9; ++k, p += 16) {
          m[k] = {load_real(p, 8, false), load_real(p + 8, 8, false)};
          finite = finite && std::isfinite(m[k].re) && std::isfinite(m[k].im);
        }
      }
    }

  FileInfo own;
  FileInfo* fi = info ? info : &own;
  check_links(src, u, 8, finite, world, fi);
  const double computed = 3 * fi->plaquette;
  if (!(std::abs(stored - computed) <= plaquette_tolerance))
    throw Error(src + ": plaquette mismatch: header " + general(stored) +
                ", computed from the data " + general(computed) +
                " (openQCD normalisation, sum of Re tr U(p) / 6V; tolerance " +
                general(plaquette_tolerance) + ")");
  fi->format = FileFormat::openqcd;
  std::copy(L, L + 4, fi->dims);
  fi->big_endian = false;
  fi->stored = {{"PLAQUETTE", general(stored)}};
  fi->computed = {{"PLAQUETTE", general(computed)}};
  return u;
}

void write_openqcd(const std::string& path, const HostField& slab, const WriteOptions& opt,
                   const World& world, const std::vector<std::string>& inputs) {
  const std::string src = "openQCD output '" + path + "'";
  if (slab.ndir != 4 || slab.nc != 3)
    throw Error(src + ": openQCD files hold SU(3) gauge fields only");
  if (!opt.double_precision)
    throw Error(src + ": openQCD files hold double precision only: write them with precision 64");
  const Geometry& g = slab.geom;
  const HostField next = next_slice(slab, world);
  const double plaq = 3 * plaquette(slab, world);

  // U(c, mu) with c's time slice given relative to the slab (0 .. nt; nt is the next slice).
  const auto link = [&](const SiteCoords& c, int mu) {
    const int d = c.x[3] - g.t0;
    return d < g.nt ? slab.matrix_data(local_site(g, c, d), mu)
                    : next.matrix_data(local_site(g, c, 0), mu);
  };
  SlabFileWriter out(path, world, inputs);
  if (world.rank() == 0) {
    unsigned char h[openqcd_header_bytes];
    const int n[4] = {g.L[3], g.L[0], g.L[1], g.L[2]};
    for (int k = 0; k < 4; ++k)
      store_u32(static_cast<std::uint32_t>(n[k]), h + 4 * k, false);
    store_real(plaq, h + 16, 8, false);
    out.write_at(0, h, openqcd_header_bytes);
  }
  std::vector<unsigned char> buf(static_cast<std::size_t>(slice_bytes(g)));
  for (int d = 1; d <= g.nt; ++d) {
    unsigned char* p = buf.data();
    SiteCoords x;
    x.x[3] = g.t0 + d;
    for (x.x[0] = 0; x.x[0] < g.L[0]; ++x.x[0])
      for (x.x[1] = 0; x.x[1] < g.L[1]; ++x.x[1])
        for (x.x[2] = 0; x.x[2] < g.L[2]; ++x.x[2]) {
          if (!odd(x)) continue;
          for (int q = 0; q < 4; ++q) {
            const int mu = (q + 3) % 4;
            for (const Complex<double>* m : {link(x, mu), link(g.backward(x, mu), mu)})
              for (int k = 0; k < 9; ++k, p += 16) {
                store_real(m[k].re, p, 8, false);
                store_real(m[k].im, p + 8, 8, false);
              }
          }
        }
    out.write_at(openqcd_header_bytes + (g.t0 + d) % g.L[3] * slice_bytes(g), buf.data(),
                 slice_bytes(g));
  }
  out.commit();
}

} // namespace gf
