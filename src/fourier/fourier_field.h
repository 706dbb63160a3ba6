// fourier_field.h: the DescentField (descent_field.h) of an engine, written once for every
// backend Exec, precision mode Prec, N and gauge (Landau or Coulomb); EngineImpl owns one
// (engine_impl.h) and lends it its links, its g(x) and its halo.
//
// Arrays (backend memory, fourier_layout.h): Delta, Z and D in the slice layout, D with one
// more slice (the next rank's slice 0) for Landau gauge, where g(x + t) of the last slice
// needs it; the step g(x) = exp(-i a D(x)) as full matrices for the same slices; per-site
// doubles for the sums (F, theta and the slope in one array, reduced in one pass). The
// transforms belong to a LatticeFft (make_lattice_fft below: FFTW on the CPU, cuFFT on a
// CUDA GPU).
//
// Preconditioning Z = P Delta: Delta is copied into the transform's slices, transformed over
// (x, y, z); Landau gauge then transposes to the units (on several ranks through one
// all-to-all message exchange each way, Channel::all_to_all; staged through host memory where
// the backend's memory is not host memory and MPI cannot read it: pinned host buffers, kept
// for the field's life, as the halo exchange does), transforms over t,
// multiplies by p^2_max / p^2 / V and goes back the same way; Coulomb gauge multiplies by
// p^2_max / p^2 / V3 per slice. Every sum is formed per time slice in a fixed order and the
// slices' sums are gathered in slice order, so every number is independent of the number of
// ranks and threads.
//
// Launches go through the engine's LaunchChoice (tuning/): one key per kernel, with the
// plain one-thread-per-item candidates; ApplyStep, which changes the links, is tuned between
// the engine's backup and restore.
#pragma once
#include "comm/channel.h"
#include "core/error.h"
#include "fix/launch_candidates.h"
#include "fix/launch_choice.h"
#include "fourier/cufft_fft.h"
#include "fourier/descent_field.h"
#include "fourier/fftw_fft.h"
#include "fourier/fourier_functors.h"
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace gf {

template <class Exec, class R>
std::unique_ptr<LatticeFft<R>> make_lattice_fft(const FourierLayout& layout, bool temporal) {
  if constexpr (std::is_same_v<Exec, HostExec>) {
    return make_fftw<R>(layout, temporal);
  } else {
    static_assert(Exec::device_memory, "a backend without an FFT library");
    return make_cufft<R>(layout, temporal); // the CUDA build's only other backend
  }
}

// What the field borrows from its engine.
struct EngineHooks {
  std::function<TuneKey(const std::string& kernel)> key;
  std::function<void()> refresh_halo;    // before the links are read across the slab's start
  std::function<void()> links_changed;   // after the links changed
  std::function<void()> backup, restore; // the links and g(x), around tuning
};

template <class Exec, class Prec, int N, class Gauge>
class FourierField final : public DescentField {
  using S = typename Prec::storage;
  using L = typename Prec::link;
  using R = typename Prec::problem;
  using C = Complex<R>;
  static constexpr bool landau = Gauge::sweeps_time_links; // 4-D transforms, forward halo

public:
  FourierField(FieldView<S, N> links, FieldView<S, N> transform, std::shared_ptr<Channel> channel,
               LaunchChoice<Exec>& choice, EngineHooks hooks)
      : links_(links), transform_(transform), channel_(std::move(channel)), choice_(choice),
        hooks_(std::move(hooks)), lay_(layout(links.geom, channel_.get())),
        slices_(landau ? lay_.nt + 1 : lay_.nt), delta_(lay_.slice_elements(lay_.nt)),
        z_(lay_.slice_elements(lay_.nt)), d_(lay_.slice_elements(slices_)),
        g_(std::int64_t(slices_) * N * N * lay_.v3), site_sums_(3 * links.geom.local_volume()),
        fft_(make_lattice_fft<Exec, R>(lay_, landau)) {
    if (landau) {
      message_out_.emplace(messages());
      if (lay_.ranks > 1) message_in_.emplace(messages());
    }
    choose_launches();
  }

  DescentSums evaluate() override {
    hooks_.refresh_halo();
    launch("fourier.gradient", links_.geom.local_volume(), gradient(have_direction_));
    std::vector<std::vector<double>> sums = slice_sums(3);
    return {std::move(sums[0]), std::move(sums[1]), std::move(sums[2])};
  }

  void precondition() override {
    C* w = fft_->slices();
    copy_buffer(Exec{}, w, delta_.data(), delta_.size());
    fft_->spatial(FftSign::forward);
    if constexpr (landau) {
      to_units();
      fft_->temporal(FftSign::forward);
      launch("fourier.momentum4", lay_.local_units() * lay_.unit_elements(),
             MomentumMultiplyUnits<R>{lay_, fft_->units()});
      fft_->temporal(FftSign::backward);
      from_units();
    } else {
      launch("fourier.momentum3", lay_.slice_elements(lay_.nt), MomentumMultiplySlices<R>{lay_, w});
    }
    fft_->spatial(FftSign::backward);
    copy_buffer(Exec{}, z_.data(), w, z_.size());
    gf::synchronize(Exec{});
  }

  double dot_gradient(DescentOperand x) override {
    const C* other = x == DescentOperand::preconditioned ? z_.data() : d_.data();
    launch("fourier.dot", links_.geom.local_volume(),
           SiteTraceProduct<R, N>{lay_, delta_.data(), other, site_sums_.data()});
    const std::vector<std::vector<double>> sums = slice_sums(1);
    double total = 0;
    for (double v : sums[0])
      total += v;
    return total;
  }

  void set_direction(double beta) override {
    launch("fourier.direction", lay_.slice_elements(lay_.nt),
           CombineDirection<R>{z_.data(), d_.data(), static_cast<R>(beta)});
    have_direction_ = true;
    if constexpr (landau) fill_direction_halo();
  }

  void move(double a) override {
    launch("fourier.exp", std::int64_t(slices_) * lay_.v3,
           StepTransform<R, N>{lay_, d_.data(), g_.data(), static_cast<R>(a)});
    launch("fourier.apply", links_.geom.local_volume(),
           ApplyStep<Gauge, S, L, R, N>{links_, transform_, lay_, g_.data()});
    gf::synchronize(Exec{});
    hooks_.links_changed();
  }

  double rounding() const override { return 1e3 * std::numeric_limits<L>::epsilon(); }

private:
  static FourierLayout layout(const Geometry& g, const Channel* channel) {
    FourierLayout l;
    for (int mu = 0; mu < 4; ++mu)
      l.L[mu] = g.L[mu];
    l.nt = g.nt;
    l.comps = complex_components<N>;
    l.ranks = channel ? channel->ranks() : 1;
    l.rank = channel ? channel->rank() : 0;
    l.v3 = g.v3;
    return l;
  }

  // Elements of the message arrays: every unit's rows (the slice side) or this rank's units'
  // rows from every rank (the unit side), whichever is larger.
  std::int64_t slice_side() const { return lay_.units() * lay_.block_elements(); }
  std::int64_t unit_side() const { return lay_.ranks * lay_.local_units() * lay_.block_elements(); }
  std::int64_t messages() const { return std::max(slice_side(), unit_side()); }
  // Rows sent to (or received from) each rank: its units' rows on the slice side, this
  // rank's units' rows on the unit side.
  std::vector<std::int64_t> slice_side_rows() const {
    std::vector<std::int64_t> rows(lay_.ranks);
    for (int q = 0; q < lay_.ranks; ++q)
      rows[q] = (lay_.first_unit(q + 1) - lay_.first_unit(q)) * lay_.nt;
    return rows;
  }
  std::vector<std::int64_t> unit_side_rows() const {
    return std::vector<std::int64_t>(lay_.ranks, lay_.local_units() * lay_.nt);
  }

  GradientSite<Gauge, S, R, N> gradient(bool slope) {
    double* sums = site_sums_.data();
    const std::int64_t sites = links_.geom.local_volume();
    return {links_, lay_,         delta_.data(),   slope ? d_.data() : nullptr,
            sums,   sums + sites, sums + 2 * sites};
  }

  // Every kernel's launch, chosen (or tuned) once, before any of them runs on real data:
  // the arrays they change in place then hold nothing yet, and the links are backed up.
  void choose_launches() {
    const std::int64_t sites = links_.geom.local_volume();
    choose("fourier.gradient", sites, gradient(true));
    choose("fourier.dot", sites,
           SiteTraceProduct<R, N>{lay_, delta_.data(), z_.data(), site_sums_.data()});
    choose("fourier.direction", lay_.slice_elements(lay_.nt),
           CombineDirection<R>{z_.data(), d_.data(), R(1)});
    choose("fourier.exp", std::int64_t(slices_) * lay_.v3,
           StepTransform<R, N>{lay_, d_.data(), g_.data(), R(0)});
    choose("fourier.apply", sites,
           ApplyStep<Gauge, S, L, R, N>{links_, transform_, lay_, g_.data()}, true);
    if constexpr (landau) {
      choose("fourier.momentum4", lay_.local_units() * lay_.unit_elements(),
             MomentumMultiplyUnits<R>{lay_, fft_->units()});
      C* m = message_out_->data();
      choose("fourier.transpose_slices", slice_side(),
             TransposeSlices<R>{lay_, fft_->slices(), m, true});
      choose("fourier.transpose_units", unit_side(),
             TransposeUnits<R>{lay_, fft_->units(), m, true});
    } else {
      choose("fourier.momentum3", lay_.slice_elements(lay_.nt),
             MomentumMultiplySlices<R>{lay_, fft_->slices()});
    }
  }

  template <class F>
  void choose(const char* kernel, std::int64_t n, const F& f, bool changes_links = false) {
    const LaunchParams& p = choice_.choose(hooks_.key(kernel), [&] {
      LaunchSpec spec;
      spec.candidates = plain_candidates<Exec>(f);
      spec.launch = [f, n](const LaunchParams& c) { parallel_for(Exec{}, n, f, launch_config(c)); };
      if (changes_links) {
        spec.backup = hooks_.backup;
        spec.restore = hooks_.restore;
      }
      return spec;
    });
    launches_[kernel] = launch_config(p);
  }

  template <class F>
  void launch(const char* kernel, std::int64_t n, const F& f) {
    parallel_for(Exec{}, n, f, launches_.at(kernel));
  }

  // The sums over every time slice of the lattice, in slice order, of the first `arrays`
  // per-site arrays of site_sums_ (F, theta, slope), all reduced in one pass.
  std::vector<std::vector<double>> slice_sums(int arrays) {
    const int nt = lay_.nt;
    std::vector<double> sums(std::size_t(arrays) * nt);
    reduce_segments(Exec{}, site_sums_.data(), arrays * nt, lay_.v3, sums.data());
    std::vector<std::vector<double>> out(arrays);
    for (int a = 0; a < arrays; ++a) {
      std::vector<double> mine(sums.begin() + a * nt, sums.begin() + (a + 1) * nt);
      out[a] = lay_.ranks > 1 ? channel_->gather_concat(mine) : std::move(mine);
    }
    return out;
  }

  // D's slice nt: the next rank's slice 0 (this rank's own on one rank).
  void fill_direction_halo() {
    const std::int64_t n = lay_.slice_elements(1);
    C* first = d_.data();
    C* after = d_.data() + lay_.slice_elements(lay_.nt);
    if (lay_.ranks == 1) {
      copy_buffer(Exec{}, after, first, n);
      gf::synchronize(Exec{});
      return;
    }
    gf::synchronize(Exec{});
    constexpr int tag = 41;
    const std::int64_t bytes = n * std::int64_t(sizeof(C));
    if (!Exec::device_memory || channel_->device_pointers()) {
      channel_->receive(after, bytes, Neighbour::next, tag);
      channel_->send(first, bytes, Neighbour::prev, tag);
      channel_->wait();
      return;
    }
    if (!halo_out_) {
      halo_out_ = std::make_unique<MessageBuffer<Exec>>(bytes);
      halo_in_ = std::make_unique<MessageBuffer<Exec>>(bytes);
    }
    channel_->receive(halo_in_->data(), bytes, Neighbour::next, tag);
    copy_async(queue_, halo_out_->data(), first, bytes);
    queue_.synchronize();
    channel_->send(halo_out_->data(), bytes, Neighbour::prev, tag);
    channel_->wait();
    copy_async(queue_, after, halo_in_->data(), bytes);
    queue_.synchronize();
  }

  // Slices -> units: the message array [unit][local t][x], exchanged, then the units.
  void to_units() {
    C* out = message_out_->data();
    launch("fourier.transpose_slices", slice_side(),
           TransposeSlices<R>{lay_, fft_->slices(), out, true});
    C* in = lay_.ranks > 1 ? exchange(out, slice_side_rows(), message_in_->data(), unit_side_rows())
                           : out;
    launch("fourier.transpose_units", unit_side(),
           TransposeUnits<R>{lay_, fft_->units(), in, false});
  }

  void from_units() {
    C* out = message_out_->data();
    launch("fourier.transpose_units", unit_side(),
           TransposeUnits<R>{lay_, fft_->units(), out, true});
    C* in = lay_.ranks > 1 ? exchange(out, unit_side_rows(), message_in_->data(), slice_side_rows())
                           : out;
    launch("fourier.transpose_slices", slice_side(),
           TransposeSlices<R>{lay_, fft_->slices(), in, false});
  }

  // The all-to-all of the transpose: block q of `out` goes to rank q, block r of `in` comes
  // from rank r; blocks are counted in rows of Lx complex numbers (fourier_layout.h).
  C* exchange(C* out, const std::vector<std::int64_t>& send, C* in,
              const std::vector<std::int64_t>& receive) {
    gf::synchronize(Exec{});
    const std::int64_t row = std::int64_t(lay_.L[0]) * sizeof(C);
    if (!Exec::device_memory || channel_->device_pointers()) {
      channel_->all_to_all(out, send, in, receive, row);
      return in;
    }
    std::int64_t send_rows = 0, receive_rows = 0;
    for (int q = 0; q < lay_.ranks; ++q) {
      send_rows += send[q];
      receive_rows += receive[q];
    }
    if (!staged_out_) {
      const std::int64_t bytes = messages() * std::int64_t(sizeof(C));
      staged_out_ = std::make_unique<MessageBuffer<Exec>>(bytes);
      staged_in_ = std::make_unique<MessageBuffer<Exec>>(bytes);
    }
    copy_async(queue_, staged_out_->data(), out, send_rows * row);
    queue_.synchronize();
    channel_->all_to_all(staged_out_->data(), send, staged_in_->data(), receive, row);
    copy_async(queue_, in, staged_in_->data(), receive_rows * row);
    queue_.synchronize();
    return in;
  }

  FieldView<S, N> links_, transform_;
  std::shared_ptr<Channel> channel_;
  LaunchChoice<Exec>& choice_;
  EngineHooks hooks_;
  FourierLayout lay_;
  int slices_; // of D and g: nt, and one more for Landau
  Buffer<Exec, C> delta_, z_, d_, g_;
  Buffer<Exec, double> site_sums_; // per site: F, then theta, then the slope (3 x sites)
  std::unique_ptr<LatticeFft<R>> fft_;
  std::optional<Buffer<Exec, C>> message_out_, message_in_;
  std::unique_ptr<MessageBuffer<Exec>> staged_out_, staged_in_; // the transpose, staged
  std::unique_ptr<MessageBuffer<Exec>> halo_out_, halo_in_;     // D's slice 0, staged
  Queue<Exec> queue_;
  std::map<std::string, LaunchConfig> launches_;
  bool have_direction_ = false;
};

} // namespace gf
