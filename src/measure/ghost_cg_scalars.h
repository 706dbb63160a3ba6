// ghost_cg_scalars.h: the numbers of the ghost propagator's conjugate gradient (ghost_cg.h)
// between its passes, and the steps that update them, the same source on the host and a GPU.
//
// CgScalars lives in backend memory, where the passes' functors (ghost_functors.h) read the
// step alpha, beta and the colour means; a pass does nothing once `state` is no longer
// cg_running. SliceTotals adds each term's per-slice sums in slice order; CgAfterApply and
// CgAfterResidual are the scalar work after each pass. On one GPU they run on the device, in
// the launch that sums the pass's chunks (one block, then one thread), so an iteration needs no
// transfer to the host (ghost_cg.h checks `state` every few iterations); on the CPU and on
// several ranks (whose sums are gathered on the host) they run on the host. Their products are
// rounded on their own (unfused_mul), so the device gives the host's bits.
#pragma once
#include "core/qualifiers.h"
#include "math/unfused.h"
#include <cmath>
#include <cstdint>

namespace gf {

enum CgState : int { cg_running = 0, cg_converged = 1, cg_not_positive = 2 };

struct CgScalars {
  double alpha = 0;     // the last iteration's step: the next CgApply adds alpha p_old to x
  double beta = 0;      // the next CgApply's direction p = r + beta p_old
  double rr = 0;        // |r|^2
  double bb = 0;        // |b|^2 of the solve's source
  double pap = 0;       // <p|P M p> of the last CgApply
  double residual = 0;  // |r| / |b|
  double tolerance = 0; // the solve stops at residual <= tolerance
  double volume = 0;    // the lattice's sites (all ranks)
  double mean[8] = {};  // each colour's lattice mean of M p (N^2 - 1 <= 8)
  int iterations = 0;   // iterations completed
  int state = cg_running;
};

// total[k] = the sum over slices t (in order) of by_term[k nt + t]: the lattice total of term k
// on one rank (ghost_cg.h's totals() on several ranks adds the ranks' slices in the same order).
// The numbers are loaded eight at a time before they are added, so that the one GPU thread of
// a term waits for memory once every eight slices, not once a slice; the order of the sum is
// the same.
struct SliceTotals {
  const double* by_term;
  double* total;
  std::int64_t nt;
  GF_HD void operator()(std::int64_t k) const {
    constexpr int batch = 8;
    const double* v = by_term + k * nt;
    double acc = 0;
    std::int64_t t = 0;
    for (; t + batch <= nt; t += batch) {
      double loaded[batch];
      GF_UNROLL
      for (int i = 0; i < batch; ++i)
        loaded[i] = v[t + i];
      GF_UNROLL
      for (int i = 0; i < batch; ++i)
        acc += loaded[i];
    }
    for (; t < nt; ++t)
      acc += v[t];
    total[k] = acc;
  }
};

// After CgApply, from its totals t (<p|M p>, p^a, (M p)^a): the colour means of M p,
// <p|P M p> = <p|M p> - sum_a mean_a p^a, and the step alpha = |r|^2 / <p|P M p>; a form that
// is not positive ends the solve (cg_not_positive).
struct CgAfterApply {
  CgScalars* s;
  const double* t;
  int d; // N^2 - 1
  GF_HD void operator()(std::int64_t) const {
    if (s->state != cg_running) return;
    double form = t[0];
    for (int a = 0; a < d; ++a) {
      s->mean[a] = t[1 + d + a] / s->volume;
      form -= unfused_mul(s->mean[a], t[1 + a]);
    }
    s->pap = form;
    if (!(form > 0)) {
      s->state = cg_not_positive;
      return;
    }
    s->alpha = s->rr / form;
  }
};

// After CgResidual, from its total |r|^2: one more iteration, the residual, convergence, and
// beta for the next direction.
struct CgAfterResidual {
  CgScalars* s;
  const double* rr_next;
  GF_HD void operator()(std::int64_t) const {
    if (s->state != cg_running) return;
    const double rr = *rr_next;
    ++s->iterations;
    s->residual = sqrt(rr / s->bb);
    if (s->residual <= s->tolerance) {
      s->state = cg_converged;
      return;
    }
    s->beta = rr / s->rr;
    s->rr = rr;
  }
};

} // namespace gf
