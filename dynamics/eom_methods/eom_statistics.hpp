#pragma once
/// \file What the thesis compares between EOM methods (§2.4, Figs. 2.7–2.10): constraint
/// violation at position and velocity level, energy drift and CPU time over one RK4 run.

#include <Eigen/Dense>

#include "dynamics/eom_methods/eom_integration.hpp"
#include "dynamics/model/model_system.hpp"

namespace stickslip::dynamics {

struct EomRunStatistics {
  EomRunResult run;
  double max_phi = 0.0;      ///< max over the run of ‖Φ‖₂
  double max_phi_dot = 0.0;  ///< max of ‖D v + Φt‖₂
  double max_drift = 0.0;    ///< max |E − E0| [J], E = T + V (thesis Eq. 2.103)
  double final_drift = 0.0;  ///< E(t_end) − E0 [J]
  double max_lambda = 0.0;   ///< max ‖λ‖₂ seen after a step
  /// The most EomSolver::lastIterations() after a step: the position projection's Newton
  /// iterations (direct correction, coordinate partitioning), the augmented Lagrangian's own.
  int max_iterations = 0;
  double cpu_seconds = 0.0;  ///< the least wall time of the timed runs of the loop alone (NaN without)
  /// With a sample step: one row (t, ΦᵀΦ, Φ̇ᵀΦ̇, E − E0) at t = 0 and at the first step that
  /// reaches each multiple of it — the thesis' Figs. 2.7–2.9 as histories; empty without.
  Eigen::MatrixXd series;
};

/// Unobserved runs timed per method: the least of them is the one the machine's load hit least.
inline constexpr int kTimedRuns = 3;

/// Integrates `system` from (0, q0, v0) to t_end with `method` and RK4 step h, recording the
/// statistics above after every step (and the series every sample_dt > 0 seconds), then times the
/// same run without recording (`timed_runs` times). Throws as integrateRk4 does.
EomRunStatistics runWithStatistics(const MultibodySystem& model, const Eigen::VectorXd& q0,
                                   const Eigen::VectorXd& v0, EomMethod method, double h,
                                   double t_end, const EomOptions& options = {}, double sample_dt = 0.0,
                                   int timed_runs = kTimedRuns);

}  // namespace stickslip::dynamics
