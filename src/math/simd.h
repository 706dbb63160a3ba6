// simd.h: Simd<T, W>, W reals of type T (float or double) side by side, one per lattice site,
// as the real type of Complex, Matrix and Quaternion: the CPU's SIMD sweep
// (fix/simd_site_sweep.h) runs the same math templates on W sites at once. Host only.
//
// Contract:
// - every operation is the scalar one lane by lane, with the same IEEE rounding: + - * /,
//   negation, square root (correctly rounded) and inverse_sqrt = 1 / sqrt, never an
//   approximate reciprocal square root. The build turns off floating-point contraction
//   (-ffp-contract=off, and -fno-tree-vectorize on targets with FMA: meson.build), so
//   a * b + c is rounded twice here as in scalar code; a SIMD result is therefore bitwise the
//   scalar result of each lane.
// - comparisons give a mask (Simd<T, W>::Mask, all bits set where true); select(m, a, b)
//   takes a where m is set, b elsewhere (also for Complex and Quaternion, whose scalar
//   versions take a bool), so that the math templates branch without branching.
// - construction from any arithmetic value broadcasts T(value), as the scalar T(value) does.
// - W * sizeof(T) bytes is one or more of the target's vector registers: GCC's vector
//   extensions split a wider type into several (e.g. 8 doubles into two AVX registers).
// - memory: load/store of W consecutive reals (converted from/to the storage type),
//   gather/scatter of W reals at per-lane offsets, and lane access (lane, set_lane).
#pragma once
#include "core/qualifiers.h"
#include "math/random.h"
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace gf {

template <class T, int W>
struct Simd {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  static_assert(W >= 2 && (W & (W - 1)) == 0, "W must be a power of two");
  using value_type = T;
  static constexpr int width = W;
  using Int = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  typedef T Vec __attribute__((vector_size(W * sizeof(T))));
  typedef Int Mask __attribute__((vector_size(W * sizeof(T))));

  Vec v;

  Simd() = default;
  Simd(T s) : v(Vec{} + s) {}
  template <class U>
  requires(std::is_arithmetic_v<U> && !std::is_same_v<U, T>) explicit Simd(U s)
      : Simd(static_cast<T>(s)) {}
  // Lane-wise conversion from another real type (float <-> double).
  template <class U>
  requires(!std::is_same_v<U, T>) explicit Simd(const Simd<U, W>& o)
      : v(__builtin_convertvector(o.v, Vec)) {}

  static Simd from(Vec x) {
    Simd r;
    r.v = x;
    return r;
  }

  T lane(int l) const { return v[l]; }
  void set_lane(int l, T x) { v[l] = x; }

  // W consecutive reals from p, converted from S to T.
  template <class S>
  static Simd load(const S* p) {
    if constexpr (std::is_same_v<S, T>) {
      Simd r;
      std::memcpy(&r.v, p, sizeof(Vec));
      return r;
    } else {
      return Simd(Simd<S, W>::load(p));
    }
  }
  template <class S>
  void store(S* p) const {
    if constexpr (std::is_same_v<S, T>)
      std::memcpy(p, &v, sizeof(Vec));
    else
      Simd<S, W>(*this).store(p);
  }
  // p[at[l]] for every lane l, converted from S to T.
  template <class S>
  static Simd gather(const S* p, const std::int64_t (&at)[W]) {
    Simd r;
    for (int l = 0; l < W; ++l)
      r.v[l] = static_cast<T>(p[at[l]]);
    return r;
  }
  template <class S>
  void scatter(S* p, const std::int64_t (&at)[W]) const {
    for (int l = 0; l < W; ++l)
      p[at[l]] = static_cast<S>(v[l]);
  }

  friend Simd operator+(Simd a, Simd b) { return from(a.v + b.v); }
  friend Simd operator-(Simd a, Simd b) { return from(a.v - b.v); }
  friend Simd operator*(Simd a, Simd b) { return from(a.v * b.v); }
  friend Simd operator/(Simd a, Simd b) { return from(a.v / b.v); }
  friend Simd operator-(Simd a) { return from(-a.v); }
  Simd& operator+=(Simd b) {
    v = v + b.v;
    return *this;
  }
  Simd& operator-=(Simd b) {
    v = v - b.v;
    return *this;
  }
  friend Mask operator<(Simd a, Simd b) { return a.v < b.v; }
  friend Mask operator>(Simd a, Simd b) { return a.v > b.v; }
  friend Mask operator<=(Simd a, Simd b) { return a.v <= b.v; }
  friend Mask operator>=(Simd a, Simd b) { return a.v >= b.v; }
};

template <class T>
inline constexpr bool is_simd = false;
template <class T, int W>
inline constexpr bool is_simd<Simd<T, W>> = true;

template <class T, int W>
Simd<T, W> select(typename Simd<T, W>::Mask m, Simd<T, W> a, Simd<T, W> b) {
  return Simd<T, W>::from(m ? a.v : b.v);
}

namespace detail {

// f applied to each register-sized piece R of a (builds for FMA targets do not auto-vectorise
// loops, see meson.build, so a loop over the lanes would stay scalar).
template <class R, class T, int W, class F>
Simd<T, W> per_register(const Simd<T, W>& a, const F& f) {
  static_assert(sizeof(a.v) % sizeof(R) == 0);
  Simd<T, W> out;
  for (std::size_t i = 0; i < sizeof(a.v) / sizeof(R); ++i) {
    R x;
    std::memcpy(&x, reinterpret_cast<const char*>(&a.v) + i * sizeof(R), sizeof(R));
    x = f(x);
    std::memcpy(reinterpret_cast<char*>(&out.v) + i * sizeof(R), &x, sizeof(R));
  }
  return out;
}

} // namespace detail

// The lane-wise correctly rounded square root (IEEE, as std::sqrt of each lane), with the
// widest square-root instruction the target has.
template <class T, int W>
Simd<T, W> square_root(Simd<T, W> a) {
  [[maybe_unused]] constexpr std::size_t bytes = sizeof(T) * W;
  constexpr bool single = std::is_same_v<T, float>;
#if defined(__AVX512F__)
  // (the zero-masking form with every lane set: _mm512_sqrt_ps trips g++ 12's
  // -Wmaybe-uninitialized on its undefined pass-through operand)
  if constexpr (bytes % 64 == 0) {
    if constexpr (single)
      return detail::per_register<__m512>(a,
                                          [](__m512 x) { return _mm512_maskz_sqrt_ps(0xffff, x); });
    else
      return detail::per_register<__m512d>(a,
                                           [](__m512d x) { return _mm512_maskz_sqrt_pd(0xff, x); });
  }
#endif
#if defined(__AVX__)
  if constexpr (bytes % 32 == 0) {
    if constexpr (single)
      return detail::per_register<__m256>(a, [](__m256 x) { return _mm256_sqrt_ps(x); });
    else
      return detail::per_register<__m256d>(a, [](__m256d x) { return _mm256_sqrt_pd(x); });
  }
#endif
#if defined(__SSE2__)
  if constexpr (bytes % 16 == 0) {
    if constexpr (single)
      return detail::per_register<__m128>(a, [](__m128 x) { return _mm_sqrt_ps(x); });
    else
      return detail::per_register<__m128d>(a, [](__m128d x) { return _mm_sqrt_pd(x); });
  }
#endif
  Simd<T, W> r;
  for (int l = 0; l < W; ++l)
    r.v[l] = std::sqrt(a.v[l]);
  return r;
}

template <class T, int W>
Simd<T, W> inverse_sqrt(Simd<T, W> a) {
  return Simd<T, W>(T(1)) / square_root(a);
}

// Products are never contracted (-ffp-contract=off), see math/unfused.h.
template <class T, int W>
Simd<T, W> unfused_mul(Simd<T, W> a, Simd<T, W> b) {
  return a * b;
}

// W random-number keys, one per lane (site), for the draws of a SIMD sweep.
template <int W>
struct LaneKeys {
  RandomKey k[W];
};

// uniform4<T> of each lane's key, side by side: the draws of the scalar code, site by site.
template <class C, int W>
requires is_simd<C> Uniform4<C> uniform4(const LaneKeys<W>& keys, RandomPurpose purpose,
                                         int subgroup, int hit) {
  static_assert(C::width == W);
  Uniform4<C> out;
  for (int l = 0; l < W; ++l) {
    const Uniform4<typename C::value_type> r =
        uniform4<typename C::value_type>(keys.k[l], purpose, subgroup, hit);
    for (int i = 0; i < 4; ++i)
      out.u[i].set_lane(l, r.u[i]);
  }
  return out;
}

} // namespace gf
