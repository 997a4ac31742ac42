#include "lcp/mlcp_to_lcp.hpp"

#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

constexpr const char* kMlcpReduction = "MlcpReduction";

}  // namespace

MlcpReduction::MlcpReduction(const MixedProblem& p, double min_rcond) {
  p.validate(kMlcpReduction);
  if (p.A.rows() != p.A.cols()) {
    std::ostringstream os;
    os << kMlcpReduction << ": expected A square (as many equalities as free variables), got A is "
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
      os << kMlcpReduction << ": expected A invertible (reciprocal condition ≥ " << min_rcond
         << "), got A is singular or ill-conditioned (rank " << lu_.rank() << " of " << nu
         << ", rcond " << rcond_ << ")";
      throw std::invalid_argument(os.str());
    }
    // Eigen's triangular solve binds a reference to the data of an empty right-hand side
    // (undefined behaviour, found by fuzz_dat_reader with m = 0): skip it.
    if (p.C.cols() > 0)
      Ainv_C_ = lu_.solve(p.C);
    else
      Ainv_C_.setZero(nu, 0);
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
    throw std::invalid_argument(std::string(kMlcpReduction) + "::recover: expected v of size " +
                                std::to_string(lcp_.size()) + ", got " + std::to_string(v.size()));
  Recovered out;
  out.u = -(Ainv_C_ * v + Ainv_a_);
  out.w = lcp_.M * v + lcp_.q;
  return out;
}

MlcpNullSpaceReduction::MlcpNullSpaceReduction(const MixedProblem& p) {
  constexpr const char* who = "MlcpNullSpaceReduction";
  p.validate(who);
  if (p.A.rows() != p.A.cols()) {
    std::ostringstream os;
    os << who << ": expected A square (as many equalities as free variables), got A is "
       << p.A.rows() << "×" << p.A.cols();
    throw std::invalid_argument(os.str());
  }
  const Eigen::Index nu = p.A.cols(), m = p.B.rows();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(p.A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  const double cut = double(std::max<Eigen::Index>(nu, 1)) *
                     std::numeric_limits<double>::epsilon() * (nu ? sigma(0) : 0.0);
  const Eigen::Index r = (sigma.array() > cut).count();
  const Eigen::Index k = nu - r;
  // u = −A⁺(C v + a) + V₂ y; the rows U₂ᵀ of the equalities constrain v alone.
  const Eigen::MatrixXd pinv = svd.matrixV().leftCols(r) *
                               sigma.head(r).cwiseInverse().asDiagonal() *
                               svd.matrixU().leftCols(r).transpose();
  null_basis_ = svd.matrixV().rightCols(k);
  pinv_C_ = pinv * p.C;
  pinv_a_ = pinv * p.a;
  const Eigen::MatrixXd Dy = p.D * null_basis_;
  Eigen::MatrixXd E = svd.matrixU().rightCols(k).transpose() * p.C;
  Eigen::VectorXd e = svd.matrixU().rightCols(k).transpose() * p.a;
  // A row of E at round-off level is an equality that v cannot affect: it holds (e ≈ 0:
  // drop it exactly) or no solution exists. Left in, it would admit "solutions" with v ≈ 1/ε.
  const double tiny = 100.0 * double(nu + m) * std::numeric_limits<double>::epsilon();
  const double scale_C = p.C.size() ? p.C.cwiseAbs().maxCoeff() : 0.0;
  const double scale_a = std::max(p.a.size() ? p.a.cwiseAbs().maxCoeff() : 0.0, scale_C);
  for (Eigen::Index i = 0; i < k; ++i) {
    // m = 0 (no v, found by fuzz_dat_reader): every row of E is empty, i.e. zero, and must
    // not be touched (a row block of an empty matrix offsets a null pointer).
    if (m > 0) {
      if (E.row(i).cwiseAbs().maxCoeff() > tiny * scale_C) continue;
      E.row(i).setZero();
    }
    if (std::abs(e(i)) > tiny * scale_a) {
      std::ostringstream os;
      os << "the equalities A u + C v + a = 0 are inconsistent: a combination of them reads "
         << e(i) << " = 0 whatever u and v";
      inconsistency_ = os.str();
    }
    e(i) = 0.0;
  }
  // Any invertible T recombines the k equality rows. T = −Dyᵀ E⁺ makes the coupling between
  // v and y skew (T E = −Dyᵀ) when their row spaces match, as in a monotone MLCP: the LCP
  // below is then PSD wherever B − D A⁺ C is, and Lemke processes it.
  if (k > 0 && m > 0) {
    const Eigen::MatrixXd T =
        -Dy.transpose() * E.completeOrthogonalDecomposition().pseudoInverse();
    if (Eigen::FullPivLU<Eigen::MatrixXd>(T).isInvertible()) {
      E = T * E;
      e = T * e;
    }
  }
  rank_ = r;
  const Eigen::Index n = m + 2 * k;
  lcp_.M.setZero(n, n);
  lcp_.q.resize(n);
  lcp_.M.topLeftCorner(m, m) = p.B - p.D * pinv_C_;
  lcp_.M.block(0, m, m, k) = Dy;
  lcp_.M.block(0, m + k, m, k) = -Dy;
  lcp_.M.block(m, 0, k, m) = E;
  lcp_.M.block(m + k, 0, k, m) = -E;
  lcp_.q << p.b - p.D * pinv_a_, e, -e;
}

MlcpReduction::Recovered MlcpNullSpaceReduction::recover(const Eigen::VectorXd& z,
                                                         const MixedProblem& p) const {
  const Eigen::Index m = p.B.rows(), k = null_basis_.cols();
  if (z.size() != lcp_.size())
    throw std::invalid_argument("MlcpNullSpaceReduction::recover: expected z of size " +
                                std::to_string(lcp_.size()) + ", got " + std::to_string(z.size()));
  const Eigen::VectorXd v = z.head(m), y = z.segment(m, k) - z.tail(k);
  MlcpReduction::Recovered out;
  out.u = null_basis_ * y - (pinv_C_ * v + pinv_a_);
  out.w = p.D * out.u + p.B * v + p.b;
  return out;
}

MixedResult solveMlcpWithLemke(const MixedProblem& p, LemkeSolver& lemke) {
  MixedResult out;
  out.u = Eigen::VectorXd::Zero(p.A.cols());
  out.v = Eigen::VectorXd::Zero(p.B.rows());
  out.w = Eigen::VectorXd::Zero(p.B.rows());
  // A invertible, however badly scaled: its Schur complement (the residual check below
  // judges the conditioning). A singular: the null-space reduction.
  std::optional<MlcpReduction> schur;
  std::optional<MlcpNullSpaceReduction> null_space;
  try {
    schur.emplace(p, 0.0);
    // Without free variables A is never factorized (found by fuzz_dat_reader with n = 0).
    if (p.A.cols() > 0 && !schur->factorizationA().isInvertible()) {
      schur.reset();
      null_space.emplace(p);
    }
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = std::string("solveMlcpWithLemke: ") + e.what();
    return out;
  }
  if (null_space && !null_space->inconsistency().empty()) {
    out.status = Status::kRayTermination;  // infeasible, proved without pivoting
    out.message = "solveMlcpWithLemke: no solution: " + null_space->inconsistency();
    const Residual res = residual(p, out.u, out.v);
    out.residual = res.absolute;
    out.relative_residual = res.relative;
    return out;
  }
  const Result r = lemke.solve(schur ? schur->lcp() : null_space->lcp());
  out.pivots = r.pivots;
  out.status = r.status;
  out.message = r.message;
  if (r.ok()) {
    MlcpReduction::Recovered rec;
    if (schur) {
      out.v = r.z;
      rec = schur->recover(r.z);
    } else {
      out.v = r.z.head(p.B.rows());
      rec = null_space->recover(r.z, p);
    }
    out.u = std::move(rec.u);
    out.w = std::move(rec.w);
  }
  const Residual res = residual(p, out.u, out.v);
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (r.ok() && !(res.relative <= lemke.options().accept_tol)) {
    std::ostringstream os;
    os << "solveMlcpWithLemke: the reduced LCP was solved but the recovered MLCP solution has "
          "relative residual "
       << res.relative << " > " << lemke.options().accept_tol;
    if (schur) os << " (rcond(A) = " << schur->rcondA() << ")";
    out.status = Status::kNumericalFailure;
    out.message = os.str();
  }
  return out;
}

}  // namespace stickslip::lcp
