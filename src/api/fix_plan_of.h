// fix_plan_of.h: the FixPlan (run/fix_plan.h) that gaugefix::fix runs for its options: the
// FixOptions of the same names, transform as track_transform.
#pragma once
#include "gaugefix/gaugefix.h"
#include "run/fix_plan.h"

namespace gaugefix {

gf::FixPlan fix_plan_of(const FixOptions& options);

} // namespace gaugefix
