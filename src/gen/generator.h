// generator.h: the quenched (Wilson action) update engine, for any backend.
// A Generator owns one rank's slab of links in the device layout (precision and storage
// as for the gauge-fixing Engine) and offers:
//   prepare(kinds)                      chooses (with a Tuner: tunes) the launches of the
//                                       sub-sweeps of these kinds and of measure() now,
//                                       before the first sweep; the links do not change;
//   sub_sweep(kind, mu, parity, sweep)  one kernel: U_mu(x) for every local x of that parity
//                                       (heatbath or overrelaxation, link_update.h);
//   sweep(kind, sweep)                  mu = 0..3, parity 0, 1: eight sub-sweeps (a halo
//                                       refresh of a decomposed lattice goes between them);
//   measure()                           per-slice sums of the plaquette and of the successful
//                                       heatbath draws of the last heatbath sweep;
//   upload / download                   the links from / to natural order (HostField).
// On several ranks both halo slices (all directions) are filled after an upload
// (HaloExchange::fill_all); a sub-sweep then updates its boundary slices 0 and nt - 1 first,
// sends the links it changed there, (mu, parity), to the neighbours' halo slices, and updates
// the interior slices while they travel (the staples of (mu, parity) never read that block),
// so the halo is current after every sub-sweep; the per-slice sums are gathered, and prepare
// is collective. The random numbers of a heatbath sweep are keyed by (seed, global site, sweep,
// mu), so a sweep's result does not depend on threads, device, decomposition or tuning.
#pragma once
#include "fix/engine.h"
#include "gen/link_update.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace gf {

struct GeneratorOptions {
  double beta = 6.0;
  Precision precision = Precision::double_;
  Backend backend = Backend::cpu;
  Storage storage = Storage::rows; // reals per matrix (lattice/storage.h)
  std::uint64_t seed = 1;
  std::shared_ptr<Channel> channel; // several ranks: the field is this rank's slab (engine.h)
  int node_rank = 0;                // picks the GPU
  Tuner* tuner = nullptr;           // chooses every launch (tuning/tuner.h); null: the defaults
  // the sub-sweeps' launch, forced (tests, benchmarks): variant "site1" (one kernel) or "split"
  std::optional<LaunchParams> sub_sweep_launch;
};

// Per time slice of the whole lattice (gathered over ranks): sum_x sum_{mu<nu} Re tr P_mu,nu(x),
// and the number of successful draw_x0 calls of the last heatbath sweep.
struct GeneratorSums {
  std::vector<double> plaquette;
  std::vector<double> accepted;
};

struct GeneratorMeasurement {
  double plaquette;  // (1/6V) sum_x sum_{mu<nu} Re tr P / N
  double acceptance; // successful draws / (4 V subgroups) in the last heatbath sweep
};

// Adds the slices in order (global sums: the slices of every rank, in rank order).
GeneratorMeasurement normalise(const GeneratorSums& s, const Geometry& geom, int nc);

class Generator {
public:
  virtual ~Generator() = default;
  virtual void prepare(const std::vector<LinkUpdateKind>& kinds) = 0;
  virtual void sub_sweep(LinkUpdateKind kind, int mu, int parity, std::uint32_t sweep) = 0;
  void sweep(LinkUpdateKind kind, std::uint32_t sweep);
  virtual GeneratorSums measure() = 0;
  virtual void upload(const HostField& links) = 0;
  virtual void download(HostField& links) const = 0;
  virtual void synchronize() = 0;
};

// Checks N_c in {2, 3}, the storage, even extents >= 2 and a forced launch's variant
// (gf::Error otherwise).
std::unique_ptr<Generator> make_generator(const HostField& links, const GeneratorOptions& opt);

} // namespace gf
