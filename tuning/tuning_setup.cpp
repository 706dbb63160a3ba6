#include "tuning/tuning_setup.h"
#include "fix/engine_instances.h"
#include "gaugefix_version.h"
#include "core/log.h"
#include "tuning/tune_mode.h"

namespace gf {

namespace {

DeviceIdentity identity_of(Backend backend, int node_rank) {
#ifdef GAUGEFIX_HAVE_CUDA
  if (backend == Backend::cuda && cuda_available()) return cuda_identity(node_rank % cuda_device_count());
#endif
  (void)backend;
  (void)node_rank;
  return host_identity();
}

} // namespace

TuningSetup make_tuning(TuneMode requested, Backend backend, int node_rank, std::ostream* log) {
  const TuneMode mode = resolved_tune_mode(requested);
  TuningSetup s;
  s.device = identity_of(backend, node_rank);
  if (mode != TuneMode::off)
    s.cache = std::make_unique<TuneCache>(tune_cache_directory(),
                                          TuneContext{s.device, GAUGEFIX_VERSION, compiled_build_options()},
                                          log::stream(log::Kind::warning));
  s.tuner = std::make_unique<Tuner>(mode, s.cache.get(), log);
  return s;
}

std::string launches_used(const Tuner& tuner) {
  std::string out;
  for (const auto& [key, params] : tuner.used())
    out += (out.empty() ? "" : "; ") + key.kernel + "[" + key.region + "] " + format_launch_params(params);
  return out;
}

} // namespace gf
