#pragma once
/// \file Nonsmooth Gauss–Seidel on the round Coulomb cone (spatial friction, FrictionProblem3D):
/// each contact's 3×3 problem solved exactly in turn (friction_cone.hpp: open, stick or slip),
/// the others' reactions fixed (Jean & Moreau 1992; Acary & Brogliato 2008, §13.4).
///
/// Contact i's local problem is u_i = W_ii r_i + b_i, b_i = q_i + Σ_{j≠i} W_ij r_j. Where no mode
/// solves it exactly (W_ii singular, or far from positive), a few proximal steps stand in:
/// r_i ← the exact solution of (W_ii + σI, b_i − σ r_i), σ = ‖W_ii‖∞, whose fixed points are the
/// local problem's solutions. A contact whose block is zero while it is pushed in (bₙ < 0) has
/// no solution: the solve ends with kNumericalFailure naming it.
///
/// Stopping rule: Siconos' fc3d error (fc3dError) ≤ tolerance after a sweep, the normal rows
/// holding on their own scale too (contact_blocks.hpp: normalViolation); kPivotLimit after
/// max_sweeps. Cost per sweep: the blocks of W, plus one 4×4 eigenvalue problem per slipping
/// contact.

#include <Eigen/Dense>

#include "lcp/contact_blocks.hpp"
#include "lcp/status.hpp"

namespace stickslip::lcp {

class Nsgs3dSolver {
 public:
  struct Outcome {
    Status status = Status::kNotRun;  ///< kSuccess, kPivotLimit or kNumericalFailure
    int sweeps = 0;
    double error = 0.0;                ///< fc3dError at the end
    Eigen::Index failed_contact = -1;  ///< kNumericalFailure: the contact without a local solution
  };
  /// r: the first iterate (a warm start, or zeros), returns the last; u returns W r + q.
  /// Sizes are the caller's to check: W 3nc × 3nc, q 3nc, μ nc. Allocates nothing.
  Outcome solve(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance, int max_sweeps,
                Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u);

 private:
  Eigen::VectorXd terms_;  ///< normalViolation's workspace
};

/// Contact i's exact local step (the proximal steps where no mode applies); false when the
/// contact has no solution.
bool solveContactOrProximal(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu, Eigen::Vector3d& r);

}  // namespace stickslip::lcp
