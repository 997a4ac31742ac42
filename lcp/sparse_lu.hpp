#pragma once
/// \file A sparse LU factorization for a sequence of square systems whose pattern recurs (Newton's
/// Jacobians between changes of the contacts' modes): KLU (SuiteSparse; Davis & Palamadai
/// Natarajan 2010), its ordering analysed once per pattern, the factors recomputed in place with
/// the last pivot order (klu_refactor) while that order stays sound, else factored afresh.
///
/// Contract: factor(n, outer, inner, values, fresh_pivots) with A (n × n) in compressed rows, each
/// row's columns ascending (it compares A's pattern with the last one's itself). With the same
/// pattern it refactors in place; where the last pivot order fails (a zero pivot, or a condition
/// estimate below kRefactorRcond) it factors with fresh pivots only if fresh_pivots, else returns
/// false and leaves that to the caller. solve(x) overwrites x = b with A⁻¹ b. Both return false
/// when A is singular to working precision. No allocation while the pattern and the pivot order
/// hold (KLU allocates in its analysis and in a factorization with fresh pivots).
/// KLU reads compressed columns: the rows of A are the columns of Aᵀ, which it factors, and
/// solves with the transpose.

#include <Eigen/Dense>
#include <memory>
#include <vector>

namespace stickslip::lcp {

class SparseLu {
 public:
  SparseLu();
  ~SparseLu();
  SparseLu(SparseLu&&) noexcept;
  SparseLu& operator=(SparseLu&&) noexcept;

  bool factor(int n, const int* outer, const int* inner, const double* values, bool fresh_pivots = true);
  bool solve(Eigen::Ref<Eigen::VectorXd> x);
  /// KLU's reciprocal condition estimate min |Uᵢᵢ| / max |Uᵢᵢ| of the last factorization (0 without one).
  double pivotRatio();

 private:
  struct Klu;
  std::unique_ptr<Klu> klu_;
  std::vector<int> outer_, inner_;  ///< the pattern KLU analysed
};

/// Below this reciprocal condition estimate (KLU's min |Uᵢᵢ| / max |Uᵢᵢ|) the refactored LU is
/// discarded and A factored with fresh pivots.
inline constexpr double kRefactorRcond = 1e-12;

}  // namespace stickslip::lcp
