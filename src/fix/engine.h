// engine.h: what the driver needs from a backend holding one field in the device layout.
// An Engine owns the links (and, optionally, the gauge transformation g(x)) of one
// rank's slab in the chosen precision and storage, and offers the four operations of
// Alg. 1: a sweep (even then odd half-sweep) of one update kind, the measurement of F and
// theta, reprojection to SU(N), and the download back to natural order. upload() loads
// another field of the same slab into the same buffers (a batch of configurations, Gribov
// copies), keeping every launch chosen so far.
// make_engine picks the backend, precision, group and gauge at run time; everything
// below it is compiled per combination (engine_impl.h).
// Several ranks: the HostField is this rank's slab (comm/decomposition.h) and
// EngineOptions::channel connects the rank to its neighbours in time; the engine keeps
// halo slices and exchanges them (comm/halo_exchange.h; Coulomb gauge: only once, at
// download, engine_impl.h), and measure() returns the sums
// of every time slice of the lattice, gathered in slice order.
// descent_field() lends the links to Fourier-accelerated fixing (src/fourier), which moves
// them by global gauge transformations instead of sweeps.
#pragma once
#include "backend/launch_config.h"
#include "comm/channel.h"
#include "fourier/descent_field.h"
#include "gauge/gauge_kind.h"
#include "lattice/host_field.h"
#include "lattice/storage.h"
#include "tuning/tuner.h"
#include "update/update_kind.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gf {

// The precision mode (fix/precision_types.h) and the backend; their names: core/option_names.h.
using Precision = gaugefix::Precision;
using Backend = gaugefix::Backend;
using PreconditionerPrecision = gaugefix::PreconditionerPrecision;
bool cuda_available(); // built with CUDA and a device present

// How a sweep kernel runs: threads per site (1 on the CPU; 1, 2, 4 or 8 on the GPU), on the
// CPU the sites per SIMD call (0: the scalar sweep; 4, 8 or 16: fix/simd_sweep.h, local
// update family only), the launch parameters, and whether the kernel is the one compiled for
// 12-real SU(3) storage alone (GPU, 2 or 4 threads per site, local family: variant
// "siteN-rows"; the others branch on the storage at run time). Every choice gives the bitwise
// same field (site_sweep.h).
struct SweepVariant {
  int lanes = 1;
  LaunchConfig config;
  int simd = 0;
  bool rows_overrelaxation = false;
};
// The SweepVariant of a sweep's launch parameters: variant siteN, siteN-rows or simdW
// (throws Error naming another variant).
SweepVariant sweep_variant(const LaunchParams& p);

struct EngineOptions {
  GaugeKind gauge = GaugeKind::landau;
  Precision precision = Precision::double_;
  // The Fourier preconditioner's transforms (descent_field): single in a double or mixed
  // fix holds them in float; double in a single fix is refused (Error).
  PreconditionerPrecision preconditioner = PreconditionerPrecision::automatic;
  Backend backend = Backend::cpu;
  Storage storage = Storage::rows; // reals per matrix (lattice/storage.h)
  bool track_transform = false;    // download g(x) (Coulomb gauge keeps it in any case)
  std::uint64_t seed = 1;
  std::shared_ptr<Channel> channel; // null or one rank: the field is the whole lattice
  int node_rank = 0;                // picks the GPU: node_rank mod the number of devices
  bool exchange = true; // false: no halo messages (wrong physics; times the overlap only)
  std::optional<SweepVariant> sweep_variant; // forced variant (tests, benchmarks)
  Tuner* tuner = nullptr; // chooses every launch (tuning/tuner.h); null: the defaults
};

// Per-slice sums of every time slice of the lattice, in double; normalised by the driver.
struct SliceSums {
  std::vector<double> functional;
  std::vector<double> theta;
};

// How far the stored links are from SU(N): over the links the gauge's sweeps change (Coulomb
// gauge: the spatial ones) of the whole lattice, as stored (FieldView::load_stored: compressed
// rows without the orthonormalisation every other load does).
struct LinkDeviation {
  double det_mean = 0;    // mean of |1 - det U|
  double det_max = 0;     // maximum of |1 - det U|
  double unitary_max = 0; // maximum of max_ij |(U U^dagger - 1)_ij|
};

class Engine {
public:
  virtual ~Engine() = default;
  // Chooses (tunes, with a Tuner) the launches of the sweeps of these update kinds, the
  // measurement and the reprojection now, so that no later call spends time on it.
  // Collective over the ranks, like every call here.
  virtual void prepare(const std::vector<UpdateParams>& kinds) = 0;
  virtual void sweep(const UpdateParams& p, std::uint32_t sweep_index) = 0;
  virtual SliceSums measure() = 0;
  virtual void reproject() = 0;
  // One pass over the links on the backend; every rank gets the lattice's numbers, the same
  // for any number of ranks and threads. Collective.
  virtual LinkDeviation measure_link_deviation() = 0;
  // Forces the sweep's variant (nullopt: the backend's choice); results do not change.
  virtual void set_sweep_variant(const std::optional<SweepVariant>& v) = 0;
  // How halos travel: "none" (one rank, or Coulomb gauge, whose sweeps need no halo),
  // "pointers", "staged" or "peer" (halo_exchange.h).
  virtual const char* halo_path() const = 0;
  // Waits until all work issued so far is done (for timing).
  virtual void synchronize() = 0;
  // Writes the links (and g(x), if tracked and transform != nullptr) back in natural order.
  virtual void download(HostField& links, HostField* transform) const = 0;
  // Replaces the links by `links` (the same lattice, slab and group as the engine's: else
  // throws Error) in the buffers already allocated, and g(x), where kept, by the identity:
  // the engine is then as make_engine would have built it for `links`, with the launches
  // chosen so far. Collective.
  virtual void upload(const HostField& links) = 0;
  // The operations of Fourier-accelerated fixing on these links (fourier/descent_field.h),
  // made on first use (its arrays and transform plans). Throws Error for MAG, and on a
  // backend without transforms.
  virtual DescentField& descent_field() = 0;
  // A checkpoint's share of the engine (app/checkpoint_file.h): this rank's links and g(x),
  // halos included, and the Fourier-accelerated arrays where made (DescentField::save_state),
  // as stored: the engine's precision, layout and storage, bitwise, never converted (device
  // engines copy through the host, as download does). restore_state takes back what
  // save_state gave on an engine of the same options and slab (else throws Error; MAG with
  // Fourier arrays too); the halos are refilled before the next sweep. Not collective.
  virtual std::vector<unsigned char> save_state() const = 0;
  virtual void restore_state(const std::vector<unsigned char>& state) = 0;
};

// Throws Error naming the problem for an unsupported group or storage, odd extents, or a
// slab that does not fit the channel's decomposition.
std::unique_ptr<Engine> make_engine(const HostField& links, const EngineOptions& opt);
// The checks above, shared by every engine that updates links by checkerboard over a time
// decomposition (also the generator's).
void check_updatable(const HostField& links, const Channel* channel);

} // namespace gf
