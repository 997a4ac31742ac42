#include "lcp/friction_hlcp.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "lcp/friction_to_lcp.hpp"
#include "lcp/hlcp_to_lcp.hpp"
#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

/// r = Rz z + Rw w (Rw: −1 from the N⁻ of each two-sided contact).
void reactionMaps(Eigen::Index nc, const std::vector<bool>& two_sided, Eigen::MatrixXd& rz,
                  Eigen::MatrixXd& rw) {
  rz.setZero(2 * nc, 4 * nc);
  rw.setZero(2 * nc, 4 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    rz(2 * i, 4 * i) = 1.0;
    rz(2 * i + 1, 4 * i + 1) = 1.0;
    rz(2 * i + 1, 4 * i + 2) = -1.0;
    if (two_sided[std::size_t(i)]) rw(2 * i, 4 * i) = -1.0;
  }
}

/// The largest violation of the conditions of the file comment: residual.hpp's natural map per
/// contact, with |uₙ| for a two-sided normal and its friction bounded by μ |rₙ|.
double violation(const FrictionProblem2D& p, const std::vector<bool>& two_sided, double w_norm,
                 const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const double rn = r(2 * i), rt = r(2 * i + 1), un = u(2 * i), ut = u(2 * i + 1), mu = p.mu(i);
    const double term = two_sided[std::size_t(i)]
                            ? std::max(std::abs(un), frictionContactResidual(mu, std::abs(rn), rt, 0.0, ut, w_norm))
                            : frictionContactResidual(mu, rn, rt, un, ut, w_norm);
    worst = std::max(worst, term);
  }
  return worst;
}

}  // namespace

HorizontalProblem frictionHlcp(const FrictionProblem2D& p, const std::vector<bool>& two_sided) {
  p.validate("lcp::frictionHlcp");
  const Eigen::Index nc = p.contacts();
  if (static_cast<Eigen::Index>(two_sided.size()) != nc)
    throw std::invalid_argument("lcp::frictionHlcp: expected a two-sided flag per contact (" +
                                std::to_string(nc) + "), got " + std::to_string(two_sided.size()));
  Eigen::MatrixXd rz, rw;
  reactionMaps(nc, two_sided, rz, rw);
  // Posed on u / s = (W / s) r + q / s: the velocity rows then meet the unit entries of λ and
  // the slacks at one scale, whatever the masses, and A and B keep their condition (the same r
  // solves both).
  const double s = frictionScale(p);
  const Eigen::MatrixXd wz = p.W * rz / s, ww = p.W * rw / s;  // u / s = wz z + ww w + q / s
  const Eigen::VectorXd q = p.q / s;
  HorizontalProblem h;
  h.A.setZero(4 * nc, 4 * nc);
  h.B.setZero(4 * nc, 4 * nc);
  h.q.setZero(4 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    const Eigen::Index b = 4 * i, n = 2 * i, t = 2 * i + 1;
    if (two_sided[std::size_t(i)]) {  // uₙ = 0
      h.A.row(b) = wz.row(n);
      h.B.row(b) = ww.row(n);
      h.q(b) = -q(n);
    } else {  // w_b = uₙ
      h.A.row(b) = -wz.row(n);
      h.B.row(b) = -ww.row(n);
      h.B(b, b) += 1.0;
      h.q(b) = q(n);
    }
    // w = λ ± uₜ
    h.A.row(b + 1) = -wz.row(t);
    h.B.row(b + 1) = -ww.row(t);
    h.A(b + 1, b + 3) -= 1.0;
    h.B(b + 1, b + 1) += 1.0;
    h.q(b + 1) = q(t);
    h.A.row(b + 2) = wz.row(t);
    h.B.row(b + 2) = ww.row(t);
    h.A(b + 2, b + 3) -= 1.0;
    h.B(b + 2, b + 2) += 1.0;
    h.q(b + 2) = -q(t);
    // w = μ (N⁺ [+ N⁻]) − β⁺ − β⁻
    h.A(b + 3, b) = -p.mu(i);
    h.A(b + 3, b + 1) = 1.0;
    h.A(b + 3, b + 2) = 1.0;
    h.B(b + 3, b + 3) = 1.0;
    if (two_sided[std::size_t(i)]) h.B(b + 3, b) = -p.mu(i);
  }
  return h;
}

FrictionResult solveFrictionHlcpWithLemke(const FrictionProblem2D& p,
                                          const std::vector<bool>& two_sided, LemkeSolver& lemke) {
  FrictionResult out;
  HorizontalProblem h;
  try {
    h = frictionHlcp(p, two_sided);
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = e.what();
    return out;
  }
  const Result res = solveHlcpWithLemke(h, lemke);
  out.status = res.status;
  out.pivots = res.pivots;
  out.message = res.message;
  if (!res.ok()) return out;
  Eigen::MatrixXd rz, rw;
  reactionMaps(p.contacts(), two_sided, rz, rw);
  out.r = rz * res.z + rw * res.w;
  out.u = p.W * out.r + p.q;
  const double w_norm = p.W.cwiseAbs().rowwise().sum().maxCoeff();
  out.residual = violation(p, two_sided, w_norm, out.r, out.u);
  out.relative_residual =
      relativeTo(out.residual, std::max(p.q.lpNorm<Eigen::Infinity>(), w_norm * out.r.lpNorm<Eigen::Infinity>()))
          .relative;
  if (!(out.relative_residual <= lemke.options().accept_tol)) {
    out.status = Status::kNumericalFailure;
    out.message = "friction HLCP: the recovered reactions miss the conditions by " +
                  scientific(out.relative_residual) + " (relative)";
  }
  return out;
}

}  // namespace stickslip::lcp
