#pragma once
/// \file Nonsmooth Gauss–Seidel (NSGS) for planar frictional contact on a sparse Delassus
/// matrix (Jean & Moreau 1992; Acary & Brogliato 2008, §13.4): the solver whose cost grows
/// with the contacts' coupling, nnz(W) per sweep, where Lemke's grows with (2 nc)².
///
/// Problem (as FrictionProblem2D, W sparse): u = W r + q, per contact i (rows 2i normal,
/// 2i+1 tangent) 0 ≤ uₙ ⊥ rₙ ≥ 0, |rₜ| ≤ μᵢ rₙ, uₜ ≠ 0 ⇒ rₜ = −μᵢ rₙ sign(uₜ).
///
/// A sweep visits the contacts in order. Contact i, the others' reactions fixed, has the
/// local problem u_i = W_ii r_i + b_i with b_i = q_i + Σ_{j≠i} W_ij r_j (its two rows of W
/// times r), solved exactly: open (r_i = 0) when b_n ≥ 0, else sticking (W_ii r_i = −b_i)
/// when that reaction lies in the cone, else slipping on the edge r_t = ∓μ r_n whose
/// sliding agrees with its sign; a local problem none of these solves (W_ii singular or
/// not positive) ends the solve with kNumericalFailure naming the contact.
///
/// Stopping rule: Siconos' fc2d error measure (fc2dError below) ≤ tolerance, evaluated after
/// each sweep; kPivotLimit after max_sweeps. FrictionResult::pivots counts the sweeps,
/// residual and relative_residual are that measure unnormalized and normalized. A warm start
/// (r from the previous time step) is taken when given.

#include <Eigen/Sparse>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

/// FrictionProblem2D with W stored sparse (row-major: a contact's local problem reads its
/// two rows). Memory grows with nnz(W).
struct SparseFrictionProblem2D {
  Eigen::SparseMatrix<double, Eigen::RowMajor> W;
  Eigen::VectorXd q;
  Eigen::VectorXd mu;
  Eigen::Index contacts() const { return mu.size(); }
  /// Throws std::invalid_argument: W not 2nc × 2nc with 2nc = q.size(), μ < 0, NaN/Inf.
  void validate(std::string_view who = "lcp::SparseFrictionProblem2D") const;
};

struct NsgsOptions {
  double tolerance = 1e-12;  ///< on fc2dError, > 0
  int max_sweeps = 100000;   ///< ≥ 1
};

FrictionResult solveFrictionNsgs(const SparseFrictionProblem2D& p, const NsgsOptions& options = {},
                                 const Eigen::VectorXd* warm_start = nullptr);

/// Siconos' error measure for planar friction (fc2d_compute_error, Acary & Brogliato 2008,
/// A.13): per contact the distance from r to its projection on the cone K of
/// r − (u + μ|uₜ| eₙ) (De Saxcé and Feng's modified velocity, ρ = 1), in the 2-norm over the
/// contacts, divided by max(‖r‖, ‖u‖, ‖q‖) when that exceeds machine ε. Zero iff r solves
/// the problem with u = W r + q.
double fc2dError(const Eigen::VectorXd& r, const Eigen::VectorXd& u, const Eigen::VectorXd& mu,
                 double q_norm);

}  // namespace stickslip::lcp
