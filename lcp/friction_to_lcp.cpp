#include "lcp/friction_to_lcp.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

constexpr const char* kFrictionReduction = "FrictionReduction";

void requireSize(const char* what, const Eigen::VectorXd& x, Eigen::Index expected) {
  if (x.size() != expected)
    throw std::invalid_argument(std::string(kFrictionReduction) + ": expected " + what + " of size " +
                                std::to_string(expected) + ", got " + std::to_string(x.size()));
}

}  // namespace

double frictionScale(const Eigen::MatrixXd& W) {
  const double w_max = W.size() > 0 ? W.cwiseAbs().maxCoeff() : 0.0;
  return std::isnormal(w_max) ? std::ldexp(1.0, std::ilogb(w_max)) : 1.0;
}

FrictionReduction::FrictionReduction(const FrictionProblem2D& p) {
  p.validate(kFrictionReduction);
  const Eigen::Index nc = p.contacts();
  lambda_scale_ = frictionScale(p);
  lcp_.M.setZero(4 * nc, 4 * nc);
  lcp_.q.resize(4 * nc);
  // Eᵀ W E, block (i, j): the rows (uₙ, +uₜ, −uₜ, 0) of contact i against the columns
  // (rₙ, rₜ = β⁺ − β⁻) of contact j.
  for (Eigen::Index i = 0; i < nc; ++i) {
    for (Eigen::Index j = 0; j < nc; ++j) {
      const double nn = p.W(2 * i, 2 * j), nt = p.W(2 * i, 2 * j + 1);
      const double tn = p.W(2 * i + 1, 2 * j), tt = p.W(2 * i + 1, 2 * j + 1);
      auto block = lcp_.M.block<3, 3>(4 * i, 4 * j);
      block << nn, nt, -nt,  //
          tn, tt, -tt,       //
          -tn, -tt, tt;
    }
    const Eigen::Index k = 4 * i;
    lcp_.M(k + 1, k + 3) = lambda_scale_;  // λ + uₜ, λ = s λ'
    lcp_.M(k + 2, k + 3) = lambda_scale_;  // λ − uₜ
    lcp_.M(k + 3, k) = p.mu(i);  // μ rₙ − β⁺ − β⁻
    lcp_.M(k + 3, k + 1) = -1.0;
    lcp_.M(k + 3, k + 2) = -1.0;
    lcp_.q(k) = p.q(2 * i);
    lcp_.q(k + 1) = p.q(2 * i + 1);
    lcp_.q(k + 2) = -p.q(2 * i + 1);
    lcp_.q(k + 3) = 0.0;
  }
}

Eigen::VectorXd FrictionReduction::reactions(const Eigen::VectorXd& z) const {
  requireSize("z", z, lcp_.size());
  const Eigen::Index nc = lcp_.size() / 4;
  Eigen::VectorXd r(2 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    r(2 * i) = z(4 * i);
    r(2 * i + 1) = z(4 * i + 1) - z(4 * i + 2);
  }
  return r;
}

Eigen::VectorXd FrictionReduction::lcpSolutionFrom(const Eigen::VectorXd& r,
                                                   const Eigen::VectorXd& u) const {
  const Eigen::Index nc = lcp_.size() / 4;
  requireSize("r", r, 2 * nc);
  requireSize("u", u, 2 * nc);
  Eigen::VectorXd z(4 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    const double rt = r(2 * i + 1);
    z.segment<4>(4 * i) << r(2 * i), std::max(rt, 0.0), std::max(-rt, 0.0), std::abs(u(2 * i + 1)) / lambda_scale_;
  }
  return z;
}

FrictionResult solveFrictionWithLemke(const FrictionProblem2D& p, LemkeSolver& lemke) {
  FrictionResult out;
  out.r = Eigen::VectorXd::Zero(p.q.size());
  out.u = p.q;
  std::optional<FrictionReduction> reduction;
  try {
    reduction.emplace(p);
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = std::string("solveFrictionWithLemke: ") + e.what();
    return out;
  }
  const Result z = lemke.solve(reduction->lcp());
  out.status = z.status;
  out.message = z.message;
  out.pivots = z.pivots;
  if (z.z.size() == reduction->lcp().size()) out.r = reduction->reactions(z.z);
  out.u = p.W * out.r + p.q;
  const Residual res = residual(p, out.r);
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (z.ok() && !(res.relative <= lemke.options().accept_tol)) {
    std::ostringstream os;
    os << "solveFrictionWithLemke: the LCP was solved but the reactions have relative "
          "friction residual "
       << res.relative << " > " << lemke.options().accept_tol;
    out.status = Status::kNumericalFailure;
    out.message = os.str();
  }
  return out;
}

}  // namespace stickslip::lcp
