#pragma once
/// \file flores-translational on the regularized route: the slider's four corners as
/// compliant point-on-line contacts against the guide's walls (penalty_contact.hpp), with
/// Flores et al.'s dissipative Hertz law (cₑ = the rigid model's restitution e) and a
/// regularized friction law of the catalogue, integrated with the ideal revolutes as one ODE.
///
/// Stiffness: the paper's rigid model has none; ours is K = 1e9 N/m^1.5 (a steel edge on a
/// flat, penetrations of a few µm at the impacts), stiff enough that the compliant motion
/// follows the rigid one (tests/mechanisms/flores_compliant_test.cpp measures how closely).

#include <memory>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/penalty_contact.hpp"
#include "mechanisms/flores_translational.hpp"

namespace stickslip::mechanisms {

struct FloresCompliant {
  FloresTranslational data;
  double stiffness = 1e9;  ///< K [N/m^n] of each corner contact, > 0
  double exponent = 1.5;   ///< n, ≥ 1
};

/// The model and its penalty system (the system refers to the model: keep them together).
struct FloresPenaltySystem {
  std::unique_ptr<dynamics::PlanarModel> model;
  std::unique_ptr<dynamics::PenaltySystem> system;
  Eigen::VectorXd y0;  ///< [q; v; z] at t = 0, from floresTranslational()'s q0, v0
};

/// `friction` null: frictionless corners. Throws std::invalid_argument on invalid data.
FloresPenaltySystem floresTranslationalPenalty(
    const FloresCompliant& f, std::shared_ptr<const dynamics::FrictionLaw> friction);

}  // namespace stickslip::mechanisms
