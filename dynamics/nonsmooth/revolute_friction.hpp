#pragma once
/// \file Coulomb friction in an ideal revolute joint of a PlanarModel (Blajer & Markiewicz
/// eq. 2.4): with ṡ = θ̇_j − θ̇_i the relative rotation and R the joint's reaction force,
///   ṡ ≠ 0 ⇒ friction torque on j  T = −sign(ṡ) μk r |R|   (−T on i),
///   ṡ = 0 ⇒ |T| ≤ μs r |R|,
/// r the journal radius (Blajer writes the lever arm as d). The revolute joint's rows are
/// r_i + A_i s_i − r_j − A_j s_j = 0, so its two multipliers are the global components of
/// the force on j and |R| = ‖λ_joint‖. T enters the generalized forces as Cᵀ T with the row
/// C = ∂ṡ/∂v (+1 at θ_j, −1 at θ_i), constant, so s̈ = C v̇.
/// The friction depends on |R|, which depends on T through the joint's equations: the
/// event-driven formulation resolves the slip force by a fixed point on |R| and decides
/// stick or slip by trial and error (|R| is not linear, so the decision is not an LCP).

#include <string>

#include "dynamics/planar_model.hpp"

namespace stickslip::dynamics {

struct RevoluteFriction {
  std::string name = "joint friction";
  int joint = 0;              ///< index of a revolute joint in PlanarModel::joints()
  double radius = 0.0;        ///< r [m], > 0
  double mu_static = 0.0;     ///< μs ≥ μk
  double mu_kinetic = 0.0;    ///< μk ≥ 0

  /// Throws std::invalid_argument("<name>: expected …, got …").
  void validate(const PlanarModel& model) const;
  /// |R| from the model's multipliers λ [N].
  double reaction(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& lambda) const;
  /// ṡ = θ̇_j − θ̇_i = C v [rad/s].
  double rate(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& v) const;
  /// Adds s · C (the row of ṡ = θ̇_j − θ̇_i, size nv) to `row`.
  void addRow(const PlanarModel& model, double s, Eigen::Ref<Eigen::VectorXd> row) const;
};

}  // namespace stickslip::dynamics
