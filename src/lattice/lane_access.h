// lane_access.h: FieldView (field_view.h) loads and saves of W matrices at once, one per lane
// of Simd<T, W> (math/simd.h), for the CPU's SIMD sweep. Host only, on views of a CPU's memory
// (each real its own plane: FieldView::grouped is false).
//
// LaneSlots<W> names one matrix per lane by the offset of its real 0 (FieldView::offset; real
// r lies r V3/2 further). Where the W offsets are consecutive (W neighbouring sites of one
// slice and parity, the common case in the structure-of-arrays layout), each real is one
// vector load or store; otherwise the lanes are gathered and scattered one by one.
// Every lane gets the value the scalar FieldView::load / save gives for its matrix, bit for
// bit: the same conversions, the same reunitarisation (12 reals) in lane-wise arithmetic,
// and for 8 reals the scalar decode and encode (reconstruct8.h) run lane by lane.
#pragma once
#include "lattice/field_view.h"
#include "math/simd.h"

namespace gf {

template <int W>
struct LaneSlots {
  std::int64_t at[W];
  bool consecutive; // at[l] == at[0] + l for every lane

  void set(int l, std::int64_t offset) { at[l] = offset; }
  void finish() {
    consecutive = true;
    for (int l = 1; l < W; ++l)
      consecutive = consecutive && at[l] == at[0] + l;
  }
};

// Each real of the W matrices two calls ahead (the lanes two calls on, 2 W sites further):
// the reals of one link are a pitch apart, and a site's links and their reals are more
// streams than the hardware prefetcher follows.
template <int W, class S, int N>
void prefetch_lanes_ahead(const FieldView<S, N>& f, const LaneSlots<W>& m) {
  const auto ahead = reinterpret_cast<std::uintptr_t>(f.data + m.at[0]) + 2 * W * sizeof(S);
  for (int r = 0; r < f.reals(); ++r)
    prefetch_host(ahead + r * f.pitch * sizeof(S));
}

namespace detail {

template <class C, class S, int W>
C load_real(const S* data, const LaneSlots<W>& m, std::int64_t shift) {
  return m.consecutive ? C::load(data + m.at[0] + shift) : C::gather(data + shift, m.at);
}

template <class C, class S, int W>
void save_real(S* data, const LaneSlots<W>& m, std::int64_t shift, const C& x) {
  if (m.consecutive)
    x.store(data + m.at[0] + shift);
  else
    x.scatter(data + shift, m.at);
}

} // namespace detail

template <class C, class S, int N>
requires is_simd<C> Matrix<C, N> load_lanes(const FieldView<S, N>& f,
                                            const LaneSlots<C::width>& m) {
  using T = typename C::value_type;
  const std::int64_t stride = f.pitch;
  Matrix<C, N> u;
  if constexpr (N == 3) {
    if (f.storage == Storage::params8) {
      C q[8];
      for (int r = 0; r < 8; ++r)
        q[r] = detail::load_real<C>(f.data, m, r * stride);
      for (int l = 0; l < C::width; ++l) {
        T ql[8];
        for (int r = 0; r < 8; ++r)
          ql[r] = q[r].lane(l);
        const Matrix<T, 3> ul = su3_from_8(ql);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            u.m[i][j].re.set_lane(l, ul.m[i][j].re);
            u.m[i][j].im.set_lane(l, ul.m[i][j].im);
          }
      }
      return u;
    }
  }
  const int rows = f.storage == Storage::rows ? N - 1 : N;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < N; ++j) {
      const std::int64_t r = 2 * (i * N + j);
      u.m[i][j] = {detail::load_real<C>(f.data, m, r * stride),
                   detail::load_real<C>(f.data, m, (r + 1) * stride)};
    }
  if (f.storage == Storage::rows) reunitarize(u); // as FieldView::load
  return u;
}

template <class C, class S, int N>
requires is_simd<C>
void save_lanes(const FieldView<S, N>& f, const LaneSlots<C::width>& m, const Matrix<C, N>& u) {
  using T = typename C::value_type;
  const std::int64_t stride = f.pitch;
  if constexpr (N == 3) {
    if (f.storage == Storage::params8) {
      C q[8]{}; // every lane is set below; zeroed so that no lane is read unset
      for (int l = 0; l < C::width; ++l) {
        Matrix<T, 3> ul;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            ul.m[i][j] = {u.m[i][j].re.lane(l), u.m[i][j].im.lane(l)};
        T ql[8];
        su3_to_8(ul, ql);
        for (int r = 0; r < 8; ++r)
          q[r].set_lane(l, ql[r]);
      }
      for (int r = 0; r < 8; ++r)
        detail::save_real(f.data, m, r * stride, q[r]);
      return;
    }
  }
  const int rows = f.storage == Storage::rows ? N - 1 : N;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < N; ++j) {
      const std::int64_t r = 2 * (i * N + j);
      detail::save_real(f.data, m, r * stride, u.m[i][j].re);
      detail::save_real(f.data, m, (r + 1) * stride, u.m[i][j].im);
    }
}

} // namespace gf
