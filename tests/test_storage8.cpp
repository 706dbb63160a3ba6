// 8-real storage of SU(3) links as a storage of the field (lattice/storage.h): round trips
// through the layout, the fixing engine, and the refusal of SU(2).
#include "core/error.h"
#include "fix/engine.h"
#include "fix/schedule.h"
#include "observables/observables.h"
#include "test_fields.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

namespace gf {
namespace {

const int lattice[4] = {4, 4, 4, 6};

EngineOptions options(Storage storage, Precision prec = Precision::double_) {
  EngineOptions eo;
  eo.gauge = GaugeKind::landau;
  eo.precision = prec;
  eo.storage = storage;
  eo.seed = 3;
  return eo;
}

// The field after one upload and download.
HostField round_trip(const HostField& u, const EngineOptions& eo) {
  HostField out = u;
  make_engine(u, eo)->download(out, nullptr);
  return out;
}

double max_difference(const HostField& a, const HostField& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i)
    d = std::max(d, std::sqrt(norm2(a.data[i] - b.data[i])));
  return d;
}

bool bitwise_equal(const HostField& a, const HostField& b) {
  return a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(a.data[0])) == 0;
}

// Once encoded, a field goes through the layout (download: decode, upload: encode) unchanged
// bitwise where the 8 reals are floats (single, mixed: the encoder's rounding in double is
// below float's). In double the phases atan2(|a| sin x, |a| cos x) come back within an ulp of
// x, not always bitwise: the field moves by at most a few units of rounding per round trip,
// and does not drift.
TEST(Storage8, RoundTripStableAfterFirstEncode) {
  const HostField u = testing::random_field(lattice, 3, 7, 1.0);
  for (Precision prec : {Precision::mixed, Precision::single}) {
    const HostField once = round_trip(u, options(Storage::params8, prec));
    const HostField twice = round_trip(once, options(Storage::params8, prec));
    EXPECT_TRUE(bitwise_equal(once, twice)) << name_of(prec);
  }
  const EngineOptions eo = options(Storage::params8);
  const HostField once = round_trip(u, eo);
  EXPECT_LT(max_difference(u, once), 2e-15);
  HostField later = once;
  for (int k = 0; k < 10; ++k) {
    const HostField next = round_trip(later, eo);
    EXPECT_LT(max_difference(later, next), 5e-16) << "round trip " << k + 2;
    later = next;
  }
  EXPECT_LT(max_difference(once, later), 1e-15);
}

// Landau gauge reached to theta < 1e-12 in double from 8-real storage, the gauge-invariant
// plaquette unchanged.
TEST(Storage8, EngineConvergesAndKeepsThePlaquette) {
  HostField u = testing::random_field(lattice, 3, 11, 0.8);
  const double before = plaquette(u);
  auto engine = make_engine(u, options(Storage::params8));
  FixOptions fo;
  Phase p;
  p.update.kind = UpdateKind::overrelaxation;
  p.update.omega = 1.7;
  p.sweeps = 3000;
  fo.phases = {p};
  fo.tolerance = 1e-13;
  fo.check_interval = 10;
  const FixResult r =
      run_schedule(*engine, GaugeKind::landau, 3, u.geom, fo, [](const Progress&) {});
  engine->download(u, nullptr);
  EXPECT_TRUE(r.converged);
  EXPECT_LT(r.final.theta, 1e-12);
  EXPECT_NEAR(plaquette(u), before, 1e-12);
  EXPECT_LT(max_unitarity_violation(u), 1e-13);
}

// The same sweeps on 8-real and on 18-real storage: the same field to rounding.
TEST(Storage8, AgreesWithFullStorage) {
  const HostField start = testing::random_field(lattice, 3, 13, 0.8);
  std::vector<HostField> out;
  for (Storage s : {Storage::params8, Storage::full}) {
    HostField u = start;
    auto engine = make_engine(u, options(s));
    UpdateParams up;
    up.kind = UpdateKind::overrelaxation;
    up.omega = 1.7;
    for (int k = 0; k < 5; ++k)
      engine->sweep(up, k);
    engine->download(u, nullptr);
    out.push_back(u);
  }
  EXPECT_LT(max_difference(out[0], out[1]), 1e-12);
}

// SU(2) has no 8-parameter storage: refused, naming the option.
TEST(Storage8, RefusedForSU2) {
  const HostField u = testing::random_field(lattice, 2, 1, 0.5);
  try {
    make_engine(u, options(Storage::params8));
    FAIL() << "SU(2) with 8-real storage was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--storage"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace gf
