#include "lcp/block_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {

namespace {

/// ‖M‖∞ (the largest row sum, the residual's scale) from `row_sums`, in one pass down M's
/// columns; +∞ or NaN when an entry is not finite (a sum of absolute values is finite only when
/// every term is).
double rowNorm(const Eigen::MatrixXd& M, Eigen::VectorXd& row_sums) {
  const Eigen::Index n = M.rows(), cols = M.cols();
  row_sums.setZero(n);
  double* sums = row_sums.data();
  const double* m = M.data();
  Eigen::Index j = 0;
  for (; j + 4 <= cols; j += 4) {  // four columns at a time: one load and store of a sum per four
    const double *m0 = m + j * n, *m1 = m0 + n, *m2 = m1 + n, *m3 = m2 + n;
    for (Eigen::Index i = 0; i < n; ++i)
      sums[i] += (std::abs(m0[i]) + std::abs(m1[i])) + (std::abs(m2[i]) + std::abs(m3[i]));
  }
  for (; j < cols; ++j)
    for (Eigen::Index i = 0; i < n; ++i) sums[i] += std::abs(m[j * n + i]);
  return M.size() == 0 ? 0.0 : std::isfinite(row_sums.sum()) ? row_sums.maxCoeff() : row_sums.sum();
}

/// max |M_ij − M_ji|, compared only where a pair differs.
double asymmetry(const Eigen::MatrixXd& M) {
  double largest = 0.0;
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = j + 1; i < M.rows(); ++i)
      if (M(i, j) != M(j, i)) largest = std::max(largest, std::abs(M(i, j) - M(j, i)));
  return largest;
}

}  // namespace

Result BlockPivotingSolver::solve(const Problem& p) {
  Result r;
  solve(p, r);
  return r;
}

void BlockPivotingSolver::resize(Eigen::Index n) {
  factor_.reset(n);
  if (z_.size() == n) return;
  free_.assign(std::size_t(n), 0);
  bad_.assign(std::size_t(n), 0);
  joined_.reserve(std::size_t(n));
  minus_q_.resize(n);
  ahead_.resize(n);
  x_.resize(n);
  z_.resize(n);
  w_.resize(n);
}

bool BlockPivotingSolver::solveFree(const Problem& p, bool fresh) {
  if (fresh) {
    joined_.clear();
    for (Eigen::Index i = 0; i < p.size(); ++i)
      if (free_[std::size_t(i)]) joined_.push_back(i);
    if (!factor_.factor(p.M, minus_q_, joined_)) return false;
  } else {  // the indices that left F, last first, then those that joined, in order
    for (auto s = factor_.size() - 1; s >= 0; --s)
      if (!free_[std::size_t(factor_.indices()[std::size_t(s)])]) factor_.remove(s);
    for (const Eigen::Index i : joined_)
      if (!factor_.append(p.M, minus_q_, i)) return false;
    if (join_ahead_ && !joinAhead(p)) return false;
  }
  factor_.solve(x_);
  z_.setZero();
  const auto& f = factor_.indices();
  for (std::size_t s = 0; s < f.size(); ++s) z_[f[s]] = x_[Eigen::Index(s)];
  return true;
}

bool BlockPivotingSolver::joinAhead(const Problem& p) {
  const Eigen::Index n = p.size();
  double* w = ahead_.data();
  for (Eigen::Index i = 0; i < n; ++i) w[i] = w_[i];
  const double w_tol = kFeasibilityTol * w_scale_;
  // Each pass adds the share of the indices that joined last, at their z in the new F; the z of
  // those before them is held (for a Z-matrix it can only grow, so w stays a bound).
  for (std::size_t first = 0; first < joined_.size();) {
    const auto m = Eigen::Index(joined_.size() - first);
    factor_.solveLast(m, x_.data());  // z of the last m joiners: the factor's last m indices
    for (Eigen::Index s = 0; s < m; ++s) {
      const double* mj = p.M.data() + joined_[first + std::size_t(s)] * n;
      const double zj = x_[s];
      for (Eigen::Index i = 0; i < n; ++i) w[i] += mj[i] * zj;
    }
    first = joined_.size();
    for (Eigen::Index i = 0; i < n; ++i) {
      if (free_[std::size_t(i)] || !(w[i] < -w_tol)) continue;
      free_[std::size_t(i)] = 1;
      joined_.push_back(i);
      if (!factor_.append(p.M, minus_q_, i)) return false;
    }
  }
  return true;
}

int BlockPivotingSolver::infeasible(const Problem& p, double tol, Eigen::Index& largest) {
  // w = q + M_{:,F} z_F, four of M's columns at a time: one load and store of w per four.
  const Eigen::Index n = p.size();
  const auto& f = factor_.indices();
  const std::size_t k = f.size();
  double* w = w_.data();
  const double* m = p.M.data();
  for (Eigen::Index i = 0; i < n; ++i) w[i] = p.q[i];
  std::size_t s = 0;
  for (; s + 4 <= k; s += 4) {
    const double* m0 = m + f[s] * n;
    const double* m1 = m + f[s + 1] * n;
    const double* m2 = m + f[s + 2] * n;
    const double* m3 = m + f[s + 3] * n;
    const double z0 = x_[Eigen::Index(s)], z1 = x_[Eigen::Index(s + 1)];
    const double z2 = x_[Eigen::Index(s + 2)], z3 = x_[Eigen::Index(s + 3)];
    for (Eigen::Index i = 0; i < n; ++i) w[i] += (m0[i] * z0 + m1[i] * z1) + (m2[i] * z2 + m3[i] * z3);
  }
  for (; s < k; ++s) {
    const double* mj = m + f[s] * n;
    const double zj = x_[Eigen::Index(s)];
    for (Eigen::Index i = 0; i < n; ++i) w[i] += mj[i] * zj;
  }
  const double z_norm = z_.cwiseAbs().maxCoeff();
  const double z_tol = tol * std::max(z_norm, 1e-300);
  w_scale_ = std::max(q_norm_, m_norm_ * z_norm);
  const double w_tol = tol * w_scale_;
  // Locals throughout: a store to bad_ (chars) could alias any member, which the loop would
  // then reload.
  const char* in_free = free_.data();
  char* bad = bad_.data();
  const double* z = z_.data();
  int count = 0;
  Eigen::Index last = -1;
  double w_free = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const bool in_f = in_free[i];
    const bool infeasible = in_f ? z[i] < -z_tol : w[i] < -w_tol;
    if (in_f) w_free = std::max(w_free, std::abs(w[i]));
    bad[i] = infeasible;
    if (infeasible) {
      ++count;
      last = i;
    }
  }
  largest = last;
  w_free_ = w_free;
  return count;
}

void BlockPivotingSolver::solve(const Problem& p, Result& out) {
  const Eigen::Index n = p.q.size();
  out.pivots = 0;
  out.zero_tol_used = 0.0;
  out.message.clear();
  // A failure leaves z = w = 0 (result.hpp), but for the candidate a residual check rejects.
  auto fail = [&](Status status, std::string why, bool keep_candidate = false) {
    out.status = status;
    out.message.assign("block pivoting: ").append(why);
    if (keep_candidate) return;
    out.z.setZero(n);
    out.w.setZero(n);
  };
  // A failure says first whether M is symmetric, the method's premise.
  auto asymmetric = [&] { return asymmetry(p.M) > 1e-12 * std::max(1.0, m_norm_); };
  auto failNotSymmetric = [&] {
    fail(Status::kInvalidInput,
         "M is not symmetric; it needs a symmetric positive definite M (Lemke takes others)");
  };
  auto failOnM = [&](Status status, std::string why, bool keep_candidate = false) {
    if (asymmetric())
      failNotSymmetric();
    else
      fail(status, std::move(why), keep_candidate);
  };
  // One pass gives M's scale and, through it, the finiteness the validation would check.
  const bool shaped = p.M.rows() == n && p.M.cols() == n;
  m_norm_ = shaped ? rowNorm(p.M, row_sums_) : 0.0;
  if (!shaped || !std::isfinite(m_norm_) || !std::isfinite(p.q.cwiseAbs().sum())) {
    try {
      p.validate("lcp::BlockPivotingSolver");
    } catch (const std::invalid_argument& e) {
      fail(Status::kInvalidInput, e.what());
      return;
    }
    fail(Status::kInvalidInput, "the row sums of |M| or the sum of |q| overflow");
    return;
  }
  if (n == 0) {  // nothing to solve (and no entry to take a norm of)
    out.z.resize(0);
    out.w.resize(0);
    out.status = Status::kSuccess;
    out.residual = out.relative_residual = 0.0;
    return;
  }
  q_norm_ = p.q.cwiseAbs().maxCoeff();
  resize(n);
  minus_q_ = -p.q;
  for (Eigen::Index i = 0; i < n; ++i)
    free_[std::size_t(i)] = p.q[i] < 0.0;  // z_i > 0 guessed where q_i < 0
  join_ahead_ = false;
  const int max_rounds = 100 * int(n + 1);
  int fewest = int(n) + 1, stalls = 0, round = 0;
  bool symmetry_known = false;
  for (;; ++round) {
    if (round == max_rounds) {
      failOnM(Status::kPivotLimit, std::to_string(max_rounds) + " rounds without a solution");
      return;
    }
    if (!solveFree(p, round == 0)) {
      failOnM(Status::kInvalidInput,  // the method's premise, as symmetry is
              "a principal block of M is not positive definite, so M is not; Lemke takes "
              "positive semidefinite M");
      return;
    }
    Eigen::Index largest = -1;
    const int count = infeasible(p, kFeasibilityTol, largest);
    // The Cholesky solve read M_FF's lower triangle: where w_F = 0 does not close, M may not be
    // symmetric. Checked there, once, rather than on every solve.
    if (!symmetry_known && w_free_ > kAcceptTol * w_scale_) {
      symmetry_known = true;
      if (asymmetric()) {
        failNotSymmetric();
        return;
      }
    }
    if (count == 0) break;
    joined_.clear();
    auto changeSides = [&](Eigen::Index i) {
      const bool joins = !free_[std::size_t(i)];
      free_[std::size_t(i)] = joins;
      if (joins) joined_.push_back(i);
    };
    join_ahead_ = false;
    if (count < fewest || stalls < kMaxStalls) {  // every infeasible index changes sides
      stalls = count < fewest ? 0 : stalls + 1;
      fewest = std::min(fewest, count);
      bool leaves = false;
      for (Eigen::Index i = 0; i < n; ++i) {
        if (!bad_[std::size_t(i)]) continue;
        leaves |= free_[std::size_t(i)] != 0;
        changeSides(i);
      }
      join_ahead_ = !leaves;
    } else {  // Murty's rule: only the largest
      changeSides(largest);
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
  const Residual r = residual(p, out.z, out.w, m_norm_);
  out.residual = r.absolute;
  out.relative_residual = r.relative;
  if (r.relative <= kAcceptTol) {
    out.status = Status::kSuccess;
    return;
  }
  failOnM(Status::kNumericalFailure, "relative residual " + scientific(r.relative) + " above 1e-9",
          true);
}

}  // namespace stickslip::lcp
