#include "fourier/descent.h"
#include "core/error.h"
#include <algorithm>
#include <cmath>
#include <string>

namespace gf {

namespace {

double total(const std::vector<double>& per_slice) {
  double s = 0;
  for (double v : per_slice)
    s += v;
  return s;
}

} // namespace

const char* descent_name(DescentMethod m) {
  switch (m) {
  case DescentMethod::fasd:
    return "fasd";
  case DescentMethod::facg:
    return "facg";
  case DescentMethod::none:
    break;
  }
  return "none";
}

FourierDescent::FourierDescent(DescentField& field, const DescentParams& p)
    : field_(field), p_(p), step_(p.alpha > 0 ? p.alpha : default_first_step) {}

const DescentSums& FourierDescent::start() {
  at_ = 0;
  sums_ = field_.evaluate();
  const double f = total(sums_.functional), th = total(sums_.theta);
  if (!std::isfinite(f) || !std::isfinite(th))
    throw Error("Fourier-accelerated fixing: F or theta of the field is not finite (F = " +
                std::to_string(f) + ", theta = " + std::to_string(th) + ")");
  return sums_;
}

const DescentSums& FourierDescent::resume(const State& s) {
  step_ = s.step;
  gz_prev_ = s.gz_prev;
  recent_ = s.recent;
  return start();
}

double FourierDescent::slope() const {
  return total(sums_.slope);
}

double FourierDescent::evaluate(double a) {
  field_.move(a - at_);
  at_ = a;
  sums_ = field_.evaluate();
  ++gradients_;
  const double f = total(sums_.functional), th = total(sums_.theta), s = slope();
  if (!std::isfinite(f) || !std::isfinite(th) || !std::isfinite(s))
    throw Error(std::string("Fourier-accelerated fixing (") + descent_name(p_.method) +
                "): F, theta or the slope became non-finite after a step of " + std::to_string(a) +
                "; the links are not usable");
  return f;
}

bool FourierDescent::ascent(double f, double s) const {
  return s > -s0_ && f >= f0_ - field_.rounding() * std::abs(f0_);
}

FourierDescent::Step FourierDescent::step() {
  gradients_ = 0;
  const bool cg = p_.method == DescentMethod::facg;
  const double cross = cg && gz_prev_ > 0 ? field_.dot_gradient(DescentOperand::preconditioned) : 0;
  field_.precondition();
  const double gz = field_.dot_gradient(DescentOperand::preconditioned);
  if (!std::isfinite(gz))
    throw Error("Fourier-accelerated fixing: the preconditioned gradient is not finite");
  double beta = cg && gz_prev_ > 0 ? std::max(0.0, (gz - cross) / gz_prev_) : 0.0;
  gz_prev_ = gz;
  f0_ = total(sums_.functional);
  for (;;) {
    field_.set_direction(beta);
    s0_ = beta > 0 ? field_.dot_gradient(DescentOperand::direction) : gz;
    if (!(s0_ > 0)) {
      if (beta > 0) { // not an ascent direction: steepest ascent instead
        beta = 0;
        continue;
      }
      return {&sums_, true, gradients_}; // Delta = 0 to rounding
    }
    at_ = 0;
    const bool fasd = p_.method == DescentMethod::fasd;
    const Step s = fasd && p_.alpha > 0 ? fixed_step()
                   : fasd               ? barzilai_borwein_step()
                                        : line_search();
    if (!s.stalled || beta == 0) return s;
    beta = 0; // the conjugate direction found no ascent: try the preconditioned gradient
  }
}

FourierDescent::Step FourierDescent::fixed_step() {
  for (int halvings = 0; halvings < 50; ++halvings) {
    const double f = evaluate(step_);
    if (ascent(f, slope())) return {&sums_, false, gradients_};
    step_ /= 2; // taken back by the next evaluate, which moves from here
  }
  evaluate(0);
  return {&sums_, true, gradients_};
}

// FASD's automatic step (descent.h): the Barzilai-Borwein step, kept under the nonmonotone rule.
FourierDescent::Step FourierDescent::barzilai_borwein_step() {
  const double a = step_;
  const double f = evaluate(a), s = slope();
  double floor = f0_;
  for (double g : recent_)
    floor = std::min(floor, g);
  const bool concave = s < s0_; // the slope fell along the line: its secant root is ahead
  const double secant = concave ? a * s0_ / (s0_ - s) : 0;
  if (!(f >= floor - field_.rounding() * std::abs(f0_))) { // below every recent F: search
    step_ = std::clamp(concave ? secant : 0.5 * a, 0.1 * a, 0.9 * a);
    return line_search();
  }
  recent_.push_back(f0_);
  if (recent_.size() > nonmonotone_window) recent_.erase(recent_.begin());
  step_ = std::clamp(concave ? secant : 4 * a, 0.1 * a, 10 * a);
  return {&sums_, false, gradients_};
}

FourierDescent::Step FourierDescent::line_search() {
  double a = step_;
  double lo = 0, s_lo = s0_; // the furthest ascent point with a positive slope
  double hi = 0, s_hi = 0;   // the nearest point past the maximum (0: none yet)
  double prev_a = 0, prev_s = s0_;
  for (int k = 0; k < max_line_points; ++k) {
    const double f = evaluate(a), s = slope();
    const bool up = ascent(f, s);
    if (up && std::abs(s) <= line_tolerance * s0_) {
      step_ = a;
      return {&sums_, false, gradients_};
    }
    if (up && s > 0) {
      lo = a;
      s_lo = s;
    } else {
      hi = a;
      s_hi = s;
    }
    double next;
    if (hi > 0) { // bracketed: secant root of the slope, or bisection
      next = s_hi < 0 ? lo + (hi - lo) * s_lo / (s_lo - s_hi) : 0.5 * (lo + hi);
      const double margin = 0.1 * (hi - lo);
      next = std::clamp(next, lo + margin, hi - margin);
    } else { // still climbing: the secant through the last two points, 1.2 to 4 times further
      next = prev_s > s ? a + (a - prev_a) * s / (prev_s - s) : 4 * a;
      next = std::clamp(next, 1.2 * a, 4 * a);
    }
    prev_a = a;
    prev_s = s;
    a = next;
  }
  if (lo > 0) { // no point met the tolerance: the furthest ascent point found
    if (at_ != lo) evaluate(lo);
    step_ = lo;
    return {&sums_, false, gradients_};
  }
  evaluate(0); // nothing increased F: back to the start
  return {&sums_, true, gradients_};
}

} // namespace gf
