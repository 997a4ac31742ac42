#include "lcp/nsgs_3d.hpp"

#include "lcp/friction_cone.hpp"

namespace stickslip::lcp {

namespace {
constexpr int kProximalSteps = 50;
}

bool solveContactOrProximal(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu, Eigen::Vector3d& r) {
  Eigen::Vector3d next;
  if (solveContact(A, b, mu, next)) {
    r = next;
    return true;
  }
  const double sigma = A.cwiseAbs().rowwise().sum().maxCoeff();
  if (!(sigma > 0.0)) return false;  // W_ii = 0 and pushed in
  const Eigen::Matrix3d shifted = A + sigma * Eigen::Matrix3d::Identity();
  for (int k = 0; k < kProximalSteps; ++k) {
    if (!solveContact(shifted, b - sigma * r, mu, next) || !next.allFinite()) return false;
    const double change = (next - r).cwiseAbs().maxCoeff();
    r = next;
    if (change <= 1e-15 * r.cwiseAbs().maxCoeff()) break;
  }
  return true;
}

Nsgs3dSolver::Outcome Nsgs3dSolver::solve(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                                          const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance,
                                          int max_sweeps, Eigen::Ref<Eigen::VectorXd> r,
                                          Eigen::Ref<Eigen::VectorXd> u) {
  Outcome out;
  const Eigen::Index nc = mu.size();
  const double q_norm = q.norm();
  for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
    out.sweeps = sweep;
    for (Eigen::Index i = 0; i < nc; ++i) {
      const Eigen::Matrix3d& a = W.diagonal(i);
      Eigen::Vector3d ri = r.segment<3>(3 * i);
      const Eigen::Vector3d b = W.rowTimes(i, r, q) - a * ri;
      if (!solveContactOrProximal(a, b, mu(i), ri)) {
        out.failed_contact = i;
        W.multiplyAdd(r, q, u);
        out.error = fc3dError(r, u, mu, q_norm);
        out.status = Status::kNumericalFailure;
        return out;
      }
      r.segment<3>(3 * i) = ri;
    }
    W.multiplyAdd(r, q, u);
    out.error = fc3dError(r, u, mu, q_norm);
    if (out.error <= tolerance && normalViolation(W, q, r, u, tolerance, terms_) < 0) {
      out.status = Status::kSuccess;
      return out;
    }
  }
  out.status = Status::kPivotLimit;
  return out;
}

}  // namespace stickslip::lcp
