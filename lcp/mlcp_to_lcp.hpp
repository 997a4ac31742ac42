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

/// Reduces p with MlcpReduction, solves the LCP in v with `lemke` and recovers u and w.
/// When A is square but singular or ill-conditioned and K = [[A, C], [D, B]] is invertible,
/// it uses the other exact reduction instead: (u, v) = K⁻¹((0, w) − (a, b)) makes
///   v = (K⁻¹)ᵥᵥ w − (K⁻¹ (a, b))ᵥ,   0 ≤ w ⊥ v ≥ 0,
/// an LCP in w (its matrix is the inverse of the Schur complement when both exist). If K
/// fails too, a badly scaled but full-rank A is still reduced by its Schur complement; either
/// way the answer must pass the MLCP residual check below.
/// Status: Lemke's, except kInvalidInput when no reduction applies (message says why)
/// and kNumericalFailure when the recovered (u, v) has a relative residual(MixedProblem)
/// above lemke.options().accept_tol (ill-conditioned A amplifies Lemke's round-off).
/// residual/relative_residual are always those of the original MLCP.
MixedResult solveMlcpWithLemke(const MixedProblem& p, LemkeSolver& lemke);

}  // namespace stickslip::lcp
