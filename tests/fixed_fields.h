// fixed_fields.h: a field fixed to a gauge by the library's CPU engine in double precision
// (full storage; Landau gauge by FACG, the others by overrelaxation with reprojection), for the
// tests of what is measured on fixed
// fields (test_ghost_propagator.cpp, test_abelian_projection.cpp). The whole lattice on this
// rank alone, so that every rank of a multi-rank test holds the same fixed field.
#pragma once
#include "fix/engine.h"
#include "fix/schedule.h"
#include "lattice/host_field.h"
#include "test_fields.h"

namespace gf::testing {

struct FixedField {
  HostField links;
  FixResult result;
};

inline FixedField fixed_field(const HostField& u, GaugeKind gauge, double tolerance,
                              int max_sweeps = 20000) {
  EngineOptions opt;
  opt.gauge = gauge;
  opt.precision = Precision::double_;
  opt.storage = Storage::full;
  auto engine = make_engine(u, opt);
  FixOptions fo = descent_schedule(DescentMethod::facg, tolerance, max_sweeps);
  if (gauge != GaugeKind::landau) {
    Phase relax;
    relax.update.kind = UpdateKind::overrelaxation;
    relax.sweeps = max_sweeps;
    fo.phases = {relax};
    fo.check_interval = 20;
    fo.reproject_interval = 100;
  }
  FixedField out{u, run_schedule(*engine, gauge, u.nc, u.geom, fo, {})};
  engine->download(out.links, nullptr);
  return out;
}

} // namespace gf::testing
