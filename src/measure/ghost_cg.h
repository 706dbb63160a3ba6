// ghost_cg.h: the ghost propagator's conjugate gradient (ghost_propagator.h's contract) run
// through parallel_for and chunk_sums (chunk_sums.h) on a backend Exec (HostExec, or CudaExec in
// the CUDA build), with the site functors of ghost_functors.h: the CPU and a GPU run the same
// source.
//
// GhostCg<Exec> copies the operator's links into backend memory once (GhostLinks, which other
// solvers of the same operator may share) and keeps the CG's vectors there, all in the tiled
// layout of ghost_tiles.h (coalesced on a GPU, natural order on the CPU): b, x, M p, two search
// directions, and r with one time slice more on each side (its halos). Its work goes to a
// stream of its own (Queue, QueueOrder::with_default), so that iterate_together can run the
// solves of several solvers side by side: on one GPU the passes of one fill what the other's
// leave idle (the last blocks of a pass, the reductions between passes), and each solve gives
// the bits it gives alone.
// An iteration is two passes: it exchanges r's boundary slices (one rank: nothing, the passes that
// write r write its halo slices as the slab's periodic images; several ranks on GPUs of one node:
// each GPU copies its two boundary slices straight into its neighbours' halo slices (CUDA IPC,
// peer_memory.h), then a barrier; otherwise through pinned host memory and
// exchange_boundary_slices), then CgApply forms p = r + beta p_old, M p = M r + beta M p_old (M
// applied to r alone: only r is read at the neighbours), x += alpha_old p_old and the chunk sums
// of <p|M p> and of the colour sums of p and M p; CgResidual updates r with the chunk sums of
// <r|r>.
// The last step's alpha p goes into x after the last iteration. A slice's chunk sums are added by
// reduce_segments, the per-slice sums of every rank in global slice order
// (World::gather_concat), so that every rank gets bitwise the one rank's numbers; the CPU and
// the GPU sum a chunk in different orders and agree to rounding. On the CPU, a rank with fewer
// than min_parallel_sites sites (slab_sums.h) runs the passes on one thread, in the same order.
// The scalars between the passes (alpha, beta, |r|^2, the colour means of M p, the iteration
// count and whether the solve goes on: CgScalars, ghost_cg_scalars.h) are in backend memory,
// where the passes read them. On one GPU the totals and the scalar steps run on the device too,
// in the launch that sums the pass's chunks (reduce_segments_then), so an iteration is four
// launches and waits for nothing on the host: the host reads the scalars every 8 iterations,
// and the passes queued after the solve's end do nothing (the same bits as checking every
// iteration). On the CPU and on several ranks the scalar steps run on the host after each pass.
// Bytes one iteration moves per site (8-byte reals, d = N^2 - 1): CgApply reads 4 links
// (64 N^2), r, p_old, M p_old and x (32 d) and writes x, p and M p (24 d); CgResidual reads M p
// and r and writes r (24 d): 64 N^2 + 80 d, SU(3) 576 + 640 = 1216 bytes, SU(2) 256 + 240 =
// 496 bytes (ghost_cg_bytes_per_site). The neighbours' links and r are taken to come from
// cache, and the chunk sums (2 K reals per sum_chunk = 128 sites, K = 1 + 2 d, and 2 per
// chunk for |r|^2: about two bytes a site) and r's halo exchange are left out.
//
// ghost_points<Exec> is ghost_propagator's loop over momenta and sources: each plane wave (cos
// or sin) is computed on the host, its mean taken (FaddeevPopov::mean) and copied to the backend
// once per solver, and each colour's projected source is written there (start_colour: the bits
// of a source built and projected on the host). On one GPU with the memory for it two solvers
// take the sources two at a time (ghost_solvers); the propagator adds <b|x> in source order, so
// its bits do not depend on the number of solvers. time_ghost_cg times the iterations of one
// solver or of two side by side. All collective.
#pragma once
#include "backend/host_exec.h"
#include "comm/mpi_channel.h"
#include "comm/peer_memory.h"
#include "core/error.h"
#include "measure/chunk_sums.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_cg_scalars.h"
#include "measure/ghost_functors.h"
#include "measure/ghost_propagator.h"
#include "measure/ghost_tiles.h"
#include "measure/slab_exchange.h"
#include "measure/slab_sums.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gf {

constexpr double ghost_cg_bytes_per_site(int nc) {
  const int d = nc * nc - 1;
  return 64.0 * nc * nc + 80.0 * d;
}
static_assert(ghost_cg_bytes_per_site(3) == 1216 && ghost_cg_bytes_per_site(2) == 496);

// The CUDA build's instances (ghost_cg_cuda.cu), on the GPU of this rank's node rank:
// ghost_points<CudaExec> and time_ghost_cg<CudaExec>.
std::vector<GhostPoint> ghost_points_cuda(const FaddeevPopov& m,
                                          const std::vector<Momentum>& momenta, double tolerance,
                                          int max_iterations, const GhostProgress& progress,
                                          int solvers = 0);
std::vector<double> time_ghost_cg_cuda(const FaddeevPopov& m, const std::vector<double>& b,
                                       int iterations, int repetitions, int solvers);

// The operator's links in backend memory, tiled: the slab's (4 N^2 complex numbers a site) and
// the temporal links of the slice before it (N^2).
template <class Exec>
struct GhostLinks {
  using Layout = TileLayoutOf<Exec>;
  Layout ll, bl;
  Buffer<Exec, Complex<double>> links, time_before;

  explicit GhostLinks(const FaddeevPopov& m)
      : ll(Layout::of(m.geometry().v3, 4 * m.nc() * m.nc())),
        bl(Layout::of(m.geometry().v3, m.nc() * m.nc())), links(m.geometry().nt * ll.slice()),
        time_before(bl.slice()) {
    const std::int64_t v3 = m.geometry().v3;
    std::vector<Complex<double>> tiled(static_cast<std::size_t>(links.size()));
    tile(m.links().data.data(), ll, m.geometry().nt, v3, tiled.data());
    links.upload(tiled.data());
    tiled.resize(static_cast<std::size_t>(time_before.size()));
    tile(m.time_links_before().data(), bl, 1, v3, tiled.data());
    time_before.upload(tiled.data());
  }
};

template <class Exec>
class GhostCg {
  using Layout = TileLayoutOf<Exec>;

public:
  // A solver of m's operator, with the links of `links` (m's, shared with another solver) or,
  // where it is null, its own copy.
  explicit GhostCg(const FaddeevPopov& m, std::shared_ptr<const GhostLinks<Exec>> links = nullptr)
      : m_(m), d_(m.components()), v3_(m.geometry().v3), nt_(m.geometry().nt), sites_(v3_ * nt_),
        vl_(Layout::of(v3_, d_)), wl_(Layout::of(v3_, 1)),
        links_(links ? std::move(links) : std::make_shared<const GhostLinks<Exec>>(m)),
        wave_(nt_ * wl_.slice()), b_(nt_ * vl_.slice()), x_(nt_ * vl_.slice()),
        mp_(nt_ * vl_.slice()), r_((nt_ + 2) * vl_.slice()), p_(nt_ * vl_.slice()),
        p_old_(nt_ * vl_.slice()), partial_((1 + 2 * d_) * nt_ * sum_chunks(v3_)),
        by_term_((1 + 2 * d_) * nt_), total_(1 + 2 * d_) {
    const unsigned zero = 0;
    blocks_done_.upload(&zero, exec());
    if constexpr (Exec::device_memory)
      if (m.world().size() > 1) open_peers();
  }

  // The links, for another solver of the same operator.
  std::shared_ptr<const GhostLinks<Exec>> links() const { return links_; }

  // `count` solvers of m's operator sharing one copy of its links (iterate_together's).
  static std::vector<std::unique_ptr<GhostCg>> side_by_side(const FaddeevPopov& m, int count) {
    std::vector<std::unique_ptr<GhostCg>> cgs;
    for (int k = 0; k < count; ++k)
      cgs.push_back(std::make_unique<GhostCg>(m, k ? cgs[0]->links() : nullptr));
    return cgs;
  }

  // Backend bytes of a solver's own arrays (its vectors and sums, not the links).
  static double bytes_of_vectors(const FaddeevPopov& m) {
    const Geometry& g = m.geometry();
    const Layout vl = Layout::of(g.v3, m.components()), wl = Layout::of(g.v3, 1);
    const double sums = (1 + 2 * m.components()) * (g.nt * (sum_chunks(g.v3) + 1.0) + 1);
    // b, x, M p, p, p_old, r with its halo slices; the wave
    return 8.0 * ((6.0 * g.nt + 2) * vl.slice() + g.nt * wl.slice() + sums);
  }

  // Solves P M P x = b from x = 0 (b: this rank's part, orthogonal to the constants).
  SolveResult solve(const std::vector<double>& b, double tolerance, int max_iterations) {
    start(b);
    return iterate(tolerance, max_iterations);
  }

  // solve in two parts: start loads b and sets x = 0, r = b; iterate (once after each start)
  // runs the iterations.
  void start(const std::vector<double>& b) {
    if (static_cast<std::int64_t>(b.size()) != sites_ * d_)
      throw Error("conjugate gradient: a source of " + std::to_string(b.size()) + " reals, not " +
                  std::to_string(sites_ * d_));
    staging_.resize(static_cast<std::size_t>(b_.size()));
    tile(b.data(), vl_, nt_, v3_, staging_.data());
    b_.upload(staging_.data(), exec());
    for_sites(CgStart<Layout, LoadedSource>{{b_.data()}, x_.data(), own(r_), vl_, v3_, wrap_nt()});
    begin();
  }

  // start for the source that holds `wave` (one number a site) in colour `colour` and zero in
  // the others, projected: the wave minus `mean` (FaddeevPopov::mean of the wave), the bits
  // start would load after project_out_constants. load_wave copies the wave to the backend
  // once; start_colour writes each colour's source there.
  void load_wave(const std::vector<double>& wave) {
    staging_.resize(static_cast<std::size_t>(wave_.size()));
    tile(wave.data(), wl_, nt_, v3_, staging_.data());
    wave_.upload(staging_.data(), exec());
  }
  void start_colour(int colour, double mean) {
    for_sites(CgStart<Layout, WaveSource<Layout>>{
        {wave_.data(), mean, colour, b_.data(), wl_}, x_.data(), own(r_), vl_, v3_, wrap_nt()});
    begin();
  }

  SolveResult iterate(double tolerance, int max_iterations) {
    return iterate_together({this}, tolerance, max_iterations)[0];
  }

  // iterate on each solver of `cgs` (each started once since its last iterate), side by side:
  // an iteration of each in turn, on their own streams. The results in the order of `cgs`.
  static std::vector<SolveResult> iterate_together(const std::vector<GhostCg*>& cgs,
                                                   double tolerance, int max_iterations) {
    for (GhostCg* cg : cgs)
      cg->open(tolerance);
    bool running = true;
    for (int passes = 0; running && passes < max_iterations;) {
      for (GhostCg* cg : cgs)
        if (cg->host_.state == cg_running) cg->launch_iteration();
      ++passes;
      running = false;
      for (GhostCg* cg : cgs) {
        // On one GPU the host looks at the scalars every `check_interval` iterations; the
        // passes after the solve's end do nothing.
        constexpr int check_interval = 8;
        if (cg->on_device() && (passes % check_interval == 0 || passes == max_iterations))
          cg->scalars_.download(&cg->host_, cg->exec());
        running = running || cg->host_.state == cg_running;
      }
    }
    std::vector<SolveResult> out;
    for (GhostCg* cg : cgs)
      out.push_back(cg->close());
    return out;
  }

  // <b|x> of the last solve.
  double source_dot_solution() { return dot(b_.data(), x_.data()); }
  void solution(std::vector<double>& x) {
    staging_.resize(static_cast<std::size_t>(x_.size()));
    x_.download(staging_.data());
    x.resize(static_cast<std::size_t>(sites_ * d_));
    untile(staging_.data(), vl_, nt_, v3_, x.data());
  }

private:
  Exec exec() const { return stream_.exec(); }

  // The scalars of a solve from x = 0 (iterate_together).
  void open(double tolerance) {
    host_ = CgScalars{};
    passes_ = 0;
    if (bb_ == 0) { // b = 0: x = 0 is the solution
      host_.state = cg_converged;
      return;
    }
    host_.rr = host_.bb = bb_;
    host_.tolerance = tolerance;
    host_.volume = static_cast<double>(m_.geometry().global_volume());
    scalars_.upload(&host_, exec());
  }

  // One iteration: both passes (on the CPU and several ranks only the first where its form is
  // not positive).
  void launch_iteration() {
    apply();
    if (!on_device() && host_.state != cg_running) return; // not positive
    residual();
    std::swap(p_, p_old_); // p_old: this iteration's p, whose alpha p x still lacks
    ++passes_;
  }

  // The end of a solve: its result, and x with the last step's alpha p.
  SolveResult close() {
    SolveResult res;
    if (bb_ == 0) { // x = 0
      res.converged = true;
      return res;
    }
    if (on_device()) scalars_.download(&host_, exec());
    if (host_.state == cg_not_positive)
      throw Error("conjugate gradient: <p|M p> = " + std::to_string(host_.pap) + " at iteration " +
                  std::to_string(host_.iterations + 1) +
                  ": the Faddeev-Popov operator is not positive (is the field in Landau "
                  "gauge, in the first Gribov region?)");
    if ((passes_ - host_.iterations) % 2 != 0) std::swap(p_, p_old_); // passes that did nothing
    res.iterations = host_.iterations;
    res.residual = host_.residual;
    res.converged = host_.state == cg_converged;
    for_sites(AddScaled<Layout>{p_old_.data(), x_.data(), host_.alpha, vl_, v3_});
    return res;
  }

  // the slab's first number of a vector with halo slices
  double* own(Buffer<Exec, double>& v) { return v.data() + vl_.slice(); }

  // the rest of a start, once b, x and r are loaded
  void begin() {
    // beta p_old = 0 and beta M p_old = 0 at the start
    parallel_for(exec(), p_old_.size(), Zero{p_old_.data()});
    parallel_for(exec(), mp_.size(), Zero{mp_.data()});
    bb_ = dot(b_.data(), b_.data());
  }

  template <class F>
  void for_sites(const F& f) {
    if (!Exec::device_memory && sites_ < min_parallel_sites) {
      for (std::int64_t s = 0; s < sites_; ++s) // one thread, as chunk_sums there
        f(s);
    } else {
      parallel_for(exec(), sites_, f);
    }
  }

  // One rank on a GPU: the sums and the scalars stay in device memory.
  bool on_device() const { return Exec::device_memory && m_.world().size() == 1; }
  // One rank: the passes that write r write its halo slices too, as the slab's periodic
  // images (write_periodic_image); several ranks exchange them (exchange_r_halo).
  std::int64_t wrap_nt() const { return m_.world().size() == 1 ? nt_ : 0; }

  // p = r + beta p_old, M p = M r + beta M p_old, x += alpha p_old; then <p|P M p>, the colour
  // means of M p and the step alpha (CgAfterApply).
  void apply() {
    if (m_.world().size() > 1) exchange_r_halo();
    if (m_.nc() == 2) {
      launch_apply<2>();
    } else {
      launch_apply<3>();
    }
  }

  template <int N>
  void launch_apply() {
    const Geometry& g = m_.geometry();
    constexpr int terms = CgApply<N, Layout>::terms;
    const GhostLinks<Exec>& l = *links_;
    const CgApply<N, Layout> f{{l.links.data(), l.time_before.data(), l.ll, l.bl},
                               {own(r_), vl_},
                               p_old_.data(),
                               p_.data(),
                               x_.data(),
                               mp_.data(),
                               scalars_.data(),
                               g.L[0],
                               g.L[1],
                               g.L[2]};
    chunk_sums<terms>(exec(), nt_, v3_, f, partial_.data());
    after_pass(terms, [&](const double* t) { return CgAfterApply{scalar_target(), t, d_}; });
  }

  // r -= alpha (M p - mean); then |r|^2, the residual and beta (CgAfterResidual).
  void residual() {
    chunk_sums<1>(exec(), nt_, v3_,
                  CgResidual<Layout>{mp_.data(), own(r_), scalars_.data(), vl_, wrap_nt()},
                  partial_.data());
    after_pass(1, [&](const double* t) { return CgAfterResidual{scalar_target(), t}; });
  }

  // Where the scalar steps update the scalars: on one GPU the device's copy, else the host's.
  CgScalars* scalar_target() { return on_device() ? scalars_.data() : &host_; }

  // The totals of a pass's `terms` chunk sums, and the scalar step make_step(totals) on them:
  // on one GPU both on the device; else on the host, the scalars then copied to the backend.
  template <class MakeStep>
  void after_pass(int terms, const MakeStep& make_step) {
    if constexpr (Exec::device_memory) {
      if (on_device()) {
        // one launch: the chunks' sums per slice, their totals, the scalar step
        const int segments = static_cast<int>(terms * nt_);
        reduce_segments_then(exec(), partial_.data(), segments, sum_chunks(v3_), by_term_.data(),
                             blocks_done_.data(), terms,
                             SliceTotals{by_term_.data(), total_.data(), nt_},
                             make_step(total_.data()));
        return;
      }
    }
    const std::vector<double> t = totals(terms);
    make_step(t.data())(0);
    scalars_.upload(&host_, exec());
  }

  double dot(const double* a, const double* b) {
    chunk_sums<1>(exec(), nt_, v3_, SiteDot<Layout>{a, b, vl_}, partial_.data());
    return totals(1)[0];
  }

  // The lattice totals of the first `terms` chunk sums: each slice's chunks added by
  // reduce_segments, the slices of every rank added in global slice order.
  std::vector<double> totals(int terms) {
    // term k of slice t is the segment k nt + t of `chunks` values
    const std::int64_t chunks = sum_chunks(v3_);
    std::vector<double> by_term(static_cast<std::size_t>(terms * nt_)), by_slice(by_term.size());
    const int segments = static_cast<int>(terms * nt_);
    if (!Exec::device_memory && sites_ < min_parallel_sites) {
      for (int k = 0; k < segments; ++k) { // in index order, as reduce_segments on the CPU
        double acc = 0;
        for (std::int64_t i = 0; i < chunks; ++i)
          acc += partial_.data()[k * chunks + i];
        by_term[k] = acc;
      }
    } else {
      reduce_segments(Exec{}, partial_.data(), segments, chunks, by_term.data());
    }
    for (std::int64_t t = 0; t < nt_; ++t)
      for (int k = 0; k < terms; ++k)
        by_slice[t * terms + k] = by_term[k * nt_ + t];
    const std::vector<double> all = m_.world().gather_concat(by_slice);
    std::vector<double> total(static_cast<std::size_t>(terms), 0.0);
    for (std::size_t i = 0; i < all.size(); ++i)
      total[i % terms] += all[i];
    return total;
  }

  // r's slices before and after the slab on several ranks: the neighbouring ranks' boundary
  // slices.
  void exchange_r_halo() {
    const std::int64_t slice = vl_.slice();
    double* r = r_.data();
    const std::size_t bytes = static_cast<std::size_t>(slice) * sizeof(double);
    synchronize(Exec{}); // r's slab is final
    if (peers_) {
      // No neighbour reads its halo now: its last CgApply ended before the collective sums
      // since. Our first slice is the previous rank's slice after its slab, our last slice the
      // next rank's slice before its slab; after the barrier every rank's halo is written.
      auto* prev = static_cast<double*>(peers_->mapped(Neighbour::prev));
      auto* next = static_cast<double*>(peers_->mapped(Neighbour::next));
      copy_async(queue_, prev + (prev_nt_ + 1) * slice, r + slice, bytes);
      copy_async(queue_, next, r + nt_ * slice, bytes);
      queue_.synchronize();
      peers_->finish();
      return;
    }
    if (staging_slices_.empty())
      for (int k = 0; k < 4; ++k)
        staging_slices_.push_back(std::make_unique<MessageBuffer<Exec>>(bytes));
    void *first = staging_slices_[0]->data(), *last = staging_slices_[1]->data(),
         *before = staging_slices_[2]->data(), *after = staging_slices_[3]->data();
    copy_async(queue_, first, r + slice, bytes);
    copy_async(queue_, last, r + nt_ * slice, bytes);
    queue_.synchronize();
    exchange_boundary_slices(m_.world(), first, last, bytes, before, after);
    copy_async(queue_, r, before, bytes);
    copy_async(queue_, r + (nt_ + 1) * slice, after, bytes);
    queue_.synchronize();
  }

  // Collective, several ranks on GPUs: maps the neighbours' r (the peer path) where every rank
  // can (PeerMemory, ExchangePath::automatic), else leaves peers_ empty (staged).
  void open_peers() {
    const std::vector<double> nts =
        m_.world().gather_concat(std::vector<double>{static_cast<double>(nt_)});
    prev_nt_ = static_cast<std::int64_t>(nts[static_cast<std::size_t>(m_.world().prev())]);
    peers_ = std::make_unique<PeerMemory<Exec>>(make_channel(m_.world(), ExchangePath::automatic),
                                                r_.data(), PeerScope::neighbours,
                                                "the ghost CG's vectors");
    if (!peers_->usable()) peers_.reset();
  }

  const FaddeevPopov& m_;
  int d_;
  std::int64_t v3_, nt_, sites_;
  Layout vl_, wl_; // vectors, a plane wave
  std::shared_ptr<const GhostLinks<Exec>> links_;
  Buffer<Exec, double> wave_; // the wave of start_colour's sources
  Buffer<Exec, double> b_, x_, mp_, r_, p_, p_old_, partial_;
  Buffer<Exec, double> by_term_, total_;         // one GPU: a pass's per-slice sums and its totals
  Buffer<Exec, CgScalars> scalars_{1};           // what the passes read (on one GPU: the authority)
  Buffer<Exec, unsigned> blocks_done_{1};        // one GPU: reduce_segments_then's block counter
  CgScalars host_;                               // the host's copy (the authority elsewhere)
  int passes_ = 0;                               // iterations launched in this solve
  Queue<Exec> stream_{QueueOrder::with_default}; // the passes', the reductions' and the copies'
  Queue<Exec> queue_;                            // the halo exchange's
  double bb_ = 0;                                // <b|b> of the last start
  std::vector<double> staging_;                  // a vector's tiled host copy
  // ranks > 1: r's first and last slice and the slices before and after the slab, in host
  // memory that the copies reach without a bounce (pinned on a GPU) and MPI sends from
  std::vector<std::unique_ptr<MessageBuffer<Exec>>> staging_slices_;
  // ranks > 1 on GPUs of one node: the neighbours' r, mapped; the previous rank's slices
  std::unique_ptr<PeerMemory<Exec>> peers_;
  std::int64_t prev_nt_ = 0;
};

// Seconds per CG iteration of `repetitions` rounds of `solvers` (1 or 2) solves of b side by
// side (iterate_together) with `iterations` iterations each (the tolerance unreachable), after
// one warm-up round: the benchmark's measurement (bench_ghost_cg); a round's time over the
// iterations of all its solves. The starts (b's copy to the backend, x = 0, r = b, <b|b>) are
// not timed; the last iteration's x update after the loop is.
template <class Exec>
std::vector<double> time_ghost_cg(const FaddeevPopov& m, const std::vector<double>& b,
                                  int iterations, int repetitions, int solvers = 1) {
  if (solvers != 1 && solvers != 2)
    throw Error("time_ghost_cg: " + std::to_string(solvers) + " solvers (1 or 2)");
  const std::vector<std::unique_ptr<GhostCg<Exec>>> own = GhostCg<Exec>::side_by_side(m, solvers);
  std::vector<GhostCg<Exec>*> cgs;
  for (const auto& cg : own)
    cgs.push_back(cg.get());
  auto round = [&](int n) {
    for (GhostCg<Exec>* cg : cgs)
      cg->start(b);
    synchronize(Exec{});
    const auto t0 = std::chrono::steady_clock::now();
    int done = 0;
    for (const SolveResult& r : GhostCg<Exec>::iterate_together(cgs, 1e-300, n))
      done += r.iterations;
    synchronize(Exec{});
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
           std::max(1, done);
  };
  round(2);
  std::vector<double> seconds;
  for (int k = 0; k < repetitions; ++k)
    seconds.push_back(round(iterations));
  return seconds;
}

// The solvers ghost_points runs side by side: two on one GPU whose free memory holds a second
// solver's vectors with a quarter to spare, else one.
template <class Exec>
int ghost_solvers(const FaddeevPopov& m) {
  if constexpr (!Exec::device_memory) {
    return 1;
  } else {
    if (m.world().size() > 1) return 1;
    const double free = static_cast<double>(device_memory(Exec{}).free);
    return free > 1.25 * GhostCg<Exec>::bytes_of_vectors(m) ? 2 : 1;
  }
}

// ghost_propagator (ghost_propagator.h) on backend Exec, with `solvers` side by side (0:
// ghost_solvers'); the momenta are checked by the caller.
template <class Exec>
std::vector<GhostPoint> ghost_points(const FaddeevPopov& m, const std::vector<Momentum>& momenta,
                                     double tolerance, int max_iterations,
                                     const GhostProgress& progress, int solvers = 0) {
  constexpr double two_pi = 6.283185307179586477;
  const Geometry& g = m.geometry();
  const int d = m.components();
  const std::int64_t sites = g.local_volume();
  const double volume = static_cast<double>(g.global_volume());
  const int count = solvers > 0 ? solvers : ghost_solvers<Exec>(m);
  const std::vector<std::unique_ptr<GhostCg<Exec>>> cg_of = GhostCg<Exec>::side_by_side(m, count);
  std::vector<GhostPoint> out;
  std::vector<double> phase(static_cast<std::size_t>(sites));
  std::vector<std::vector<double>> waves(2, std::vector<double>(phase.size()));
  for (const Momentum& n : momenta) {
    GhostPoint pt;
    pt.n = n;
    pt.p2 = lattice_momentum_squared(g.L, n);
    pt.converged = true;
    // p.x / 2 pi as a sum of exact fractions (n_mu x_mu mod L_mu) / L_mu of global coordinates
#pragma omp parallel for schedule(static)
    for (std::int64_t s = 0; s < sites; ++s) {
      std::int64_t r = s;
      double f = 0;
      for (int mu = 0; mu < 4; ++mu) {
        const std::int64_t x = mu < 3 ? r % g.L[mu] : r + g.t0;
        r /= g.L[mu];
        const std::int64_t k = ((std::int64_t(n[mu]) * x) % g.L[mu] + g.L[mu]) % g.L[mu];
        f += static_cast<double>(k) / g.L[mu];
      }
      phase[s] = two_pi * f;
    }
    bool sine_vanishes = true;
    for (int mu = 0; mu < 4; ++mu)
      sine_vanishes = sine_vanishes && (2 * n[mu]) % g.L[mu] == 0;
    const int parts = sine_vanishes ? 1 : 2;
    double means[2];
    for (int part = 0; part < parts; ++part) {
      std::vector<double>& wave = waves[static_cast<std::size_t>(part)];
#pragma omp parallel for schedule(static)
      for (std::int64_t s = 0; s < sites; ++s)
        wave[s] = part == 0 ? std::cos(phase[s]) : std::sin(phase[s]);
      means[part] = m.mean(wave); // each colour's source: the wave in that colour, projected
    }
    // the sources (part, colour) in this order, `count` side by side
    std::vector<int> loaded(cg_of.size(), -1); // the part whose wave a solver holds
    double sum = 0;
    for (int first = 0; first < parts * d; first += count) {
      std::vector<GhostCg<Exec>*> cgs;
      for (int k = 0; k < count && first + k < parts * d; ++k) {
        const int part = (first + k) / d, colour = (first + k) % d;
        GhostCg<Exec>& cg = *cg_of[static_cast<std::size_t>(k)];
        if (loaded[static_cast<std::size_t>(k)] != part)
          cg.load_wave(waves[static_cast<std::size_t>(part)]);
        loaded[static_cast<std::size_t>(k)] = part;
        cg.start_colour(colour, means[part]);
        cgs.push_back(&cg);
      }
      const std::vector<SolveResult> rs =
          GhostCg<Exec>::iterate_together(cgs, tolerance, max_iterations);
      for (std::size_t k = 0; k < cgs.size(); ++k) {
        const SolveResult& r = rs[k];
        sum += cgs[k]->source_dot_solution();
        ++pt.solves;
        pt.max_iterations = std::max(pt.max_iterations, r.iterations);
        pt.total_iterations += r.iterations;
        pt.max_residual = std::max(pt.max_residual, r.residual);
        pt.converged = pt.converged && r.converged;
      }
    }
    pt.propagator = sum / (d * volume);
    out.push_back(pt);
    if (progress) progress(pt, out.size(), momenta.size());
  }
  return out;
}

} // namespace gf
