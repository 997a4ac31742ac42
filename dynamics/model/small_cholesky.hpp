#pragma once
/// \file Cholesky factorization S = L Lᵀ of a small dense symmetric positive definite matrix
/// and its solves, in plain loops, skipping the zeros of a profile (skyline) matrix.
///
/// Why not Eigen::LLT: its dynamic-size factorization and triangular solves are blocked for
/// large matrices, and on the few-row joint systems S = D M⁻¹ Dᵀ of planar mechanisms (6 rows
/// for flores-translational) their set-up costs several times the arithmetic — a quarter of a
/// Moreau–Jean step there. These loops run over contiguous memory and multiply by stored
/// inverse pivots; L's rows are kept above its diagonal, so both triangular solves update
/// (x −= column · y) rather than sum on a chain. Storage is sized by resize(); compute() and
/// the solves allocate nothing.
///
/// Profile: when row i of S is zero left of column first[i], so is row i of L (no fill
/// outside the envelope [George & Liu 1981, ch. 4]). Column k of L is then zero below row
/// last[k] = max{i : first[i] ≤ k}, and the factorization and both solves skip those zeros: a
/// chain of joints, whose S is block tridiagonal, costs O(m b²) for bandwidth b instead of
/// O(m³). Only exact zeros are skipped, so the result is the full loops' bit for bit.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace stickslip::dynamics {

/// x[i] += y a[i] for begin ≤ i < end: no sum on a dependency chain, and in pairs from an
/// even i, so that each pair's load meets an earlier call's store of the same pair whole (a
/// load straddling two stores cannot be forwarded, and stalls).
inline void addScaled(double y, const double* __restrict a, double* __restrict x, Eigen::Index begin,
                      Eigen::Index end) {
  Eigen::Index i = begin;
  if (i % 2 == 1 && i < end) {
    x[i] += y * a[i];
    ++i;
  }
  for (; i + 1 < end; i += 2) {
    x[i] += y * a[i];
    x[i + 1] += y * a[i + 1];
  }
  if (i < end) x[i] += y * a[i];
}

class SmallCholesky {
 public:
  void resize(Eigen::Index n) {
    l_.setZero(n, n);
    inverse_pivots_.setZero(n);
    first_.setZero(n);
    last_.setConstant(n, n - 1);
  }
  Eigen::Index size() const { return l_.rows(); }

  /// The profile of the matrices compute() will take, kept until the next resize():
  /// `first` (size() entries): row i is zero left of column first[i] ≤ i; null: full rows
  /// (resize()'s).
  void setProfile(const Eigen::Index* first) {
    const Eigen::Index n = l_.rows();
    if (!first) {
      first_.setZero();
      last_.setConstant(n - 1);
      return;
    }
    for (Eigen::Index k = 0; k < n; ++k) last_[k] = k;
    for (Eigen::Index i = 0; i < n; ++i) {
      first_[i] = std::clamp<Eigen::Index>(first[i], 0, i);
      last_[first_[i]] = std::max(last_[first_[i]], i);
    }
    for (Eigen::Index k = 1; k < n; ++k) last_[k] = std::max(last_[k], last_[k - 1]);
  }

  /// Factors the lower triangle of `a` (size() × size(), within the profile). Returns false
  /// when a pivot is not positive (not numerically positive definite); that pivot and the
  /// columns after it are then 0.
  bool compute(const Eigen::Ref<const Eigen::MatrixXd>& a) {
    const Eigen::Index n = l_.rows();
    double* l = l_.data();
    for (Eigen::Index j = 0; j < n; ++j) {
      double* lj = l + j * n;  // column j; above the diagonal, row j of L (Lᵀ's column j)
      for (Eigen::Index i = 0; i < first_[j]; ++i) lj[i] = 0.0;
      for (Eigen::Index i = j; i < n; ++i) lj[i] = a(i, j);
      for (Eigen::Index k = first_[j]; k < j; ++k) {  // column j −= L(j, k) · column k, from row j
        const double* lk = l + k * n;
        const double ljk = lj[k] = lk[j];
        for (Eigen::Index i = j; i <= last_[k]; ++i) lj[i] -= lk[i] * ljk;
      }
      if (!(lj[j] > 0.0)) {
        l_.rightCols(n - j).setZero();
        return false;
      }
      const double pivot = std::sqrt(lj[j]), inverse = 1.0 / pivot;
      lj[j] = pivot;
      inverse_pivots_[j] = inverse;
      for (Eigen::Index i = j + 1; i <= last_[j]; ++i) lj[i] *= inverse;
    }
    return true;
  }

  /// The diagonal of L: its smallest entry against its largest measures the rank of S.
  auto pivots() const { return l_.diagonal(); }

  /// x ← S⁻¹ x, column by column (x has size() rows; a vector binds too).
  void solveInPlace(Eigen::Ref<Eigen::MatrixXd> x) const {
    const Eigen::Index n = l_.rows();
    const double* l = l_.data();
    const double* inverse = inverse_pivots_.data();
    const Eigen::Index* last = last_.data();
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      double* xc = x.data() + c * x.outerStride();
      for (Eigen::Index j = 0; j < n; ++j) {  // L y = x by L's columns
        const double y = xc[j] *= inverse[j];
        addScaled(-y, l + j * n, xc, j + 1, last[j] + 1);
      }
      for (Eigen::Index j = n - 1; j >= 0; --j) {  // Lᵀ z = y by L's rows (stored above it)
        const double z = xc[j] *= inverse[j];
        addScaled(-z, l + j * n, xc, first_[j], j);
      }
    }
  }

 private:
  Eigen::MatrixXd l_;
  Eigen::VectorXd inverse_pivots_;
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1> first_, last_;
};

}  // namespace stickslip::dynamics
