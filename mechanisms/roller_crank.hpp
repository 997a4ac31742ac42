#pragma once
/// \file The planar roller–crank mechanism of Marques, Flores, Claro & Lankarani 2018 (review
/// §4, Tables 1–3): crank, connecting rod and roller, with friction at the roller–ground
/// contact only.
///
/// Model (absolute coordinates, planar_model.hpp): three bodies, revolutes ground–crank (at the
/// origin), crank–rod and rod–roller (at the roller's centre), and the roller (a disk of radius
/// R) on the ground line y = h − R by a bilateral contact, which keeps its centre at height h.
/// 9 coordinates, 6 joint rows and the contact: 2 DoF, the loop and the roller's spin. Gravity
/// along −y.
///
/// The contact's normal force is the reaction that holds the roller on the line; its sliding
/// velocity that of the roller's material point, v_s = ẋ_r + R θ̇_r. The review's regularized
/// route is the penalty route's guide (dynamics/routes/penalty/penalty_route.hpp): an ideal point-on-line joint
/// with the friction law applied to its reaction, F = law(v_s, |N|), the loop F ↔ N solved
/// exactly at every evaluation (dynamics/routes/penalty/penalty_system.hpp). For LuGre with a load-independent
/// σ1 that loop can have three roots; as N falls the physical one merges with a second and
/// vanishes (a fold, t ≈ 0.28 s with Table 2's start): the solution then jumps to a remote
/// root, where F/N ≫ μs (review Fig. 7f). The nonsmooth routes take the same contact with
/// set-valued Coulomb at μs, μk. What a run shows, as the review's Table 4 reports it:
/// roller_crank_analysis.hpp.

#include <Eigen/Dense>
#include <string>

#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/contact/rigid_contact.hpp"
#include "dynamics/model/planar_model.hpp"

namespace stickslip::mechanisms {

/// Data of review Tables 1–2 (lengths, masses, inertias about the centroids).
struct RollerCrank {
  double crank_length = 0.10, crank_mass = 0.12, crank_inertia = 0.002;  ///< [m], [kg], [kg·m²]
  double rod_length = 0.30, rod_mass = 0.30, rod_inertia = 0.002;
  double roller_radius = 0.05, roller_mass = 0.10, roller_inertia = 0.001;
  double roller_height = 0.10;  ///< h: height of the roller's centre (Table 2) [m], > R
  double gravity = 9.81;        ///< along −y [m/s²], ≥ 0
  double crank_angle = 1.5707963267948966;  ///< θ₁(0) (Table 2: π/2) [rad]
  double crank_rate = 4.0;                  ///< θ̇₁(0), anticlockwise [rad/s]
  double baumgarte_alpha = 5.0, baumgarte_beta = 5.0;  ///< [1/s], ≥ 0 (review eq. 17)

  /// Throws std::invalid_argument("RollerCrank: expected …, got …").
  void validate() const;
};

/// Review Table 3: μs = 0.15, μk = 0.1, vs = 1 mm/s, δσ = 2, σ0 = 1e5 N/m, σ1 = √1e5 N·s/m,
/// σ2 = 0; the dry contact has no viscous term (Fv = 0, review §2). Other fields: the
/// catalogue defaults.
dynamics::FrictionParameters rollerCrankFrictionParameters();

/// The mechanism every route runs: the roller's height held by a bilateral contact of the
/// roller (a disk of radius R) on the ground line y = h − R with Table 3's μs, μk — set-valued
/// Coulomb for the nonsmooth routes; the penalty route keeps it a constraint with the friction
/// law on its reaction (dynamics/routes/penalty/penalty_route.hpp), the review's formulation. Rolling at the
/// start with θ̇₁ given (review Table 2 for the default data); the joints with the review's
/// Baumgarte terms. The built-in roller-crank (mechanisms/scenarios/roller-crank.yaml) with
/// these values.
dynamics::RigidScenario rollerCrankRigid(const RollerCrank& rc);
/// The values of a mechanism loaded from roller-crank.yaml; throws std::invalid_argument when
/// it lacks one.
RollerCrank rollerCrankOf(const dynamics::RigidScenario& s);

}  // namespace stickslip::mechanisms
