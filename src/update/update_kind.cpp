#include "update/update_kind.h"
#include "core/error.h"
#include <cmath>

namespace gf {

UpdateKind parse_update_kind(const std::string& name) {
  if (name == "relaxation") return UpdateKind::relaxation;
  if (name == "overrelaxation") return UpdateKind::overrelaxation;
  if (name == "stochastic" || name == "stochastic_relaxation")
    return UpdateKind::stochastic_relaxation;
  if (name == "microcanonical") return UpdateKind::microcanonical;
  if (name == "heatbath") return UpdateKind::heatbath;
  throw Error("unknown update '" + name +
              "' (expected relaxation, overrelaxation, stochastic, microcanonical or heatbath)");
}

const char* update_name(UpdateKind k) {
  switch (k) {
  case UpdateKind::relaxation: return "relaxation";
  case UpdateKind::overrelaxation: return "overrelaxation";
  case UpdateKind::stochastic_relaxation: return "stochastic";
  case UpdateKind::microcanonical: return "microcanonical";
  case UpdateKind::heatbath: return "heatbath";
  }
  return "?";
}

void validate(const UpdateParams& p) {
  if (!(p.omega >= 1.0 && p.omega < 2.0))
    throw Error("overrelaxation parameter omega = " + std::to_string(p.omega) +
                " is outside [1, 2)");
  if (!(p.probability >= 0.0 && p.probability <= 1.0))
    throw Error("stochastic relaxation probability p = " + std::to_string(p.probability) +
                " is outside [0, 1]");
  if (!(p.temperature > 0.0) || !std::isfinite(p.temperature))
    throw Error("annealing temperature T = " + std::to_string(p.temperature) +
                " must be positive");
}

} // namespace gf
