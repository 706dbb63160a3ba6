// gauge_kind.h: the names of the gauges gaugefix fixes, for options, summaries and dispatch.
#pragma once
#include <string>

namespace gf {

enum class GaugeKind { landau, coulomb, mag };

GaugeKind parse_gauge(const std::string& name); // throws Error naming the bad value
const char* gauge_name(GaugeKind g);

} // namespace gf
