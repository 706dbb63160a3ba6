// fourier_field.h: the DescentField (descent_field.h) of an engine, written once for every
// backend Exec, precision mode Prec, N and gauge (Landau or Coulomb); EngineImpl owns one
// (engine_impl.h) and lends it its links, its g(x) and its halo.
//
// Arrays (backend memory, fourier_layout.h): Delta and D in the slice layout, D with one more
// slice (the next rank's slice 0) for Landau gauge, where g(x + t) of the last slice needs
// it; Z = P Delta stays in the transform's slices, where preconditioning leaves it (nothing
// else writes them until the next preconditioning); the step g(x) = exp(-i a D(x)) as full
// matrices for the slices of D; on the CPU A_mu(x) of every link (LinkAlgebraView,
// fourier_functors.h); per-site doubles for the sums (F, theta and the slope in one array,
// reduced in one pass; the dot products use the slope's third, free between gradients); the
// table of the momenta's terms (MomentumTerms). The transforms belong to a LatticeFft
// (make_lattice_fft below: FFTW on the CPU, cuFFT on a CUDA GPU). device_bytes() counts it all.
//
// The gradient on the CPU reads A_mu(x), not the links: a move stores the A_mu(x) of the
// links it writes (ApplyStep), and evaluate() computes them from the links only where the
// links did not come from the last move (the first evaluation, or links changed outside, e.g.
// reprojection); on several ranks the halo slice's time links are refreshed and converted
// (Landau gauge). Each link is thus loaded once per move and gradient, not three times (what
// a CPU core's caches need). A GPU's gradient reads the links (GradientFromLinks): storing and
// loading A_mu moves more bytes than loading a link again, and the array would take 288 bytes
// a site (SU(3)). Both give the numbers of the direct evaluation, bit for bit.
//
// Preconditioning Z = P Delta: Delta is copied into the transform's slices, transformed over
// (x, y, z); Landau gauge then transposes to the units (on several ranks: between GPUs of one
// node every element is written straight into its place in the receiver's units or slices
// (SlicesToPeerUnits, UnitsToPeerSlices; every rank's arrays mapped with CUDA IPC,
// PeerMemory, under the halo's path rule), no message array and no unpacking, each group as
// soon as it is transformed, overlapping the transforms of the next groups; else one
// all-to-all message exchange each way through Channel::all_to_all, staged through host
// memory where the backend's memory is not host memory and MPI cannot read it: pinned host
// buffers, kept for the field's life, as the halo exchange does), transforms over t,
// multiplies by p^2_max / p^2 / V and goes back the same way; Coulomb gauge multiplies by p^2_max /
// p^2 / V3 per slice. Every sum is formed per time slice in a fixed order and the slices' sums are
// gathered in slice order, so every number is independent of the number of ranks and threads.
//
// The preconditioner's precision T (the transform's real type): the problem's R, or float in a
// double fix (--preconditioner-precision single): Delta is then rounded into the float slices
// (ConvertToTransform), the transforms, the momentum multiply, the transposes and their
// messages (peer, pointers or staged) move float elements, and Z, left in the float slices, is
// read into R by the dot products and the direction; Delta, D, g and every sum stay R. The
// kernels on the transform's arrays are tuned under their own names (tuned_name).
//
// Launches go through the engine's LaunchChoice (tuning/): one key per kernel, with the
// plain one-thread-per-item candidates, each timed as it runs (ApplyStep on the CPU: the SIMD
// move); ApplyStep, which changes the links, is tuned between the engine's backup and restore.
#pragma once
#include "comm/channel.h"
#include "comm/message_tags.h"
#include "comm/peer_memory.h"
#include "core/error.h"
#include "fix/launch_candidates.h"
#include "fix/launch_choice.h"
#include "fix/state_bytes.h"
#include "fourier/cufft_fft.h"
#include "fourier/descent_field.h"
#include "fourier/fftw_fft.h"
#include "fourier/fourier_functors.h"
#include "fourier/simd_apply.h"
#include <algorithm>
#include <chrono>
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

// T: the real type of the transform's arrays (the preconditioner's precision): the
// problem's R, or float in a double fix (a double or mixed mode).
template <class Exec, class Prec, int N, class Gauge, class T = typename Prec::problem>
class FourierField final : public DescentField {
  using S = typename Prec::storage;
  using L = typename Prec::link;
  using R = typename Prec::problem;
  using C = Complex<R>;
  using CT = Complex<T>; // the transform's elements: Z and the transposes' messages
  static constexpr bool converts = !std::is_same_v<T, R>;      // Delta converted into the slices
  static constexpr bool landau = Gauge::sweeps_time_links;     // 4-D transforms, forward halo
  static constexpr bool cached_algebra = !Exec::device_memory; // the link-algebra array

public:
  FourierField(FieldView<S, N> links, FieldView<S, N> transform, std::shared_ptr<Channel> channel,
               LaunchChoice<Exec>& choice, EngineHooks hooks)
      : links_(links), transform_(transform), channel_(std::move(channel)), choice_(choice),
        hooks_(std::move(hooks)), lay_(layout(links.geom, channel_.get())),
        slices_(landau ? lay_.nt + 1 : lay_.nt), delta_(lay_.slice_elements(lay_.nt)),
        d_(lay_.slice_elements(slices_)), g_(std::int64_t(slices_) * N * N * lay_.v3),
        site_sums_(3 * links.geom.local_volume()),
        terms_(lay_.L[0] + lay_.L[1] + lay_.L[2] + lay_.L[3]),
        fft_(make_lattice_fft<Exec, T>(lay_, landau)) {
    if constexpr (cached_algebra)
      algebra_.emplace(
          LinkAlgebraView<N>{nullptr, links.geom, Gauge::n_functional_dirs, false}.size());
    parallel_for(Exec{}, terms_.size(),
                 MomentumTermsFill{{lay_.L[0], lay_.L[1], lay_.L[2], lay_.L[3]}, terms_.data()});
    gf::synchronize(Exec{});
    if (landau && lay_.ranks > 1) { // one rank transposes in place (TransposeLocal)
      if constexpr (Exec::device_memory) {
        if (lay_.ranks <= PeerArrays<T>::max_ranks && units_hold_a_slice()) map_peer_arrays();
      }
      if (!peer_units_) {
        message_in_.emplace(messages());
        message_out_.emplace(messages());
      }
    }
    choose_launches();
  }

  DescentSums evaluate() override {
    const std::int64_t sites = links_.geom.local_volume();
    if constexpr (!cached_algebra) {
      if (landau && links_.geom.halo) hooks_.refresh_halo();
      launch("fourier.gradient_links", sites, gradient_from_links(have_direction_));
      std::vector<std::vector<double>> sums = slice_sums(site_sums_.data(), 3);
      return {std::move(sums[0]), std::move(sums[1]), std::move(sums[2])};
    }
    if (!algebra_current_)
      launch("fourier.link_algebra", sites,
             LinkAlgebraSite<Gauge, S, N>{links_, algebra(), site_sums_.data()});
    algebra_current_ = false; // the links may change outside before the next evaluation
    if constexpr (landau) {
      if (links_.geom.halo) {
        hooks_.refresh_halo();
        launch("fourier.halo_algebra", 2 * links_.geom.v3h,
               HaloLinkAlgebra<Gauge, S, N>{links_, algebra()});
      }
    }
    launch("fourier.gradient", sites, gradient(have_direction_));
    std::vector<std::vector<double>> sums = slice_sums(site_sums_.data(), 3);
    return {std::move(sums[0]), std::move(sums[1]), std::move(sums[2])};
  }

  void precondition() override {
    precondition_timer_.start();
    CT* w = fft_->slices();
    if constexpr (converts)
      launch("fourier.to_transform", delta_.size(), ConvertToTransform<T, R>{delta_.data(), w});
    else
      copy_buffer(Exec{}, w, delta_.data(), delta_.size());
    if constexpr (landau) {
      if (peer_units_) {
        spatial_sent_to_peers();
      } else {
        fft_->spatial(FftSign::forward);
        timed_transpose([this] { slices_to_units(); });
      }
      fft_->temporal(FftSign::forward);
      launch("fourier.momentum4", lay_.unit_array_elements(),
             MomentumMultiplyUnits<T>{lay_, momenta(), fft_->units()});
      if (peer_units_) {
        temporal_sent_to_peers();
      } else {
        fft_->temporal(FftSign::backward);
        timed_transpose([this] { units_to_slices(); });
      }
    } else {
      fft_->spatial(FftSign::forward);
      launch("fourier.momentum3", lay_.slice_elements(lay_.nt),
             MomentumMultiplySlices<T>{lay_, momenta(), w});
    }
    fft_->spatial(FftSign::backward); // Z, left in the slices
    precondition_timer_.stop();
  }

  double dot_gradient(DescentOperand x) override {
    const std::int64_t sites = links_.geom.local_volume();
    if (x == DescentOperand::preconditioned)
      launch("fourier.dot", sites, SiteTraceProduct<R, N, T>{lay_, delta_.data(), z(), dot_sums()});
    else
      launch("fourier.dot", sites,
             SiteTraceProduct<R, N>{lay_, delta_.data(), d_.data(), dot_sums()});
    const std::vector<std::vector<double>> sums = slice_sums(dot_sums(), 1);
    double total = 0;
    for (double v : sums[0])
      total += v;
    return total;
  }

  void set_direction(double beta) override {
    launch("fourier.direction", lay_.slice_elements(lay_.nt),
           CombineDirection<R, T>{z(), d_.data(), static_cast<R>(beta)});
    have_direction_ = true;
    if constexpr (landau) fill_direction_halo();
  }

  void move(double a) override {
    // On one rank the last slice of g is slice 0 again (D's halo slice is a copy of slice 0):
    // copied, not computed twice.
    const int computed = landau && lay_.ranks == 1 ? lay_.nt : slices_;
    launch("fourier.exp", std::int64_t(computed) * lay_.v3,
           StepTransform<R, N>{lay_, d_.data(), g_.data(), static_cast<R>(a)});
    if (computed < slices_) {
      const std::int64_t per_slice = std::int64_t(N) * N * lay_.v3;
      copy_buffer(Exec{}, g_.data() + computed * per_slice, g_.data(), per_slice);
    }
    run_apply(launches_.at("fourier.apply"));
    hooks_.links_changed();
    algebra_current_ = cached_algebra; // ApplyStep stored the new links' A_mu and F
  }

  double rounding() const override { return 1e3 * std::numeric_limits<L>::epsilon(); }

  DescentTimes times() const override {
    return {precondition_timer_.seconds(), transpose_timer_.seconds() + peer_transpose_seconds_};
  }
  const char* preconditioner_precision() const override {
    return std::is_same_v<T, float> ? "single" : "double";
  }
  const char* transpose_path() const override {
    if (!landau) return "none";
    if (lay_.ranks == 1) return "local";
    if (peer_units_) return "peer";
    return mpi_reads_arrays() ? "pointers" : "staged";
  }

  // The device memory the field holds (its arrays and the transforms' work arrays, of T's
  // size: half with a single-precision preconditioner in a double fix), bytes.
  std::int64_t device_bytes() const {
    std::int64_t b = sizeof(C) * (delta_.size() + d_.size() + g_.size()) +
                     sizeof(double) * (site_sums_.size() + terms_.size()) + fft_->bytes();
    if (algebra_) b += sizeof(double) * algebra_->size();
    if (message_in_) b += sizeof(CT) * (message_in_->size() + message_out_->size());
    return b;
  }

  void save_state(std::vector<unsigned char>& out) const override {
    gf::synchronize(Exec{});
    std::vector<CT> z(static_cast<std::size_t>(lay_.slice_elements(lay_.nt)));
    copy_async(queue_, z.data(), fft_->slices(), std::int64_t(z.size() * sizeof(CT)));
    queue_.synchronize();
    append_bytes(out, z.data(), z.size() * sizeof(CT));
    append_buffer(out, d_);
    out.push_back(have_direction_ ? 1 : 0);
  }
  std::size_t restore_state(const std::vector<unsigned char>& in, std::size_t at) override {
    gf::synchronize(Exec{});
    std::vector<CT> z(static_cast<std::size_t>(lay_.slice_elements(lay_.nt)));
    at = take_bytes(in, at, z.data(), z.size() * sizeof(CT));
    copy_async(queue_, fft_->slices(), z.data(), std::int64_t(z.size() * sizeof(CT)));
    queue_.synchronize();
    at = take_buffer(in, at, d_);
    if (at >= in.size()) throw Error("checkpoint state: the Fourier arrays end early");
    have_direction_ = in[at] != 0;
    algebra_current_ = false;
    hooks_.links_changed();
    return at + 1;
  }

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
    l.site_major = !Exec::device_memory; // a CPU's per-site arrays (fourier_layout.h)
    if constexpr (Exec::device_memory) l.unit_group = cufft_unit_group(l);
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

  LinkAlgebraView<N> algebra() {
    return {algebra_ ? algebra_->data() : nullptr, links_.geom, Gauge::n_functional_dirs,
            lay_.site_major};
  }
  CT* z() { return fft_->slices(); }
  // D's slice 0 travels through a neighbour's unit array (fill_direction_halo): whether that
  // holds one slice of D (R) when its elements are T's (a float array holds half the reals).
  bool units_hold_a_slice() const {
    return lay_.unit_array_elements() * std::int64_t(sizeof(CT)) >=
           lay_.slice_elements(1) * std::int64_t(sizeof(C));
  }
  double* dot_sums() { return site_sums_.data() + 2 * links_.geom.local_volume(); }
  MomentumTerms momenta() const {
    return {terms_.data(), {lay_.L[0], lay_.L[1], lay_.L[2], lay_.L[3]}};
  }

  // F goes to the first of site_sums_' arrays, written by ApplyStep or LinkAlgebraSite.
  GradientSite<Gauge, R, N> gradient(bool slope) {
    double* sums = site_sums_.data();
    const std::int64_t sites = links_.geom.local_volume();
    return {algebra(),       lay_, delta_.data(), slope ? d_.data() : nullptr, sums + sites,
            sums + 2 * sites};
  }
  GradientFromLinks<Gauge, S, R, N> gradient_from_links(bool slope) {
    double* sums = site_sums_.data();
    const std::int64_t sites = links_.geom.local_volume();
    return {links_, lay_,         delta_.data(),   slope ? d_.data() : nullptr,
            sums,   sums + sites, sums + 2 * sites};
  }

  // Whether MPI moves the messages from and into the arrays themselves: host memory, or a
  // CUDA-aware MPI; else they are staged through pinned host buffers.
  bool mpi_reads_arrays() const { return gf::mpi_reads_arrays<Exec>(*channel_); }

  ApplyStep<Gauge, S, L, R, N> apply() {
    return {links_, transform_, lay_, g_.data(), algebra(), site_sums_.data()};
  }

  // The move as it runs (and is tuned): on the CPU W sites at once (simd_apply.h; the same
  // bits), else one site per item.
  void run_apply(const LaunchConfig& config) {
    const std::int64_t sites = links_.geom.local_volume();
    if constexpr (Exec::simd_sweeps) {
      run_simd_apply_step<Gauge, Prec, N>(apply(), sites, config);
    } else {
      parallel_for(Exec{}, sites, apply(), config);
    }
  }

  // Every kernel's launch, chosen (or tuned) once, before any of them runs on real data:
  // the arrays they change in place then hold nothing yet, and the links are backed up.
  void choose_launches() {
    const std::int64_t sites = links_.geom.local_volume();
    if constexpr (cached_algebra) {
      choose("fourier.link_algebra", sites,
             LinkAlgebraSite<Gauge, S, N>{links_, algebra(), site_sums_.data()});
      if (landau && links_.geom.halo)
        choose("fourier.halo_algebra", 2 * links_.geom.v3h,
               HaloLinkAlgebra<Gauge, S, N>{links_, algebra()});
      choose("fourier.gradient", sites, gradient(true));
    } else {
      choose("fourier.gradient_links", sites, gradient_from_links(true));
    }
    choose("fourier.dot", sites, SiteTraceProduct<R, N, T>{lay_, delta_.data(), z(), dot_sums()});
    choose("fourier.direction", lay_.slice_elements(lay_.nt),
           CombineDirection<R, T>{z(), d_.data(), R(1)});
    if constexpr (converts)
      choose("fourier.to_transform", delta_.size(),
             ConvertToTransform<T, R>{delta_.data(), fft_->slices()});
    choose("fourier.exp", std::int64_t(slices_) * lay_.v3,
           StepTransform<R, N>{lay_, d_.data(), g_.data(), R(0)});
    choose_run(
        "fourier.apply", apply(), [this](const LaunchConfig& c) { run_apply(c); }, true);
    if constexpr (landau) {
      choose("fourier.momentum4", lay_.unit_array_elements(),
             MomentumMultiplyUnits<T>{lay_, momenta(), fft_->units()});
      if (lay_.ranks == 1) {
        choose("fourier.transpose_local", lay_.units() * lay_.unit_elements(),
               TransposeLocal<T>{lay_, fft_->slices(), fft_->units(), true});
      } else if (peer_units_) { // tuned with every target our own array (zeros, as yet)
        choose("fourier.slices_to_peers", lay_.slice_elements(lay_.nt),
               SlicesToPeerUnits<T>{lay_, fft_->slices(), own_arrays(fft_->units())});
        choose("fourier.units_to_peers", lay_.local_block_elements(),
               UnitsToPeerSlices<T>{lay_, fft_->units(), own_arrays(fft_->slices())});
      } else {
        CT* m = message_in_->data();
        choose("fourier.transpose_slices", slice_side(),
               TransposeSlices<T>{lay_, fft_->slices(), m, true});
        choose("fourier.transpose_units", unit_side(),
               TransposeUnits<T>{lay_, fft_->units(), m, true});
      }
    } else {
      choose("fourier.momentum3", lay_.slice_elements(lay_.nt),
             MomentumMultiplySlices<T>{lay_, momenta(), fft_->slices()});
    }
  }

  template <class F>
  void choose(const char* kernel, std::int64_t n, const F& f) {
    choose_run(kernel, f, [f, n](const LaunchConfig& c) { parallel_for(Exec{}, n, f, c); });
  }

  // The launch of `kernel`, functor f (its candidates), timed as `run` runs it.
  template <class F, class Run>
  void choose_run(const char* kernel, const F& f, Run run, bool changes_links = false) {
    const LaunchParams& p = choice_.choose(hooks_.key(tuned_name(kernel)), [&] {
      LaunchSpec spec;
      spec.candidates = plain_candidates<Exec>(f);
      spec.launch = [run](const LaunchParams& c) { run(launch_config(c)); };
      if (changes_links) {
        spec.backup = hooks_.backup;
        spec.restore = hooks_.restore;
      }
      return spec;
    });
    launches_[kernel] = launch_config(p);
  }

  // The tuner's name of a kernel: the kernels on the transform's arrays are others (another
  // element size) where these are float in a double fix.
  static std::string tuned_name(const std::string& kernel) {
    if constexpr (converts) {
      static const char* const plain[] = {"fourier.link_algebra", "fourier.halo_algebra",
                                          "fourier.gradient",     "fourier.gradient_links",
                                          "fourier.exp",          "fourier.apply"};
      if (std::find(std::begin(plain), std::end(plain), kernel) == std::end(plain))
        return kernel + ".single_preconditioner";
    }
    return kernel;
  }

  template <class F>
  void launch(const char* kernel, std::int64_t n, const F& f) {
    parallel_for(Exec{}, n, f, launches_.at(kernel));
  }

  // The sums over every time slice of the lattice, in slice order, of `arrays` consecutive
  // per-site arrays (site_sums_: F, theta, slope; dot_sums_), all reduced in one pass.
  std::vector<std::vector<double>> slice_sums(const double* site_values, int arrays) {
    const int nt = lay_.nt;
    std::vector<double> sums(std::size_t(arrays) * nt);
    reduce_segments(Exec{}, site_values, arrays * nt, lay_.v3, sums.data());
    std::vector<std::vector<double>> out(arrays);
    for (int a = 0; a < arrays; ++a) {
      std::vector<double> mine(sums.begin() + a * nt, sums.begin() + (a + 1) * nt);
      out[a] = lay_.ranks > 1 ? channel_->gather_concat(mine) : std::move(mine);
    }
    return out;
  }

  // D's slice nt: the next rank's slice 0 (this rank's own on one rank). Between GPUs of one
  // node the next rank copies it into our transform's units (idle between preconditionings,
  // and as large as a slice: Lt >= ranks), then we copy it into place; else it travels over
  // the channel (staged through host memory where MPI cannot read the device's).
  void fill_direction_halo() {
    const std::int64_t n = lay_.slice_elements(1);
    C* first = d_.data();
    C* after = d_.data() + lay_.slice_elements(lay_.nt);
    if (lay_.ranks == 1) {
      copy_buffer(Exec{}, after, first, n);
      return;
    }
    gf::synchronize(Exec{});
    if constexpr (Exec::device_memory) {
      if (peer_units_) {
        peer_units_->finish();
        const int prev = (lay_.rank + lay_.ranks - 1) % lay_.ranks; // Neighbour::prev
        copy_buffer(Exec{}, static_cast<C*>(peer_units_->mapped(prev)), first, n);
        gf::synchronize(Exec{});
        peer_units_->finish();
        copy_buffer(Exec{}, after, reinterpret_cast<const C*>(fft_->units()), n);
        gf::synchronize(Exec{});
        return;
      }
    }
    constexpr int tag = tags::fourier_direction;
    const std::int64_t bytes = n * std::int64_t(sizeof(C));
    if (mpi_reads_arrays()) {
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

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // A transpose (slices_to_units or units_to_slices), timed as the device runs it.
  template <class Transpose>
  void timed_transpose(const Transpose& transpose) {
    transpose_timer_.start();
    transpose();
    transpose_timer_.stop();
  }

  // Between GPUs of one node, the transposes are pipelined: as each group of slices (of unit
  // blocks) is transformed on the device's stream, the side queue writes it into its places
  // in the receivers' units (slices), so that the traffic between the GPUs overlaps the
  // transforms of the groups after it; then one barrier. The time counted as transposing is
  // what the transforms did not hide: from the last transform's end to every rank's writes
  // being complete.
  void spatial_sent_to_peers() {
    const SlicesToPeerUnits<T> send{lay_, fft_->slices(), mapped_arrays(*peer_units_)};
    const std::int64_t per = fft_->spatial_group_elements(), total = lay_.slice_elements(lay_.nt);
    for (int k = 0; k < fft_->spatial_groups(); ++k) {
      fft_->spatial(FftSign::forward, k, 1);
      send_part("fourier.slices_to_peers", send, k * per, std::min(per, total - k * per));
    }
    finish_sending(*peer_units_);
  }
  void temporal_sent_to_peers() {
    const UnitsToPeerSlices<T> send{lay_, fft_->units(), mapped_arrays(*peer_slices_)};
    const std::int64_t per = fft_->temporal_group_elements();
    for (int k = 0; k < fft_->temporal_groups(); ++k) {
      fft_->temporal(FftSign::backward, k, 1);
      send_part("fourier.units_to_peers", send, k * per, per);
    }
    finish_sending(*peer_slices_);
  }
  template <class Send>
  void send_part(const char* kernel, const Send& send, std::int64_t first, std::int64_t n) {
    if (n <= 0) return; // a group of padding only
    queue_waits_for(queue_, Exec{});
    parallel_for(queue_.exec(), n, ItemsFrom<Send>{send, first}, launches_.at(kernel));
  }
  void finish_sending(const PeerMemory<Exec>& peers) {
    synchronize_stream(Exec{});
    const auto start = std::chrono::steady_clock::now();
    queue_.synchronize();
    peers.finish();
    peer_transpose_seconds_ += seconds_since(start);
  }

  // Slices -> units: the message array [unit][local t][x], exchanged, then the units.
  void slices_to_units() {
    if (lay_.ranks == 1) {
      launch("fourier.transpose_local", lay_.units() * lay_.unit_elements(),
             TransposeLocal<T>{lay_, fft_->slices(), fft_->units(), true});
      return;
    }
    CT* in = send_side("fourier.transpose_slices", slice_side(),
                       TransposeSlices<T>{lay_, fft_->slices(), nullptr, true}, slice_side_rows(),
                       unit_side_rows());
    launch("fourier.transpose_units", unit_side(),
           TransposeUnits<T>{lay_, fft_->units(), in, false});
  }

  void units_to_slices() {
    if (lay_.ranks == 1) {
      launch("fourier.transpose_local", lay_.units() * lay_.unit_elements(),
             TransposeLocal<T>{lay_, fft_->slices(), fft_->units(), false});
      return;
    }
    CT* in = send_side("fourier.transpose_units", unit_side(),
                       TransposeUnits<T>{lay_, fft_->units(), nullptr, true}, unit_side_rows(),
                       slice_side_rows());
    launch("fourier.transpose_slices", slice_side(),
           TransposeSlices<T>{lay_, fft_->slices(), in, false});
  }

  // A transpose's sending side: `pack` fills the message array, which is exchanged (rows_out
  // rows to each rank, rows_in from each). Returns the message received.
  template <class Pack>
  CT* send_side(const char* kernel, std::int64_t n, Pack pack,
                const std::vector<std::int64_t>& rows_out,
                const std::vector<std::int64_t>& rows_in) {
    pack.message = message_out_->data();
    launch(kernel, n, pack);
    return exchange(pack.message, rows_out, message_in_->data(), rows_in);
  }

  // Between GPUs of one node: every rank's transform arrays (slices and units) mapped here,
  // so that each transpose writes every element straight into its place at its receiver. The
  // arrays are as large on every rank (fourier_layout.h). Collective; where the path is not
  // peer, or a mapping fails, none is kept and the messages go through the channel.
  void map_peer_arrays() {
    const std::string memory = "another rank's GPU memory for the Fourier transpose";
    auto units =
        std::make_unique<PeerMemory<Exec>>(channel_, fft_->units(), PeerScope::all, memory);
    if (!units->usable()) return;
    auto slices =
        std::make_unique<PeerMemory<Exec>>(channel_, fft_->slices(), PeerScope::all, memory);
    if (!slices->usable()) return;
    peer_units_ = std::move(units);
    peer_slices_ = std::move(slices);
  }
  PeerArrays<T> mapped_arrays(const PeerMemory<Exec>& peer) const {
    PeerArrays<T> a{};
    for (int q = 0; q < lay_.ranks; ++q)
      a.array[q] = static_cast<CT*>(peer.mapped(q));
    return a;
  }
  PeerArrays<T> own_arrays(CT* mine) const {
    PeerArrays<T> a{};
    for (int q = 0; q < PeerArrays<T>::max_ranks; ++q)
      a.array[q] = mine;
    return a;
  }

  // The all-to-all of the transpose: block q of `out` goes to rank q, block r of `in` comes
  // from rank r; blocks are counted in rows of Lx complex numbers (fourier_layout.h).
  CT* exchange(CT* out, const std::vector<std::int64_t>& send, CT* in,
               const std::vector<std::int64_t>& receive) {
    gf::synchronize(Exec{});
    const std::int64_t row = std::int64_t(lay_.L[0]) * sizeof(CT);
    if (mpi_reads_arrays()) {
      channel_->all_to_all(out, send, in, receive, row);
      return in;
    }
    std::int64_t send_rows = 0, receive_rows = 0;
    for (int q = 0; q < lay_.ranks; ++q) {
      send_rows += send[q];
      receive_rows += receive[q];
    }
    if (!staged_out_) {
      const std::int64_t bytes = messages() * std::int64_t(sizeof(CT));
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
  Buffer<Exec, C> delta_, d_, g_;
  Buffer<Exec, double> site_sums_; // per site: F, then theta, then the slope (3 x sites)
  Buffer<Exec, double> terms_;     // MomentumTerms' table
  std::optional<Buffer<Exec, double>> algebra_; // A_mu(x) of every link (the CPU's)
  std::unique_ptr<LatticeFft<T>> fft_;
  std::optional<Buffer<Exec, CT>> message_out_, message_in_; // several ranks, without peers
  // every rank's transform arrays, mapped (GPUs of one node; else none)
  std::unique_ptr<PeerMemory<Exec>> peer_units_, peer_slices_;
  std::unique_ptr<MessageBuffer<Exec>> staged_out_, staged_in_; // the transpose, staged
  std::unique_ptr<MessageBuffer<Exec>> halo_out_, halo_in_;     // D's slice 0, staged
  Queue<Exec> queue_;
  std::map<std::string, LaunchConfig> launches_;
  // Preconditioning and the transposes as the device ran them; between GPUs of one node the
  // transposes' time the transforms did not hide, on the host's clock.
  IntervalTimer<Exec> precondition_timer_, transpose_timer_;
  double peer_transpose_seconds_ = 0;
  bool have_direction_ = false;
  bool algebra_current_ = false; // algebra_ and F hold the current links' (set by a move)
};

} // namespace gf
