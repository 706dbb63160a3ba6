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

// The prefixes of one level from the complex vectors of their parents, `parent_at(p, x)` the
// parent p's vector at coordinate x of this direction: out[i] = sum_x e^{i 2 pi n_i x/L} ...
template <class ParentAt>
void transform_level(const std::vector<ModePrefix>& level, const Phases& phases, int components,
                     ParentAt parent_at, double* out) {
  const int width = 2 * components;
  for (std::size_t i = 0; i < level.size(); ++i) {
    if (level[i].mirror >= 0) continue;
    double* acc = out + i * width;
    std::fill(acc, acc + width, 0.0);
    for (int x = 0; x < phases.length; ++x) {
      const int m = phases.at(level[i].n, x);
      add_rotated(acc, parent_at(level[i].parent, x), phases.re[m], phases.im[m], components);
    }
  }
  for (std::size_t i = 0; i < level.size(); ++i)
    if (level[i].mirror >= 0)
      copy_conjugate(out + level[i].mirror * width, out + i * width, components);
}

// The x transform of one line of real components (lx sites, C each).
void transform_line(const double* line, const std::vector<ModePrefix>& xs, const Phases& phases,
                    int components, double* out) {
  const int width = 2 * components;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].mirror >= 0) continue;
    double* __restrict re = out + i * width;
    double* __restrict im = re + components;
    std::fill(re, re + width, 0.0);
    for (int x = 0; x < phases.length; ++x) {
      const int m = phases.at(xs[i].n, x);
      const double c = phases.re[m], s = phases.im[m];
      const double* __restrict a = line + std::size_t(x) * components;
      for (int k = 0; k < components; ++k) {
        re[k] += c * a[k];
        im[k] += s * a[k];
      }
    }
  }
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
      transform_level(
          prefixes.xy, py, components,
          [&](int parent, int y) { return lines.data() + (y * n1 + parent) * width; },
          planes.data() + tz * n2 * width);
    }
  }
  std::vector<double> out(std::size_t(g.nt) * n3 * width);
  const std::vector<ModePrefix>& xyz = prefixes.xyz;
#pragma omp parallel for schedule(static)
  for (std::int64_t ti = 0; ti < std::int64_t(g.nt * n3); ++ti) {
    const std::int64_t t = ti / std::int64_t(n3);
    const std::size_t i = std::size_t(ti) % n3;
    if (xyz[i].mirror >= 0) continue;
    double* acc = out.data() + ti * width;
    for (int z = 0; z < lz; ++z) {
      const int m = pz.at(xyz[i].n, z);
      add_rotated(acc, planes.data() + ((t * lz + z) * n2 + xyz[i].parent) * width, pz.re[m],
                  pz.im[m], components);
    }
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
