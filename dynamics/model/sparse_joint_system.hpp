#pragma once
/// \file The joints' system of a mechanism with many joints, kept sparse: D = Φq H in compressed
/// rows on the pattern the model gives (MultibodySystem::jacobianPattern), and
///   S = D M⁻¹ Dᵀ   (M diagonal),
/// whose entry (r, s) is nonzero only when rows r and s share a velocity column — two joints on
/// a common body. The pattern of S, and for each of its entries the pairs of D's entries whose
/// products make it, are found once; an update fills D, scales it by M⁻¹ and sums those products
/// (O(nnz(D) · joints per body)), and factors S by KLU (lcp/sparse_lu.hpp), whose ordering is
/// analysed once and whose factors are recomputed in place while the pivot order holds. For a
/// chain S is banded and an update costs O(m) where the dense Cholesky costs O(m³).
///
/// Contract: update() returns false when S is numerically singular (KLU's pivot ratio below
/// kSingularPivotRatio, or a zero pivot): a dead centre or redundant joints. The products and
/// solve() allocate nothing; update() allocates only when KLU picks fresh pivots.

#include <Eigen/Dense>
#include <vector>

#include "dynamics/model/model_system.hpp"
#include "lcp/sparse_lu.hpp"

namespace stickslip::dynamics {

/// S is taken as singular below this ratio of KLU's smallest to largest pivot (the dense path's
/// Cholesky pivots, the square roots of these, below 1e-6 of the largest).
inline constexpr double kSingularPivotRatio = 1e-12;

class SparseJointSystem {
 public:
  /// Reads the model's pattern (it must give one) and M⁻¹'s diagonal (it must have one).
  explicit SparseJointSystem(const MultibodySystem& model);

  /// Φ and D at (t, q), then S and its factors. False when S is singular (pivotRatio()).
  bool update(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> phi);
  double pivotRatio() const { return pivot_ratio_; }

  /// out = D x (x of size nv, out of size m).
  void multiplyD(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const;
  /// out += scale · M⁻¹ Dᵀ y (y of size m, out of size nv).
  void addInverseMassDt(double scale, const Eigen::Ref<const Eigen::VectorXd>& y, Eigen::Ref<Eigen::VectorXd> out) const;
  /// x ← S⁻¹ x (size m), at the last successful update().
  void solve(Eigen::Ref<Eigen::VectorXd> x);
  /// Row r of D at the last update: its columns (ascending) and values.
  struct Row {
    const int* cols;
    const double* values;
    int size;
  };
  Row row(Eigen::Index r) const {
    const int begin = d_outer_[std::size_t(r)];
    return {d_inner_.data() + begin, d_values_.data() + begin, d_outer_[std::size_t(r) + 1] - begin};
  }
  /// D as a dense matrix, for failure messages.
  Eigen::MatrixXd dense() const;

 private:
  int rows() const { return static_cast<int>(d_outer_.size()) - 1; }

  const MultibodySystem& model_;
  const Eigen::VectorXd& inverse_mass_;
  Eigen::Index nv_ = 0;
  std::vector<int> d_outer_, d_inner_;  ///< D's pattern, compressed rows
  std::vector<double> d_values_, minv_d_values_;  ///< D and D M⁻¹ on that pattern
  std::vector<int> s_outer_, s_inner_;  ///< S's pattern, compressed rows (both triangles)
  std::vector<double> s_values_;
  /// Entry e of S is Σ d_values_[a] · minv_d_values_[b] over the pairs (a, b) at
  /// term_a_/term_b_[term_outer_[e] … term_outer_[e + 1]).
  std::vector<int> term_outer_, term_a_, term_b_;
  lcp::SparseLu lu_;
  double pivot_ratio_ = 0.0;
};

}  // namespace stickslip::dynamics
