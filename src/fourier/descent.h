// descent.h: Fourier-accelerated steepest descent (FASD, Davies et al., PRD 37 (1988) 1581)
// and conjugate gradient (FACG, after Hudspith, CPC 187 (2015) 115) for Landau and Coulomb
// gauge, on any DescentField (descent_field.h). One step (iteration):
//   Z = P Delta                       (P = p^2_max / p^2 in momentum space)
//   D = Z + beta D,  beta = 0 (FASD) or Polak-Ribiere: max(0, <Delta, Z - Z_prev> / <Delta_prev,
//   Z_prev>) the links move to g(x) = exp(-i a D(x)) with the step a chosen below,
// and returns the sums of F and theta at the new links (the gradient there is computed anyway).
// <X, Y> = sum_x tr[X(x) Y(x)]. A direction that does not increase F (slope <Delta, D> <= 0)
// is replaced by Z.
//
// Step choice (alpha <= 0, the default: no step to choose).
// FACG: a line search. Along the line the slope s(a) = dF_raw/da = <Delta(a), D> is exact and
// comes with every gradient, so the line search needs no transform: it starts from the
// previous step's length, and while |s(a)| > c s(0) (c = line_tolerance) moves to the secant
// root of s between the bracketing points (or 4x further while s stays positive), at most
// max_line_points gradients per step. A point is taken only if it is an ascent: s(a) > -s(0)
// (past the maximum by less than its distance from the start, on a quadratic F) and F did not
// drop by more than rounding.
// FASD: the Barzilai-Borwein step, one gradient a step. Each step moves by the maximiser along
// the previous line estimated from the slopes at its ends, a s(0) / (s(0) - s(a)) (within
// [a/10, 10 a]; the first step 0.08), which for the preconditioned gradient is BB's
// <s, P^-1 s> / <s, -y>. The step is kept where F is not below F at the start of any of the
// last `nonmonotone_window` steps (a nonmonotone rule, Grippo-Lampariello-Lucidi); otherwise
// the line search above runs from the secant root of the slope.
// Fixed step (alpha > 0): FASD moves by alpha every step (Davies' normalisation: alpha = 0.08
// is the classical choice); a step that is not an ascent is taken back and alpha halved for
// the rest of the run. FACG always searches; alpha is its first trial step.
// Never a silent divergence: a non-finite F, theta or slope stops the run with an Error; a
// step that makes F drop is never kept (FASD's automatic step: below the window's lowest F);
// a step that finds no ascent even along Z (F at its maximum to rounding) ends the descent as
// stalled.
#pragma once
#include "fourier/descent_field.h"
#include <cstddef>
#include <vector>

namespace gf {

enum class DescentMethod { none, fasd, facg };

struct DescentParams {
  DescentMethod method = DescentMethod::none;
  double alpha = 0; // > 0: FASD's fixed step, FACG's first trial; <= 0: automatic
};

const char* descent_name(DescentMethod m);

class FourierDescent {
public:
  static constexpr double default_first_step = 0.08;
  static constexpr double line_tolerance = 0.2;
  static constexpr int max_line_points = 8;
  static constexpr std::size_t nonmonotone_window = 10;

  FourierDescent(DescentField& field, const DescentParams& p);

  // The gradient at the current links and its sums; needed first, and again after the links
  // changed outside the descent (reprojection).
  const DescentSums& start();

  struct Step {
    const DescentSums* sums; // at the new links
    bool stalled;            // no ascent found: the links did not move
    int gradients;           // gradients evaluated by the step
  };
  Step step();

  double step_length() const { return step_; }

  // What a checkpoint keeps of the descent between two steps, besides the field's arrays
  // (DescentField::save_state): the next trial step, <Delta, Z> of the previous step and
  // FASD's window of recent F.
  struct State {
    double step = 0;
    double gz_prev = 0;
    std::vector<double> recent;
  };
  State state() const { return {step_, gz_prev_, recent_}; }
  // Continues a descent saved between two steps, on the field's restored arrays: the state
  // back, and the gradient of the restored links (as start()).
  const DescentSums& resume(const State& s);

private:
  double evaluate(double a); // moves to a along D, returns F there; sums_ updated
  bool ascent(double f, double s) const;
  double slope() const;
  Step line_search();
  Step barzilai_borwein_step();
  Step fixed_step();

  DescentField& field_;
  DescentParams p_;
  DescentSums sums_;
  double f0_ = 0, s0_ = 0; // F and slope at the step's start
  double at_ = 0;          // the links' position along the current direction
  double step_;            // the last step taken (the next trial)
  double gz_prev_ = 0;     // <Delta, Z> of the previous step
  int gradients_ = 0;
  std::vector<double> recent_; // F at the starts of the last steps (FASD's automatic step)
};

} // namespace gf
