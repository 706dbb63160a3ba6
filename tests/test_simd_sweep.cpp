// The CPU's SIMD sweep (fix/simd_site_sweep.h) gives bitwise the field of the scalar sweep,
// for every width compiled, gauge, update kind of the local family, precision, storage and
// group, with g(x) tracked; on a lattice whose rows and half-slices are not multiples of the
// widths (vectors that span rows and slices) and whose sites per parity leave a remainder for
// the scalar tail. Also: the Simd type's arithmetic lane by lane against the scalar one, and
// no fused multiply-adds in the build.
#include "fix/engine.h"
#include "fix/launch_tunable.h"
#include "fix/simd_sweep.h"
#include "math/simd.h"
#include "test_fields.h"
#include <cstring>
#include <gtest/gtest.h>
#include <string>

namespace gf {
namespace {

struct Swept {
  HostField links, transform;
};

Swept sweep_with(const HostField& start, const EngineOptions& eo, const SweepVariant& v,
                 const std::vector<UpdateParams>& kinds) {
  Swept r{start, HostField(start.geom, start.nc, 1)};
  auto e = make_engine(start, eo);
  e->set_sweep_variant(v);
  std::uint32_t sweep = 0;
  for (const UpdateParams& p : kinds)
    for (int k = 0; k < 2; ++k)
      e->sweep(p, sweep++);
  e->download(r.links, &r.transform);
  return r;
}

bool same_bits(const HostField& a, const HostField& b) {
  return a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(a.data[0])) == 0;
}

UpdateParams kind(UpdateKind k) {
  UpdateParams p;
  p.kind = k;
  p.omega = 1.6;
  p.probability = 0.4;
  p.temperature = 0.7;
  return p;
}

const char* storage_name(Storage s) {
  return s == Storage::full ? "18" : s == Storage::rows ? "12" : "8";
}

// Two sweeps of each update kind of the local family in turn, so that every kind updates
// a field the others changed.
std::vector<UpdateParams> local_kinds() {
  return {kind(UpdateKind::relaxation), kind(UpdateKind::overrelaxation),
          kind(UpdateKind::stochastic_relaxation), kind(UpdateKind::microcanonical)};
}

// 6 x 2 x 2 x 6: rows of 3 sites (no vector fits a row), 12 sites per half-slice (neither 8
// nor 16 divides it: vectors span slices), 72 per parity (16 leaves 8 to the scalar tail).
TEST(SimdSweep, EqualsTheScalarSweepBitwise) {
  const int L[4] = {6, 2, 2, 6};
  const SweepVariant scalar{1, {0, 0, -1}, 0};
  int compared = 0;
  for (int nc : {2, 3}) {
    HostField start = testing::random_field(L, nc, 17, 0.8);
    for (GaugeKind gauge : {GaugeKind::landau, GaugeKind::coulomb, GaugeKind::mag})
      for (Precision prec : {Precision::single, Precision::mixed, Precision::double_})
        for (Storage storage : {Storage::params8, Storage::rows, Storage::full}) {
          if (storage == Storage::params8 && nc != 3) continue;
          EngineOptions eo;
          eo.gauge = gauge;
          eo.precision = prec;
          eo.storage = storage;
          eo.track_transform = true;
          eo.seed = 9;
          const Swept ref = sweep_with(start, eo, scalar, local_kinds());
          for (int width : simd_sweep_widths) {
            const Swept simd = sweep_with(start, eo, {1, {0, 0, -1}, width}, local_kinds());
            const std::string what = "SU(" + std::to_string(nc) + ") " + name_of(gauge) + " " +
                                     name_of(prec) + " storage " + storage_name(storage) + " simd" +
                                     std::to_string(width);
            EXPECT_TRUE(same_bits(ref.links, simd.links)) << what << ": links";
            EXPECT_TRUE(same_bits(ref.transform, simd.transform)) << what << ": g(x)";
            ++compared;
          }
        }
  }
  EXPECT_EQ(compared, 5 * 3 * 3 * int(std::size(simd_sweep_widths)));
}

// The dynamic schedule (chunks of 16 sites, fewer than some widths) gives the same bits.
TEST(SimdSweep, DynamicScheduleEqualsStatic) {
  const int L[4] = {6, 2, 2, 6};
  const HostField start = testing::random_field(L, 3, 5, 0.8);
  EngineOptions eo;
  eo.track_transform = true;
  const Swept ref = sweep_with(start, eo, {1, {0, 0, -1}, 0}, local_kinds());
  for (int width : simd_sweep_widths)
    EXPECT_TRUE(
        same_bits(ref.links, sweep_with(start, eo, {1, {16, 0, -1}, width}, local_kinds()).links))
        << "simd" << width;
  EXPECT_TRUE(
      same_bits(ref.links, sweep_with(start, eo, {1, {16, 0, -1}, 0}, local_kinds()).links));
}

// The sweeps did something: the reference is not the start field (else equal bits would
// prove nothing).
TEST(SimdSweep, SweepsChangeTheField) {
  const int L[4] = {6, 2, 2, 6};
  const HostField start = testing::random_field(L, 3, 17, 0.8);
  EngineOptions eo;
  const Swept s = sweep_with(start, eo, {1, {0, 0, -1}, simd_sweep_widths[0]},
                             {kind(UpdateKind::overrelaxation)});
  EXPECT_FALSE(same_bits(start, s.links));
}

// A SIMD variant forced on the heatbath runs the scalar sweep (the heatbath has no SIMD
// form); a width that was not compiled is refused, naming it.
TEST(SimdSweep, HeatbathRunsScalarAndUnknownWidthIsRefused) {
  const int L[4] = {6, 2, 2, 4};
  const HostField start = testing::random_field(L, 3, 3, 0.8);
  EngineOptions eo;
  eo.track_transform = true;
  const std::vector<UpdateParams> heat = {kind(UpdateKind::heatbath)};
  const Swept ref = sweep_with(start, eo, {1, {0, 0, -1}, 0}, heat);
  const Swept simd = sweep_with(start, eo, {1, {0, 0, -1}, simd_sweep_widths[0]}, heat);
  EXPECT_TRUE(same_bits(ref.links, simd.links));
  try {
    sweep_with(start, eo, {1, {0, 0, -1}, 3}, {kind(UpdateKind::overrelaxation)});
    ADD_FAILURE() << "width 3 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("3 sites"), std::string::npos) << e.what();
  }
}

TEST(SimdSweep, VariantNames) {
  for (int w : simd_sweep_widths) {
    EXPECT_EQ(simd_variant_width(simd_variant(w)), w);
    const SweepVariant v = sweep_variant({simd_variant(w), 256, 0, -1, false});
    EXPECT_EQ(v.simd, w);
    EXPECT_EQ(v.lanes, 1);
    EXPECT_EQ(v.config.block, 256);
  }
  EXPECT_EQ(simd_variant_width("site1"), 0);
  EXPECT_EQ(sweep_variant({"site4", 128, 0, -1, false}).lanes, 4);
  EXPECT_THROW(sweep_variant({"simd3", 128, 0, -1, false}), Error);
}

// The GPU's kernels compiled for 12-real storage and overrelaxation alone: their names, and a
// clear error where one is forced on the CPU or on another storage.
TEST(SweepVariantNames, RowsOverrelaxationKernels) {
  for (int lanes : {2, 4}) {
    const SweepVariant v = sweep_variant({lanes_variant(lanes, true), 64, 0, -1, false});
    EXPECT_EQ(v.lanes, lanes);
    EXPECT_TRUE(v.rows_overrelaxation);
    EXPECT_FALSE(sweep_variant({lanes_variant(lanes), 64, 0, -1, false}).rows_overrelaxation);
  }
  EXPECT_EQ(lanes_variant(4, true), "site4-rows");
  EXPECT_THROW(sweep_variant({"site4-full", 64, 0, -1, false}), Error);
  const int L[4] = {4, 4, 4, 4};
  const HostField start = testing::random_field(L, 3, 3, 0.5);
  for (Storage storage : {Storage::rows, Storage::full}) {
    EngineOptions eo;
    eo.storage = storage;
    try {
      sweep_with(start, eo, {4, {64, 0, -1}, 0, true}, {kind(UpdateKind::overrelaxation)});
      ADD_FAILURE() << "site4-rows ran on the CPU";
    } catch (const Error& e) {
      const std::string expected = storage == Storage::rows
                                       ? "backend has no sweep variant site4-rows"
                                       : "site4-rows needs 12-real storage";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

// Lane by lane, the operations of Simd equal the scalar ones bitwise, also for results that
// a contracted a * b + c or an approximate reciprocal square root would change.
template <class T>
void expect_lanewise_scalar() {
  constexpr int W = 8;
  Simd<T, W> a, b, c;
  T as[W], bs[W], cs[W];
  for (int l = 0; l < W; ++l) {
    as[l] = T(1) / T(3 + l) + T(l) * T(0.7);
    bs[l] = T(7) / T(11 + 2 * l) - T(0.3);
    cs[l] = -as[l] * bs[l] + T(1e-3) * T(l);
    a.set_lane(l, as[l]);
    b.set_lane(l, bs[l]);
    c.set_lane(l, cs[l]);
  }
  const Simd<T, W> fused = a * b + c, root = inverse_sqrt(a * a + b), quot = c / (a - b);
  const Simd<T, W> chosen = select(a > b, a, c);
  for (int l = 0; l < W; ++l) {
    const T f = as[l] * bs[l] + cs[l];
    EXPECT_EQ(std::memcmp(&f, &fused.v[l], sizeof(T)), 0) << l;
    EXPECT_EQ(root.lane(l), T(1) / std::sqrt(as[l] * as[l] + bs[l])) << l;
    EXPECT_EQ(quot.lane(l), cs[l] / (as[l] - bs[l])) << l;
    EXPECT_EQ(chosen.lane(l), as[l] > bs[l] ? as[l] : cs[l]) << l;
  }
  const Simd<double, W> wide(a);
  for (int l = 0; l < W; ++l)
    EXPECT_EQ(wide.lane(l), double(as[l]));
}

// The build does not contract a * b - c into a fused multiply-add (meson.build: g++ would on
// any target with FMA, and g++ 12's vectoriser does so for complex products in loops even
// with -ffp-contract=off), on which the equality of the scalar and SIMD sweeps rests: here
// a fused result is 2^-24, the separately rounded one 0.
TEST(Simd, NoContractionIntoFusedMultiplyAdd) {
  volatile float one_plus = 1.0f + 0x1p-12f, square = 1.0f + 0x1p-11f;
  const float a = one_plus, c = square;
  EXPECT_EQ(a * a - c, 0.0f);
  Simd<float, 8> va(a), vc(c);
  const Simd<float, 8> d = va * va - vc;
  for (int l = 0; l < 8; ++l)
    EXPECT_EQ(d.lane(l), 0.0f);

  // complex products in a loop, the vectoriser's pattern: (a re a re - a im 1) = 0
  constexpr int n = 64;
  Complex<float> x[n], y[n], z[n];
  for (int i = 0; i < n; ++i) {
    x[i] = {a, c};
    y[i] = {a, 1.0f};
  }
  for (int i = 0; i < n; ++i)
    z[i] = x[i] * y[i];
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(z[i].re, 0.0f) << i;
}

TEST(Simd, LanewiseEqualsScalar) {
  expect_lanewise_scalar<float>();
  expect_lanewise_scalar<double>();
}

} // namespace
} // namespace gf
