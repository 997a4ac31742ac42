#include "lcp/friction_auto.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "lcp/friction_to_lcp.hpp"
#include "lcp/residual.hpp"

namespace stickslip::lcp {

namespace {

/// NSGS's budget on few contacts: capped, without the exact finish (Lemke takes over).
NsgsOptions fewContactsOptions() {
  NsgsOptions options;
  options.max_sweeps = kAutoFewContactsSweeps;
  options.exact_finish = false;
  return options;
}

/// Names the solver that answered. Written only when it changes, and compared at the literal's
/// known length: on one contact a copy of the name cost a third as much as the solve.
template <std::size_t L>
void answeredBy(const char (&solver)[L], FrictionResult& out) {
  constexpr std::size_t n = L - 1;
  if (out.solver.size() != n || std::memcmp(out.solver.data(), solver, n) != 0)
    out.solver.assign(solver, n);
}

}  // namespace

void AutoFrictionSolver::nsgs(const SparseFrictionProblem2D& p, FrictionResult& out) {
  NsgsOptions options = p.contacts() <= kAutoLemkeContacts ? fewContactsOptions() : NsgsOptions{};
  solveFrictionNsgs(p, options, nsgs_, out);
  answeredBy("nsgs", out);
  if (out.status == Status::kInvalidInput) return;
  // Measured as every solver's answer is: the natural-map residual (NSGS returns u = W r + q).
  Residual res = residual(p, out.r, out.u);
  // Siconos' measure is not normalized when the problem's scale is below machine ε (data of
  // round-off size), so its tolerance is then absolute and one sweep may meet it: sweep on,
  // from there, to the tolerance relative to that scale.
  if (out.ok() && !(res.relative <= kAutoAccept)) {  // the scale only then: this runs every step
    const double scale = std::max({p.q.norm(), out.r.norm(), out.u.norm()});
    if (scale > 0.0 && scale <= std::numeric_limits<double>::epsilon()) {
      options.tolerance *= scale;
      warm_ = out.r;
      solveFrictionNsgs(p, options, nsgs_, out, &warm_);
      res = residual(p, out.r, out.u);
    }
  }
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (out.ok() && !(res.relative <= kAutoAccept)) {
    out.status = Status::kNumericalFailure;
    out.message = "nsgs: Siconos' error met, but the natural-map relative residual is " +
                  scientific(res.relative) + ", above 1e-9";
  }
}

bool AutoFrictionSolver::refuses(const FrictionProblem2D& p, FrictionResult& out) {
  try {
    p.validate("auto");
    return false;
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = e.what();
    answeredBy("auto", out);
    out.r = Eigen::VectorXd::Zero(p.q.size());
    out.u = p.q;
    return true;
  }
}

void AutoFrictionSolver::lemke(const FrictionProblem2D& p, FrictionResult& out) {
  out = solveFrictionWithLemke(p, lemke_);
  answeredBy("lemke", out);
}

void AutoFrictionSolver::solve(const FrictionProblem2D& p, FrictionResult& out) {
  out.warning.clear();
  if (p.contacts() <= kAutoLemkeContacts) {
    if (solveBySmallNsgs(p, kAutoFewContactsSweeps, out)) {
      answeredBy("nsgs", out);
      return;
    }
    if (!refuses(p, out))
      lemke(p, out);  // the sweeps fell short, or a local problem has no solution
    return;
  }
  compressRows(p.W, sparse_.W);  // NaN kept: NSGS validates the copy
  sparse_.q = p.q;
  sparse_.mu = p.mu;
  nsgs(sparse_, out);
  if (out.ok() || out.status == Status::kInvalidInput || p.contacts() > kDenseFrictionContacts) return;
  lemke(p, out);
}

void AutoFrictionSolver::solve(const SparseFrictionProblem2D& p, FrictionResult& out) {
  out.warning.clear();
  nsgs(p, out);
  if (out.ok() || out.status == Status::kInvalidInput || p.contacts() > kDenseFrictionContacts) return;
  lemke({Eigen::MatrixXd(p.W), p.q, p.mu}, out);
}

}  // namespace stickslip::lcp
