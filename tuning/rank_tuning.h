// rank_tuning.h: one choice of launch parameters for all ranks that run the same kernel on
// the same kind of device. choose_on_ranks is collective over the channel's ranks (every
// rank calls it for the same kernel at the same point, e.g. when an engine is built; keep the
// result rather than calling it per launch). Ranks are grouped by their device identity
// and TuneKey (kernel, aux, local extents, region); the lowest rank of each group chooses
// with its Tuner (tuning, or reading its cache, according to the mode) while the others
// wait, then every rank of the group launches with that rank's parameters, recorded in its
// Tuner as if chosen there (Tuner::adopt). So all GPUs of one kind run the same launch, and
// only one rank per group writes the tune cache. Without a channel, or with one rank, it
// is tuner.choose(t).
#pragma once
#include "comm/channel.h"
#include "tuning/device_identity.h"
#include "tuning/tuner.h"

namespace gf {

LaunchParams choose_on_ranks(Tuner& tuner, Tunable& t, const DeviceIdentity& device,
                             const Channel* channel);

} // namespace gf
