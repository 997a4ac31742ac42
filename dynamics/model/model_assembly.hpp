#pragma once
/// \file Kinematic assembly: consistent initial positions and velocities.
///
/// The user fixes some coordinates (the independent ones, by velocity index; for planar
/// models coordinate and velocity indices coincide) and gives a guess for the others.
/// Positions: Newton on Φ(q, t) = 0 over the free coordinates only (thesis §2.2, Eq. 2.12;
/// Nikravesh §4.4),
///   D_f δ = −Φ(q),   q ← q + H δ (δ zero on the held coordinates),
/// with D_f the columns of D for the free coordinates. If D_f is square this is the classic
/// Newton–Raphson step; with more free coordinates than constraints it takes the
/// minimum-norm step. Velocities then solve Φ̇ = D v + Φt = 0 (Eq. 2.13) for the free
/// velocities with the held ones as given, by the minimum-norm correction of the given free
/// velocities:  D_f δv_f = −Φt − D v,  v_f ← v_f + δv_f (a velocity the joints allow, such as
/// a wheel's spin about its axle, is kept even when it is not held).
/// A rank-deficient D_f (a singular configuration, or redundant constraints among the free
/// coordinates) is reported as AssemblyStatus::kSingular, naming the rank found.

#include <Eigen/Dense>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/model/model_system.hpp"

namespace stickslip::dynamics {

enum class AssemblyStatus {
  kSuccess,        ///< ‖Φ‖∞ ≤ position_tol and ‖D v + Φt‖∞ ≤ velocity_tol
  kNotConverged,   ///< Newton reached max_iterations (or diverged) before position_tol
  kSingular,       ///< D_f rank-deficient at the current iterate: no unique Newton step
};
std::string_view toString(AssemblyStatus s);

struct AssemblyOptions {
  double position_tol = 1e-13;  ///< on ‖Φ‖∞ [m or rad]
  double velocity_tol = 1e-13;  ///< on ‖D v + Φt‖∞
  int max_iterations = 50;
  double rank_tol = 1e-10;      ///< relative pivot threshold for the rank of D_f
};

struct AssemblyResult {
  AssemblyStatus status = AssemblyStatus::kNotConverged;
  int iterations = 0;
  double position_residual = 0.0;  ///< ‖Φ(q, t)‖∞ at the returned q
  double velocity_residual = 0.0;  ///< ‖D v + Φt‖∞ at the returned (q, v)
  Eigen::Index rank = 0;           ///< rank of D_f at the last factorization
  std::string message;
  bool ok() const { return status == AssemblyStatus::kSuccess; }
};

/// Assembles q (in place, from the guess) and v (in place; held entries kept) at time t.
/// `held` lists velocity indices whose coordinate and velocity are kept. Throws
/// std::invalid_argument on wrong sizes or an out-of-range / repeated index.
AssemblyResult assemble(const MultibodySystem& system, double t, const std::vector<Eigen::Index>& held,
                        Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v,
                        const AssemblyOptions& options = {});

}  // namespace stickslip::dynamics
