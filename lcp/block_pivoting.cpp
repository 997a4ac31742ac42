#include "lcp/block_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {

namespace {

constexpr double kFeasibilityTol = 1e-12;  // relative to the scale of z, and of w's terms

/// M's scales: max |M_ij| and the largest row sum ‖M‖∞ (the residual's scale), column by
/// column; the largest asymmetry max |M_ij − M_ji| over the pairs, measured only where they
/// differ (a symmetric M costs compares, no chain of maxima).
struct Scales {
  double largest = 0.0, row_norm = 0.0, asymmetry = 0.0;
};
Scales scales(const Eigen::MatrixXd& M, Eigen::VectorXd& row_sums) {
  Scales s;
  row_sums.setZero(M.rows());
  for (Eigen::Index j = 0; j < M.cols(); ++j) row_sums += M.col(j).cwiseAbs();
  if (M.size() == 0) return s;
  s.row_norm = row_sums.maxCoeff();
  s.largest = M.cwiseAbs().maxCoeff();
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = j + 1; i < M.rows(); ++i)
      if (M(i, j) != M(j, i)) s.asymmetry = std::max(s.asymmetry, std::abs(M(i, j) - M(j, i)));
  return s;
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
  // Left-looking, column by column over raw columns: column j less L(j, c) times each column
  // c < j, from row j down, then scaled by its pivot.
  const Eigen::Index ld = block_.outerStride();
  double* a = block_.data();
  double* x = rhs_.data();
  for (Eigen::Index j = 0; j < k; ++j) {
    double* lj = a + j * ld;
    for (Eigen::Index c = 0; c < j; ++c) {
      const double* lc = a + c * ld;
      const double f = lc[j];
      for (Eigen::Index i = j; i < k; ++i) lj[i] -= f * lc[i];
    }
    if (!(lj[j] > 0.0)) return false;
    const double pivot = std::sqrt(lj[j]), inverse = 1.0 / pivot;
    lj[j] = pivot;
    for (Eigen::Index i = j + 1; i < k; ++i) lj[i] *= inverse;
  }
  for (Eigen::Index j = 0; j < k; ++j) {  // L y = rhs
    const double* lj = a + j * ld;
    const double y = x[j] /= lj[j];
    for (Eigen::Index i = j + 1; i < k; ++i) x[i] -= y * lj[i];
  }
  for (Eigen::Index j = k - 1; j >= 0; --j) {  // Lᵀ z = y
    const double* lj = a + j * ld;
    double z = x[j];
    for (Eigen::Index i = j + 1; i < k; ++i) z -= lj[i] * x[i];
    x[j] = z / lj[j];
  }
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
  const Scales m = scales(p.M, row_sums_);
  m_norm_ = m.largest;
  q_norm_ = p.q.cwiseAbs().maxCoeff();
  if (m.asymmetry > 1e-12 * std::max(1.0, m_norm_)) {
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
  // w = q + M z is the last round's unless z_F's round-off negatives are cut to 0.
  out.z = z_.cwiseMax(0.0);
  if (z_.minCoeff() >= 0.0) {
    out.w = w_;
  } else {
    out.w.noalias() = p.M * out.z;
    out.w += p.q;
  }
  const Residual r = residual(p, out.z, out.w, m.row_norm);
  out.residual = r.absolute;
  out.relative_residual = r.relative;
  out.status = r.relative <= kAcceptTol ? Status::kSuccess : Status::kNumericalFailure;
  if (!out.ok())
    out.message = "block pivoting: relative residual " + std::to_string(out.relative_residual) +
                  " above 1e-9";
}

}  // namespace stickslip::lcp
