#include "lcp/friction_auto.hpp"

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

/// NSGS's answer in `out` measured as every solver's is: the natural-map residual.
template <class Problem2D>
void measureNsgs(const Problem2D& p, FrictionResult& out) {
  const Residual res = residual(p, out.r, out.u);  // NSGS returns u = W r + q
  out.residual = res.absolute;
  out.relative_residual = res.relative;
}

}  // namespace

void AutoFrictionSolver::nsgs(const SparseFrictionProblem2D& p, FrictionResult& out) {
  solveFrictionNsgs(p, p.contacts() <= kAutoLemkeContacts ? fewContactsOptions() : NsgsOptions{}, nsgs_, out);
  out.solver = "nsgs";
  if (out.status == Status::kInvalidInput) return;
  measureNsgs(p, out);
}

void AutoFrictionSolver::fewContacts(const FrictionProblem2D& p, FrictionResult& out) {
  out.solver = "nsgs";
  out.message.clear();
  try {
    p.validate("nsgs");
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = e.what();
    out.r = Eigen::VectorXd::Zero(p.q.size());
    out.u = p.q;
    return;
  }
  out.r.setZero(p.q.size());
  out.u.resize(p.q.size());
  const NsgsSolver::Outcome o = nsgs_.solve(p.W, p.q, p.mu, fewContactsOptions(), out.r, out.u);
  out.status = o.status;
  out.pivots = o.sweeps;
  measureNsgs(p, out);
}

void AutoFrictionSolver::lemke(const FrictionProblem2D& p, FrictionResult& out) {
  out = solveFrictionWithLemke(p, lemke_);
  out.solver = "lemke";
}

void AutoFrictionSolver::solve(const FrictionProblem2D& p, FrictionResult& out) {
  out.warning.clear();
  if (p.contacts() <= kAutoLemkeContacts) {
    fewContacts(p, out);
  } else {
    compressRows(p.W, sparse_.W);  // NaN kept: NSGS validates the copy
    sparse_.q = p.q;
    sparse_.mu = p.mu;
    nsgs(sparse_, out);
  }
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
