#include "gauge/gauge_kind.h"
#include "core/error.h"

namespace gf {

GaugeKind parse_gauge(const std::string& name) {
  if (name == "landau") return GaugeKind::landau;
  if (name == "coulomb") return GaugeKind::coulomb;
  if (name == "mag" || name == "maximally_abelian") return GaugeKind::mag;
  throw Error("unknown gauge '" + name + "' (expected landau, coulomb or mag)");
}

const char* gauge_name(GaugeKind g) {
  switch (g) {
  case GaugeKind::landau: return "landau";
  case GaugeKind::coulomb: return "coulomb";
  case GaugeKind::mag: return "mag";
  }
  return "?";
}

} // namespace gf
