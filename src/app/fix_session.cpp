#include "app/fix_session.h"
#include "core/log.h"

namespace gf {

FixSession::FixSession(const FixCommandOptions& opt, const World& world)
    : setup_(opt.plan, OptionSpelling::command_line, world, log::stream(log::Kind::debug)) {}

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
  engine_ = setup_.make_engine(links);
  nc_ = links.nc;
  geom_ = g;
  return *engine_;
}

} // namespace gf
