#pragma once
/// \file The slider-crank with a revolute clearance joint of Zheng, Zhang & Wang (2018),
/// Examples I–III, as a C++ value: its model files are mechanisms/scenarios/zheng-torque.yaml
/// (the torque drive; with no torque, Example III) and zheng-rheonomic.yaml (the crank's angle
/// prescribed), which state the mechanism, its data (DESIGN.md §7; the extracted paper lost
/// its values) and its initial state: the clearance joint in "permanent contact" (Zheng §4),
/// preloaded by the mechanism's static load (dynamics/mechanism/clearance_preload.hpp).
/// Dry Coulomb (μ, μs) is set-valued, resolved by the event-driven formulation (LCP or
/// trial-and-error at every zero of v_τ); Ambrósio's modified Coulomb is regularized.

#include <string>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/routes/run_result.hpp"
#include "dynamics/contact/rigid_contact.hpp"

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
  /// 1: Ambrósio's modified Coulomb (friction law `ambrosio`: no force below v0, a ramp to
  /// μk N at v1) instead of dry Coulomb (0): regularized, so the joint never sticks.
  double modified_coulomb = 0.0;
  double modified_v0 = 1e-4, modified_v1 = 1e-3;  ///< its tolerances [m/s]
  Drive drive = Drive::kTorque;
  double torque_amplitude = 0.5, torque_frequency = 2.0 * 3.14159265358979323846;  ///< τ0 sin Ωt
  double rheonomic_amplitude = 0.5;  ///< θ1(t) = 0.5 sin(2π t)
  double theta1 = 0.0, theta1_rate = 0.0;  ///< initial crank angle and rate (kTorque, kFree)
  bool ideal = false;  ///< an ideal revolute at A instead of the clearance joint
  /// A rigid clearance joint, as Moreau–Jean takes it (dynamics/mechanism/rigid_counterpart.hpp):
  /// a unilateral journal-in-bearing contact, g = c − |e| ≥ 0, Newton's restitution
  /// `rigid_restitution` at impacts and set-valued Coulomb (μ, μs), instead of the compliant
  /// Hunt–Crossley one.
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

/// Its model file loaded with these values: the clearance joint one journal-bearing contact
/// named "clearance-A" (absent when `ideal`). Bodies: crank 0, rod 1, slider 2. Throws
/// std::invalid_argument for invalid data.
dynamics::RigidScenario zhengRigid(const ZhengSliderCrank& data);

/// The driving torque on the crank, −λ of the rheonomic driver (Example II's λ1), at every
/// row of an event-driven run's history, rebuilt with its recorded contact forces
/// (dynamics/routes/joint_multipliers.hpp).
Eigen::VectorXd zhengDrivingTorque(const dynamics::RigidScenario& scenario, const dynamics::RunResult& run);

}  // namespace stickslip::mechanisms
