#pragma once
/// \file A uniform disk (radius r, mass m, inertia m r²/2) above the floor y = 0 under
/// gravity −y: one unilateral contact of the disk with the ground line (normal +y, tangent
/// +x), Newton restitution e and Coulomb friction (μs, μk). Reference behaviour:
///  - dropped from height y0 without friction, each impact multiplies the normal velocity by
///    −e and the kinetic energy by e²;
///  - started on the floor with ẋ0 = v0 and spin ω0 (counter-clockwise positive), friction
///    brings it to rolling without slipping (ẋ + r ω = 0) at ẋ = (2 v0 − r ω0) / 3: the
///    angular momentum about the contact point, J ω − m r ẋ, is conserved.

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {

struct BouncingBall {
  double radius = 0.1;                       ///< r [m], > 0
  double mass = 1.0;                         ///< m [kg], > 0
  double gravity = 9.81;                     ///< [m/s²], ≥ 0
  double restitution = 0.5;                  ///< e ∈ [0, 1]
  double mu_static = 0.0, mu_kinetic = 0.0;  ///< 0 ≤ μk ≤ μs
  double height = 1.0;                       ///< initial centre height y0 [m], ≥ r
  double velocity_x = 0.0;                   ///< ẋ0 [m/s]
  double velocity_y = 0.0;                   ///< ẏ0 [m/s]
  double spin = 0.0;                         ///< ω0 [rad/s], counter-clockwise positive

  /// Throws std::invalid_argument("BouncingBall: expected …, got …").
  void validate() const;
};

/// The built-in ball (mechanisms/scenarios/ball.yaml) with these values.
dynamics::RigidScenario bouncingBall(const BouncingBall& data = {});

}  // namespace stickslip::mechanisms
