// generator_impl.h: the Generator for one (backend, storage type S, compute type C, N),
// written once for all backends. Included only by generator_cpu.cpp and generator_cuda.cu.
#pragma once
#include "comm/halo_exchange.h"
#include "fix/layout_transfer.h"
#include "gen/gen_functors.h"
#include "gen/generator.h"
#include <optional>

namespace gf {

template <class Exec, class S, class C, int N>
class GeneratorImpl final : public Generator {
public:
  GeneratorImpl(const HostField& host, const GeneratorOptions& opt)
      : geom_(stored_geometry(host.geom, opt.channel.get())), opt_(opt),
        links_(layout_size<S, N>(geom_, 4, opt.compressed)), plaquette_(geom_.local_volume()),
        accepted_(geom_.local_volume()) {
    if (geom_.halo) halo_.emplace(opt.channel, view());
    upload(host);
    const std::vector<double> zero(static_cast<std::size_t>(geom_.local_volume()), 0.0);
    accepted_.upload(zero.data());
  }

  void sub_sweep(LinkUpdateKind kind, int mu, int parity, std::uint32_t sweep) override {
    const LinkSubSweep<S, C, N> f{view(), accepted_.data(), kind,      mu,
                                  parity, C(opt_.beta / N), opt_.seed, sweep};
    fill_halo();
    parallel_for(Exec{}, geom_.nt * geom_.v3h, f);
  }

  GeneratorSums measure() override {
    fill_halo();
    parallel_for(Exec{}, geom_.local_volume(), SitePlaquette<S, N>{view(), plaquette_.data()});
    GeneratorSums sums{std::vector<double>(geom_.nt), std::vector<double>(geom_.nt)};
    reduce_segments(Exec{}, plaquette_.data(), geom_.nt, geom_.v3, sums.plaquette.data());
    reduce_segments(Exec{}, accepted_.data(), geom_.nt, geom_.v3, sums.accepted.data());
    if (geom_.halo) {
      sums.plaquette = opt_.channel->gather_concat(sums.plaquette);
      sums.accepted = opt_.channel->gather_concat(sums.accepted);
    }
    return sums;
  }

  void upload(const HostField& host) override { upload_natural<Exec, S, N>(host, links_, view()); }

  void download(HostField& host) const override {
    download_natural<Exec, S, N>(links_, view(), host);
  }

  void synchronize() override { gf::synchronize(Exec{}); }

private:
  void fill_halo() {
    if (!geom_.halo) return;
    gf::synchronize(Exec{});
    halo_->fill_all(view(), queue_);
  }

  FieldView<S, N> view() const {
    return {const_cast<S*>(links_.data()), geom_, 4, opt_.compressed};
  }

  Geometry geom_;
  GeneratorOptions opt_;
  Buffer<Exec, S> links_;
  Buffer<Exec, double> plaquette_;
  Buffer<Exec, double> accepted_;
  std::optional<HaloExchange<Exec, S, N>> halo_;
  Queue<Exec> queue_;
};

template <class Exec, class S, class C>
std::unique_ptr<Generator> make_generator_for(const HostField& host, const GeneratorOptions& opt) {
  if (host.nc == 2) return std::make_unique<GeneratorImpl<Exec, S, C, 2>>(host, opt);
  return std::make_unique<GeneratorImpl<Exec, S, C, 3>>(host, opt);
}

} // namespace gf
