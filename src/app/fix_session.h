// fix_session.h: what one `gaugefix fix` process sets up once and keeps for every
// configuration and copy of its run: the halo channel between the ranks, the tuner with its
// cache (tuning/tuning_setup.h) and the engine, whose device buffers take each new field of the
// same lattice and group (Engine::upload: no allocation, no launch chosen again). A field of
// another lattice or group gets a new engine (its launches from the tune cache, or tuned).
// Collective: every rank calls load() for every field.
#pragma once
#include "app/fix_options.h"
#include "comm/world.h"
#include "fix/engine.h"
#include "tuning/tuning_setup.h"
#include <memory>
#include <string>

namespace gf {

class FixSession {
public:
  // Sets opt.engine's channel, tuner, node rank and g(x) tracking (with --transform-output).
  FixSession(FixCommandOptions& opt, const World& world);
  // The engine holding `links` (g(x) the identity), its launches chosen for the schedule.
  Engine& load(const HostField& links);
  // The launch parameters of every kernel chosen so far (the summary's "launches").
  std::string launches() const { return launches_used(*tuning_.tuner); }
  // The device this rank's engines run on.
  const DeviceIdentity& device() const { return tuning_.device; }

private:
  FixCommandOptions& opt_;
  TuningSetup tuning_;
  std::unique_ptr<Engine> engine_;
  int nc_ = 0;
  Geometry geom_{};
};

} // namespace gf
