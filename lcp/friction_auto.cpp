#include "lcp/friction_auto.hpp"

#include <string>

#include "lcp/friction_to_lcp.hpp"
#include "lcp/residual.hpp"

namespace stickslip::lcp {

void AutoFrictionSolver::nsgs(const SparseFrictionProblem2D& p, FrictionResult& out) {
  NsgsOptions options;
  const bool few = p.contacts() <= kAutoLemkeContacts;
  if (few) {
    options.max_sweeps = kAutoFewContactsSweeps;
    options.exact_finish = false;
  }
  solveFrictionNsgs(p, options, nsgs_, out);
  out.solver = "nsgs";
  if (out.status == Status::kInvalidInput) return;
  const Residual res = residual(p, out.r, out.u);  // NSGS returns u = W r + q
  out.residual = res.absolute;
  out.relative_residual = res.relative;
}

void AutoFrictionSolver::lemke(const FrictionProblem2D& p, FrictionResult& out) {
  out = solveFrictionWithLemke(p, lemke_);
  out.solver = "lemke";
}

void AutoFrictionSolver::solve(const FrictionProblem2D& p, FrictionResult& out) {
  out.warning.clear();
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
