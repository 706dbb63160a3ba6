// fix_session.h: what one `gaugefix fix` process sets up once and keeps for every
// configuration and copy of its run: the FixSetup of its plan (run/fix_plan.h: the schedule,
// the halo channel between the ranks, the tuner with its cache) and the engine, whose device
// buffers take each new field of the same lattice and group (Engine::upload: no allocation, no
// launch chosen again). A field of another lattice or group gets a new engine (its launches
// from the tune cache, or tuned). Collective: every rank calls load() for every field.
#pragma once
#include "app/fix_options.h"
#include "comm/world.h"
#include "run/fix_plan.h"
#include <memory>
#include <string>

namespace gf {

class FixSession {
public:
  FixSession(const FixCommandOptions& opt, const World& world);
  // The engine holding `links` (g(x) the identity), its launches chosen for the schedule.
  Engine& load(const HostField& links);
  const FixOptions& schedule() const { return setup_.schedule(); }
  // The launch parameters of every kernel chosen so far (the summary's "launches").
  std::string launches() const { return launches_used(*setup_.tuning().tuner); }
  // The device this rank's engines run on.
  const DeviceIdentity& device() const { return setup_.tuning().device; }

private:
  FixSetup setup_;
  std::unique_ptr<Engine> engine_;
  int nc_ = 0;
  Geometry geom_{};
};

} // namespace gf
