#include "lcp/round_cone.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "lcp/friction_cone.hpp"
#include "lcp/friction_to_lcp.hpp"

namespace stickslip::lcp {

RoundConeMethod roundConeMethod(const std::string& name) {
  if (name == "auto") return RoundConeMethod::kAuto;
  if (name == "nsgs") return RoundConeMethod::kNsgs;
  if (name == "newton") return RoundConeMethod::kNewton;
  throw std::invalid_argument("unknown round-cone method '" + name + "' (valid: auto, nsgs, newton)");
}

namespace {

/// Siconos' error of out.r (relative_residual) and its natural map's norm (residual).
void measure(FrictionResult& out, const Eigen::VectorXd& mu, const Eigen::VectorXd& q) {
  out.relative_residual = fc3dError(out.r, out.u, mu, q.norm());
  double sum = 0.0;
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    sum += fc3dContactTerm(mu(i), out.r.segment<3>(3 * i), out.u.segment<3>(3 * i));
  out.residual = std::sqrt(sum);
}

bool uncoupled(const ContactBlocks& W) {
  for (Eigen::Index i = 0; i < W.contacts(); ++i)
    for (const ContactBlocks::Block* b = W.rowBegin(i); b != W.rowEnd(i); ++b)
      if (b->col != i) return false;
  return true;
}

}  // namespace

RoundConeSolver::RoundConeSolver(RoundConeOptions options) : options_(options) {
  if (!(options.tolerance > 0.0) || options.max_sweeps < 1 || options.max_newton < 1)
    throw std::invalid_argument("round cone: expected tolerance > 0, max_sweeps >= 1 and max_newton >= 1");
}

void RoundConeSolver::solve(const FrictionProblem3D& p, FrictionResult& out, const Eigen::VectorXd* warm_start) {
  try {
    p.validate("round cone");
  } catch (const std::invalid_argument& e) {
    out = FrictionResult{};
    out.status = Status::kInvalidInput;
    out.message = e.what();
    out.r = Eigen::VectorXd::Zero(p.q.size());
    out.u = p.q;
    return;
  }
  // Posed in W's units first, (W/s, q) for s r with s = frictionScale(W), a power of two (exact):
  // Siconos' error then weighs forces and velocities at one scale, whatever the masses.
  const double s = frictionScale(p.W);
  blocks_.assign(p.W, s);
  if (warm_start) scaled_start_ = s * *warm_start;  // checked by the solve below, as any start
  solve(blocks_, p.q, p.mu, out, warm_start ? &scaled_start_ : nullptr);
  if (s == 1.0) return;
  out.r /= s;
  measure(out, p.mu, p.q);
  if (!out.ok() || out.relative_residual <= options_.tolerance) return;
  // Then in the units given, from that answer, where Siconos' error there is stricter (a W of
  // small entries: its large r counted to the last digits).
  scaled_start_ = out.r;
  const int pivots = out.pivots;
  blocks_.assign(p.W);
  solve(blocks_, p.q, p.mu, out, &scaled_start_);
  out.pivots += pivots;
}

void RoundConeSolver::solve(const ContactBlocks& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                            FrictionResult& out, const Eigen::VectorXd* warm_start) {
  const bool warm = warm_start && warm_start->size() == q.size() && warm_start->allFinite() && !warm_start->isZero(0.0);
  solveFrom(W, q, mu, out, warm ? warm_start : nullptr);
  // A warm start can lie where Gauss–Seidel stalls on a hyperstatic W: then once more from zero.
  if (warm && out.status == Status::kPivotLimit) solveFrom(W, q, mu, out, nullptr);
}

bool RoundConeSolver::solveFromFacets(const ContactBlocks& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                      Eigen::VectorXd& r, Eigen::VectorXd& u, int& newton) {
  const Eigen::Index nc = W.contacts();
  if ((coarse_.facets() + 2) * nc > kFacetedStartSize) return false;
  W.toDense(dense_.W);
  dense_.q = q;
  dense_.mu = mu;
  trial_u_.resize(q.size());
  for (FacetedFrictionSolver* facets : {&coarse_, &fine_, &finest_}) {
    if ((facets->facets() + 2) * nc > kFacetedStartSize) break;
    turn_.setZero(nc);
    for (int k = 0; k < kFacetedTurns; ++k) {
      facets->solve(dense_, faceted_, k > 0 ? &turn_ : nullptr);
      if (faceted_.status != Status::kSuccess) break;
      trial_r_ = faceted_.r;
      const AlartCurnierSolver::Outcome s =
          newton_.solve(W, q, mu, options_.tolerance, kFacetedNewton, trial_r_, trial_u_);
      newton += s.iterations;
      if (s.status == Status::kSuccess) {
        r = trial_r_;
        u = trial_u_;
        return true;
      }
      for (Eigen::Index i = 0; i < nc; ++i)  // a vertex along each friction force: the slip's opposite
        if (const Eigen::Vector2d t = faceted_.r.segment<2>(3 * i + 1); !t.isZero(0.0)) turn_(i) = std::atan2(t(1), t(0));
    }
  }
  return false;
}

void RoundConeSolver::solveFrom(const ContactBlocks& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                                FrictionResult& out, const Eigen::VectorXd* warm_start) {
  const Eigen::Index n = q.size();
  out.status = Status::kNotRun;
  out.message.clear();
  out.warning.clear();
  if (warm_start)
    out.r = *warm_start;
  else
    out.r.setZero(n);
  out.u.resize(n);
  const RoundConeOptions& o = options_;
  int sweeps = 0, newton = 0;
  bool used_nsgs = false, used_newton = false;
  bool solved = false;  // the last solve stopped on its rule: Siconos' error and the normal rows
  Status status = Status::kPivotLimit;
  double error = std::numeric_limits<double>::infinity();
  std::string failure;  // empty unless a solve fails: no allocation
  const auto sweep = [&](int count) {
    const Nsgs3dSolver::Outcome s = nsgs_.solve(W, q, mu, o.tolerance, count, out.r, out.u);
    sweeps += s.sweeps;
    used_nsgs = true;
    error = s.error;
    solved = s.status == Status::kSuccess;
    if (s.status == Status::kNumericalFailure) {
      status = s.status;
      failure = "contact " + std::to_string(s.failed_contact) +
                " has no local solution (its diagonal block of W is zero while it is pushed in)";
    }
    return s.status;
  };
  // Newton from the current iterate; the iterate it started from comes back if it ends worse
  // (its merit ‖F‖² can fall while Siconos' error rises, at a kink or off the solutions).
  const auto newtonFrom = [&](int count, double sigma_ceiling = kSigmaMax) {
    const double before = error;
    start_r_ = out.r;
    const AlartCurnierSolver::Outcome s = newton_.solve(W, q, mu, o.tolerance, count, out.r, out.u, {.ceiling = sigma_ceiling});
    newton += s.iterations;
    used_newton = true;
    error = s.error;
    solved = s.status == Status::kSuccess;
    if (!solved && error > before) {
      out.r = start_r_;
      W.multiplyAdd(out.r, q, out.u);
      error = before;
    }
    return s.status;
  };
  if (o.method == RoundConeMethod::kNsgs) {
    sweep(o.max_sweeps);
  } else if (o.method == RoundConeMethod::kNewton) {
    if (newtonFrom(o.max_newton) == Status::kNumericalFailure) failure = "no descent direction (line search failed)";
  } else if (uncoupled(W)) {  // one sweep solves each contact exactly, hence the problem
    sweep(1);
  } else {
    // Newton first, given up early (header); then, from the same start, sweeps while each at
    // least halves the error, down to kAutoSweepError, and Newton again, the proximal weight
    // free to rise; kAutoSweeps sweeps between later attempts.
    if (newtonFrom(std::min(kAutoFirstNewton, o.max_newton), kAutoSigmaCeiling) != Status::kSuccess) {
      out.r = start_r_;  // where Newton stopped may hold Gauss–Seidel too (a hyperstatic W)
      double previous = std::numeric_limits<double>::infinity();
      for (int k = 0; k < kAutoSweeps && sweeps < o.max_sweeps; ++k) {
        if (sweep(1) == Status::kNumericalFailure || solved) break;
        if (error <= kAutoSweepError || error > kAutoSweepRate * previous) break;
        previous = error;
      }
    }
    while (!solved && status != Status::kNumericalFailure && sweeps < o.max_sweeps && newton < o.max_newton) {
      const double round_start = error;
      if (newtonFrom(o.max_newton - newton) == Status::kSuccess) break;
      sweep(std::min(kAutoSweeps, o.max_sweeps - sweeps));
      if (error > kAutoStall * round_start) break;  // neither moves it: the fallbacks below
    }
    if (!solved && status != Status::kNumericalFailure && solveFromFacets(W, q, mu, out.r, out.u, newton)) {
      solved = used_newton = true;
      error = fc3dError(out.r, out.u, mu, q.norm());
    }
    // Last, from zero: Newton alone (its proximal weight free to rise from the first step), then
    // NSGS alone for the sweeps left; each settles some hyperstatic problems (a journal's four
    // contacts, W of rank 6 in 12) the rounds above leave stalled. The best answer stays.
    const auto fromZero = [&](auto&& solve) {
      if (solved || status == Status::kNumericalFailure) return;
      start_r_ = out.r;
      const double stalled = error;
      out.r.setZero();
      solve();
      if (!solved && !(error < stalled)) {
        out.r = start_r_;
        W.multiplyAdd(out.r, q, out.u);
        error = stalled;
        if (status == Status::kNumericalFailure) status = Status::kPivotLimit;
      }
    };
    fromZero([&] {
      const AlartCurnierSolver::Outcome s = newton_.solve(W, q, mu, o.tolerance, o.max_newton, out.r, out.u);
      newton += s.iterations;
      error = s.error;
      solved = s.status == Status::kSuccess;
    });
    fromZero([&] { sweep(std::max(o.max_sweeps - sweeps, kAutoSweeps)); });
  }
  out.status = status == Status::kNumericalFailure ? status : solved ? Status::kSuccess : Status::kPivotLimit;
  out.solver = used_nsgs && used_newton ? "nsgs+newton" : used_newton ? "newton" : "nsgs";
  out.pivots = sweeps + newton;
  measure(out, mu, q);
  if (out.status == Status::kSuccess) return;  // no message: a time loop's solve allocates nothing
  std::ostringstream m;
  m << out.solver << ": " << sweeps << " sweeps, " << newton << " Newton iterations, error " << out.relative_residual;
  if (!failure.empty()) m << "; " << failure;
  if (out.status == Status::kPivotLimit) m << "; tolerance " << o.tolerance << " not reached";
  out.message = m.str();
}

}  // namespace stickslip::lcp
