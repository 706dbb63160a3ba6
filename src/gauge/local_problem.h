// local_problem.h: the single-site optimisation problem of one SU(2) subgroup (the
// paper's Step 1). Each gauge reduces the 2 N_d links at a site to one of two forms:
//
// LinearProblem (Landau, Coulomb):  f(g) = Re tr(g K) = (g * q)_0,  q a quaternion.
//   The maximum is g* = q^dagger / |q|, with f(g*) = |q|.
// QuadraticProblem (maximally Abelian):  f(g) = v^dagger H v, v = (g00, g01) the first
//   row of g, H a 2 x 2 Hermitian matrix. The maximum is the top eigenvector of H.
//
// Each offers: maximizer() (relaxation), overrelaxed_maximizer(omega), reflection() (the
// microcanonical step, which
// keeps f), value(g), and heatbath(T, ...) drawing g with weight exp(f(g) / T) under Haar
// measure, exactly, from counter-based random numbers.
// All but the heatbath are written without branches on C's values (select, math/real.h),
// so that they run on C = Simd<T, W> (math/simd.h) as well, W sites at once.
#pragma once
#include "math/quaternion.h"
#include "math/random.h"

namespace gf {

// The paper's first-order g^omega: with g = (a0, a), b = (omega a0^2 + |a|^2) /
// (a0^2 + |a|^2), g^omega = (a0, b a) / sqrt(a0^2 + b^2 |a|^2).
template <class C>
GF_HD Quaternion<C> overrelax(const Quaternion<C>& g, C omega) {
  const C ai2 = g[1] * g[1] + g[2] * g[2] + g[3] * g[3];
  const C a02 = g[0] * g[0];
  const C b = (omega * a02 + ai2) / (a02 + ai2);
  const C c = inverse_sqrt(a02 + b * b * ai2);
  return {{g[0] * c, g[1] * b * c, g[2] * b * c, g[3] * b * c}};
}

template <class C>
struct LinearProblem {
  Quaternion<C> q;

  GF_HD friend LinearProblem operator+(const LinearProblem& x, const LinearProblem& y) {
    return {x.q + y.q};
  }

  GF_HD C value(const Quaternion<C>& g) const { return (g * q)[0]; }

  GF_HD Quaternion<C> maximizer() const {
    const C n2 = norm2(q);
    return select(n2 > C(0), scale(conj(q), inverse_sqrt(n2)), quaternion_identity<C>());
  }

  // The overrelaxed maximiser (g*)^omega of overrelax(), formed from q
  // without a division: with g* = (q0, -v) / |q|, b = (omega q0^2 + |v|^2) / |q|^2, and
  // (q0, -b v) |q|^2 = (|q|^2 q0, -(omega q0^2 + |v|^2) v), normalised once.
  GF_HD Quaternion<C> overrelaxed_maximizer(C omega) const {
    const C v2 = q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    const C q02 = q[0] * q[0];
    const C n2 = q02 + v2;
    const C b = omega * q02 + v2;
    return select(n2 > C(0), normalized(Quaternion<C>{{n2 * q[0], -b * q[1], -b * q[2], -b * q[3]}}),
                  quaternion_identity<C>());
  }

  // g*^2 = g* (g* q) / |q| ... maps the identity to its mirror image about g*.
  GF_HD Quaternion<C> reflection() const {
    const Quaternion<C> g = maximizer();
    return normalized(g * g);
  }

  // x0 drawn with density sqrt(1 - x0^2) exp(b x0) on [-1, 1]: Creutz's method for small
  // b, Kennedy-Pendleton for large b. Returns false if no attempt was accepted.
  GF_HD static bool draw_x0(C b, const RandomKey& key, int subgroup, C& x0) {
    constexpr int max_hits = 100;
    for (int hit = 0; hit < max_hits; ++hit) {
      const Uniform4<C> r = uniform4<C>(key, RandomPurpose::heatbath, subgroup, hit);
      if (b < C(2)) {
        x0 = b < C(1e-8) ? C(2) * r.u[0] - C(1)
                         : C(1) + std::log(r.u[0] + (C(1) - r.u[0]) * std::exp(-C(2) * b)) / b;
        if (r.u[1] * r.u[1] <= C(1) - x0 * x0) return true;
      } else {
        const C c = std::cos(C(6.283185307179586) * r.u[1]);
        const C delta = -(std::log(r.u[0]) + c * c * std::log(r.u[2])) / b;
        if (r.u[3] * r.u[3] <= C(1) - delta / C(2)) {
          x0 = C(1) - delta;
          return true;
        }
      }
    }
    return false;
  }

  // The SU(2) element with real part x0 and a uniformly random direction of its
  // imaginary part, drawn from the stream `direction`.
  GF_HD static Quaternion<C> with_random_direction(C x0, const RandomKey& key,
                                                   RandomPurpose direction, int subgroup) {
    const Uniform4<C> r = uniform4<C>(key, direction, subgroup, 0);
    const C cos_theta = C(2) * r.u[0] - C(1);
    const C sin_theta = std::sqrt(C(1) - cos_theta * cos_theta);
    const C phi = C(6.283185307179586) * r.u[1];
    const C len = std::sqrt(C(1) - x0 * x0 > C(0) ? C(1) - x0 * x0 : C(0));
    return {{x0, len * sin_theta * std::cos(phi), len * sin_theta * std::sin(phi), len * cos_theta}};
  }

  GF_HD Quaternion<C> heatbath(C temperature, const RandomKey& key, int subgroup) const {
    const Quaternion<C> g_star = maximizer();
    C x0;
    if (!draw_x0(std::sqrt(norm2(q)) / temperature, key, subgroup, x0)) return g_star;
    // f(x g*) = |q| x0
    return with_random_direction(x0, key, RandomPurpose::heatbath_direction, subgroup) * g_star;
  }
};

template <class C>
struct QuadraticProblem {
  C a, b;         // H00, H11 (real)
  Complex<C> c;   // H01

  GF_HD friend QuadraticProblem operator+(const QuadraticProblem& x, const QuadraticProblem& y) {
    return {x.a + y.a, x.b + y.b, x.c + y.c};
  }

  GF_HD C value(const Quaternion<C>& g) const {
    const Complex<C> v0 = {g[0], g[3]}, v1 = {g[2], g[1]};
    return a * norm2(v0) + b * norm2(v1) + C(2) * (conj_mul(v0, c * v1)).re;
  }

  // Top eigenvalue gap and normalised top eigenvector (e0, e1) of H.
  GF_HD C top_eigenvector(Complex<C>& e0, Complex<C>& e1) const {
    const C half_diff = (a - b) / C(2);
    const C root = square_root(half_diff * half_diff + norm2(c));
    const auto upper = a >= b;
    e0 = select(upper, Complex<C>{half_diff + root, C(0)}, c);  // lambda - b, or H01
    e1 = select(upper, conj(c), Complex<C>{-half_diff + root, C(0)}); // H10, or lambda - a
    const C n2 = norm2(e0) + norm2(e1);
    const auto regular = n2 > C(0);
    const C s = C(1) / square_root(n2);
    e0 = select(regular, s * e0, Complex<C>{C(1), C(0)});
    e1 = select(regular, s * e1, Complex<C>{C(0), C(0)});
    return C(2) * root;
  }

  GF_HD static Quaternion<C> from_row(Complex<C> v0, Complex<C> v1) {
    return {{v0.re, v1.im, v1.re, v0.im}};
  }

  // The maximiser with its U(1) phase chosen so that g00 is real and >= 0 (g3 = 0).
  GF_HD Quaternion<C> maximizer() const {
    Complex<C> e0, e1;
    top_eigenvector(e0, e1);
    const C m = square_root(norm2(e0));
    const Complex<C> phase = (C(1) / m) * conj(e0);
    return from_row({m, C(0)}, select(m > C(0), phase * e1, e1));
  }

  GF_HD Quaternion<C> overrelaxed_maximizer(C omega) const { return overrelax(maximizer(), omega); }

  // v' = 2 <e, v0> e - v0 with v0 = (1, 0): the mirror image of the identity about the
  // top eigenvector; |<e, v'>| = |<e, v0>| so f is unchanged.
  GF_HD Quaternion<C> reflection() const {
    Complex<C> e0, e1;
    top_eigenvector(e0, e1);
    const Complex<C> w = C(2) * conj(e0);
    return from_row(w * e0 - Complex<C>{C(1), C(0)}, w * e1);
  }

  // Under Haar measure u = |<e, v>|^2 is uniform on [0, 1] and f = lambda_min + gap u, so
  // u is drawn by inversion from exp(gap u / T); the two phases are uniform.
  GF_HD Quaternion<C> heatbath(C temperature, const RandomKey& key, int subgroup) const {
    Complex<C> e0, e1;
    const C k = top_eigenvector(e0, e1) / temperature;
    const Uniform4<C> r = uniform4<C>(key, RandomPurpose::heatbath, subgroup, 0);
    const C u = k < C(1e-8) ? r.u[0] : C(1) + std::log(r.u[0] + (C(1) - r.u[0]) * std::exp(-k)) / k;
    const C two_pi = C(6.283185307179586);
    const Complex<C> p1 = {std::cos(two_pi * r.u[1]), std::sin(two_pi * r.u[1])};
    const Complex<C> p2 = {std::cos(two_pi * r.u[2]), std::sin(two_pi * r.u[2])};
    const C su = std::sqrt(u), sv = std::sqrt(C(1) - u > C(0) ? C(1) - u : C(0));
    // second eigenvector: (-e1*, e0*)
    const Complex<C> v0 = su * (p1 * e0) + sv * (p2 * -conj(e1));
    const Complex<C> v1 = su * (p1 * e1) + sv * (p2 * conj(e0));
    return normalized(from_row(v0, v1));
  }
};

} // namespace gf
