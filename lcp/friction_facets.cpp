#include "lcp/friction_facets.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "lcp/lemke.hpp"

namespace stickslip::lcp {

double facetBound(int facets) { return 1.0 - std::cos(std::numbers::pi / facets); }

FrictionResult solveFrictionFaceted(const FrictionProblem3D& p, int facets) {
  FrictionResult out;
  out.solver = "lemke";
  const Eigen::Index nc = p.contacts(), k = facets, block = k + 2;
  try {
    p.validate("lcp::solveFrictionFaceted");
    if (facets < 3) throw std::invalid_argument("lcp::solveFrictionFaceted: expected at least 3 facets, got " +
                                                std::to_string(facets));
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = e.what();
    out.r = Eigen::VectorXd::Zero(p.q.size());
    out.u = p.q;
    return out;
  }
  // T: z-space rows (rₙ, dⱼᵀ rₜ, 0) per contact, from r-space.
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(block * nc, 3 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    T(block * i, 3 * i) = 1.0;
    for (Eigen::Index j = 0; j < k; ++j) {
      const double angle = 2.0 * std::numbers::pi * double(j) / double(k);
      T(block * i + 1 + j, 3 * i + 1) = std::cos(angle);
      T(block * i + 1 + j, 3 * i + 2) = std::sin(angle);
    }
  }
  Problem lcp;
  lcp.M = T * p.W * T.transpose();
  lcp.q = T * p.q;
  for (Eigen::Index i = 0; i < nc; ++i) {
    const Eigen::Index lambda = block * i + k + 1;
    for (Eigen::Index j = 0; j < k; ++j) {
      lcp.M(block * i + 1 + j, lambda) += 1.0;  // λ + dⱼᵀ uₜ
      lcp.M(lambda, block * i + 1 + j) -= 1.0;  // μ rₙ − Σ βⱼ
    }
    lcp.M(lambda, block * i) += p.mu(i);
  }
  LemkeSolver lemke;
  const Result z = lemke.solve(lcp);
  out.status = z.status;
  out.pivots = z.pivots;
  out.residual = z.residual;
  out.relative_residual = z.relative_residual;
  out.message = z.message;
  out.r = z.z.size() == lcp.q.size() ? Eigen::VectorXd(T.transpose() * z.z) : Eigen::VectorXd::Zero(3 * nc);
  // λ's rows of T are zero, so Tᵀ z is (rₙ, Σ βⱼ dⱼ) per contact.
  out.u = p.W * out.r + p.q;
  return out;
}

}  // namespace stickslip::lcp
