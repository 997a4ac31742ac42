#pragma once
/// \file The belt benchmark of the thesis §3.4 (Table 3.1): a block of mass m on a belt moving
/// at v_b, tied to the ground by a spring k, with friction between block and belt:
///   m ẍ = −k x + F(v_rel, N = m g, Fₑ = −k x),   v_rel = ẋ − v_b.
/// It starts at x = 0 moving with the belt. With set-valued Coulomb friction (μs, μk) the
/// motion is a stick–slip cycle known in closed form (DESIGN.md §7), the reference every
/// formulation is checked against.

#include <string>
#include <vector>

#include <Eigen/Dense>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {
class FrictionLaw;  // dynamics/friction/friction_law.hpp; declared only, so that C++17 users of
                    // this header (the Siconos peer benchmarks) need not read its std::span
}  // namespace stickslip::dynamics

namespace stickslip::mechanisms {

struct Belt {
  double mass = 1.0;         ///< m [kg], > 0
  double belt_speed = 0.1;   ///< v_b [m/s], > 0
  double stiffness = 2.0;    ///< k [N/m], > 0
  double gravity = 9.81;     ///< g [m/s²], > 0
  double mu_static = 0.15;   ///< μs, ≥ μk (only the closed form uses μs and μk directly)
  double mu_kinetic = 0.1;   ///< μk, ≥ 0
  /// Throws std::invalid_argument("Belt: expected …, got …").
  void validate() const;
};

/// The closed-form stick–slip cycle with set-valued Coulomb friction.
/// Stick until k x = μs m g (x_b = μs m g / k at t₁ = x_b / v_b); slip as a harmonic motion
/// about x_c = μk m g / k with ω = √(k/m), starting at x_b with ẋ = v_b and ending when ẋ
/// returns to v_b after τ = 2(π − atan(ω (x_b − x_c) / v_b)) / ω, at x_s = 2 x_c − x_b; stick
/// again for (x_b − x_s) / v_b; the cycle repeats.
struct BeltCycle {
  double first_breakaway = 0.0;  ///< t₁ [s]
  double slip_duration = 0.0;    ///< τ [s]
  double stick_duration = 0.0;   ///< [s]
  double period = 0.0;           ///< τ + stick [s]
  double x_breakaway = 0.0, x_stick = 0.0;
  /// Mode changes ("slip" at a break-away, "stick" at the end of a slip) up to t_end.
  std::vector<std::pair<double, std::string>> events(double t_end) const;
};
BeltCycle beltClosedForm(const Belt& belt);

/// The built-in belt (mechanisms/scenarios/belt.yaml) with these values: one body (the block,
/// a point mass resting at y = 0 under gravity −y, inertia m·(0.1 m)²), the spring as the
/// force −k x, and one unilateral contact of its centre with the ground line y = 0 whose
/// surface moves at v_b along t = +x, with μs and μk. q0 = 0, v0 = (v_b, 0, 0).
dynamics::RigidScenario beltRigid(const Belt& belt);
/// The values of a mechanism loaded from belt.yaml (its parameters); throws
/// std::invalid_argument when it lacks one.
Belt beltOf(const dynamics::RigidScenario& s);

/// Regularized (penalty) route: the equation above with a smooth or dynamic friction law,
/// integrated as an ODE in (x, ẋ, internal states of the law).
struct PenaltyOptions {
  /// RK4 with the thesis' step handles every law, discontinuous ones included; BDF is far
  /// cheaper on smooth laws but fails on a discontinuous right-hand side.
  enum class Integrator { kRk4, kBdf } integrator = Integrator::kRk4;
  double t_end = 20.0;               ///< [s], > 0
  double dt = 5e-5;                  ///< RK4 step [s] (thesis Table 3.1), > 0
  double relative_tolerance = 1e-8;  ///< BDF
  double absolute_tolerance = 1e-10;
  double output_dt = 1e-3;           ///< history sampling [s], > 0
  /// |v_rel| below this counts as (approximate) stick in the reported mode changes [m/s]
  /// (the thesis' tolerance velocity Dv).
  double stick_velocity = 1e-3;
};

struct PenaltyRun {
  bool ok = false;
  std::string message;  ///< why, when !ok
  long steps = 0;
  double cpu_seconds = 0.0;
  double stick_fraction = 0.0;  ///< share of the run with |v_rel| < stick_velocity
  /// Approximate mode changes: (t, "stick" | "slip") where |v_rel| crosses stick_velocity.
  std::vector<std::pair<double, std::string>> mode_changes;
  /// Sampled history, columns t, x, ẋ, v_rel, F.
  Eigen::MatrixXd history;
  Eigen::VectorXd final_state;  ///< (x, ẋ, internal states)
};

/// Throws std::invalid_argument for invalid belt data or options.
PenaltyRun simulateBeltPenalty(const Belt& belt, const dynamics::FrictionLaw& law,
                               const PenaltyOptions& options);

}  // namespace stickslip::mechanisms
