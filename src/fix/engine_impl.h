// engine_impl.h: the Engine for one (backend, precision mode Prec, N, gauge), written once
// for all backends. Included by the few translation units that instantiate
// it (engine_cpu.cpp, engine_cuda_*.cu); nothing else includes it.
//
// On several ranks a half-sweep follows the protocol of comm/halo_exchange.h: the two
// boundary slices on one queue, then the interior on another while the halo travels.
// The halo is refilled (fill_temporal) before the next sweep or measurement whenever
// links changed outside a sweep (upload, reprojection).
//
// Coulomb gauge (!Gauge::sweeps_time_links) has no halo traffic: its sweeps and its
// measurement use the spatial links of one time slice only, so on several ranks a sweep is
// one launch over the whole slab, as on one rank. Its sweeps never touch the time links, so
// the buffer keeps the time links of the start, and g(x) (always tracked for this gauge) is
// the whole transformation since then. download() applies it to the time links of a copy
// of the links (time_link_transform.h; g of the next rank's slice 0 arrives once,
// comm/next_slice.h): any number of downloads, with sweeps between them, give the field
// transformed by the g(x) of that moment.
//
// Every launch takes its parameters from a LaunchChoice (launch_choice.h): the sweep's
// variant (threads per site), block size, __launch_bounds__ instance and carve-out, per
// update family and region (whole lattice; or interior and boundary slices on several
// ranks); the measurement's and the reprojection's block size and carve-out.
#pragma once
#include "comm/halo_exchange.h"
#include "comm/next_slice.h"
#include "fix/engine.h"
#include "fix/launch_candidates.h"
#include "fix/launch_choice.h"
#include "fix/layout_transfer.h"
#include "fix/memory_report.h"
#include "fix/simd_sweep.h"
#include "fix/site_functors.h"
#include "fix/site_sweep.h"
#include "fix/state_bytes.h"
#include "fix/time_link_transform.h"
#include "fourier/fourier_field.h"
#include "gauge/landau_coulomb.h"
#include "gauge/mag.h"
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace gf {

// The __launch_bounds__ instances compiled for each sweep kernel besides the unbounded
// one (launch_config.h): one register cap a little under the unbounded kernel's use
// (measured with -Xptxas -v, docs/kernels.md): 128 registers for 2 threads per site and in
// double, 85 and 64 for 4 and 8 in single; none for one thread per site, whose links alone
// need over 100 registers.
template <int Lanes, class Prec>
struct SweepBoundsFor {
  static constexpr bool wide = sizeof(typename Prec::problem) == 8;
  using type =
      std::conditional_t<Lanes == 1, Bounds<>,
                         std::conditional_t<wide || Lanes == 2, Bounds<2>,
                                            std::conditional_t<Lanes == 4, Bounds<3>, Bounds<4>>>>;
};

template <class Exec, class Prec, int N, class Gauge>
class EngineImpl final : public Engine {
  using S = typename Prec::storage;
  using SweepVariants = std::pair<SweepVariant, SweepVariant>; // boundary, interior
  // The sweeps leave the time links alone; g(x) is applied to them at download.
  static constexpr bool defers_time_links = !Gauge::sweeps_time_links;

public:
  EngineImpl(const HostField& host, const EngineOptions& opt)
      : geom_(stored_geometry(host.geom, opt.channel.get())), opt_(opt),
        links_(layout_size<Exec, S, N>(geom_, 4, opt.storage)),
        transform_(tracks_transform() ? layout_size<Exec, S, N>(geom_, 1, opt.storage) : 0),
        measure_f_(geom_.local_volume()), measure_theta_(geom_.local_volume()),
        choice_(opt.tuner, opt.channel.get()) {
    load(host);
    if (geom_.halo && !defers_time_links) halo_.emplace(opt.channel, view(links_, 4));
  }

  void upload(const HostField& host) override {
    const Geometry& g = host.geom;
    if (host.nc != N || host.ndir != 4 || g.t0 != geom_.t0 || g.nt != geom_.nt ||
        g.L[0] != geom_.L[0] || g.L[1] != geom_.L[1] || g.L[2] != geom_.L[2] ||
        g.L[3] != geom_.L[3])
      throw Error("engine upload: the field (SU(" + std::to_string(host.nc) + "), " +
                  std::to_string(g.L[0]) + "x" + std::to_string(g.L[1]) + "x" +
                  std::to_string(g.L[2]) + "x" + std::to_string(g.L[3]) +
                  ") is not of the engine's lattice and group");
    gf::synchronize(Exec{});
    load(host);
    halo_fresh_ = false;
  }

  void sweep(const UpdateParams& p, std::uint32_t sweep_index) override {
    refresh_halo();
    if (update_family(p.kind) == UpdateFamily::thermal)
      sweep_family<UpdateFamily::thermal>(p, sweep_index);
    else
      sweep_family<UpdateFamily::local>(p, sweep_index);
  }

  void prepare(const std::vector<UpdateParams>& kinds) override {
    refresh_halo();
    for (const UpdateParams& p : kinds) {
      if (update_family(p.kind) == UpdateFamily::thermal)
        sweep_launches<UpdateFamily::thermal>(p);
      else
        sweep_launches<UpdateFamily::local>(p);
    }
    measure_launch();
    using P = typename Prec::problem;
    reproject_launch<P>(links_, 4, "reproject.links");
    if (tracks_transform()) reproject_launch<P>(transform_, 1, "reproject.transform");
  }

  SliceSums measure() override {
    refresh_halo();
    parallel_for(Exec{}, geom_.local_volume(), measure_functor(), launch_config(measure_launch()));
    SliceSums sums{std::vector<double>(geom_.nt), std::vector<double>(geom_.nt)};
    reduce_segments(Exec{}, measure_f_.data(), geom_.nt, geom_.v3, sums.functional.data());
    reduce_segments(Exec{}, measure_theta_.data(), geom_.nt, geom_.v3, sums.theta.data());
    if (geom_.halo) {
      sums.functional = opt_.channel->gather_concat(sums.functional);
      sums.theta = opt_.channel->gather_concat(sums.theta);
    }
    return sums;
  }

  LinkDeviation measure_link_deviation() override {
    constexpr int dirs = Gauge::n_functional_dirs;
    const int chunks = static_cast<int>(std::min<std::int64_t>(geom_.v3, 256));
    const std::int64_t items = std::int64_t(geom_.nt) * chunks;
    if (deviation_chunks_.size() != 3 * items) deviation_chunks_ = Buffer<Exec, double>(3 * items);
    double* d = deviation_chunks_.data();
    parallel_for(
        Exec{}, items,
        LinkDeviationChunk<dirs, S, N>{view(links_, 4), chunks, d, d + items, d + 2 * items});
    std::vector<double> chunk(static_cast<std::size_t>(3 * items));
    deviation_chunks_.download(chunk.data());
    // per slice: sum, max |1 - det U|, max |U U^dagger - 1|; then gathered in slice order
    std::vector<double> sum(geom_.nt, 0.0), det_max(geom_.nt, 0.0), unitary_max(geom_.nt, 0.0);
    const auto larger = [](double a, double b) { return b > a || b != b ? b : a; }; // NaN stays
    for (int t = 0; t < geom_.nt; ++t)
      for (int c = 0; c < chunks; ++c) {
        const std::size_t i = std::size_t(t) * chunks + c;
        sum[t] += chunk[i];
        det_max[t] = larger(det_max[t], chunk[items + i]);
        unitary_max[t] = larger(unitary_max[t], chunk[2 * items + i]);
      }
    if (geom_.halo) {
      sum = opt_.channel->gather_concat(sum);
      det_max = opt_.channel->gather_concat(det_max);
      unitary_max = opt_.channel->gather_concat(unitary_max);
    }
    LinkDeviation r;
    for (std::size_t t = 0; t < sum.size(); ++t) {
      r.det_mean += sum[t];
      r.det_max = larger(r.det_max, det_max[t]);
      r.unitary_max = larger(r.unitary_max, unitary_max[t]);
    }
    r.det_mean /= double(dirs) * double(geom_.global_volume());
    return r;
  }

  void reproject() override {
    using P = typename Prec::problem;
    reproject_field<P>(links_, 4, "reproject.links");
    if (tracks_transform()) reproject_field<P>(transform_, 1, "reproject.transform");
    gf::synchronize(Exec{});
    halo_fresh_ = false;
  }

  void set_sweep_variant(const std::optional<SweepVariant>& v) override {
    opt_.sweep_variant = v;
    for (auto& chosen : sweep_variants_)
      chosen.reset();
  }

  void synchronize() override { gf::synchronize(Exec{}); }
  const char* halo_path() const override { return halo_ ? halo_->mode_name() : "none"; }

  void download(HostField& links, HostField* transform) const override {
    if constexpr (defers_time_links)
      download_natural<Exec, S, N>(links_with_transformed_time_links(), view(links_, 4), links);
    else
      download_natural<Exec, S, N>(links_, view(links_, 4), links);
    if (transform && opt_.track_transform)
      download_natural<Exec, S, N>(transform_, view(transform_, 1), *transform);
  }

  DescentField& descent_field() override {
    if constexpr (!Gauge::linear) {
      throw Error("Fourier-accelerated fixing (--algorithm fasd, facg) exists for Landau and "
                  "Coulomb gauge, "
                  "not for " +
                  std::string(name_of(Gauge::kind)) + " gauge");
    } else {
      if (!descent_) {
        EngineHooks hooks;
        hooks.key = [this](const std::string& kernel) {
          return key(kernel + "." + name_of(Gauge::kind), "whole");
        };
        hooks.refresh_halo = [this] { refresh_halo(); };
        hooks.links_changed = [this] { halo_fresh_ = false; };
        hooks.backup = [this] { backup_fields(); };
        hooks.restore = [this] { restore_fields(); };
        using R = typename Prec::problem;
        constexpr bool double_problem = std::is_same_v<R, double>;
        if (!double_problem && opt_.preconditioner == PreconditionerPrecision::double_)
          throw Error("preconditioner precision double needs precision double or mixed (a "
                      "single fix's preconditioner is single)");
        if (double_problem && opt_.preconditioner == PreconditionerPrecision::single)
          make_descent_field<float>(std::move(hooks));
        else
          make_descent_field<R>(std::move(hooks));
      }
      return *descent_;
    }
  }

  // The FourierField whose transforms are of real type T.
  template <class T>
  void make_descent_field(EngineHooks hooks) {
    auto field = std::make_unique<FourierField<Exec, Prec, N, Gauge, T>>(
        view(links_, 4), transform_view(), opt_.channel, choice_, std::move(hooks));
    report_fourier_memory(field->device_bytes() +
                              std::int64_t(sizeof(S)) * (links_.size() + transform_.size()),
                          device_memory(Exec{}).used, geom_.local_volume());
    descent_ = std::move(field);
  }

  std::vector<unsigned char> save_state() const override {
    gf::synchronize(Exec{});
    std::vector<unsigned char> out;
    append_buffer(out, links_);
    if (tracks_transform()) append_buffer(out, transform_);
    out.push_back(descent_ ? 1 : 0);
    if (descent_) descent_->save_state(out);
    return out;
  }

  void restore_state(const std::vector<unsigned char>& state) override {
    gf::synchronize(Exec{});
    std::size_t at = take_buffer(state, 0, links_);
    if (tracks_transform()) at = take_buffer(state, at, transform_);
    if (at >= state.size()) throw Error("checkpoint state: the engine's arrays end early");
    const bool descent = state[at++] != 0;
    if (descent)
      at = descent_field().restore_state(state, at);
    else if (descent_)
      throw Error("checkpoint state: saved without the Fourier arrays this engine has");
    if (at != state.size())
      throw Error("checkpoint state: more bytes than the engine's arrays (saved by an engine of "
                  "other options or another slab)");
    gf::synchronize(Exec{});
    halo_fresh_ = false;
  }

private:
  FieldView<S, N> view(const Buffer<Exec, S>& b, int ndir) const {
    return layout_view<Exec, S, N>(const_cast<S*>(b.data()), geom_, ndir, opt_.storage);
  }

  bool tracks_transform() const { return opt_.track_transform || defers_time_links; }

  // The links from natural order; g(x), where kept, the identity.
  void load(const HostField& host) {
    upload_natural<Exec, S, N>(host, links_, view(links_, 4));
    if (tracks_transform()) {
      HostField unit(host.geom, N, 1);
      for (std::int64_t s = 0; s < unit.local_sites(); ++s)
        unit.set<N>(s, 0, Matrix<double, N>::identity());
      upload_natural<Exec, S, N>(unit, transform_, view(transform_, 1));
    }
  }

  // A copy of the links whose time links are g(x) U_t(x) g(x + t)^dagger; g of the slice
  // after the slab comes from the next rank (one message each way).
  Buffer<Exec, S> links_with_transformed_time_links() const {
    gf::synchronize(Exec{});
    Buffer<Exec, S> copy(links_.size());
    copy_buffer(Exec{}, copy.data(), links_.data(), links_.size());
    if (geom_.halo) fill_next_slice<Exec, S, N>(*opt_.channel, view(transform_, 1), comm_queue_);
    parallel_for(
        Exec{}, geom_.local_volume(),
        TimeLinkTransform<S, typename Prec::problem, N>{view(copy, 4), view(transform_, 1)});
    gf::synchronize(Exec{});
    return copy;
  }

  void refresh_halo() {
    if (!halo_ || halo_fresh_ || !opt_.exchange) return;
    gf::synchronize(Exec{});
    halo_->fill_temporal(view(links_, 4), comm_queue_);
    halo_fresh_ = true;
  }

  static constexpr const char* family_name(UpdateFamily f) {
    return f == UpdateFamily::thermal ? "thermal" : "local";
  }

  double link_bytes() const { return double(reals_per_matrix<N>(opt_.storage)) * sizeof(S); }

  TuneKey key(const std::string& kernel, const char* region) const {
    const char* prec = std::is_same_v<Prec, SinglePrecision>  ? "single"
                       : std::is_same_v<Prec, MixedPrecision> ? "mixed"
                                                              : "double";
    return {kernel,
            std::string("prec=") + prec +
                " storage=" + std::to_string(reals_per_matrix<N>(opt_.storage)) + " group=su" +
                std::to_string(N) + (tracks_transform() ? " transform=yes" : " transform=no"),
            std::to_string(geom_.L[0]) + "x" + std::to_string(geom_.L[1]) + "x" +
                std::to_string(geom_.L[2]) + "x" + std::to_string(geom_.nt),
            region};
  }

  // Every launchable sweep variant with Lanes threads per site (RowsOverrelaxation: the kernel
  // compiled for 12-real storage and overrelaxation alone, site_sweep.h).
  template <int Lanes, UpdateFamily Family, bool RowsOverrelaxation = false>
  void add_sweep_candidates(const UpdateParams& p, std::vector<LaunchParams>& out) const {
    using Bounded = typename SweepBoundsFor<Lanes, Prec>::type;
    const SiteSweep<Gauge, Prec, N, Lanes, Family, RowsOverrelaxation> f{
        view(links_, 4), transform_view(), 0, 0, p, opt_.seed, 0};
    // a -rows variant runs the family's other rules with the kernel that branches
    // (launch_sweep): its launch must fit that kernel's registers as well
    const SiteSweep<Gauge, Prec, N, Lanes, Family> branching{
        view(links_, 4), transform_view(), 0, 0, p, opt_.seed, 0};
    std::vector<int> min_blocks = {0};
    [&]<int... M>(Bounds<M...>) {
      (min_blocks.push_back(M), ...);
    }
    (Bounded{});
    for (int block : Exec::lane_groups ? candidate_blocks<Exec>() : cpu_sweep_schedules())
      for (int mb : min_blocks)
        for (int carveout : candidate_carveouts<Exec>()) {
          const LaunchParams c{lanes_variant(Lanes, RowsOverrelaxation), block, mb, carveout,
                               false};
          if ((mb == 0 || block <= bounded_block_max) &&
              resident_blocks<Bounded>(Exec{}, f, launch_config(c)) > 0 &&
              (!RowsOverrelaxation ||
               resident_blocks<Bounded>(Exec{}, branching, launch_config(c)) > 0))
            out.push_back(c);
        }
  }

  // The CPU's sweeps of the local family, W sites at once (simd_sweep.h), for every width
  // and schedule; listed first, so that without tuning the first width runs.
  void add_simd_candidates(std::vector<LaunchParams>& out) const {
    for (int width : simd_candidate_widths<Prec>())
      for (int schedule : cpu_sweep_schedules())
        out.push_back({simd_variant(width), schedule, 0, -1, false});
  }

  FieldView<S, N> transform_view() const {
    return tracks_transform() ? view(transform_, 1)
                              : layout_view<Exec, S, N>(nullptr, geom_, 1, opt_.storage);
  }

  // Saves and restores the links and g(x) around tuning (the sweep changes them in place): on
  // the device where it has room for them (with a tenth to spare), else in host memory, so
  // that tuning never needs more device memory than the fix holds.
  void backup_fields() {
    const std::int64_t bytes = sizeof(S) * (links_.size() + transform_.size());
    const bool on_device = device_memory(Exec{}).free / 11 * 10 > bytes;
    save_copy(links_, backup_links_, on_device);
    if (tracks_transform()) save_copy(transform_, backup_transform_, on_device);
  }
  void restore_fields() {
    load_copy(links_, backup_links_);
    if (tracks_transform()) load_copy(transform_, backup_transform_);
    gf::synchronize(Exec{});
  }
  struct Backup {
    std::optional<Buffer<Exec, S>> device;
    std::vector<S> host;
  };
  static void save_copy(const Buffer<Exec, S>& from, Backup& to, bool on_device) {
    gf::synchronize(Exec{});
    if (on_device) {
      to.device.emplace(from.size());
      copy_buffer(Exec{}, to.device->data(), from.data(), from.size());
    } else {
      to.host.resize(static_cast<std::size_t>(from.size()));
      from.download(to.host.data());
    }
  }
  static void load_copy(Buffer<Exec, S>& to, Backup& from) {
    if (from.device) {
      copy_buffer(Exec{}, to.data(), from.device->data(), to.size());
      gf::synchronize(Exec{});
    } else {
      to.upload(from.host.data());
    }
    from = {};
  }

  // The sweep's launch for one family and region: forced, tuned or the default.
  template <UpdateFamily Family>
  SweepVariant sweep_launch(const UpdateParams& p, const char* region, std::int64_t first,
                            std::int64_t sites) {
    if (opt_.sweep_variant) return *opt_.sweep_variant;
    const std::string kernel =
        std::string("sweep.") + name_of(Gauge::kind) + "." + family_name(Family);
    const LaunchParams& lp = choice_.choose(key(kernel, region), [&] {
      LaunchSpec spec;
      // 8 links (6 when the time links are left alone) read and written per site, g(x) too
      // where it is tracked
      const int matrices = (defers_time_links ? 6 : 8) + (tracks_transform() ? 1 : 0);
      spec.bytes = double(sites) * 2.0 * link_bytes() * matrices;
      spec.flops = Gauge::linear && N == 3 ? double(sites) * flops_per_site_update : 0.0;
      if constexpr (Exec::simd_sweeps && Family == UpdateFamily::local)
        add_simd_candidates(spec.candidates);
      add_sweep_candidates<1, Family>(p, spec.candidates);
      if constexpr (Exec::lane_groups) {
        add_sweep_candidates<2, Family>(p, spec.candidates);
        add_sweep_candidates<4, Family>(p, spec.candidates);
        add_sweep_candidates<8, Family>(p, spec.candidates);
        if constexpr (has_rows_kernels<Family>)
          if (opt_.storage == Storage::rows) {
            add_sweep_candidates<2, Family, true>(p, spec.candidates);
            add_sweep_candidates<4, Family, true>(p, spec.candidates);
          }
      }
      // The local family is timed with overrelaxation, the rule it mostly runs, whichever rule
      // comes first (a fix that anneals with microcanonical steps, then overrelaxes): the -rows
      // variants run the other rules with the kernel that branches, so that timing another rule
      // would not time their own kernels.
      UpdateParams timed = p;
      if constexpr (Family == UpdateFamily::local) timed.kind = UpdateKind::overrelaxation;
      spec.launch = [this, timed, first, sites](const LaunchParams& c) {
        launch_sweep<Family>(Exec{}, sweep_variant(c), timed, 0, 0, first, sites);
      };
      spec.backup = [this] { backup_fields(); };
      spec.restore = [this] { restore_fields(); };
      return spec;
    });
    return sweep_variant(lp);
  }

  template <UpdateFamily Family>
  void launch_sweep(Exec e, const SweepVariant& v, const UpdateParams& p, int parity,
                    std::uint32_t sweep_index, std::int64_t first, std::int64_t sites) {
    // (a SIMD variant forced on the thermal family runs the scalar sweep: the heatbath has
    // no SIMD form)
    if constexpr (Exec::simd_sweeps && Family == UpdateFamily::local) {
      if (v.simd > 0)
        return simd_sweep<Gauge, Prec, N>(
            v.simd,
            ScalarLocalSweep<Gauge, Prec, N>{view(links_, 4), transform_view(), parity, first, p,
                                             opt_.seed, sweep_index},
            sites, v.config);
    }
    if (v.rows_overrelaxation) {
      if (opt_.storage != Storage::rows)
        throw Error("sweep variant " + lanes_variant(v.lanes, true) +
                    " needs 12-real storage (--storage 12)");
      // the rows kernels are compiled for overrelaxation alone: the family's other rules run
      // the kernel that branches, with the same lanes and launch (the same bits)
      if (p.kind != UpdateKind::overrelaxation) {
        SweepVariant branching = v;
        branching.rows_overrelaxation = false;
        return launch_sweep<Family>(e, branching, p, parity, sweep_index, first, sites);
      }
      if constexpr (has_rows_kernels<Family>) {
        if (v.lanes == 2)
          return launch_lanes<2, Family, true>(e, v.config, p, parity, sweep_index, first, sites);
        if (v.lanes == 4)
          return launch_lanes<4, Family, true>(e, v.config, p, parity, sweep_index, first, sites);
      }
      throw Error("the " + std::string(Exec::name) + " backend has no sweep variant " +
                  lanes_variant(v.lanes, true) + " for this group and update kind");
    }
    if constexpr (Exec::lane_groups) {
      if (v.lanes == 2)
        return launch_lanes<2, Family>(e, v.config, p, parity, sweep_index, first, sites);
      if (v.lanes == 4)
        return launch_lanes<4, Family>(e, v.config, p, parity, sweep_index, first, sites);
      if (v.lanes == 8)
        return launch_lanes<8, Family>(e, v.config, p, parity, sweep_index, first, sites);
    }
    if (v.lanes != 1)
      throw Error("the " + std::string(Exec::name) + " backend has no sweep with " +
                  std::to_string(v.lanes) + " threads per site");
    if (v.simd > 0 && !Exec::simd_sweeps)
      throw Error("the " + std::string(Exec::name) + " backend has no SIMD sweep");
    launch_lanes<1, Family>(e, v.config, p, parity, sweep_index, first, sites);
  }

  // Whether the kernels compiled for 12-real storage and overrelaxation alone exist: SU(3), the
  // local family, on a backend with lane groups (the GPU), where they are tuning candidates.
  template <UpdateFamily Family>
  static constexpr bool has_rows_kernels = N == 3 &&
                                           (Family == UpdateFamily::local) && Exec::lane_groups;

  template <int Lanes, UpdateFamily Family, bool RowsOverrelaxation = false>
  void launch_lanes(Exec e, const LaunchConfig& config, const UpdateParams& p, int parity,
                    std::uint32_t sweep_index, std::int64_t first, std::int64_t sites) {
    const SiteSweep<Gauge, Prec, N, Lanes, Family, RowsOverrelaxation> f{
        view(links_, 4), transform_view(), parity, first, p, opt_.seed, sweep_index};
    parallel_for<typename SweepBoundsFor<Lanes, Prec>::type>(e, sites * Lanes, f, config);
  }

  // The variants (boundary, interior) of the boundary and interior slices, or both that of
  // the whole slab (one rank, or no halo: Coulomb); chosen on the family's first use and
  // kept, so that a sweep builds no tune key.
  template <UpdateFamily Family>
  const SweepVariants& sweep_launches(const UpdateParams& p) {
    std::optional<SweepVariants>& chosen = sweep_variants_[static_cast<int>(Family)];
    if (chosen) return *chosen;
    const std::int64_t slice = geom_.v3h;
    const int nt = geom_.nt;
    if (!halo_) {
      const SweepVariant v = sweep_launch<Family>(p, "whole", 0, nt * slice);
      return chosen.emplace(v, v);
    }
    return chosen.emplace(sweep_launch<Family>(p, "boundary", 0, slice),
                          sweep_launch<Family>(p, "interior", slice, (nt - 2) * slice));
  }

  template <UpdateFamily Family>
  void sweep_family(const UpdateParams& p, std::uint32_t sweep_index) {
    const std::int64_t slice = geom_.v3h;
    const int nt = geom_.nt;
    const auto [boundary, interior] = sweep_launches<Family>(p);
    if (!halo_) {
      for (int parity = 0; parity < 2; ++parity)
        launch_sweep<Family>(Exec{}, interior, p, parity, sweep_index, 0, nt * slice);
      return;
    }
    for (int parity = 0; parity < 2; ++parity)
      half_sweep_exchanging(
          [&](const Queue<Exec>& q, std::int64_t first, std::int64_t sites) {
            launch_sweep<Family>(q.exec(), first == slice ? interior : boundary, p, parity,
                                 sweep_index, first, sites);
          },
          parity);
  }

  template <class P>
  void reproject_field(Buffer<Exec, S>& buffer, int ndir, const char* kernel) {
    const std::int64_t n = geom_.nt * 2 * ndir * geom_.v3h;
    parallel_for(Exec{}, n, Reproject<S, P, N>{view(buffer, ndir)},
                 launch_config(reproject_launch<P>(buffer, ndir, kernel)));
  }

  template <class P>
  const LaunchParams& reproject_launch(Buffer<Exec, S>& buffer, int ndir, const char* kernel) {
    const Reproject<S, P, N> f{view(buffer, ndir)};
    const std::int64_t n = geom_.nt * 2 * ndir * geom_.v3h;
    return choice_.choose(key(kernel, "whole"), [&] {
      LaunchSpec spec{{}, n * 2.0 * link_bytes(), 0, plain_candidates<Exec>(f), {}, {}};
      spec.launch = [f, n](const LaunchParams& c) { parallel_for(Exec{}, n, f, launch_config(c)); };
      spec.backup = [this] { backup_fields(); };
      spec.restore = [this] { restore_fields(); };
      return spec;
    });
  }

  SiteMeasure<Gauge, S, N> measure_functor() {
    return {view(links_, 4), measure_f_.data(), measure_theta_.data()};
  }

  const LaunchParams& measure_launch() {
    const SiteMeasure<Gauge, S, N> f = measure_functor();
    const std::int64_t n = geom_.local_volume();
    return choice_.choose(key("measure." + std::string(name_of(Gauge::kind)), "whole"), [&] {
      // minimal traffic: the site's up links of the gauge's directions (its down links are
      // other sites' up links, found in the cache) and two doubles written per site
      const double up_links = Gauge::n_functional_dirs;
      LaunchSpec spec{{}, n * (up_links * link_bytes() + 16.0), 0, plain_candidates<Exec>(f), {},
                      {}};
      spec.launch = [f, n](const LaunchParams& p) { parallel_for(Exec{}, n, f, launch_config(p)); };
      return spec;
    });
  }

  // One half-sweep on several ranks: the boundary slices, then the interior while the
  // updated boundary links travel to the neighbours. run(queue, first site, sites).
  template <class Run>
  void half_sweep_exchanging(const Run& run, int parity) {
    const std::int64_t slice = geom_.v3h;
    const int nt = geom_.nt;
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
  Buffer<Exec, double> deviation_chunks_; // measure_link_deviation's, made on first use
  LaunchChoice<Exec> choice_;
  std::optional<HaloExchange<Exec, S, N>> halo_;
  Backup backup_links_, backup_transform_;         // while tuning
  std::optional<SweepVariants> sweep_variants_[2]; // per UpdateFamily
  bool halo_fresh_ = false;
  Queue<Exec> boundary_queue_, interior_queue_, comm_queue_;
  std::unique_ptr<DescentField> descent_;
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
