#include "tuning/rank_tuning.h"
#include <algorithm>

namespace gf {

LaunchParams choose_on_ranks(Tuner& tuner, Tunable& t, const DeviceIdentity& device,
                             const Channel* channel) {
  if (!channel || channel->ranks() == 1) return tuner.choose(t);
  const TuneKey key = t.key();
  const std::vector<std::string> groups =
      channel->all_gather_strings(full_key(TuneContext{device, "", ""}, key));
  const int me = channel->rank();
  const auto root = static_cast<std::size_t>(
      std::find(groups.begin(), groups.end(), groups[static_cast<std::size_t>(me)]) -
      groups.begin());
  const bool chooser = root == static_cast<std::size_t>(me);
  LaunchParams p = chooser ? tuner.choose(t) : LaunchParams{};
  const std::vector<std::string> chosen =
      channel->all_gather_strings(chooser ? format_launch_params(p) : "");
  if (!chooser) {
    p = parse_launch_params(chosen[root]);
    tuner.adopt(key, p);
  }
  return p;
}

} // namespace gf
