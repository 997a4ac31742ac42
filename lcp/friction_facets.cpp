#include "lcp/friction_facets.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "lcp/lemke.hpp"

namespace stickslip::lcp {

double facetBound(int facets) { return 1.0 - std::cos(std::numbers::pi / facets); }

void requireFacetCount(int facets, const std::string& who) {
  if (facets < 3 || facets > kMaxFacets)
    throw std::invalid_argument(who + ": expected 3 … " + std::to_string(kMaxFacets) + ", got " +
                                std::to_string(facets));
}

FrictionResult solveFrictionFaceted(const FrictionProblem3D& p, int facets) {
  FrictionResult out;
  try {
    p.validate("lcp::solveFrictionFaceted");
    if (facets < 3) throw std::invalid_argument("lcp::solveFrictionFaceted: expected at least 3 facets, got " +
                                                std::to_string(facets));
  } catch (const std::invalid_argument& e) {
    out.solver = "lemke";
    out.status = Status::kInvalidInput;
    out.message = e.what();
    out.r = Eigen::VectorXd::Zero(p.q.size());
    out.u = p.q;
    return out;
  }
  FacetedFrictionSolver(facets).solve(p, out);
  return out;
}

FacetedFrictionSolver::FacetedFrictionSolver(int facets) : facets_(facets) {
  if (facets < 3)
    throw std::invalid_argument("lcp::FacetedFrictionSolver: expected at least 3 facets, got " + std::to_string(facets));
}

void FacetedFrictionSolver::solve(const FrictionProblem3D& p, FrictionResult& out, const Eigen::VectorXd* turn) {
  const Eigen::Index nc = p.contacts(), k = facets_, block = k + 2;
  const bool resized = T_.rows() != block * nc;
  if (resized) {
    T_.setZero(block * nc, 3 * nc);
    lcp_.M.resize(block * nc, block * nc);
    lcp_.q.resize(block * nc);
  }
  if (resized || turn || turned_) {  // T is fixed by the size and the turns
    for (Eigen::Index i = 0; i < nc; ++i) {
      T_(block * i, 3 * i) = 1.0;
      for (Eigen::Index j = 0; j < k; ++j) {
        const double angle = 2.0 * std::numbers::pi * double(j) / double(k) + (turn ? (*turn)(i) : 0.0);
        T_(block * i + 1 + j, 3 * i + 1) = std::cos(angle);
        T_(block * i + 1 + j, 3 * i + 2) = std::sin(angle);
      }
    }
    turned_ = turn != nullptr;
  }
  TW_.noalias() = T_ * p.W;
  lcp_.M.noalias() = TW_ * T_.transpose();
  lcp_.q.noalias() = T_ * p.q;
  for (Eigen::Index i = 0; i < nc; ++i) {
    const Eigen::Index lambda = block * i + k + 1;
    for (Eigen::Index j = 0; j < k; ++j) {
      lcp_.M(block * i + 1 + j, lambda) += 1.0;  // λ + dⱼᵀ uₜ
      lcp_.M(lambda, block * i + 1 + j) -= 1.0;  // μ rₙ − Σ βⱼ
    }
    lcp_.M(lambda, block * i) += p.mu(i);
  }
  lemke_.solve(lcp_, z_);
  out.solver = "lemke";
  out.status = z_.status;
  out.pivots = z_.pivots;
  out.residual = z_.residual;
  out.relative_residual = z_.relative_residual;
  out.message = z_.message;
  // λ's rows of T are zero, so Tᵀ z is (rₙ, Σ βⱼ dⱼ) per contact.
  out.r.resize(3 * nc);
  if (z_.z.size() == lcp_.q.size()) out.r.noalias() = T_.transpose() * z_.z;
  else out.r.setZero();
  out.u.resize(3 * nc);
  out.u.noalias() = p.W * out.r;
  out.u += p.q;
}

}  // namespace stickslip::lcp
