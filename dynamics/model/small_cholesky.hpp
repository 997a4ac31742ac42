#pragma once
/// \file Cholesky factorization S = L Lᵀ of a small dense symmetric positive definite matrix
/// and its solves, in plain loops.
///
/// Why not Eigen::LLT: its dynamic-size factorization and triangular solves are blocked for
/// large matrices, and on the few-row joint systems S = D M⁻¹ Dᵀ of planar mechanisms (6 rows
/// for flores-translational) their set-up costs several times the arithmetic — a quarter of a
/// Moreau–Jean step there. These loops run column by column over contiguous memory and
/// multiply by stored inverse pivots. Storage is sized by resize(); compute() and the
/// solves allocate nothing.

#include <Eigen/Core>
#include <cmath>

namespace stickslip::dynamics {

class SmallCholesky {
 public:
  void resize(Eigen::Index n) {
    l_.setZero(n, n);
    inverse_pivots_.setZero(n);
  }
  Eigen::Index size() const { return l_.rows(); }

  /// Factors the lower triangle of `a` (size() × size()). Returns false when a pivot is not
  /// positive (not numerically positive definite); that pivot and the columns after it are
  /// then 0.
  bool compute(const Eigen::Ref<const Eigen::MatrixXd>& a) {
    const Eigen::Index n = l_.rows();
    double* l = l_.data();
    for (Eigen::Index j = 0; j < n; ++j) {
      double* lj = l + j * n;  // column j
      for (Eigen::Index i = j; i < n; ++i) lj[i] = a(i, j);
      for (Eigen::Index k = 0; k < j; ++k) {  // column j −= L(j, k) · column k, from row j
        const double* lk = l + k * n;
        const double ljk = lk[j];
        for (Eigen::Index i = j; i < n; ++i) lj[i] -= lk[i] * ljk;
      }
      if (!(lj[j] > 0.0)) {
        l_.rightCols(n - j).setZero();
        return false;
      }
      const double pivot = std::sqrt(lj[j]), inverse = 1.0 / pivot;
      lj[j] = pivot;
      inverse_pivots_[j] = inverse;
      for (Eigen::Index i = j + 1; i < n; ++i) lj[i] *= inverse;
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
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      double* xc = x.data() + c * x.outerStride();
      for (Eigen::Index j = 0; j < n; ++j) {  // L y = x, column-oriented
        const double* lj = l + j * n;
        const double y = xc[j] *= inverse[j];
        for (Eigen::Index i = j + 1; i < n; ++i) xc[i] -= lj[i] * y;
      }
      for (Eigen::Index j = n - 1; j >= 0; --j) {  // Lᵀ z = y: column j of L is row j of Lᵀ
        const double* lj = l + j * n;
        double z = xc[j];
        for (Eigen::Index i = j + 1; i < n; ++i) z -= lj[i] * xc[i];
        xc[j] = z * inverse[j];
      }
    }
  }

 private:
  Eigen::MatrixXd l_;
  Eigen::VectorXd inverse_pivots_;
};

}  // namespace stickslip::dynamics
