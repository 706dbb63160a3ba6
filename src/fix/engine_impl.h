// engine_impl.h: the Engine for one (backend, storage type S, compute type C, N, gauge),
// written once for all backends. Included by the few translation units that instantiate
// it (engine_cpu.cpp, engine_cuda_*.cu); nothing else includes it.
#pragma once
#include "fix/engine.h"
#include "fix/layout_transfer.h"
#include "fix/site_functors.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"

namespace gf {

template <class Exec, class S, class C, int N, class Gauge>
class EngineImpl final : public Engine {
public:
  EngineImpl(const HostField& host, const EngineOptions& opt)
      : geom_(host.geom), opt_(opt),
        links_(layout_size<S, N>(geom_, 4, opt.compressed)),
        transform_(opt.track_transform ? layout_size<S, N>(geom_, 1, opt.compressed) : 0),
        measure_f_(geom_.local_volume()), measure_theta_(geom_.local_volume()) {
    upload_natural<Exec, S, N>(host, links_, view(links_, 4));
    if (opt.track_transform) {
      HostField unit(geom_, N, 1);
      for (std::int64_t s = 0; s < unit.local_sites(); ++s)
        unit.set<N>(s, 0, Matrix<double, N>::identity());
      upload_natural<Exec, S, N>(unit, transform_, view(transform_, 1));
    }
  }

  void sweep(const UpdateParams& p, std::uint32_t sweep_index) override {
    const FieldView<S, N> tv =
        opt_.track_transform ? view(transform_, 1) : FieldView<S, N>{nullptr, geom_, 1, opt_.compressed};
    for (int parity = 0; parity < 2; ++parity) {
      const SiteUpdate<Gauge, S, C, N> f{view(links_, 4), tv, parity, p, opt_.seed, sweep_index};
      parallel_for(Exec{}, geom_.nt * geom_.v3h, f);
    }
  }

  SliceSums measure() override {
    const SiteMeasure<Gauge, S, N> f{view(links_, 4), measure_f_.data(), measure_theta_.data()};
    parallel_for(Exec{}, geom_.local_volume(), f);
    SliceSums sums{std::vector<double>(geom_.nt), std::vector<double>(geom_.nt)};
    reduce_segments(Exec{}, measure_f_.data(), geom_.nt, geom_.v3, sums.functional.data());
    reduce_segments(Exec{}, measure_theta_.data(), geom_.nt, geom_.v3, sums.theta.data());
    return sums;
  }

  void reproject() override {
    parallel_for(Exec{}, geom_.nt * 2 * 4 * geom_.v3h, Reproject<S, C, N>{view(links_, 4)});
    if (opt_.track_transform)
      parallel_for(Exec{}, geom_.nt * 2 * geom_.v3h, Reproject<S, C, N>{view(transform_, 1)});
    gf::synchronize(Exec{});
  }

  void synchronize() override { gf::synchronize(Exec{}); }

  void download(HostField& links, HostField* transform) const override {
    download_natural<Exec, S, N>(links_, view(links_, 4), links);
    if (transform && opt_.track_transform)
      download_natural<Exec, S, N>(transform_, view(transform_, 1), *transform);
  }

private:
  FieldView<S, N> view(const Buffer<Exec, S>& b, int ndir) const {
    return {const_cast<S*>(b.data()), geom_, ndir, opt_.compressed};
  }

  Geometry geom_;
  EngineOptions opt_;
  Buffer<Exec, S> links_;
  Buffer<Exec, S> transform_;
  Buffer<Exec, double> measure_f_;
  Buffer<Exec, double> measure_theta_;
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
