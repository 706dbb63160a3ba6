// gauge_check.h: how well a field satisfies a gauge condition, measured as `gaugefix fix`
// measures it: the engine (fix/engine.h: make_engine, measure) on the CPU in double
// precision with full 18-real storage (the links as given, nothing rebuilt), normalised by
// normalise (fix/schedule.h) into F, theta, max_t theta_t and theta_t per time slice.
// Collective over the ranks of `world` (each passes its slab; every rank gets the values of
// the whole lattice). Throws gf::Error for a field no engine takes (odd extents, SU(N) other
// than SU(2), SU(3)).
#pragma once
#include "comm/world.h"
#include "fix/schedule.h"
#include "lattice/host_field.h"

namespace gf {

Measurement measure_gauge(const HostField& u, GaugeKind gauge, const World& world);

} // namespace gf
