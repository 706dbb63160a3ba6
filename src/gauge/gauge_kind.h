// gauge_kind.h: the gauges gaugefix fixes (gaugefix::Gauge, include/gaugefix/options.h), for
// options, summaries and dispatch, and the N of each gauge group SU(N) (gaugefix::Group); their
// names: core/option_names.h.
#pragma once
#include "core/option_names.h"

namespace gf {

using GaugeKind = gaugefix::Gauge;
using Group = gaugefix::Group;

constexpr int group_nc(Group group) {
  return group == Group::su2 ? 2 : 3;
}

} // namespace gf
