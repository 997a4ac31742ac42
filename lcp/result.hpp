#pragma once
/// \file What a solve returns: status, solution, work done and the residual of the answer.

#include <Eigen/Dense>
#include <limits>
#include <string>

#include "lcp/status.hpp"

namespace stickslip::lcp {

/// Outcome of an LCP (or HLCP) solve. z and w always have the problem's size: a failed
/// direct solver leaves them zero (except on kNumericalFailure from a residual check, where
/// they hold the rejected candidate whose residual is reported); an iterative solver keeps
/// its last iterate.
struct Result {
  Status status = Status::kNotRun;
  Eigen::VectorXd z, w;
  int pivots = 0;  ///< complementary pivots (Lemke) or iterations (iterative solvers)
  /// ‖min(z, Mz+q)‖∞, recomputed by us for every backend (residual.hpp).
  double residual = std::numeric_limits<double>::quiet_NaN();
  /// residual / max(‖q‖∞, ‖M‖∞‖z‖∞): scale-free, comparable across problems.
  double relative_residual = std::numeric_limits<double>::quiet_NaN();
  double zero_tol_used = 0.0;  ///< pivot tolerance actually applied
  std::string message;         ///< why, when status is not kSuccess
  bool ok() const { return status == Status::kSuccess; }
};

/// Outcome of a mixed LCP solve (u free, v and w complementary).
struct MixedResult {
  Status status = Status::kNotRun;
  Eigen::VectorXd u, v, w;
  int pivots = 0;
  /// max(‖A u + C v + a‖∞, ‖min(v, w)‖∞) with w = D u + B v + b.
  double residual = std::numeric_limits<double>::quiet_NaN();
  double relative_residual = std::numeric_limits<double>::quiet_NaN();
  std::string message;
  bool ok() const { return status == Status::kSuccess; }
};

/// Outcome of a planar frictional contact solve: reactions r and velocities u = W r + q.
struct FrictionResult {
  Status status = Status::kNotRun;
  Eigen::VectorXd r, u;
  int pivots = 0;
  /// Natural-map residual of the Coulomb conditions (residual.hpp).
  double residual = std::numeric_limits<double>::quiet_NaN();
  double relative_residual = std::numeric_limits<double>::quiet_NaN();
  std::string message;
  /// Set by lcp::solveFriction: the solver that produced r (for "auto", the one it chose).
  std::string solver;
  /// Set by lcp::solveFriction for spatial problems whose W is suspect (lcp::delassusWarning),
  /// whatever the status: a success is still one whose residual was checked.
  std::string warning;
  bool ok() const { return status == Status::kSuccess; }
};

}  // namespace stickslip::lcp
