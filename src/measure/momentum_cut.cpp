#include "measure/momentum_cut.h"
#include "core/error.h"
#include <algorithm>
#include <cmath>
#include <numbers>

namespace gf {

namespace {

// Distance of the lattice momentum p from the nearest body diagonal, compared with the width
// as GLU's cylinder_DF compares it (the 2^4 diagonals (+-1, ..., +-1) of the first `dims`
// directions, the others 0).
bool within_cylinder(const double p[4], int dims, double width) {
  const double scale = 1.0 / (2.0 * std::sqrt(double(dims)));
  for (int d = 0; d < 16; ++d) {
    double diag[4];
    for (int mu = 0; mu < 4; ++mu)
      diag[mu] = mu < dims ? (((d >> mu) & 1) ? 1.0 : -1.0) : 0.0;
    double along = 0;
    for (int mu = 0; mu < 4; ++mu)
      along += p[mu] * diag[mu];
    along *= scale;
    double off = 0;
    for (int mu = 0; mu < 4; ++mu) {
      const double e = p[mu] - along * diag[mu];
      off += e * e;
    }
    if (std::sqrt(off) <= width) return true;
  }
  return false;
}

} // namespace

double lattice_momentum(int n, int L) {
  return 2.0 * std::sin(n * (2.0 * std::numbers::pi / L) * 0.5);
}

std::vector<std::array<int, 4>> cut_momenta(const int L[4], int dims, const MomentumCut& cut) {
  const int smallest = *std::min_element(L, L + dims);
  double ratio[4];
  for (int mu = 0; mu < 4; ++mu)
    ratio[mu] = double(smallest) / double(L[mu]);
  const double width = 2.0 * std::numbers::pi * cut.cylinder_width / smallest;
  std::int64_t count = 1;
  for (int mu = 0; mu < dims; ++mu)
    count *= L[mu];
  std::vector<std::array<int, 4>> kept;
  for (std::int64_t i = 0; i < count; ++i) {
    std::array<int, 4> n{0, 0, 0, 0};
    std::int64_t rest = i;
    for (int mu = 0; mu < dims; ++mu) {
      n[mu] = int(rest % L[mu]) - L[mu] / 2;
      rest /= L[mu];
    }
    double n2 = 0;
    bool in_cube = true;
    for (int mu = 0; mu < dims; ++mu) {
      const double r = ratio[mu] * n[mu];
      n2 += r * r;
      in_cube = in_cube && std::fabs(r) <= std::sqrt(double(cut.max_n2));
    }
    bool keep = false;
    switch (cut.kind) {
    case CutKind::hypercubic:
      keep = in_cube;
      break;
    case CutKind::psq:
      keep = n2 <= cut.max_n2;
      break;
    case CutKind::cylinder:
      if (n2 <= cut.max_n2) {
        double p[4] = {0, 0, 0, 0};
        for (int mu = 0; mu < dims; ++mu)
          p[mu] = lattice_momentum(n[mu], L[mu]);
        keep = within_cylinder(p, dims, width);
      }
      break;
    }
    if (keep) kept.push_back(n);
  }
  return kept;
}

} // namespace gf
