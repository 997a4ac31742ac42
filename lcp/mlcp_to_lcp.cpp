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

namespace {

// Second exact route, for singular A: with K = [[A, C], [D, B]] invertible,
// (u, v) = K⁻¹((0, w) − (a, b)), so v = (K⁻¹)ᵥᵥ w − (K⁻¹(a, b))ᵥ: an LCP in w whose matrix is
// the inverse of the Schur complement when that exists (a principal pivot transform).
MixedResult solveByFullInversion(const MixedProblem& p, LemkeSolver& lemke,
                                 const std::string& schur_refusal) {
  const Eigen::Index nu = p.A.cols(), m = p.B.rows();
  MixedResult out;
  out.u = Eigen::VectorXd::Zero(nu);
  out.v = Eigen::VectorXd::Zero(m);
  out.w = Eigen::VectorXd::Zero(m);
  Eigen::MatrixXd K(nu + m, nu + m);
  K << p.A, p.C, p.D, p.B;
  Eigen::VectorXd ab(nu + m);
  ab << p.a, p.b;
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
  if (lu.rank() < nu + m) {
    out.status = Status::kInvalidInput;
    out.message = "solveMlcpWithLemke: " + schur_refusal +
                  "; and [[A, C], [D, B]] is singular (rank " + std::to_string(lu.rank()) +
                  " of " + std::to_string(nu + m) + "), so no exact reduction to an LCP applies";
    return out;
  }
  const Eigen::MatrixXd Kinv = lu.inverse();
  const Problem lcp{Kinv.bottomRightCorner(m, m), -(Kinv * ab).tail(m)};
  const Result r = lemke.solve(lcp);
  out.pivots = r.pivots;
  out.status = r.status;
  out.message = r.message;
  if (r.ok()) {
    Eigen::VectorXd rhs = -ab;
    rhs.tail(m) += r.z;
    const Eigen::VectorXd x = lu.solve(rhs);
    out.u = x.head(nu);
    out.v = x.tail(m).cwiseMax(0.0);
    out.w = p.D * out.u + p.B * out.v + p.b;
  }
  return out;
}

}  // namespace

MixedResult solveMlcpWithLemke(const MixedProblem& p, LemkeSolver& lemke) {
  MixedResult out;
  out.u = Eigen::VectorXd::Zero(p.A.cols());
  out.v = Eigen::VectorXd::Zero(p.B.rows());
  out.w = Eigen::VectorXd::Zero(p.B.rows());
  std::optional<MlcpReduction> reduction;
  try {
    reduction.emplace(p);
  } catch (const std::invalid_argument& e) {
    const bool square_and_valid = p.A.rows() == p.A.cols() && [&] {
      try {
        p.validate();
        return true;
      } catch (const std::invalid_argument&) {
        return false;
      }
    }();
    if (!square_and_valid) {
      out.status = Status::kInvalidInput;
      out.message = std::string("solveMlcpWithLemke: ") + e.what();
      return out;
    }
    out = solveByFullInversion(p, lemke, e.what());
    if (out.status == Status::kInvalidInput) {
      // Both blocks fail the conditioning test; a badly scaled but full-rank A (circuits with
      // µF and kΩ) still gives an exact Schur reduction, judged below by the MLCP residual.
      try {
        reduction.emplace(p, 0.0);
        if (!reduction->factorizationA().isInvertible()) reduction.reset();
      } catch (const std::invalid_argument&) {
      }
    }
  }
  if (reduction) {
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
  }
  const Residual res = residual(p, out.u, out.v);
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (out.ok() && !(res.relative <= lemke.options().accept_tol)) {
    std::ostringstream os;
    os << "solveMlcpWithLemke: the reduced LCP was solved but the recovered MLCP solution has "
          "relative residual "
       << res.relative << " > " << lemke.options().accept_tol;
    if (reduction) os << " (rcond(A) = " << reduction->rcondA() << ")";
    out.status = Status::kNumericalFailure;
    out.message = os.str();
  }
  return out;
}

}  // namespace stickslip::lcp
