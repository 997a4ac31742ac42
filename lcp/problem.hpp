#pragma once
/// \file The complementarity problems stickslip poses and solves.
///
/// Every problem owns its Eigen data (dense, or sparse where named so) and checks itself with validate(), which throws
/// std::invalid_argument naming the problem, what was expected and what arrived.

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <string>
#include <string_view>

namespace stickslip::lcp {

/// LCP(M, q): find z with w = M z + q, z ≥ 0, w ≥ 0, zᵀw = 0.
/// M is n×n, q has n entries. A unique solution exists for every q iff M is a P-matrix;
/// Lemke processes every copositive-plus M (e.g. PSD) [Cottle, Pang & Stone 1992, §4.4].
struct Problem {
  Eigen::MatrixXd M;
  Eigen::VectorXd q;
  Eigen::Index size() const { return q.size(); }
  /// Throws std::invalid_argument if M is not n×n with n = q.size() or has NaN/Inf entries.
  void validate(std::string_view who = "lcp::Problem") const;
};

/// Mixed LCP in Siconos' (A, B, C, D, a, b) form, u ∈ ℝⁿᵘ free, v ∈ ℝᵐ:
///   A u + C v + a = 0                        (A is nₑ×nᵤ: equality rows)
///   w = D u + B v + b,   0 ≤ w ⊥ v ≥ 0        (B is m×m)
/// The Schur reduction (mlcp_to_lcp.hpp) needs A square and invertible.
struct MixedProblem {
  Eigen::MatrixXd A, B, C, D;
  Eigen::VectorXd a, b;
  Eigen::Index freeSize() const { return A.cols(); }
  Eigen::Index equalitySize() const { return A.rows(); }
  Eigen::Index complementaritySize() const { return B.rows(); }
  void validate(std::string_view who = "lcp::MixedProblem") const;
};

/// Horizontal LCP: A z + B w = q, z ≥ 0, w ≥ 0, zᵀw = 0, with A, B n×n [Zhuang & Wang].
/// Arises for friction in translational joints with tiny clearance (DESIGN.md §2).
struct HorizontalProblem {
  Eigen::MatrixXd A, B;
  Eigen::VectorXd q;
  Eigen::Index size() const { return q.size(); }
  void validate(std::string_view who = "lcp::HorizontalProblem") const;
};

/// Planar frictional contact with nc contacts, u = W r + q, unknowns ordered per contact
/// i as (normal 2i, tangent 2i+1), as in Siconos' fc2d:
///   0 ≤ uₙ ⊥ rₙ ≥ 0,   |rₜ| ≤ μᵢ rₙ,   uₜ ≠ 0 ⇒ rₜ = −μᵢ rₙ sign(uₜ).
/// W is the 2nc×2nc Delassus matrix (symmetric PSD when it comes from a mechanism).
struct FrictionProblem2D {
  Eigen::MatrixXd W;
  Eigen::VectorXd q;
  Eigen::VectorXd mu;
  Eigen::Index contacts() const { return mu.size(); }
  void validate(std::string_view who = "lcp::FrictionProblem2D") const;
};

/// FrictionProblem2D with W stored sparse (row-major: a contact's local problem reads its
/// two rows). Memory grows with nnz(W).
struct SparseFrictionProblem2D {
  using Matrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
  Matrix W;
  Eigen::VectorXd q;
  Eigen::VectorXd mu;
  /// The last so many blocks are bilateral: a mechanism's joint rows, u = 0 with r free, their μ
  /// unused (planar_newton.hpp). Only solveFrictionNewton takes them.
  Eigen::Index bilateral = 0;
  Eigen::Index contacts() const { return mu.size(); }
  /// Throws std::invalid_argument: W not 2nc × 2nc with 2nc = q.size(), μ < 0, NaN/Inf,
  /// bilateral outside [0, nc].
  void validate(std::string_view who = "lcp::SparseFrictionProblem2D") const;
};

/// W's nonzeros by rows into `out`, whose storage is reused (Eigen's sparseView into
/// row-major storage goes through a transposed copy).
void compressRows(const Eigen::MatrixXd& W, SparseFrictionProblem2D::Matrix& out);

/// Spatial frictional contact with nc contacts, u = W r + q, unknowns ordered per contact
/// i as (normal 3i, tangents 3i+1, 3i+2), as in Siconos' fc3d; the Coulomb cone
/// K_i = {‖rₜ‖ ≤ μᵢ rₙ} and, with De Saxcé's modified velocity ûᵢ = uᵢ + (μᵢ‖uₜ‖, 0, 0),
///   K_i ∋ rᵢ ⊥ ûᵢ ∈ K_i*:   uₙ ≥ 0, rₙ ≥ 0, uₙ rₙ = 0; stick uₜ = 0, ‖rₜ‖ ≤ μ rₙ;
///   slip rₜ = −μ rₙ uₜ/‖uₜ‖.
struct FrictionProblem3D {
  Eigen::MatrixXd W;
  Eigen::VectorXd q;
  Eigen::VectorXd mu;
  Eigen::Index contacts() const { return mu.size(); }
  /// Throws std::invalid_argument: W not 3nc × 3nc, q not of size 3nc, μ < 0, NaN/Inf.
  void validate(std::string_view who = "lcp::FrictionProblem3D") const;
};

/// What validate() accepts but a Delassus matrix W = H M⁻¹ Hᵀ never is: W non-symmetric,
/// ‖W − Wᵀ‖∞ > kDelassusSymmetryTol ‖W‖∞, or its symmetric part S indefinite,
/// λ_min(S) < −kDelassusDefinitenessTol ‖W‖∞. Such a problem may have no solution, or
/// several; the solvers still answer it, with status and residual, and this says why to
/// distrust it. Siconos' fc3d collection stays well within both: asymmetry up to 4.6e-4
/// (Capsules-i100-889) and λ_min down to −2.7e-8 ‖W‖∞ (Confeti-ex13), the round-off of
/// their printed digits. Returns "" or the warning; p must be valid. Cost O(n³): one
/// Cholesky of S + τ‖W‖∞ I, eigenvalues only when it fails.
std::string delassusWarning(const FrictionProblem3D& p);
inline constexpr double kDelassusSymmetryTol = 1e-2;
inline constexpr double kDelassusDefinitenessTol = 1e-6;

}  // namespace stickslip::lcp
