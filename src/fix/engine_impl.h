// engine_impl.h: the Engine for one (backend, precision mode Prec, N, gauge), written once
// for all backends. Included by the few translation units that instantiate
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
#include "fix/site_sweep.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"
#include <optional>
#include <type_traits>

namespace gf {

// The __launch_bounds__ instances compiled for each sweep kernel besides the unbounded
// one (launch_config.h): one register cap a little under the unbounded kernel's use
// (measured with -Xptxas -v, docs/kernels.md), none for one thread per site, whose
// links alone need over 100 registers.
template <int Lanes, class Prec>
struct SweepBoundsFor {
  static constexpr bool wide = sizeof(typename Prec::problem) == 8;
  using type = std::conditional_t<Lanes == 1, Bounds<>,
                                  std::conditional_t<wide, Bounds<2>, std::conditional_t<Lanes == 4, Bounds<3>, Bounds<4>>>>;
};

template <class Exec, class Prec, int N, class Gauge>
class EngineImpl final : public Engine {
  using S = typename Prec::storage;

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
    refresh_halo();
    if (update_family(p.kind) == UpdateFamily::thermal)
      sweep_family<UpdateFamily::thermal>(p, sweep_index);
    else
      sweep_family<UpdateFamily::local>(p, sweep_index);
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
    using P = typename Prec::problem;
    parallel_for(Exec{}, geom_.nt * 2 * 4 * geom_.v3h, Reproject<S, P, N>{view(links_, 4)});
    if (opt_.track_transform)
      parallel_for(Exec{}, geom_.nt * 2 * geom_.v3h, Reproject<S, P, N>{view(transform_, 1)});
    gf::synchronize(Exec{});
    halo_fresh_ = false;
  }

  void set_sweep_variant(const std::optional<SweepVariant>& v) override { opt_.sweep_variant = v; }

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

  template <UpdateFamily Family>
  void sweep_family(const UpdateParams& p, std::uint32_t sweep_index) {
    const SweepVariant v =
        opt_.sweep_variant.value_or(SweepVariant{Exec::lane_groups ? 4 : 1, {}});
    if constexpr (Exec::lane_groups) {
      if (v.lanes == 4) return sweep_with<4, Family>(p, sweep_index, v.config);
      if (v.lanes == 8) return sweep_with<8, Family>(p, sweep_index, v.config);
    }
    if (v.lanes != 1)
      throw Error("the " + std::string(Exec::name) + " backend has no sweep with " +
                  std::to_string(v.lanes) + " threads per site");
    sweep_with<1, Family>(p, sweep_index, v.config);
  }

  template <int Lanes, UpdateFamily Family>
  void sweep_with(const UpdateParams& p, std::uint32_t sweep_index, const LaunchConfig& config) {
    const FieldView<S, N> tv = opt_.track_transform
                                   ? view(transform_, 1)
                                   : FieldView<S, N>{nullptr, geom_, 1, opt_.compressed};
    for (int parity = 0; parity < 2; ++parity) {
      SiteSweep<Gauge, Prec, N, Lanes, Family> f{view(links_, 4), tv, parity, 0, p, opt_.seed, sweep_index};
      if (geom_.halo)
        half_sweep_exchanging(f, parity, config);
      else
        parallel_for<typename SweepBoundsFor<Lanes, Prec>::type>(Exec{}, geom_.nt * geom_.v3h * Lanes, f, config);
    }
  }

  // One half-sweep on several ranks: the boundary slices, then the interior while the
  // updated boundary links travel to the neighbours.
  template <class F>
  void half_sweep_exchanging(F f, int parity, const LaunchConfig& config) {
    const std::int64_t slice = geom_.v3h;
    const int nt = geom_.nt;
    const auto run = [&](const Queue<Exec>& q, std::int64_t first, std::int64_t sites) {
      f.first_site = first;
      parallel_for<typename SweepBoundsFor<F::lanes, Prec>::type>(q.exec(), sites * F::lanes, f, config);
    };
    run(boundary_queue_, 0, slice);
    run(boundary_queue_, (nt - 1) * slice, slice);
    boundary_queue_.synchronize();
    if (!opt_.exchange) {
      run(interior_queue_, slice, (nt - 2) * slice);
      interior_queue_.synchronize();
      return;
    }
    if constexpr (Exec::asynchronous) {
      run(interior_queue_, slice, (nt - 2) * slice);
      halo_->sweep_exchange_post(view(links_, 4), parity, comm_queue_);
    } else {
      halo_->sweep_exchange_post(view(links_, 4), parity, comm_queue_);
      run(interior_queue_, slice, (nt - 2) * slice);
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

template <class Exec, class Prec, int N>
std::unique_ptr<Engine> make_engine_for(const HostField& host, const EngineOptions& opt) {
  switch (opt.gauge) {
  case GaugeKind::landau:
    return std::make_unique<EngineImpl<Exec, Prec, N, LandauGauge>>(host, opt);
  case GaugeKind::coulomb:
    return std::make_unique<EngineImpl<Exec, Prec, N, CoulombGauge>>(host, opt);
  case GaugeKind::mag:
  default:
    return std::make_unique<EngineImpl<Exec, Prec, N, MagGauge>>(host, opt);
  }
}

} // namespace gf
