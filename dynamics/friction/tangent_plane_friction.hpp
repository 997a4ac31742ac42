#pragma once
/// \file A linear bristle friction law (friction_law.hpp: Dahl, LuGre, …) lifted isotropically
/// to a contact that slides in a plane, a spatial contact: each bristle state becomes a vector.
///
/// A law's scalar state z is a deflection along the line the body slides on. At a spatial
/// contact the sliding direction t = v_T/‖v_T‖ turns and flips; a scalar kept along the present
/// t would push along each new direction with a deflection built along the old one. Here the
/// state of bristle i is a vector z_i in world axes, read through the present tangent plane.
///
/// With n the contact's unit normal, Π = I − n nᵀ, v_T ⊥ n the sliding velocity, s = ‖v_T‖, N ≥ 0
/// the normal force and the law's coefficients at (s, N) (FrictionLaw::linearBristles):
///   ż_i = α_i v_T − β_i z_i,
///   F_T = −Σ_i (a_i Π z_i + b_i Π ż_i) − c v_T
///       = −Σ_i ((a_i − b_i β_i) Π z_i + b_i α_i v_T) − c v_T,
/// the friction force on the sliding body, in the tangent plane. For `lugre`:
/// ż = v_T − σ0 s z / g(s), F_T = −(σ0 Π z + σ1 Π ż + σ2 v_T), g(s) = (μk + (μs − μk) e^{−(s/vs)^δσ}) N;
/// for `dahl` (α = 1): ż = v_T − σ0 s z / (μk N), F_T = −σ0 Π z.
///
/// Properties (tests/dynamics/friction_tangent_plane_test.cpp):
///  - Along a line (v_T = v e with e a fixed unit tangent, v of either sign, z_i = ζ_i e), the
///    component of F_T along e and the ζ_i follow the scalar law: force() and stateRate() at v.
///  - Isotropy: rotating n, v_T and the z_i by a rotation R rotates F_T and ż_i by R.
///  - F_T ⊥ n, and −F_T · v_T is the power the friction takes from the motion.
///  - The bristles' bound: with N constant, ‖z‖ ≤ μs N/σ0 stays true (LuGre; μk N/σ0 for Dahl),
///    since d/dt ‖z‖²/2 = s (tᵀz − σ0 ‖z‖²/g) ≤ 0 beyond it: the bristle force σ0 ‖Π z‖ keeps
///    the scalar law's bound however the direction turns.
/// The normal may turn while the contact lasts (a journal sliding round its bore): what was
/// tangential then has a component along the new n. Π reads the present tangential part only,
/// so that component never acts, and the decay −β_i z_i acts on the whole vector: nothing in the
/// law makes it grow, and it relaxes with the bristle.
///
/// Contract: force() and stateRate() are const, allocate nothing and read spans of stateSize()
/// = 3 × (the law's states) doubles, the bristles' world components in order (x, y, z of z_0,
/// then of z_1, …). A law without a linear bristle form (static laws, which need no lift since
/// their force has no memory of the direction; and the laws whose rates are not linear in v and
/// z: elasto-plastic, reset-integrator, Liang, GMS, Gonthier) cannot be lifted: lifts() says so
/// and the constructor throws.

#include <Eigen/Core>
#include <array>
#include <memory>
#include <span>

#include "dynamics/friction/friction_law.hpp"

namespace stickslip::dynamics {

/// A spatial contact at one instant, as a lifted law reads it.
struct PlaneFrictionInput {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();              ///< n, unit
  Eigen::Vector3d sliding_velocity = Eigen::Vector3d::Zero();     ///< v_T ⊥ n [m/s]
  double normal_force = 0.0;                                      ///< N ≥ 0 [N]
};

class TangentPlaneFriction {
 public:
  /// The most bristle states a lifted law may have (Bliman–Sorine's second order has two).
  static constexpr int kMaxBristles = 2;

  using Coefficients = std::array<BristleCoefficients, kMaxBristles>;

  /// Whether `law` has a linear bristle form with at most kMaxBristles states.
  static bool lifts(const FrictionLaw& law);
  /// A lifting law's coefficients at sliding speed s and load N into the first stateSize()
  /// entries of `b`; returns its viscous coefficient c.
  static double coefficients(const FrictionLaw& law, double speed, double normal_force, Coefficients& b);
  /// Throws std::invalid_argument naming the law when lifts() is false (or the law is null).
  explicit TangentPlaneFriction(std::shared_ptr<const FrictionLaw> law);

  const FrictionLaw& law() const { return *law_; }
  int bristles() const { return law_->stateSize(); }
  int stateSize() const { return 3 * bristles(); }
  /// Every bristle undeflected.
  void initialState(std::span<double> z) const;
  /// The steady state at constant v_T and N: z_i = (α_i/β_i) v_T (undeflected where β_i = 0),
  /// where ż_i = 0.
  void steadyState(const PlaneFrictionInput& in, std::span<double> z) const;
  /// F_T [N] on the sliding body.
  Eigen::Vector3d force(const PlaneFrictionInput& in, std::span<const double> z) const;
  /// ż_i.
  void stateRate(const PlaneFrictionInput& in, std::span<const double> z, std::span<double> rate) const;

 private:
  std::shared_ptr<const FrictionLaw> law_;
};

}  // namespace stickslip::dynamics
