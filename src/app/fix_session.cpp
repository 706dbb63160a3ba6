#include "app/fix_session.h"
#include "comm/mpi_channel.h"
#include "core/log.h"

namespace gf {

FixSession::FixSession(FixCommandOptions& opt, const World& world)
    : opt_(opt), tuning_(make_tuning(opt.tuning, opt.engine.backend, world.node_rank(),
                                     log::stream(log::Kind::debug))) {
  opt.engine.track_transform = !opt.transform_output.empty();
  opt.engine.node_rank = world.node_rank();
  if (world.size() > 1) opt.engine.channel = make_channel(world, parse_exchange_path(opt.exchange));
  opt.engine.tuner = tuning_.tuner.get();
}

Engine& FixSession::load(const HostField& links) {
  const Geometry& g = links.geom;
  const bool same = engine_ && links.nc == nc_ && g.t0 == geom_.t0 && g.nt == geom_.nt &&
                    g.L[0] == geom_.L[0] && g.L[1] == geom_.L[1] && g.L[2] == geom_.L[2] &&
                    g.L[3] == geom_.L[3];
  if (same) {
    engine_->upload(links);
    return *engine_;
  }
  engine_.reset(); // its device memory first
  engine_ = make_engine(links, opt_.engine);
  engine_->prepare(schedule_update_kinds(opt_.fix));
  nc_ = links.nc;
  geom_ = g;
  return *engine_;
}

} // namespace gf
