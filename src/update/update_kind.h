// update_kind.h: the local update rules of the paper's Step 1 and their parameters.
//   relaxation             g = the local maximiser
//   overrelaxation         g^omega to first order, omega in [1, 2) (the paper's formula)
//   stochastic_relaxation  the microcanonical step with probability p, else relaxation
//   microcanonical         the reflection that keeps the local functional (omega = 2)
//   heatbath               g drawn with weight exp(f(g) / T) (simulated annealing)
#pragma once
#include <string>

namespace gf {

enum class UpdateKind { relaxation, overrelaxation, stochastic_relaxation, microcanonical, heatbath };

struct UpdateParams {
  UpdateKind kind = UpdateKind::overrelaxation;
  double omega = 1.7;       // overrelaxation
  double probability = 0.5; // stochastic relaxation
  double temperature = 1.0; // heatbath
};

UpdateKind parse_update_kind(const std::string& name); // throws Error naming the bad value
const char* update_name(UpdateKind k);
// Throws Error naming the parameter if omega is outside [1, 2), p outside [0, 1] or T <= 0.
void validate(const UpdateParams& p);

} // namespace gf
