// generator_impl.h: the Generator for one (backend, storage type S, compute type C, N),
// written once for all backends. Included only by generator_cpu.cpp and generator_cuda.cu.
//
// Every launch takes its block size and carve-out from a LaunchChoice (fix/launch_choice.h),
// per kernel: the sub-sweeps of each update kind (every mu and parity share one choice) and
// the plaquette. A sub-sweep is tuned on (mu 0, parity 0, sweep 0) between a backup and a
// restore of the links and the acceptance counts, so tuning leaves no trace in the ensemble.
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
    const LaunchConfig config = launch_config(sub_sweep_launch(kind));
    if (!geom_.halo) {
      run_slices(kind, mu, parity, sweep, 0, geom_.nt, config);
      return;
    }
    fill_halo();
    const int nt = geom_.nt; // at least 2
    run_slices(kind, mu, parity, sweep, 0, 1, config);
    run_slices(kind, mu, parity, sweep, nt - 1, nt, config);
    gf::synchronize(Exec{});
    // The interior reads slices 0 .. nt - 1 and writes slices 1 .. nt - 2; the messages read
    // the boundary slices and write the halo slices: they may run at the same time. A GPU
    // queues the interior first, so that it runs while the host passes the messages (and the
    // peer path's tokens) on; the CPU passes them on first, and updates the interior meanwhile.
    if constexpr (Exec::asynchronous) {
      run_slices(kind, mu, parity, sweep, 1, nt - 1, config);
      halo_->post_links(view(), mu, parity, queue_);
    } else {
      halo_->post_links(view(), mu, parity, queue_);
      run_slices(kind, mu, parity, sweep, 1, nt - 1, config);
    }
    gf::synchronize(Exec{});
    halo_->complete_links(queue_);
  }

  GeneratorSums measure() override {
    fill_halo();
    parallel_for(Exec{}, geom_.local_volume(), plaquette_functor(),
                 launch_config(plaquette_launch()));
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

  void run_slices(LinkUpdateKind kind, int mu, int parity, std::uint32_t sweep, int first,
                  int end, const LaunchConfig& config) {
    if (end <= first) return;
    LinkSubSweep<S, C, N> f = sub_sweep_functor(kind, mu, parity, sweep);
    f.first_slice = first;
    parallel_for(Exec{}, std::int64_t(end - first) * geom_.v3h, f, config);
  }

  FieldView<S, N> view() const {
    return layout_view<Exec, S, N>(const_cast<S*>(links_.data()), geom_, 4, opt_.storage);
  }

  LinkSubSweep<S, C, N> sub_sweep_functor(LinkUpdateKind kind, int mu, int parity,
                                          std::uint32_t sweep) {
    return {view(), accepted_.data(), kind, mu, parity, C(opt_.beta / N), opt_.seed, sweep, 0};
  }

  SitePlaquette<S, N> plaquette_functor() { return {view(), plaquette_.data()}; }

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

  // The sub-sweeps' launch for one update kind: tuned or the default.
  const LaunchParams& sub_sweep_launch(LinkUpdateKind kind) {
    const bool heatbath = kind == LinkUpdateKind::heatbath;
    const LinkSubSweep<S, C, N> f = sub_sweep_functor(kind, 0, 0, 0);
    const std::int64_t n = geom_.nt * geom_.v3h;
    return choice_.choose(key(heatbath ? "generate.heatbath" : "generate.overrelaxation"), [&] {
      // minimal traffic of one (mu, parity): the n links U_mu(x) read and written, and their
      // staples: U_mu at the other parity and U_nu (nu != mu) at both, 7 n links read; the
      // heatbath also writes the acceptance count of each site (a double)
      LaunchSpec spec;
      spec.bytes = n * (9.0 * link_bytes() + (heatbath ? 8.0 : 0.0));
      spec.candidates = plain_candidates<Exec>(f);
      spec.launch = [f, n](const LaunchParams& p) { parallel_for(Exec{}, n, f, launch_config(p)); };
      spec.backup = [this] { backup_fields(); };
      spec.restore = [this] { restore_fields(); };
      return spec;
    });
  }

  const LaunchParams& plaquette_launch() {
    const SitePlaquette<S, N> f = plaquette_functor();
    const std::int64_t n = geom_.local_volume();
    return choice_.choose(key("generate.plaquette"), [&] {
      // minimal traffic: the site's 4 links (the other links of its plaquettes are other
      // sites' links, found in the cache) and one double written per site
      LaunchSpec spec{{}, n * (4.0 * link_bytes() + 8.0), 0, plain_candidates<Exec>(f), {}, {}};
      spec.launch = [f, n](const LaunchParams& p) { parallel_for(Exec{}, n, f, launch_config(p)); };
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
  Queue<Exec> queue_;
  bool halo_current_ = false; // the halo slices hold the neighbours' current links
};

template <class Exec, class S, class C>
std::unique_ptr<Generator> make_generator_for(const HostField& host, const GeneratorOptions& opt) {
  if (host.nc == 2) return std::make_unique<GeneratorImpl<Exec, S, C, 2>>(host, opt);
  return std::make_unique<GeneratorImpl<Exec, S, C, 3>>(host, opt);
}

} // namespace gf
