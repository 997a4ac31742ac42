#pragma once
/// \file Fixed-step RK4 time loop for the constrained equations of motion (thesis §2.4).
///
/// Each step integrates y = [q; v] with ẏ = [H v; v̇(t, q, v)] (EomSolver::derivative) by
/// Rk4, then sets the Euler parameters' unit norm back (MultibodySystem::normalizePositions)
/// and applies the method's post-step projection (EomSolver::project: coordinate
/// partitioning, direct correction). The run stops at the first step whose EOM solve or
/// projection fails, reporting that status and the time reached.

#include <Eigen/Dense>
#include <functional>
#include <string>

#include "dynamics/model/eom_solver.hpp"

namespace stickslip::dynamics {

struct EomRunResult {
  EomStatus status = EomStatus::kSuccess;
  double t = 0.0;  ///< time reached (t_end on success)
  long steps = 0;  ///< steps completed
  std::string message;  ///< on failure: EomSolver::failure() (time, method, joint rows)
  bool ok() const { return status == EomStatus::kSuccess; }
};

/// Called at t0 and after every completed step with the (projected) state.
using EomObserver = std::function<void(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v)>;

/// Integrates from (t0, q, v) to t_end in ⌈(t_end − t0)/h⌉ equal steps (the step is shortened
/// so the last one ends exactly at t_end); q and v are updated in place. Throws
/// std::invalid_argument on wrong sizes, h ≤ 0 or t_end < t0.
EomRunResult integrateRk4(EomSolver& solver, double t0, double t_end, double h,
                          Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v,
                          const EomObserver& observer = {});

}  // namespace stickslip::dynamics
