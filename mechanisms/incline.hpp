#pragma once
/// \file A block on an incline of angle α under gravity, with Coulomb friction (μs, μk) and an
/// optional push P(t) along the slope (up the slope positive). From rest it sticks forever
/// iff tan α ≤ μs (no push); a time-varying push makes it alternate between stick and slip.
/// The block is a point mass whose centre touches the slope line through the origin
/// (unilateral contact, normal (−sin α, cos α), tangent up the slope).

#include <string>
#include <utility>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {

/// The built-in `incline` (mechanisms/scenarios/incline.yaml): α = 0.2 rad, μs = 0.4, μk = 0.3,
/// pushed along the slope by P(t) = P0 sin(Ω t) with P0 = 8 N, Ω = 2 rad/s.
struct Incline {
  double mass = 1.0;         ///< [kg], > 0
  double angle = 0.2;        ///< α [rad], in (−π/2, π/2)
  double gravity = 9.81;     ///< [m/s²], ≥ 0
  double mu_static = 0.4, mu_kinetic = 0.3;
  double push_amplitude = 8.0;  ///< P0 [N], up the slope positive; 0: no push
  double push_frequency = 2.0;  ///< Ω [rad/s], > 0
  void validate() const;  ///< throws std::invalid_argument
};

/// The built-in incline with these values.
dynamics::RigidScenario inclineRigid(const Incline& incline = {});
/// The values of a mechanism loaded from incline.yaml; throws std::invalid_argument when it
/// lacks one.
Incline inclineOf(const dynamics::RigidScenario& s);

/// Mode changes up to t_end by coulombReference (f = P − m g sin α, N = m g cos α); slip+ is
/// up the slope.
std::vector<std::pair<double, std::string>> inclineReference(double t_end, const Incline& incline = {});

}  // namespace stickslip::mechanisms
