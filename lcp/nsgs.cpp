#include "lcp/nsgs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace stickslip::lcp {

void SparseFrictionProblem2D::validate(std::string_view who) const {
  const Eigen::Index n = q.size();
  std::ostringstream os;
  if (n != 2 * mu.size() || W.rows() != n || W.cols() != n)
    os << "expected W 2nc×2nc, q of size 2nc and mu of size nc, got W " << W.rows() << "×" << W.cols()
       << ", q " << n << ", mu " << mu.size();
  else if (!q.allFinite() || !mu.allFinite() || (mu.array() < 0.0).any())
    os << "expected finite q and finite mu >= 0";
  else
    for (Eigen::Index k = 0; k < W.outerSize() && os.tellp() == 0; ++k)
      for (decltype(W)::InnerIterator it(W, k); it; ++it)
        if (!std::isfinite(it.value())) {
          os << "W(" << it.row() << ", " << it.col() << ") is not finite";
          break;
        }
  if (os.tellp() > 0) throw std::invalid_argument(std::string(who) + ": " + os.str());
}

namespace {

/// fc2dError before its normalization: the 2-norm of r − proj_K(r − û) over the contacts.
double naturalMapNorm(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Eigen::VectorXd& mu) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    const double m = mu(i), rn = r(2 * i), rt = r(2 * i + 1);
    // x = r − û with û = (uₙ + μ|uₜ|, uₜ); p = proj_K(x) on K = {|xₜ| ≤ μ xₙ}.
    double xn = rn - (u(2 * i) + m * std::abs(u(2 * i + 1))), xt = rt - u(2 * i + 1);
    const double at = std::abs(xt);
    if (m * at <= -xn) {  // in the polar cone: projects to the apex
      xn = xt = 0.0;
    } else if (at > m * xn) {  // outside K: onto its nearer edge
      xn = (m * at + xn) / (m * m + 1.0);
      xt = std::copysign(m * xn, xt);
    }
    sum += (rn - xn) * (rn - xn) + (rt - xt) * (rt - xt);
  }
  return std::sqrt(sum);
}

}  // namespace

double fc2dError(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Eigen::VectorXd& mu,
                 double q_norm) {
  const double scale = std::max({r.norm(), u.norm(), q_norm});
  const double error = naturalMapNorm(r, u, mu);
  return scale > std::numeric_limits<double>::epsilon() ? error / scale : error;
}

namespace {

/// The exact solution of one contact's 2×2 problem u = A r + b; false when none of open,
/// stick, slip± applies (A singular or not positive).
bool solveLocal(const Eigen::Matrix2d& a, const Eigen::Vector2d& b, double mu, Eigen::Vector2d& r) {
  if (b(0) >= 0.0) {
    r.setZero();
    return true;
  }
  const double det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
  const double slack = 1e-14 * std::max(1.0, b.cwiseAbs().maxCoeff());
  if (std::abs(det) > std::numeric_limits<double>::epsilon() * a.cwiseAbs().maxCoeff() * a.cwiseAbs().maxCoeff()) {
    const Eigen::Vector2d stick{(-b(0) * a(1, 1) + b(1) * a(0, 1)) / det, (-b(1) * a(0, 0) + b(0) * a(1, 0)) / det};
    if (stick(0) >= 0.0 && std::abs(stick(1)) <= mu * stick(0) * (1.0 + 1e-14)) {
      r = stick;
      return true;
    }
  }
  for (const double s : {1.0, -1.0}) {  // sliding with sign s: rₜ = −s μ rₙ, uₙ = 0
    const double denominator = a(0, 0) - s * mu * a(0, 1);
    if (!(denominator > 0.0)) continue;
    const double rn = -b(0) / denominator;
    const double ut = a(1, 0) * rn - s * mu * a(1, 1) * rn + b(1);
    if (s * ut >= -slack) {
      r = {rn, -s * mu * rn};
      return true;
    }
  }
  return false;
}

}  // namespace

FrictionResult solveFrictionNsgs(const SparseFrictionProblem2D& p, const NsgsOptions& options,
                                 const Eigen::VectorXd* warm_start) {
  FrictionResult out;
  const Eigen::Index nc = p.contacts(), n = 2 * nc;
  try {
    p.validate();
    if (!(options.tolerance > 0.0) || options.max_sweeps < 1)
      throw std::invalid_argument("nsgs: expected tolerance > 0 and max_sweeps >= 1");
    if (warm_start && warm_start->size() != n)
      throw std::invalid_argument("nsgs: the warm start has " + std::to_string(warm_start->size()) +
                                  " entries, expected " + std::to_string(n));
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = e.what();
    out.r = Eigen::VectorXd::Zero(n);
    out.u = p.q.size() == n ? p.q : Eigen::VectorXd::Zero(n);
    return out;
  }
  // The contacts' diagonal blocks, read once.
  std::vector<Eigen::Matrix2d> diagonal(static_cast<std::size_t>(nc), Eigen::Matrix2d::Zero());
  for (Eigen::Index row = 0; row < n; ++row)
    for (decltype(p.W)::InnerIterator it(p.W, row); it; ++it)
      if (it.col() / 2 == row / 2) diagonal[std::size_t(row / 2)](row % 2, it.col() % 2) = it.value();
  out.r = warm_start ? *warm_start : Eigen::VectorXd::Zero(n);
  out.u.resize(n);
  const double q_norm = p.q.norm();
  Eigen::Vector2d local;
  for (int sweep = 1; sweep <= options.max_sweeps; ++sweep) {
    for (Eigen::Index i = 0; i < nc; ++i) {
      const Eigen::Matrix2d& a = diagonal[std::size_t(i)];
      Eigen::Vector2d b{p.q(2 * i), p.q(2 * i + 1)};
      for (int k = 0; k < 2; ++k)
        for (decltype(p.W)::InnerIterator it(p.W, 2 * i + k); it; ++it) b(k) += it.value() * out.r(it.col());
      const Eigen::Vector2d ri = out.r.segment<2>(2 * i);
      b -= a * ri;
      if (!solveLocal(a, b, p.mu(i), local)) {
        out.status = Status::kNumericalFailure;
        out.message = "nsgs: contact " + std::to_string(i) + "'s local problem has no solution (its diagonal block "
                      "of W is singular or not positive)";
        out.u.noalias() = p.W * out.r;
        out.u += p.q;
        out.residual = naturalMapNorm(out.r, out.u, p.mu);
        out.relative_residual = fc2dError(out.r, out.u, p.mu, q_norm);
        out.pivots = sweep;
        return out;
      }
      out.r.segment<2>(2 * i) = local;
    }
    out.u.noalias() = p.W * out.r;
    out.u += p.q;
    out.pivots = sweep;
    out.relative_residual = fc2dError(out.r, out.u, p.mu, q_norm);
    if (out.relative_residual <= options.tolerance) {
      out.status = Status::kSuccess;
      out.residual = naturalMapNorm(out.r, out.u, p.mu);
      return out;
    }
  }
  out.status = Status::kPivotLimit;
  out.residual = naturalMapNorm(out.r, out.u, p.mu);
  std::ostringstream os;
  os << "nsgs: " << options.max_sweeps << " sweeps without reaching error " << options.tolerance << " (error "
     << out.relative_residual << ")";
  out.message = os.str();
  return out;
}

}  // namespace stickslip::lcp
