// generator_impl.h: the Generator for one (backend, storage type S, compute type C, N),
// written once for all backends. Included only by generator_cpu.cpp and generator_cuda.cu.
//
// Every launch takes its variant, block size and carve-out from a LaunchChoice
// (fix/launch_choice.h), per kernel: the sub-sweeps of each update kind (every mu and parity
// share one choice) and the plaquette. A sub-sweep runs as one kernel (variant "site1") or as
// two ("split": StapleSums writes every item's staple, then LinkSubSweep reads it; the same
// bits, each kernel with fewer registers, for 2 N^2 reals a link more written and read; the
// staples' buffer is allocated on the split variant's first use). The staples' loads, and the
// plaquette's, are compiled for the field's storage (with_storage_loads). A sub-sweep is tuned on
// (mu 0, parity 0, sweep 0) between a backup and a restore of the links and the acceptance
// counts, so tuning leaves no trace in the ensemble.
#pragma once
#include "comm/halo_exchange.h"
#include "fix/launch_candidates.h"
#include "fix/launch_choice.h"
#include "fix/layout_transfer.h"
#include "gen/gen_functors.h"
#include "gen/generator.h"
#include <optional>
#include <string>

namespace gf {

template <class Exec, class S, class C, int N>
class GeneratorImpl final : public Generator {
public:
  GeneratorImpl(const HostField& host, const GeneratorOptions& opt)
      : geom_(stored_geometry(host.geom, opt.channel.get())), opt_(opt),
        links_(layout_size<Exec, S, N>(geom_, 4, opt.storage)), plaquette_(geom_.local_volume()),
        accepted_(geom_.local_volume()), choice_(opt.tuner, opt.channel.get()) {
    if (geom_.halo) halo_.emplace(opt.channel, view());
    upload(host);
    const std::vector<double> zero(static_cast<std::size_t>(geom_.local_volume()), 0.0);
    accepted_.upload(zero.data());
  }

  void prepare(const std::vector<LinkUpdateKind>& kinds) override {
    fill_halo();
    for (LinkUpdateKind kind : kinds)
      sub_sweep_launch(kind);
    plaquette_launch();
  }

  void sub_sweep(LinkUpdateKind kind, int mu, int parity, std::uint32_t sweep) override {
    const LaunchParams params = sub_sweep_launch(kind);
    if (!geom_.halo) {
      run_slices(kind, mu, parity, sweep, 0, geom_.nt, params);
      return;
    }
    fill_halo();
    const int nt = geom_.nt; // at least 2
    run_slices(kind, mu, parity, sweep, 0, 1, params);
    run_slices(kind, mu, parity, sweep, nt - 1, nt, params);
    gf::synchronize(Exec{});
    // The interior reads slices 0 .. nt - 1 and writes slices 1 .. nt - 2; the messages read
    // the boundary slices and write the halo slices: they may run at the same time. A GPU
    // queues the interior first, so that it runs while the host passes the messages (and the
    // peer path's tokens) on; the CPU passes them on first, and updates the interior meanwhile.
    if constexpr (Exec::asynchronous) {
      run_slices(kind, mu, parity, sweep, 1, nt - 1, params);
      halo_->post_links(view(), mu, parity, queue_);
    } else {
      halo_->post_links(view(), mu, parity, queue_);
      run_slices(kind, mu, parity, sweep, 1, nt - 1, params);
    }
    gf::synchronize(Exec{});
    halo_->complete_links(queue_);
  }

  GeneratorSums measure() override {
    fill_halo();
    const LaunchConfig config = launch_config(plaquette_launch());
    with_storage_loads([&](auto loads) {
      parallel_for(Exec{}, geom_.local_volume(), plaquette_functor<decltype(loads)>(), config);
    });
    GeneratorSums sums{std::vector<double>(geom_.nt), std::vector<double>(geom_.nt)};
    reduce_segments(Exec{}, plaquette_.data(), geom_.nt, geom_.v3, sums.plaquette.data());
    reduce_segments(Exec{}, accepted_.data(), geom_.nt, geom_.v3, sums.accepted.data());
    if (geom_.halo) {
      sums.plaquette = opt_.channel->gather_concat(sums.plaquette);
      sums.accepted = opt_.channel->gather_concat(sums.accepted);
    }
    return sums;
  }

  void upload(const HostField& host) override {
    upload_natural<Exec, S, N>(host, links_, view());
    halo_current_ = false;
  }

  void download(HostField& host) const override {
    download_natural<Exec, S, N>(links_, view(), host);
  }

  void synchronize() override { gf::synchronize(Exec{}); }

private:
  // Both halo slices, where they may be out of date (after an upload).
  void fill_halo() {
    if (!geom_.halo || halo_current_) return;
    gf::synchronize(Exec{});
    halo_->fill_all(view(), queue_);
    halo_current_ = true;
  }

  // The sub-sweep (mu, parity) on slices first .. end - 1, as launch p says: one kernel
  // (site1) or the staples, then the updates (split); the staples' loads are compiled for the
  // field's storage alone.
  void run_slices(LinkUpdateKind kind, int mu, int parity, std::uint32_t sweep, int first, int end,
                  const LaunchParams& p) {
    if (end <= first) return;
    const std::int64_t n = std::int64_t(end - first) * geom_.v3h;
    const LaunchConfig config = launch_config(p);
    with_storage_loads([&](auto loads) {
      using Loads = decltype(loads);
      if (p.variant == split_variant) {
        const StapleStore<C, N> store = staple_store();
        parallel_for(Exec{}, n, StapleSums<S, C, N, Loads>{view(), store, mu, parity, first},
                     config);
        auto f = sub_sweep_functor<StapleFrom::stored>(kind, mu, parity, sweep);
        f.first_slice = first;
        f.staples = store;
        parallel_for(Exec{}, n, f, config);
      } else {
        auto f = sub_sweep_functor<StapleFrom::computed, Loads>(kind, mu, parity, sweep);
        f.first_slice = first;
        parallel_for(Exec{}, n, f, config);
      }
    });
  }

  // Calls body(loads) with the kernels' Loads (link_update.h) for the field's storage: 18 and
  // 12 reals compiled alone (FixedStorage), 8 with the others' branches (AnyStorage: one kernel
  // less to compile for a storage the generator seldom uses).
  template <class Body>
  void with_storage_loads(const Body& body) {
    if (opt_.storage == Storage::full) return body(FixedStorage<Storage::full>{});
    if (opt_.storage == Storage::rows) return body(FixedStorage<Storage::rows>{});
    body(AnyStorage{});
  }

  // The staples of a split sub-sweep, allocated on first use.
  StapleStore<C, N> staple_store() {
    const std::int64_t items = std::int64_t(geom_.nt) * geom_.v3h;
    if (!staples_) staples_.emplace(items * StapleStore<C, N>::reals);
    return {staples_->data(), items};
  }

  FieldView<S, N> view() const {
    return layout_view<Exec, S, N>(const_cast<S*>(links_.data()), geom_, 4, opt_.storage);
  }

  template <StapleFrom From, class Loads = AnyStorage>
  LinkSubSweep<S, C, N, From, Loads> sub_sweep_functor(LinkUpdateKind kind, int mu, int parity,
                                                       std::uint32_t sweep) {
    return {view(), accepted_.data(), kind, mu, parity, C(opt_.beta / N), opt_.seed, sweep, 0, {}};
  }

  template <class Loads>
  SitePlaquette<S, N, Loads> plaquette_functor() {
    return {view(), plaquette_.data()};
  }

  TuneKey key(const std::string& kernel) const {
    return {kernel,
            std::string("prec=") + name_of(opt_.precision) + " storage=" +
                std::to_string(reals_per_matrix<N>(opt_.storage)) + " group=su" + std::to_string(N),
            std::to_string(geom_.L[0]) + "x" + std::to_string(geom_.L[1]) + "x" +
                std::to_string(geom_.L[2]) + "x" + std::to_string(geom_.nt),
            "whole"};
  }

  double link_bytes() const { return double(reals_per_matrix<N>(opt_.storage)) * sizeof(S); }

  // Saves and restores what a sub-sweep changes (the links, the acceptance counts) around
  // tuning.
  void backup_fields() {
    backup_links_.emplace(links_.size());
    copy_buffer(Exec{}, backup_links_->data(), links_.data(), links_.size());
    backup_accepted_.emplace(accepted_.size());
    copy_buffer(Exec{}, backup_accepted_->data(), accepted_.data(), accepted_.size());
  }
  void restore_fields() {
    copy_buffer(Exec{}, links_.data(), backup_links_->data(), links_.size());
    copy_buffer(Exec{}, accepted_.data(), backup_accepted_->data(), accepted_.size());
    gf::synchronize(Exec{});
    backup_links_.reset();
    backup_accepted_.reset();
  }

  // The sub-sweeps' launch for one update kind: forced, tuned or the default.
  LaunchParams sub_sweep_launch(LinkUpdateKind kind) {
    if (opt_.sub_sweep_launch) return *opt_.sub_sweep_launch;
    const bool heatbath = kind == LinkUpdateKind::heatbath;
    const std::int64_t n = geom_.nt * geom_.v3h;
    return choice_.choose(key(heatbath ? "generate.heatbath" : "generate.overrelaxation"), [&] {
      // minimal traffic of one (mu, parity): the n links U_mu(x) read and written, and their
      // staples: U_mu at the other parity and U_nu (nu != mu) at both, 7 n links read; the
      // heatbath also writes the acceptance count of each site (a double)
      LaunchSpec spec;
      spec.bytes = n * (9.0 * link_bytes() + (heatbath ? 8.0 : 0.0));
      spec.candidates = sub_sweep_candidates();
      spec.launch = [this, kind](const LaunchParams& p) {
        run_slices(kind, 0, 0, 0, 0, geom_.nt, p);
      };
      spec.backup = [this] { backup_fields(); };
      spec.restore = [this] { restore_fields(); };
      return spec;
    });
  }

  // The sub-sweeps' launches that the device can run (every kernel of the variant): site1,
  // then split, each with every block size and carve-out.
  std::vector<LaunchParams> sub_sweep_candidates() {
    std::vector<LaunchParams> out;
    with_storage_loads([&](auto loads) {
      using Loads = decltype(loads);
      const auto one =
          sub_sweep_functor<StapleFrom::computed, Loads>(LinkUpdateKind::heatbath, 0, 0, 0);
      const StapleSums<S, C, N, Loads> staples{view(), {}, 0, 0, 0};
      const auto update = sub_sweep_functor<StapleFrom::stored>(LinkUpdateKind::heatbath, 0, 0, 0);
      for (const char* variant : {"site1", split_variant})
        for (int block : candidate_blocks<Exec>())
          for (int carveout : candidate_carveouts<Exec>()) {
            const LaunchParams p{variant, block, 0, carveout, false};
            const LaunchConfig c = launch_config(p);
            if (p.variant == split_variant ? resident_blocks(Exec{}, staples, c) > 0 &&
                                                 resident_blocks(Exec{}, update, c) > 0
                                           : resident_blocks(Exec{}, one, c) > 0)
              out.push_back(p);
          }
    });
    return out;
  }

  const LaunchParams& plaquette_launch() {
    const std::int64_t n = geom_.local_volume();
    return choice_.choose(key("generate.plaquette"), [&] {
      // minimal traffic: the site's 4 links (the other links of its plaquettes are other
      // sites' links, found in the cache) and one double written per site
      LaunchSpec spec{{}, n * (4.0 * link_bytes() + 8.0), 0, {}, {}, {}};
      with_storage_loads([&](auto loads) {
        const auto f = plaquette_functor<decltype(loads)>();
        spec.candidates = plain_candidates<Exec>(f);
        spec.launch = [f, n](const LaunchParams& p) {
          parallel_for(Exec{}, n, f, launch_config(p));
        };
      });
      return spec;
    });
  }

  Geometry geom_;
  GeneratorOptions opt_;
  Buffer<Exec, S> links_;
  Buffer<Exec, double> plaquette_;
  Buffer<Exec, double> accepted_;
  LaunchChoice<Exec> choice_;
  std::optional<HaloExchange<Exec, S, N>> halo_;
  std::optional<Buffer<Exec, S>> backup_links_;
  std::optional<Buffer<Exec, double>> backup_accepted_;
  std::optional<Buffer<Exec, C>> staples_; // the split variant's
  Queue<Exec> queue_;
  bool halo_current_ = false; // the halo slices hold the neighbours' current links
};

template <class Exec, class S, class C>
std::unique_ptr<Generator> make_generator_for(const HostField& host, const GeneratorOptions& opt) {
  if (host.nc == 2) return std::make_unique<GeneratorImpl<Exec, S, C, 2>>(host, opt);
  return std::make_unique<GeneratorImpl<Exec, S, C, 3>>(host, opt);
}

} // namespace gf
