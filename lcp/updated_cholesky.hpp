#pragma once
/// \file The Cholesky factor of a principal block of a symmetric positive definite M, kept as
/// indices join and leave the block [Golub & Van Loan, §6.5.4 and §12.5].
///
/// For the index set S (in the order the indices joined) it keeps
///   L Lᵀ = M_SS  (L lower triangular, positive diagonal),   y = L⁻¹ b_S,
/// so that M_SS x_S = b_S costs one back substitution Lᵀ x_S = y.
/// - `append(i)` borders L with one row: L l = M_Si, l_kk = √(M_ii − lᵀl), O(k²/2);
/// - `remove(position)` deletes a row and restores the triangle with Givens rotations on the
///   columns after it (applied to y as well), O((k − position)²);
/// - `factor(S)` starts afresh: left-looking by panels of four columns, Eigen's blocked LLT
///   above kEigenFrom rows.
/// A block pivoting round that moves a few indices so costs O(k²) instead of a new k³/6
/// factorization. Both triangular solves take four rows of L at a time, whose entries in a
/// column are contiguous. A small block's solves are bound by latency, each x waiting for the
/// one before: within four rows the pivots divide first, so that the wait is one
/// multiplication and one subtraction. Only M's lower triangle and b are read, at the indices
/// in the set.
///
/// Contract: M n × n and b of size n, fixed between `factor` and the updates; each index at
/// most once in the set. `append` and `factor` return false when the block is not positive
/// definite to working precision (a pivot below the smallest normal double, ≤ 0 or NaN): a
/// refused `append` leaves the set as it was, a refused `factor` empty. No allocation after
/// `reset(n)`.

#include <Eigen/Dense>
#include <vector>

namespace stickslip::lcp {

class UpdatedCholesky final {
 public:
  /// Empties the set and sizes the workspace for n × n matrices.
  void reset(Eigen::Index n);
  /// The factor of M_SS, S = `indices` in order, afresh.
  bool factor(const Eigen::MatrixXd& M, const Eigen::VectorXd& b,
              const std::vector<Eigen::Index>& indices);
  /// Adds index i at the end of the set.
  bool append(const Eigen::MatrixXd& M, const Eigen::VectorXd& b, Eigen::Index i);
  /// Removes the index at `position` in the set.
  void remove(Eigen::Index position);
  /// x_S: x[s] for the s-th index of the set, s < size().
  void solve(Eigen::VectorXd& x) const;
  /// The last m entries of x_S alone, into x[0 … m): the back substitution's first m steps,
  /// which read only the m × m corner of L.
  void solveLast(Eigen::Index m, double* x) const;

  const std::vector<Eigen::Index>& indices() const { return indices_; }
  Eigen::Index size() const { return Eigen::Index(indices_.size()); }

  static constexpr Eigen::Index kEigenFrom = 192;  ///< blocks larger than this: Eigen's LLT

 private:
  /// The factor by panels of four columns, each updated for the columns left of it
  /// (`updatePanel`), then factored on its own (`factorPanel`); false at a pivot ≤ 0. For the
  /// blocks it takes, faster than Eigen's LLT, whose blocking pays off on larger ones.
  bool factorPanels(Eigen::Index k);
  void updatePanel(Eigen::Index j0, Eigen::Index width);
  bool factorPanel(Eigen::Index j0, Eigen::Index width, Eigen::Index k);
  /// L x = rhs in place on x[0 … k), four rows at a time.
  void forward(double* x, Eigen::Index k) const;

  std::vector<Eigen::Index> indices_;  ///< S, in the factor's order
  Eigen::MatrixXd l_;                  ///< L: top-left |S| × |S| lower triangle, 3 rows of padding
  Eigen::VectorXd y_;                  ///< L⁻¹ b_S
  Eigen::VectorXd inverse_;            ///< 1 / L_jj, so that no division lies on a solve's chain
  Eigen::VectorXd t_;                  ///< a new row of L
  /// end_[j]: one past the last row where column j of L may be nonzero, so that the solves and
  /// updates skip the zeros of a banded or block-diagonal M_SS.
  std::vector<Eigen::Index> end_;
};

}  // namespace stickslip::lcp
