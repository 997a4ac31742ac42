#include "lcp/block_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {

namespace {

constexpr double kFeasibilityTol = 1e-12;  // relative to the scale of z, and of w's terms

/// max |M_ij − M_ji| ≤ 1e-12 max(1, max |M_ij|) (m_norm).
bool symmetric(const Eigen::MatrixXd& M, double m_norm) {
  const double tol = 1e-12 * std::max(1.0, m_norm);
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < j; ++i)
      if (std::abs(M(i, j) - M(j, i)) > tol) return false;
  return true;
}

}  // namespace

Result BlockPivotingSolver::solve(const Problem& p) {
  Result r;
  solve(p, r);
  return r;
}

void BlockPivotingSolver::resize(Eigen::Index n) {
  if (block_.rows() == n) return;
  free_.assign(std::size_t(n), 0);
  bad_.assign(std::size_t(n), 0);
  index_.reserve(std::size_t(n));
  block_.resize(n, n);
  rhs_.resize(n);
  z_.resize(n);
  w_.resize(n);
}

bool BlockPivotingSolver::smallCholeskySolve(Eigen::Index k) {
  // Right-looking, column by column: each update is a contiguous column operation.
  for (Eigen::Index j = 0; j < k; ++j) {
    const double d = block_(j, j);
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    block_(j, j) = l;
    block_.col(j).segment(j + 1, k - j - 1) /= l;
    for (Eigen::Index c = j + 1; c < k; ++c)
      block_.col(c).segment(c, k - c) -= block_(c, j) * block_.col(j).segment(c, k - c);
  }
  for (Eigen::Index j = 0; j < k; ++j) {  // L y = rhs
    rhs_[j] /= block_(j, j);
    rhs_.segment(j + 1, k - j - 1) -= rhs_[j] * block_.col(j).segment(j + 1, k - j - 1);
  }
  for (Eigen::Index j = k - 1; j >= 0; --j)  // Lᵀ z = y
    rhs_[j] =
        (rhs_[j] - block_.col(j).segment(j + 1, k - j - 1).dot(rhs_.segment(j + 1, k - j - 1))) /
        block_(j, j);
  return true;
}

bool BlockPivotingSolver::solveFree(const Problem& p) {
  index_.clear();
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (free_[std::size_t(i)]) index_.push_back(i);
  const auto k = Eigen::Index(index_.size());
  for (Eigen::Index b = 0; b < k; ++b) {
    for (Eigen::Index a = b; a < k; ++a)
      block_(a, b) = p.M(index_[std::size_t(a)], index_[std::size_t(b)]);
    rhs_[b] = -p.q[index_[std::size_t(b)]];
  }
  if (k > kEigenCholeskyFrom) {
    Eigen::Ref<Eigen::MatrixXd> factor = block_.topLeftCorner(k, k);
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(factor);  // in place, lower triangle
    if (llt.info() != Eigen::Success) return false;
    llt.solveInPlace(rhs_.head(k));
  } else if (!smallCholeskySolve(k)) {
    return false;
  }
  z_.setZero();
  for (Eigen::Index a = 0; a < k; ++a) z_[index_[std::size_t(a)]] = rhs_[a];
  return true;
}

int BlockPivotingSolver::infeasible(const Problem& p, double tol, Eigen::Index& largest) {
  w_ = p.q;  // w = q + M_{:,F} z_F
  for (const Eigen::Index j : index_) w_.noalias() += p.M.col(j) * z_[j];
  const double z_norm = z_.cwiseAbs().maxCoeff();
  const double z_tol = tol * std::max(z_norm, 1e-300);
  const double w_tol = tol * std::max(q_norm_, m_norm_ * z_norm);
  int count = 0;
  largest = -1;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const bool bad = free_[std::size_t(i)] ? z_[i] < -z_tol : w_[i] < -w_tol;
    bad_[std::size_t(i)] = bad;
    if (bad) {
      ++count;
      largest = i;
    }
  }
  return count;
}

void BlockPivotingSolver::solve(const Problem& p, Result& out) {
  const Eigen::Index n = p.q.size();
  out.pivots = 0;
  out.zero_tol_used = 0.0;
  out.message.clear();
  auto fail = [&](Status status, std::string why) {
    out.status = status;
    out.message = "block pivoting: " + std::move(why);
    if (out.z.size() != n) out.z = Eigen::VectorXd::Zero(n);
    if (out.w.size() != n) out.w = Eigen::VectorXd::Zero(n);
  };
  try {
    p.validate("lcp::BlockPivotingSolver");
  } catch (const std::invalid_argument& e) {
    fail(Status::kInvalidInput, e.what());
    return;
  }
  if (n == 0) {  // nothing to solve (and no entry to take a norm of)
    out.z.resize(0);
    out.w.resize(0);
    out.status = Status::kSuccess;
    out.residual = out.relative_residual = 0.0;
    return;
  }
  m_norm_ = p.M.cwiseAbs().maxCoeff();
  q_norm_ = p.q.cwiseAbs().maxCoeff();
  if (!symmetric(p.M, m_norm_)) {
    fail(Status::kInvalidInput,
         "M is not symmetric; it needs a symmetric positive definite M (Lemke takes others)");
    return;
  }
  resize(n);
  for (Eigen::Index i = 0; i < n; ++i)
    free_[std::size_t(i)] = p.q[i] < 0.0;  // z_i > 0 guessed where q_i < 0
  const int max_rounds = 100 * int(n + 1);
  int fewest = int(n) + 1, stalls = 0, round = 0;
  for (;; ++round) {
    if (round == max_rounds) {
      fail(Status::kPivotLimit, std::to_string(max_rounds) + " rounds without a solution");
      return;
    }
    if (!solveFree(p)) {
      fail(Status::kNumericalFailure,
           "a principal block of M is not positive definite, so M is not; Lemke takes positive "
           "semidefinite M");
      return;
    }
    Eigen::Index largest = -1;
    const int count = infeasible(p, kFeasibilityTol, largest);
    if (count == 0) break;
    if (count < fewest || stalls < kMaxStalls) {  // every infeasible index changes sides
      stalls = count < fewest ? 0 : stalls + 1;
      fewest = std::min(fewest, count);
      for (Eigen::Index i = 0; i < n; ++i)
        if (bad_[std::size_t(i)]) free_[std::size_t(i)] = !free_[std::size_t(i)];
    } else {  // Murty's rule: only the largest
      free_[std::size_t(largest)] = !free_[std::size_t(largest)];
    }
  }
  out.pivots = round + 1;
  out.z = z_.cwiseMax(0.0);
  out.w.noalias() = p.M * out.z;
  out.w += p.q;
  const Residual r = residual(p, out.z);
  out.residual = r.absolute;
  out.relative_residual = r.relative;
  out.status = r.relative <= kAcceptTol ? Status::kSuccess : Status::kNumericalFailure;
  if (!out.ok())
    out.message = "block pivoting: relative residual " + std::to_string(r.relative) + " above 1e-9";
}

}  // namespace stickslip::lcp
