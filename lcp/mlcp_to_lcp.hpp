#pragma once
/// \file Mixed LCP → LCP by eliminating the free variables with the Schur complement of A.
///
/// For the MixedProblem (problem.hpp) A u + C v + a = 0, w = D u + B v + b, 0 ≤ w ⊥ v ≥ 0,
/// with A square and invertible [Cottle, Pang & Stone 1992, §1.5; Acary & Brogliato 2008, §12]:
///   u = −A⁻¹ (C v + a),
///   w = (B − D A⁻¹ C) v + (b − D A⁻¹ a)  =:  M v + q,
/// so v solves the MLCP iff it solves LCP(M, q); M is the Schur complement of A in
/// [[A, C], [D, B]]. If that block matrix is P (resp. PSD), so is M.
///
/// Errors: the reduction's constructor throws std::invalid_argument for a malformed problem,
/// for a non-square A ("… A is 3×2, expected square …") and for a singular or ill-conditioned
/// A ("… A is singular …", reciprocal condition below `min_rcond`), because no LCP in v
/// alone exists then. solveMlcpWithLemke() never throws: it reports the same cases as
/// Status::kInvalidInput with that message, like LemkeSolver::solve.

#include <Eigen/Dense>
#include <string>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

class MlcpReduction final {
 public:
  /// Factorizes A (LU with full pivoting) and forms M and q. Throws std::invalid_argument as
  /// described above; `min_rcond` bounds the estimated reciprocal condition number of A.
  explicit MlcpReduction(const MixedProblem& p, double min_rcond = 1e-12);

  /// LCP(M, q) in v.
  const Problem& lcp() const { return lcp_; }
  /// Estimated reciprocal condition number of A (1 = perfectly conditioned).
  double rcondA() const { return rcond_; }
  /// The factorization of A, reusable for other right-hand sides.
  const Eigen::FullPivLU<Eigen::MatrixXd>& factorizationA() const { return lu_; }

  struct Recovered {
    Eigen::VectorXd u, w;
  };
  /// u = −A⁻¹(C v + a) and w = M v + q for a given v (throws if v has the wrong size).
  Recovered recover(const Eigen::VectorXd& v) const;

 private:
  Eigen::FullPivLU<Eigen::MatrixXd> lu_;
  Eigen::MatrixXd Ainv_C_;  // A⁻¹ C
  Eigen::VectorXd Ainv_a_;  // A⁻¹ a
  Problem lcp_;
  double rcond_ = 0.0;
};

/// MLCP → LCP when A is square but singular (rank r < nᵤ), as in circuits whose equalities
/// leave some currents free. With the SVD A = U Σ Vᵀ split into its range (U₁, V₁) and null
/// (U₂, V₂) parts and A⁺ = V₁ Σ₁⁻¹ U₁ᵀ:
///   u = −A⁺(C v + a) + V₂ y,   y ∈ ℝᵏ free (k = nᵤ − r),
///   E v + e = 0  with E = T U₂ᵀ C, e = T U₂ᵀ a  (the equalities A cannot absorb),
///   w = (B − D A⁺ C) v + D V₂ y + (b − D A⁺ a).
/// Writing y = y⁺ − y⁻ and E v + e = 0 as the two complementarities
///   0 ≤ E v + e ⊥ y⁺ ≥ 0,   0 ≤ −(E v + e) ⊥ y⁻ ≥ 0
/// gives an LCP in z = (v, y⁺, y⁻) of size m + 2k whose solutions are exactly the MLCP's.
/// T (invertible, k×k) recombines the equality rows so that T U₂ᵀ C = −(D V₂)ᵀ where
/// possible: the coupling is then skew and the LCP PSD when B − D A⁺ C is (monotone
/// problems), which Lemke processes; otherwise T = I.
class MlcpNullSpaceReduction final {
 public:
  /// Throws std::invalid_argument for a malformed problem or a non-square A.
  explicit MlcpNullSpaceReduction(const MixedProblem& p);

  const Problem& lcp() const { return lcp_; }
  Eigen::Index rankA() const { return rank_; }
  /// Non-empty when the equalities contradict each other whatever v (no solution exists).
  const std::string& inconsistency() const { return inconsistency_; }

  /// (u, w) from an LCP solution z = (v, y⁺, y⁻) of lcp(); p is the reduced problem.
  MlcpReduction::Recovered recover(const Eigen::VectorXd& z, const MixedProblem& p) const;

 private:
  Eigen::MatrixXd null_basis_, pinv_C_;  // V₂, A⁺ C
  Eigen::VectorXd pinv_a_;               // A⁺ a
  Problem lcp_;
  Eigen::Index rank_ = 0;
  std::string inconsistency_;
};

/// Solves p with `lemke` through MlcpReduction when A is invertible (however badly scaled:
/// the residual check judges the result) and through MlcpNullSpaceReduction when A is
/// singular; recovers u and w.
/// Status: Lemke's, except kInvalidInput for a malformed problem or a non-square A (message
/// says why) and kNumericalFailure when the recovered (u, v) has a relative residual(MixedProblem)
/// above lemke.options().accept_tol (ill-conditioned A amplifies Lemke's round-off).
/// residual/relative_residual are always those of the original MLCP.
MixedResult solveMlcpWithLemke(const MixedProblem& p, LemkeSolver& lemke);

}  // namespace stickslip::lcp
