#include "lcp/mlcp_to_lcp.hpp"

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

constexpr const char* kWho = "MlcpReduction";

}  // namespace

MlcpReduction::MlcpReduction(const MixedProblem& p, double min_rcond) {
  p.validate(kWho);
  if (p.A.rows() != p.A.cols()) {
    std::ostringstream os;
    os << kWho << ": expected A square (as many equalities as free variables), got A is "
       << p.A.rows() << "×" << p.A.cols();
    throw std::invalid_argument(os.str());
  }
  const Eigen::Index nu = p.A.cols();
  if (nu > 0) {
    lu_.compute(p.A);
    // FullPivLU's rank decision catches exact singularity; rcond catches near-singularity,
    // for which A⁻¹ would turn round-off into O(1) errors in M and q.
    rcond_ = lu_.isInvertible() ? lu_.rcond() : 0.0;
    if (!(rcond_ >= min_rcond)) {
      std::ostringstream os;
      os << kWho << ": expected A invertible (reciprocal condition ≥ " << min_rcond
         << "), got A is singular or ill-conditioned (rank " << lu_.rank() << " of " << nu
         << ", rcond " << rcond_ << ")";
      throw std::invalid_argument(os.str());
    }
    Ainv_C_ = lu_.solve(p.C);
    Ainv_a_ = lu_.solve(p.a);
  } else {
    rcond_ = 1.0;
    Ainv_C_.setZero(0, p.B.cols());
    Ainv_a_.resize(0);
  }
  lcp_.M = p.B - p.D * Ainv_C_;
  lcp_.q = p.b - p.D * Ainv_a_;
}

MlcpReduction::Recovered MlcpReduction::recover(const Eigen::VectorXd& v) const {
  if (v.size() != lcp_.size())
    throw std::invalid_argument(std::string(kWho) + "::recover: expected v of size " +
                                std::to_string(lcp_.size()) + ", got " + std::to_string(v.size()));
  Recovered out;
  out.u = -(Ainv_C_ * v + Ainv_a_);
  out.w = lcp_.M * v + lcp_.q;
  return out;
}

MixedResult solveMlcpWithLemke(const MixedProblem& p, LemkeSolver& lemke) {
  MixedResult out;
  out.u = Eigen::VectorXd::Zero(p.A.cols());
  out.v = Eigen::VectorXd::Zero(p.B.rows());
  out.w = Eigen::VectorXd::Zero(p.B.rows());
  std::optional<MlcpReduction> reduction;
  try {
    reduction.emplace(p);
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = std::string("solveMlcpWithLemke: ") + e.what();
    return out;
  }
  const Result r = lemke.solve(reduction->lcp());
  out.pivots = r.pivots;
  out.status = r.status;
  out.message = r.message;
  if (r.z.size() == out.v.size()) {
    out.v = r.z;
    MlcpReduction::Recovered rec = reduction->recover(r.z);
    out.u = std::move(rec.u);
    out.w = std::move(rec.w);
  }
  const Residual res = residual(p, out.u, out.v);
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (r.ok() && !(res.relative <= lemke.options().accept_tol)) {
    std::ostringstream os;
    os << "solveMlcpWithLemke: the LCP in v was solved but the recovered MLCP solution has "
          "relative residual "
       << res.relative << " > " << lemke.options().accept_tol
       << " (rcond(A) = " << reduction->rcondA() << ")";
    out.status = Status::kNumericalFailure;
    out.message = os.str();
  }
  return out;
}

}  // namespace stickslip::lcp
