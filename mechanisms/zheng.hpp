#pragma once
/// \file The slider-crank with a revolute clearance joint of Zheng, Zhang & Wang (2018),
/// Examples I–III, with the data of DESIGN.md §7 (the extracted paper lost its values):
/// crank a uniform disk of radius L1 = 0.1 m turning about its centre O (m1 = 2 kg,
/// J1 = m1 L1²/2), the journal of clearance joint A on its rim; rod AB with the bearing at
/// a2 = 0.15 m and B at b2 = 0.15 m from its centre (m2 = 0.5 kg, J2 = m2 (a2 + b2)²/12);
/// slider m3 = 0.5 kg on an ideal prismatic guide along x; ideal revolutes at O and B;
/// journal radius 10 mm, bearing 10.1 mm; E = 207 GPa, ν = 0.3, restitution 0.9, exponent 1.5
/// (Hunt–Crossley); gravity 9.8 m/s² along +x; viscous damping 0.01 N·m·s on the crank and
/// 1 N·s/m on the slider; Baumgarte α = β = 10; zero tangential velocity below 1e-5 m/s;
/// modified Coulomb tolerances v0 = 1e-4, v1 = 1e-3 m/s.
///
/// The joint is in "permanent contact" (Zheng §4): the normal force is the compliant law's,
/// with the hysteresis's impact velocity δ̇⁻ set to `impact_velocity` (the paper's value is
/// lost; ours, 0.1 m/s, is the scale of the pin's speed). Dry Coulomb (μ, μs) is set-valued,
/// resolved by the event-driven formulation (LCP or trial-and-error at every zero of v_τ);
/// the modified Coulomb law (Ambrósio; friction law `ambrosio`) is regularized and runs by
/// the penalty route.
///
/// Initial state: the crank at θ1(0) with rate θ̇1(0), the journal touching the bearing
/// (δ = 0) on the side that carries the slider's weight (the eccentricity pointing from B
/// towards A along the rod), every other velocity from the joints with the journal rolling
/// in the bearing (ġ = 0, v_τ = 0). Started at rest (Example III), the journal sits in the
/// sticking equilibrium instead: the contact carries the force and the torque the joint
/// carries when locked, its tangential part F_t = M / R_j inside the friction cone when
/// μs is large enough (F_t/N ≈ 0.11 at θ1 = π − 0.01).

#include <string>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/run_result.hpp"
#include "dynamics/nonsmooth/rigid_contact.hpp"

namespace stickslip::mechanisms {

struct ZhengSliderCrank {
  enum class Drive { kTorque, kRheonomic, kFree };
  double crank_radius = 0.1, crank_mass = 2.0;
  double rod_a = 0.15, rod_b = 0.15, rod_mass = 0.5;
  double slider_mass = 0.5;
  double journal_radius = 0.010, bearing_radius = 0.0101;
  double young_modulus = 207e9, poisson_ratio = 0.3, restitution = 0.9, exponent = 1.5;
  double impact_velocity = 0.1;  ///< δ̇⁻ of the Hunt–Crossley hysteresis [m/s]
  double gravity = 9.8;          ///< along +x [m/s²]
  double crank_damping = 0.01, slider_damping = 1.0;
  double mu_kinetic = 0.0, mu_static = 0.0;  ///< dry Coulomb in the clearance joint
  /// Ambrósio's modified Coulomb (friction law `ambrosio`: no force below v0, a ramp to
  /// μk N at v1) instead of dry Coulomb: regularized, so the joint never sticks.
  bool modified_coulomb = false;
  double modified_v0 = 1e-4, modified_v1 = 1e-3;  ///< its tolerances [m/s]
  Drive drive = Drive::kTorque;
  double torque_amplitude = 0.5, torque_frequency = 2.0 * 3.14159265358979323846;  ///< τ0 sin Ωt
  double rheonomic_amplitude = 0.5;  ///< θ1(t) = 0.5 sin(2π t)
  double theta1 = 0.0, theta1_rate = 0.0;  ///< initial crank angle and rate (kTorque, kFree)
  bool ideal = false;  ///< an ideal revolute at A instead of the clearance joint
  /// A rigid clearance joint (for Moreau–Jean, which takes rigid contacts only): a unilateral
  /// journal-in-bearing contact, g = c − |e| ≥ 0, Newton's restitution `rigid_restitution`
  /// at impacts and set-valued Coulomb (μ, μs), instead of the compliant Hunt–Crossley one.
  bool rigid_contact = false;
  /// Ours: 0, the rigid counterpart of Zheng's "permanent contact" — a journal that
  /// separates does not bounce back and forth across the clearance but is caught again by
  /// the bearing, as the compliant joint's force keeps it there.
  double rigid_restitution = 0.0;
  void validate() const;  ///< throws std::invalid_argument
};

/// Examples: "torque" (I), "rheonomic" (II), "equilibrium" (III: free, at rest at π − 0.01).
/// Friction: none (μ = 0); set it with mu_kinetic, mu_static and modified_coulomb.
ZhengSliderCrank zhengExample(const std::string& example);

/// The mechanism as a planar model with the clearance joint as one compliant journal-bearing
/// RigidContact named "clearance-A" (absent when `ideal`). Bodies: crank 0, rod 1, slider 2.
dynamics::RigidScenario zhengRigid(const ZhengSliderCrank& data);

/// The driving torque on the crank, −λ of the rheonomic driver (Example II's λ1), at every
/// row of an event-driven run's history (columns t, q, v, N, F), from the joints' equations
/// with the recorded contact forces and the run's Baumgarte constants.
Eigen::VectorXd zhengDrivingTorque(const dynamics::RigidScenario& scenario,
                                   const dynamics::RunResult& run, double baumgarte = 10.0);

}  // namespace stickslip::mechanisms
