#pragma once
/// \file The joints' multipliers along a run, rebuilt from what it recorded: at every history
/// row (t, q, v) with the contacts' forces r (N_k, F_k) and the joint frictions' torques s,
///   λ = S⁻¹ (D M⁻¹ (Q + Jᵀ r + Cᵀ s) − γ̃)        (constrained_response.hpp, thesis sign:
/// −Dᵀλ is the joint force). These are the multipliers the event-driven route solved for at
/// that instant; the penalty route records its own. A driver's λ is the torque or force that
/// drives its coordinate (Zheng et al.'s λ1).

#include <Eigen/Dense>

#include "dynamics/mechanism/mechanism.hpp"
#include "dynamics/routes/run_result.hpp"

namespace stickslip::dynamics {

/// Whether jointMultiplierHistory() can rebuild `m`'s multipliers: joints to have them, and
/// every contact planar (its force the two recorded columns N, F along its two Jacobian rows).
bool rebuildsJointMultipliers(const Mechanism& m);

/// One row per history row, one column per joint row (m.multiplierName()), with the run's
/// Baumgarte constants α, β. The run's columns must hold t, q, v, every contact's "C.N", "C.F"
/// and every joint friction's "J.F". A singular S (a dead centre), or forces the run records as
/// indeterminate (NaN: a stuck loop), give NaN in that row. Throws
/// std::invalid_argument when rebuildsJointMultipliers(m) is false or a column is missing.
Eigen::MatrixXd jointMultiplierHistory(const Mechanism& m, const RunResult& run, double alpha, double beta);

}  // namespace stickslip::dynamics
