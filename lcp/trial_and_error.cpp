#include "lcp/trial_and_error.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::lcp {
namespace {

[[noreturn]] void fail(std::string_view who, const std::string& what) {
  throw std::invalid_argument(std::string(who) + ": " + what);
}

/// Kinetic friction opposing the slip direction `sign` (±1) and the resulting acceleration.
SingleContactResult slip(const SingleContact& c, double sign) {
  SingleContactResult r;
  r.status = Status::kSuccess;
  r.mode = sign > 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
  r.friction = -sign * c.mu_kinetic * c.normal_force;
  r.acceleration = c.free_acceleration + c.compliance * r.friction;
  return r;
}

}  // namespace

std::string_view toString(ContactMode m) {
  switch (m) {
    case ContactMode::kStick:
      return "stick";
    case ContactMode::kSlipPositive:
      return "slip-positive";
    case ContactMode::kSlipNegative:
      return "slip-negative";
  }
  return "unknown";
}

void SingleContact::validate(std::string_view who) const {
  const auto finite = [&](const char* name, double x) {
    if (!std::isfinite(x)) {
      std::ostringstream os;
      os << "expected a finite " << name << ", got " << x;
      fail(who, os.str());
    }
  };
  finite("free_acceleration", free_acceleration);
  finite("compliance", compliance);
  finite("normal_force", normal_force);
  finite("mu_static", mu_static);
  finite("mu_kinetic", mu_kinetic);
  finite("zero_tol", zero_tol);
  std::ostringstream os;
  if (!(compliance > 0.0))
    os << "expected compliance w > 0, got " << compliance;
  else if (normal_force < 0.0)
    os << "expected normal_force N ≥ 0, got " << normal_force;
  else if (mu_kinetic < 0.0)
    os << "expected mu_kinetic ≥ 0, got " << mu_kinetic;
  else if (mu_static < mu_kinetic)
    os << "expected mu_static ≥ mu_kinetic, got mu_static = " << mu_static
       << " < mu_kinetic = " << mu_kinetic;
  if (!os.str().empty()) fail(who, os.str());
}

double SingleContact::tolerance() const {
  if (zero_tol > 0.0) return zero_tol;
  return 1e-12 * (std::abs(free_acceleration) + compliance * mu_static * normal_force);
}

SingleContactResult solveByTrialAndError(const SingleContact& c) {
  try {
    c.validate("solveByTrialAndError");
  } catch (const std::invalid_argument& e) {
    SingleContactResult r;
    r.status = Status::kInvalidInput;
    r.message = e.what();
    return r;
  }
  const double a0 = c.free_acceleration;
  // |F_stick| ≤ μs N written on accelerations (times w > 0), the quantity the LCP measures.
  if (std::abs(a0) - c.compliance * c.mu_static * c.normal_force <= c.tolerance()) {
    SingleContactResult r;
    r.status = Status::kSuccess;
    r.mode = ContactMode::kStick;
    r.friction = -a0 / c.compliance;
    r.acceleration = 0.0;
    return r;
  }
  return slip(c, a0 > 0.0 ? 1.0 : -1.0);
}

Problem singleContactLcp(const SingleContact& c) {
  c.validate("singleContactLcp");
  const double w = c.compliance, bound = c.mu_static * c.normal_force;
  Problem p;
  p.M.resize(2, 2);
  p.M << w, 1.0, -1.0, 0.0;
  p.q.resize(2);
  p.q << c.free_acceleration - w * bound, 2.0 * bound;
  return p;
}

SingleContactResult solveSingleContactWithLemke(const SingleContact& c, LemkeSolver& lemke) {
  SingleContactResult r;
  Problem p;
  try {
    p = singleContactLcp(c);
  } catch (const std::invalid_argument& e) {
    r.status = Status::kInvalidInput;
    r.message = std::string("solveSingleContactWithLemke: ") + e.what();
    return r;
  }
  // Solve it in the contact's own units: accelerations over s_a = max(|a₀|, w μs N), forces
  // over s_a / w. That is the positive diagonal scaling R M C with R = diag(1/s_a, w/s_a),
  // C = diag(s_a/w, s_a), which leaves the LCP's solutions unchanged and makes
  // M' = [[1, 1], [−1, 0]], so Lemke's residual test works on the contact's scale. Without it
  // a tiny w (1e-71 with μs N = 36, found by fuzz_friction) made Lemke accept a⁻ ≈ 1e-69 as
  // round-off of the force row and report slip where the contact sticks.
  double s_a = std::max(std::abs(c.free_acceleration), c.compliance * c.mu_static * c.normal_force);
  if (!(s_a > 0.0) || !std::isfinite(s_a)) s_a = 1.0;  // a₀ = μs N = 0, or w μs N overflows
  const double s_f = s_a / c.compliance;
  p.M << 1.0, 1.0, -1.0, 0.0;
  p.q(0) /= s_a;
  p.q(1) /= s_f;
  Result x = lemke.solve(p);
  // The stick/slip decision needs a to c.tolerance(), finer than Lemke's acceptance test
  // (it takes z = 0 when q's negative entries are within accept_tol of ‖q‖∞: with a₀ just
  // inside the cone, found by fuzz_friction, a⁺ = q₁ < 0 then read as slip). Re-solve that
  // rare case with an acceptance test at the contact's tolerance.
  const double tol_scaled = c.tolerance() / s_a;
  if (x.ok() && x.residual > tol_scaled) {
    LemkeOptions fine = lemke.options();
    fine.accept_tol = std::max(0.1 * tol_scaled, 1e-15);
    fine.restarts = LemkeOptions{}.restarts;  // every restart path
    x = LemkeSolver(fine).solve(p);
  }
  r.pivots = x.pivots;
  if (!x.ok()) {
    r.status = x.status;
    r.message = x.message;
    return r;
  }
  // z = (F⁺, a⁻), w = (a⁺, F⁻), scaled.
  const double a = s_a * (x.w(0) - x.z(1));
  if (std::abs(a) <= c.tolerance()) {
    r.status = Status::kSuccess;
    r.mode = ContactMode::kStick;
    r.friction = s_f * x.z(0) - c.mu_static * c.normal_force;
    r.acceleration = 0.0;
    return r;
  }
  SingleContactResult s = slip(c, a > 0.0 ? 1.0 : -1.0);
  s.pivots = x.pivots;
  return s;
}

}  // namespace stickslip::lcp
