// Decomposition invariance of the gauge fixer: the same sweeps on 1, 2 or 4 ranks (this
// binary under mpirun) give bitwise the same links and the same F and theta as the
// whole lattice on one rank, which every rank also computes itself as the reference.
// Every update kind, every gauge, SU(2) and SU(3), double and single precision, g(x)
// tracked; on the CPU and, where a GPU is present, with CUDA (one GPU per rank, and the
// whole-lattice reference on the same GPU). With one rank the suite still runs (both
// paths are then the same path).
#include "comm/decomposition.h"
#include "comm/mpi_channel.h"
#include "core/error.h"
#include "fix/engine.h"
#include "fix/schedule.h"
#include "gen/generator.h"
#include "test_fields.h"
#include <cstring>
#include <gtest/gtest.h>
#include <string>

namespace gf {
namespace {

const int lattice[4] = {4, 4, 4, 8};

struct Case {
  GaugeKind gauge;
  int nc;
  Precision precision;
  Backend backend = Backend::cpu;
  Storage storage = Storage::rows;
};

EngineOptions options_for(const Case& c, const World& world) {
  EngineOptions opt;
  opt.gauge = c.gauge;
  opt.precision = c.precision;
  opt.backend = c.backend;
  opt.storage = c.storage;
  opt.node_rank = world.node_rank();
  return opt;
}

std::vector<UpdateParams> every_update_kind() {
  std::vector<UpdateParams> u(5);
  u[0].kind = UpdateKind::relaxation;
  u[1].kind = UpdateKind::overrelaxation;
  u[2].kind = UpdateKind::stochastic_relaxation;
  u[3].kind = UpdateKind::microcanonical;
  u[4].kind = UpdateKind::heatbath;
  u[4].temperature = 0.7;
  return u;
}

class Decomposition : public ::testing::TestWithParam<Case> {};

TEST_P(Decomposition, SweepsMatchTheWholeLatticeBitwise) {
  const Case c = GetParam();
  if (c.backend == Backend::cuda && !cuda_available()) GTEST_SKIP() << "no CUDA device";
  const World world;
  const HostField whole = testing::random_field(lattice, c.nc, 21, 0.6);
  const Geometry slab = decompose_time(lattice, world);

  EngineOptions opt = options_for(c, world);
  opt.track_transform = true;
  opt.seed = 5;
  auto reference = make_engine(whole, opt);
  opt.channel = make_channel(world, ExchangePath::automatic);
  auto distributed = make_engine(whole.slab(slab.t0, slab.nt), opt);

  std::uint32_t sweep = 0;
  for (const UpdateParams& u : every_update_kind())
    for (int k = 0; k < 2; ++k, ++sweep) {
      reference->sweep(u, sweep);
      distributed->sweep(u, sweep);
    }
  const SliceSums a = reference->measure(), b = distributed->measure();
  EXPECT_EQ(a.functional, b.functional);
  EXPECT_EQ(a.theta, b.theta);

  HostField ref_links = whole, ref_g(whole.geom, c.nc, 1);
  reference->download(ref_links, &ref_g);
  HostField links(slab, c.nc, 4), g(slab, c.nc, 1);
  distributed->download(links, &g);
  const HostField want = ref_links.slab(slab.t0, slab.nt), want_g = ref_g.slab(slab.t0, slab.nt);
  EXPECT_EQ(0, std::memcmp(links.data.data(), want.data.data(),
                           links.data.size() * sizeof(links.data[0])))
      << "links differ on rank " << world.rank();
  EXPECT_EQ(0, std::memcmp(g.data.data(), want_g.data.data(), g.data.size() * sizeof(g.data[0])))
      << "g(x) differs on rank " << world.rank();
}

TEST_P(Decomposition, ScheduleWithAnnealingMatchesTheWholeLattice) {
  const Case c = GetParam();
  if (c.backend == Backend::cuda && !cuda_available()) GTEST_SKIP() << "no CUDA device";
  const World world;
  const HostField whole = testing::random_field(lattice, c.nc, 8, 1.0);
  const Geometry slab = decompose_time(lattice, world);
  FixOptions fix;
  const Phase anneal = testing::annealing_phase(20, 2.0, 0.1, 2);
  Phase relax;
  relax.update.kind = UpdateKind::overrelaxation;
  relax.sweeps = 300;
  fix.phases = {anneal, relax};
  fix.tolerance = c.precision == Precision::double_ ? 1e-11 : 1e-5;
  fix.check_interval = 10;
  fix.reproject_interval = 25;

  EngineOptions opt = options_for(c, world);
  auto reference = make_engine(whole, opt);
  const FixResult r1 = run_schedule(*reference, c.gauge, c.nc, whole.geom, fix, {});
  opt.channel = make_channel(world, ExchangePath::automatic);
  auto distributed = make_engine(whole.slab(slab.t0, slab.nt), opt);
  const FixResult r2 = run_schedule(*distributed, c.gauge, c.nc, slab, fix, {});
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(r1.converged, r2.converged);
  EXPECT_EQ(r1.final.functional, r2.final.functional);
  EXPECT_EQ(r1.final.theta, r2.final.theta);
  EXPECT_NEAR(r1.final.functional, r2.final.functional, 1e-14 * std::abs(r1.final.functional));
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(name_of(info.param.gauge)) + "_su" + std::to_string(info.param.nc) + "_" +
         name_of(info.param.precision) + "_" + name_of(info.param.backend) + "_storage" +
         std::to_string(storage_option(info.param.storage));
}

INSTANTIATE_TEST_SUITE_P(
    Ranks, Decomposition,
    ::testing::Values(
        Case{GaugeKind::landau, 3, Precision::double_},
        Case{GaugeKind::coulomb, 3, Precision::double_},
        Case{GaugeKind::mag, 3, Precision::double_}, Case{GaugeKind::landau, 2, Precision::double_},
        Case{GaugeKind::mag, 2, Precision::double_}, Case{GaugeKind::landau, 3, Precision::single},
        Case{GaugeKind::coulomb, 3, Precision::mixed},
        Case{GaugeKind::landau, 3, Precision::double_, Backend::cpu, Storage::params8},
        Case{GaugeKind::mag, 3, Precision::single, Backend::cpu, Storage::params8},
        Case{GaugeKind::landau, 3, Precision::double_, Backend::cuda},
        Case{GaugeKind::coulomb, 3, Precision::double_, Backend::cuda},
        Case{GaugeKind::mag, 2, Precision::double_, Backend::cuda},
        Case{GaugeKind::landau, 3, Precision::single, Backend::cuda},
        Case{GaugeKind::mag, 3, Precision::mixed, Backend::cuda},
        Case{GaugeKind::landau, 3, Precision::mixed, Backend::cuda, Storage::params8}),
    case_name);

// The generator: heatbath and overrelaxation sweeps on the slabs, with every launch tuned
// first (collective), or with the sub-sweeps split in two kernels (staples, then updates),
// give the same links and per-slice plaquette sums as on the whole lattice untuned; on the CPU
// and, where a GPU is present, with CUDA.
TEST(GeneratorDecomposition, SweepsMatchTheWholeLatticeBitwise) {
  const World world;
  const Geometry slab = decompose_time(lattice, world);
  for (Backend backend : testing::available_backends())
    for (int nc : {2, 3})
      for (bool split : {false, true}) {
        const std::string what = std::string(name_of(backend)) + " SU(" + std::to_string(nc) +
                                 (split ? ") split" : ") tuned");
        const HostField whole = testing::random_field(lattice, nc, 4, 0.8);
        GeneratorOptions opt;
        opt.beta = nc == 3 ? 5.7 : 2.3;
        opt.seed = 9;
        opt.backend = backend;
        opt.node_rank = world.node_rank();
        auto reference = make_generator(whole, opt);
        opt.channel = make_channel(world, ExchangePath::automatic);
        Tuner tuner(TuneMode::force, nullptr, nullptr);
        opt.tuner = &tuner;
        if (split) opt.sub_sweep_launch = LaunchParams{"split", backend == Backend::cpu ? 0 : 64};
        auto distributed = make_generator(whole.slab(slab.t0, slab.nt), opt);
        distributed->prepare({LinkUpdateKind::heatbath, LinkUpdateKind::overrelaxation});
        for (std::uint32_t sweep = 1; sweep <= 3; ++sweep)
          for (LinkUpdateKind kind : {LinkUpdateKind::heatbath, LinkUpdateKind::overrelaxation}) {
            reference->sweep(kind, sweep);
            distributed->sweep(kind, sweep);
          }
        EXPECT_EQ(reference->measure().plaquette, distributed->measure().plaquette) << what;
        HostField ref_links = whole, links(slab, nc, 4);
        reference->download(ref_links);
        distributed->download(links);
        const HostField want = ref_links.slab(slab.t0, slab.nt);
        EXPECT_EQ(0, std::memcmp(links.data.data(), want.data.data(),
                                 links.data.size() * sizeof(links.data[0])))
            << what << ": links differ on rank " << world.rank();
      }
}

// A channel that counts the messages sent through it.
class CountingChannel final : public Channel {
public:
  explicit CountingChannel(std::shared_ptr<Channel> c) : c_(std::move(c)) {}
  int sends = 0;
  int ranks() const override { return c_->ranks(); }
  int rank() const override { return c_->rank(); }
  ExchangePath path() const override { return c_->path(); }
  bool device_pointers() const override { return c_->device_pointers(); }
  bool neighbours_on_this_node() const override { return c_->neighbours_on_this_node(); }
  bool all_on_this_node() const override { return c_->all_on_this_node(); }
  void send(const void* data, std::int64_t bytes, Neighbour to, int tag) override {
    ++sends;
    c_->send(data, bytes, to, tag);
  }
  void receive(void* data, std::int64_t bytes, Neighbour from, int tag) override {
    c_->receive(data, bytes, from, tag);
  }
  void wait() override { c_->wait(); }
  void all_to_all(const void* out, const std::vector<std::int64_t>& send, void* in,
                  const std::vector<std::int64_t>& receive, std::int64_t row_bytes) override {
    ++sends;
    c_->all_to_all(out, send, in, receive, row_bytes);
  }
  std::vector<double> gather_concat(const std::vector<double>& part) const override {
    return c_->gather_concat(part);
  }
  bool all(bool v) const override { return c_->all(v); }
  std::vector<std::string> all_gather_strings(const std::string& s) const override {
    return c_->all_gather_strings(s);
  }

private:
  std::shared_ptr<Channel> c_;
};

bool same_bits(const HostField& a, const HostField& b) {
  return a.data.size() == b.data.size() &&
         std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(a.data[0])) == 0;
}

// Coulomb gauge on the slabs: sweeps, measurements and reprojections send no message; a
// download sends one (g of slice 0 to the previous rank) and leaves the engine's state alone,
// so that downloading between sweeps changes nothing; whether g(x) is asked for does not
// change the links.
TEST(CoulombDecomposition, NoMessagesBeforeDownload) {
  const World world;
  const HostField whole = testing::random_field(lattice, 3, 13, 0.7);
  const Geometry slab = decompose_time(lattice, world);
  EngineOptions opt;
  opt.gauge = GaugeKind::coulomb;
  opt.seed = 3;
  auto channel = std::make_shared<CountingChannel>(make_channel(world, ExchangePath::automatic));
  opt.channel = channel;
  auto engine = make_engine(whole.slab(slab.t0, slab.nt), opt);
  opt.track_transform = true;
  auto tracking = make_engine(whole.slab(slab.t0, slab.nt), opt);
  EXPECT_STREQ("none", engine->halo_path());

  std::vector<UpdateParams> kinds = every_update_kind();
  engine->prepare(kinds);
  tracking->prepare(kinds);
  HostField early(slab, 3, 4);
  std::uint32_t sweep = 0;
  for (const UpdateParams& u : kinds) {
    engine->sweep(u, sweep);
    tracking->sweep(u, sweep++);
    engine->measure();
    if (sweep == 2) {
      engine->reproject();
      tracking->reproject();
    }
  }
  EXPECT_EQ(0, channel->sends);
  engine->download(early, nullptr);
  EXPECT_EQ(world.size() > 1 ? 1 : 0, channel->sends);
  for (const UpdateParams& u : kinds) {
    engine->sweep(u, sweep);
    tracking->sweep(u, sweep++);
  }
  HostField links(slab, 3, 4), tracked(slab, 3, 4), g(slab, 3, 1);
  engine->download(links, nullptr);
  tracking->download(tracked, &g);
  EXPECT_TRUE(same_bits(links, tracked)) << "links depend on tracking g(x), rank " << world.rank();
  EXPECT_FALSE(same_bits(links, early));
}

TEST(DecompositionLimits, RejectsIndivisibleAndThinSlabs) {
  const World world;
  if (world.size() == 1) GTEST_SKIP() << "the limits concern several ranks (run under mpirun)";
  const int odd[4] = {4, 4, 4, 4 * world.size() + 1};
  EXPECT_THROW(decompose_time(odd, world), Error);
  const int thin[4] = {4, 4, 4, world.size()};
  EXPECT_THROW(decompose_time(thin, world), Error);
}

} // namespace
} // namespace gf
