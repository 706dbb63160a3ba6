// engine_impl.h: the Engine for one (backend, storage type S, compute type C, N, gauge),
// written once for all backends. Included by the few translation units that instantiate
// it (engine_cpu.cpp, engine_cuda_*.cu); nothing else includes it.
//
// On several ranks a half-sweep follows the protocol of comm/halo_exchange.h: the two
// boundary slices on one queue, then the interior on another while the halo travels.
// The halo is refilled (fill_temporal) before the next sweep or measurement whenever
// links changed outside a sweep (upload, reprojection).
#pragma once
#include "comm/halo_exchange.h"
#include "fix/engine.h"
#include "fix/layout_transfer.h"
#include "fix/site_functors.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"
#include <optional>

namespace gf {

// Runs f on items offset .. offset + n - 1 (a range of time slices).
template <class F>
struct Shifted {
  F f;
  std::int64_t offset;
  GF_HD void operator()(std::int64_t i) const { f(i + offset); }
};

template <class Exec, class S, class C, int N, class Gauge>
class EngineImpl final : public Engine {
public:
  EngineImpl(const HostField& host, const EngineOptions& opt)
      : geom_(stored_geometry(host.geom, opt.channel.get())), opt_(opt),
        links_(layout_size<S, N>(geom_, 4, opt.compressed)),
        transform_(opt.track_transform ? layout_size<S, N>(geom_, 1, opt.compressed) : 0),
        measure_f_(geom_.local_volume()), measure_theta_(geom_.local_volume()) {
    upload_natural<Exec, S, N>(host, links_, view(links_, 4));
    if (opt.track_transform) {
      HostField unit(host.geom, N, 1);
      for (std::int64_t s = 0; s < unit.local_sites(); ++s)
        unit.set<N>(s, 0, Matrix<double, N>::identity());
      upload_natural<Exec, S, N>(unit, transform_, view(transform_, 1));
    }
    if (geom_.halo) halo_.emplace(opt.channel, view(links_, 4));
  }

  void sweep(const UpdateParams& p, std::uint32_t sweep_index) override {
    const FieldView<S, N> tv =
        opt_.track_transform ? view(transform_, 1) : FieldView<S, N>{nullptr, geom_, 1, opt_.compressed};
    refresh_halo();
    for (int parity = 0; parity < 2; ++parity) {
      const SiteUpdate<Gauge, S, C, N> f{view(links_, 4), tv, parity, p, opt_.seed, sweep_index};
      if (geom_.halo)
        half_sweep_exchanging(f, parity);
      else
        parallel_for(Exec{}, geom_.nt * geom_.v3h, f);
    }
  }

  SliceSums measure() override {
    refresh_halo();
    const SiteMeasure<Gauge, S, N> f{view(links_, 4), measure_f_.data(), measure_theta_.data()};
    parallel_for(Exec{}, geom_.local_volume(), f);
    SliceSums sums{std::vector<double>(geom_.nt), std::vector<double>(geom_.nt)};
    reduce_segments(Exec{}, measure_f_.data(), geom_.nt, geom_.v3, sums.functional.data());
    reduce_segments(Exec{}, measure_theta_.data(), geom_.nt, geom_.v3, sums.theta.data());
    if (geom_.halo) {
      sums.functional = opt_.channel->gather_concat(sums.functional);
      sums.theta = opt_.channel->gather_concat(sums.theta);
    }
    return sums;
  }

  void reproject() override {
    parallel_for(Exec{}, geom_.nt * 2 * 4 * geom_.v3h, Reproject<S, C, N>{view(links_, 4)});
    if (opt_.track_transform)
      parallel_for(Exec{}, geom_.nt * 2 * geom_.v3h, Reproject<S, C, N>{view(transform_, 1)});
    gf::synchronize(Exec{});
    halo_fresh_ = false;
  }

  void synchronize() override { gf::synchronize(Exec{}); }
  const char* halo_path() const override { return halo_ ? halo_->mode_name() : "none"; }

  void download(HostField& links, HostField* transform) const override {
    download_natural<Exec, S, N>(links_, view(links_, 4), links);
    if (transform && opt_.track_transform)
      download_natural<Exec, S, N>(transform_, view(transform_, 1), *transform);
  }

private:
  FieldView<S, N> view(const Buffer<Exec, S>& b, int ndir) const {
    return {const_cast<S*>(b.data()), geom_, ndir, opt_.compressed};
  }

  void refresh_halo() {
    if (!geom_.halo || halo_fresh_ || !opt_.exchange) return;
    gf::synchronize(Exec{});
    halo_->fill_temporal(view(links_, 4), comm_queue_);
    halo_fresh_ = true;
  }

  template <class F>
  void half_sweep_exchanging(const F& f, int parity) {
    const std::int64_t slice = geom_.v3h;
    const int nt = geom_.nt;
    parallel_for(boundary_queue_.exec(), slice, Shifted<F>{f, 0});
    parallel_for(boundary_queue_.exec(), slice, Shifted<F>{f, (nt - 1) * slice});
    boundary_queue_.synchronize();
    if (!opt_.exchange) {
      parallel_for(interior_queue_.exec(), (nt - 2) * slice, Shifted<F>{f, slice});
      interior_queue_.synchronize();
      return;
    }
    if constexpr (Exec::asynchronous) {
      parallel_for(interior_queue_.exec(), (nt - 2) * slice, Shifted<F>{f, slice});
      halo_->sweep_exchange_post(view(links_, 4), parity, comm_queue_);
    } else {
      halo_->sweep_exchange_post(view(links_, 4), parity, comm_queue_);
      parallel_for(interior_queue_.exec(), (nt - 2) * slice, Shifted<F>{f, slice});
    }
    halo_->sweep_exchange_complete(comm_queue_);
    interior_queue_.synchronize();
  }

  Geometry geom_;
  EngineOptions opt_;
  Buffer<Exec, S> links_;
  Buffer<Exec, S> transform_;
  Buffer<Exec, double> measure_f_;
  Buffer<Exec, double> measure_theta_;
  std::optional<HaloExchange<Exec, S, N>> halo_;
  bool halo_fresh_ = false;
  Queue<Exec> boundary_queue_, interior_queue_, comm_queue_;
};

template <class Exec, class S, class C, int N>
std::unique_ptr<Engine> make_engine_for(const HostField& host, const EngineOptions& opt) {
  switch (opt.gauge) {
  case GaugeKind::landau:
    return std::make_unique<EngineImpl<Exec, S, C, N, LandauGauge>>(host, opt);
  case GaugeKind::coulomb:
    return std::make_unique<EngineImpl<Exec, S, C, N, CoulombGauge>>(host, opt);
  case GaugeKind::mag:
  default:
    return std::make_unique<EngineImpl<Exec, S, C, N, MagGauge>>(host, opt);
  }
}

} // namespace gf
