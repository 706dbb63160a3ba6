#include "measure/partial_fourier.h"
#include "core/error.h"
#include <climits>
#include <cmath>
#include <map>
#include <numbers>
#include <string>

namespace gf {

namespace {

using Key = std::vector<int>;

// The distinct prefixes of the given length of the modes, in lexicographic order, indexed in
// `index`; `parents` indexes those one shorter.
std::vector<ModePrefix> prefix_level(const std::vector<std::array<int, 4>>& modes, int length,
                                     const std::map<Key, int>& parents, std::map<Key, int>& index) {
  for (const auto& m : modes)
    index.emplace(Key(m.begin(), m.begin() + length), 0);
  int next = 0;
  for (auto& entry : index)
    entry.second = next++;
  std::vector<ModePrefix> level(index.size());
  for (const auto& [key, i] : index) {
    Key negative(key.size());
    for (std::size_t mu = 0; mu < key.size(); ++mu)
      negative[mu] = -key[mu];
    const auto found = index.find(negative);
    const int parent = length == 1 ? -1 : parents.at(Key(key.begin(), key.end() - 1));
    level[i] = {parent, key.back(), found != index.end() && found->second < i ? found->second : -1};
  }
  return level;
}

// e^{i 2 pi m/L} for m = 0 .. L - 1; at(n, x) is the m of e^{i 2 pi n x/L}.
struct Phases {
  int length;
  std::vector<double> re, im;
  explicit Phases(int l) : length(l), re(l), im(l) {
    for (int m = 0; m < l; ++m) {
      const double angle = 2.0 * std::numbers::pi * m / l;
      re[m] = std::cos(angle);
      im[m] = std::sin(angle);
    }
  }
  int at(int n, int x) const {
    const long long m = (static_cast<long long>(n) * x) % length;
    return static_cast<int>(m < 0 ? m + length : m);
  }
};

// acc += (c + i s) in, complex C-vectors.
inline void add_rotated(double* __restrict acc, const double* __restrict in, double c, double s,
                        int components) {
  double* __restrict acc_im = acc + components;
  const double* __restrict in_im = in + components;
  for (int k = 0; k < components; ++k) {
    const double r = in[k], i = in_im[k];
    acc[k] += c * r - s * i;
    acc_im[k] += c * i + s * r;
  }
}

void copy_conjugate(const double* from, double* to, int components) {
  for (int k = 0; k < components; ++k) {
    to[k] = from[k];
    to[components + k] = -from[components + k];
  }
}

// The terms x and L - x of a sum over x = 0 .. L - 1 paired (x = 1 .. (L - 1)/2), in place:
// f(x) becomes f(x) + f(L - x) and f(L - x) becomes f(x) - f(L - x), so that
//   e^{i k x} f(x) + e^{-i k x} f(L - x) = cos(k x) [f(x) + f(L - x)] + i sin(k x) [f(x) - f(L -
//   x)]
// halves the multiplications. x = 0 and, for even L, x = L/2 stay alone. at(x): the vector at
// x, `width` doubles.
template <class At>
void fold(int length, int width, At at) {
  for (int x = 1; 2 * x < length; ++x) {
    double* __restrict a = at(x);
    double* __restrict b = at(length - x);
    for (int k = 0; k < width; ++k) {
      const double sum = a[k] + b[k], difference = a[k] - b[k];
      a[k] = sum;
      b[k] = difference;
    }
  }
}

// The x of the lone terms of a folded sum: 0, and L/2 for even L.
int lone_terms(int length, int lone[2]) {
  lone[0] = 0;
  lone[1] = length / 2;
  return length % 2 == 0 && length > 1 ? 2 : 1;
}

// sum_x e^{i 2 pi n x/L} f(x) of real C-vectors folded by `fold`, into the complex C-vector out.
template <class At>
void folded_real_sum(int n, const Phases& phases, int components, At at, double* out) {
  double* __restrict re = out;
  double* __restrict im = out + components;
  std::fill(re, re + 2 * components, 0.0);
  int lone[2];
  const int lones = lone_terms(phases.length, lone);
  for (int j = 0; j < lones; ++j) {
    const int m = phases.at(n, lone[j]);
    const double c = phases.re[m], s = phases.im[m];
    const double* __restrict a = at(lone[j]);
    for (int k = 0; k < components; ++k) {
      re[k] += c * a[k];
      im[k] += s * a[k];
    }
  }
  for (int x = 1; 2 * x < phases.length; ++x) {
    const int m = phases.at(n, x);
    const double c = phases.re[m], s = phases.im[m];
    const double* __restrict even = at(x);
    const double* __restrict odd = at(phases.length - x);
    for (int k = 0; k < components; ++k) {
      re[k] += c * even[k];
      im[k] += s * odd[k];
    }
  }
}

// The same of complex C-vectors.
template <class At>
void folded_complex_sum(int n, const Phases& phases, int components, At at, double* out) {
  double* __restrict re = out;
  double* __restrict im = out + components;
  std::fill(re, re + 2 * components, 0.0);
  int lone[2];
  const int lones = lone_terms(phases.length, lone);
  for (int j = 0; j < lones; ++j) {
    const int m = phases.at(n, lone[j]);
    add_rotated(out, at(lone[j]), phases.re[m], phases.im[m], components);
  }
  for (int x = 1; 2 * x < phases.length; ++x) {
    const int m = phases.at(n, x);
    const double c = phases.re[m], s = phases.im[m];
    const double* __restrict even_re = at(x);
    const double* __restrict even_im = even_re + components;
    const double* __restrict odd_re = at(phases.length - x);
    const double* __restrict odd_im = odd_re + components;
    for (int k = 0; k < components; ++k) {
      re[k] += c * even_re[k] - s * odd_im[k];
      im[k] += c * even_im[k] + s * odd_re[k];
    }
  }
}

// The prefixes of one level, out[i] = sum_x e^{i 2 pi n_i x/L} of their parents' complex
// vectors, folded: `parent_at(p, x)` is parent p's vector at coordinate x of this direction.
template <class ParentAt>
void transform_level(const std::vector<ModePrefix>& level, const Phases& phases, int components,
                     ParentAt parent_at, double* out) {
  const int width = 2 * components;
  for (std::size_t i = 0; i < level.size(); ++i)
    if (level[i].mirror < 0)
      folded_complex_sum(
          level[i].n, phases, components, [&](int x) { return parent_at(level[i].parent, x); },
          out + i * width);
  for (std::size_t i = 0; i < level.size(); ++i)
    if (level[i].mirror >= 0)
      copy_conjugate(out + level[i].mirror * width, out + i * width, components);
}

// The x transform of one line of real components (lx sites, C each; folded here).
void transform_line(double* line, const std::vector<ModePrefix>& xs, const Phases& phases,
                    int components, double* out) {
  const int width = 2 * components;
  const auto at = [&](int x) { return line + std::size_t(x) * components; };
  fold(phases.length, components, at);
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (xs[i].mirror < 0) folded_real_sum(xs[i].n, phases, components, at, out + i * width);
  for (std::size_t i = 0; i < xs.size(); ++i)
    if (xs[i].mirror >= 0) copy_conjugate(out + xs[i].mirror * width, out + i * width, components);
}

} // namespace

ModePrefixes::ModePrefixes(const std::vector<std::array<int, 4>>& modes) {
  std::map<Key, int> one, two, three;
  x = prefix_level(modes, 1, {}, one);
  xy = prefix_level(modes, 2, one, two);
  xyz = prefix_level(modes, 3, two, three);
  spatial_of_mode.reserve(modes.size());
  for (const auto& m : modes)
    spatial_of_mode.push_back(three.at(Key(m.begin(), m.begin() + 3)));
}

std::vector<double> slice_transforms(const Geometry& g, const ModePrefixes& prefixes,
                                     int components, const LineComponents& line) {
  const int lx = g.L[0], ly = g.L[1], lz = g.L[2];
  const std::size_t width = 2 * std::size_t(components);
  const std::size_t n1 = prefixes.x.size(), n2 = prefixes.xy.size(), n3 = prefixes.xyz.size();
  const Phases px(lx), py(ly), pz(lz);
  const std::int64_t planes_count = std::int64_t(g.nt) * lz;
  // after x and y: per (t, z), the xy prefixes
  std::vector<double> planes(std::size_t(planes_count) * n2 * width);
#pragma omp parallel
  {
    std::vector<double> values(std::size_t(lx) * components), lines(std::size_t(ly) * n1 * width);
#pragma omp for schedule(static)
    for (std::int64_t tz = 0; tz < planes_count; ++tz) {
      for (int y = 0; y < ly; ++y) {
        line((tz * ly + y) * lx, lx, values.data());
        transform_line(values.data(), prefixes.x, px, components, lines.data() + y * n1 * width);
      }
      const auto line_at = [&](std::size_t parent, int y) {
        return lines.data() + (y * n1 + parent) * width;
      };
      for (std::size_t parent = 0; parent < n1; ++parent)
        fold(ly, int(width), [&](int y) { return line_at(parent, y); });
      transform_level(prefixes.xy, py, components, line_at, planes.data() + tz * n2 * width);
    }
  }
  const auto plane_at = [&](std::int64_t t, std::size_t parent, int z) {
    return planes.data() + ((t * lz + z) * n2 + parent) * width;
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t ti = 0; ti < std::int64_t(g.nt * n2); ++ti)
    fold(lz, int(width),
         [&](int z) { return plane_at(ti / std::int64_t(n2), std::size_t(ti) % n2, z); });
  std::vector<double> out(std::size_t(g.nt) * n3 * width);
  const std::vector<ModePrefix>& xyz = prefixes.xyz;
#pragma omp parallel for schedule(static)
  for (std::int64_t ti = 0; ti < std::int64_t(g.nt * n3); ++ti) {
    const std::int64_t t = ti / std::int64_t(n3);
    const std::size_t i = std::size_t(ti) % n3;
    if (xyz[i].mirror < 0)
      folded_complex_sum(
          xyz[i].n, pz, components, [&](int z) { return plane_at(t, xyz[i].parent, z); },
          out.data() + ti * width);
  }
  for (std::int64_t t = 0; t < g.nt; ++t)
    for (std::size_t i = 0; i < n3; ++i)
      if (xyz[i].mirror >= 0)
        copy_conjugate(out.data() + (t * n3 + xyz[i].mirror) * width,
                       out.data() + (t * n3 + i) * width, components);
  return out;
}

std::vector<double> gather_slices(const std::vector<double>& mine, const World& world) {
  if (world.size() == 1) return mine;
  const std::int64_t total = world.sum(static_cast<std::int64_t>(mine.size()));
  if (total >= std::int64_t(INT_MAX))
    throw Error("gluon propagator: the spatial transforms at the cut's momenta hold " +
                std::to_string(total) +
                " reals, more than one gather over the ranks can take (2^31 - 1); use a smaller "
                "--max-n2");
  return world.gather_concat(mine);
}

std::vector<double> time_transforms(const std::vector<std::array<int, 4>>& modes,
                                    const ModePrefixes& prefixes, int lt, int components,
                                    const std::vector<double>& slices) {
  const std::size_t width = 2 * std::size_t(components), n3 = prefixes.xyz.size();
  if (slices.size() != std::size_t(lt) * n3 * width)
    throw Error("gluon propagator: the ranks' slabs do not tile the lattice in time");
  const Phases pt(lt);
  std::vector<double> out(modes.size() * width);
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < modes.size(); ++r) {
    const std::size_t s = std::size_t(prefixes.spatial_of_mode[r]);
    for (int t = 0; t < lt; ++t) {
      const int m = pt.at(modes[r][3], t);
      add_rotated(out.data() + r * width, slices.data() + (t * n3 + s) * width, pt.re[m], pt.im[m],
                  components);
    }
  }
  return out;
}

} // namespace gf
