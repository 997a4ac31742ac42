#pragma once
/// \file flores-translational with the corners' compliance: the rigid model of
/// flores_translational.hpp, each corner contact given the normal law the penalty route makes
/// it compliant with (RigidContact::compliant_law) — Flores et al.'s dissipative Hertz law
/// with cₑ = the rigid model's restitution e. The nonsmooth routes ignore it.
///
/// Stiffness: the paper's rigid model has none; ours is K = 1e9 N/m^1.5 (a steel edge on a
/// flat, penetrations of a few µm at the impacts), stiff enough that the compliant motion
/// follows the rigid one (tests/mechanisms/flores_compliant_test.cpp measures how closely).

#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/flores_translational.hpp"

namespace stickslip::mechanisms {

struct FloresCompliant {
  FloresTranslational data;
  double stiffness = 1e9;  ///< K [N/m^n] of each corner contact, > 0
  double exponent = 1.5;   ///< n, ≥ 1
};

/// The scenario (file comment). Throws std::invalid_argument on invalid data.
dynamics::RigidScenario floresTranslationalCompliant(const FloresCompliant& f);

}  // namespace stickslip::mechanisms
