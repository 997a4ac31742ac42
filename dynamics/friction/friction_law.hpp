#pragma once
/// \file The interface every friction law of the catalogue implements (DESIGN.md §3).
///
/// A law maps the contact's sliding velocity v [m/s], its normal force N ≥ 0 [N] and the
/// tangential force applied to the sliding body by everything else, Fₑ [N], to the friction
/// force F [N] on the sliding body. Sign convention: F opposes sliding, F = −μ N sgn(v) for
/// Coulomb; at rest the set-valued laws return F = −clamp(Fₑ, −F_lim, F_lim), the force that
/// keeps the body at rest as long as it can.
///
/// Dynamic laws (Dahl, LuGre, …) carry internal states (bristle deflection z, …). They join
/// the mechanism's ODE state: the caller stores them, asks for their time derivative with
/// stateRate() and passes them back to force(). Static laws have stateSize() == 0.
/// force() and stateRate() never allocate and are const: one law object may serve many
/// contacts and threads.
///
/// Laws that switch discrete states (a stick/slide mode, a bond that breaks and re-forms, a
/// memory of velocity reversals) keep those states in the same vector with zero rate.
/// Within a step their force holds at a switch's threshold (a bond strained past its break
/// holds its breaking force), so that it is continuous in the load while a joint's reaction loop
/// solves for it; settle() commits the switches after every accepted step, where the force may
/// jump as the model does (Armstrong's slide ending in a stick). A route must call settle()
/// after each step, so these laws run on a fixed step: settlesBetweenSteps() says so, and the
/// routes refuse them a variable-step integrator (variableStepRefusal()).
///
/// Linear bristle laws (Dahl, LuGre and its load-scaled forms, Bliman–Sorine) say so through
/// linearBristles(): at a sliding speed s = |v| and load N their states z_i obey
///   ż_i = α_i v − β_i z_i,   R = Σ_i (a_i z_i + b_i ż_i) + c v,   F = −R,
/// with coefficients of s and N alone. That form is what lifts a law isotropically to a
/// contact that slides in a plane (tangent_plane_friction.hpp): each z_i becomes a vector.

#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace stickslip::dynamics {

/// What a friction law needs to know about the contact at one instant.
struct FrictionInput {
  double velocity = 0.0;       ///< sliding velocity v of the body on the surface [m/s]
  double normal_force = 0.0;   ///< normal force N ≥ 0 [N]
  double applied_force = 0.0;  ///< tangential force Fₑ on the body from all other forces [N]
};

/// Coefficients of one bristle state of a linear bristle law (see the file comment).
struct BristleCoefficients {
  double drive = 0.0;      ///< α_i: ż_i per unit sliding velocity [state/m]
  double decay = 0.0;      ///< β_i: the state's relaxation rate [1/s]
  double stiffness = 0.0;  ///< a_i: force per unit state [N/state]
  double damping = 0.0;    ///< b_i: force per unit state rate [N·s/state]
};

/// A friction law of the catalogue. Preconditions of force() and stateRate() (not checked on
/// the hot path): finite input, N ≥ 0, spans of size stateSize().
class FrictionLaw {
 public:
  virtual ~FrictionLaw() = default;

  /// The catalogue name, as accepted by makeFrictionLaw() ("lugre", "karnopp", …).
  virtual std::string_view name() const = 0;
  /// Number of internal states (0 for static laws).
  virtual int stateSize() const { return 0; }
  /// True for the laws with a jump at v = 0 (the set-valued sign taken as a function): no
  /// variable-step integrator gets through it (review §4), so the routes start them on RK4.
  virtual bool jumpsAtZero() const { return false; }
  /// True for the laws whose force or state rate jumps where a state crosses a threshold (GMS'
  /// elements entering their slip band): that too stalls a variable-step integrator (BDF on
  /// the belt: 2e6 steps to t = 14.6 s), so the routes start them on RK4 as well.
  virtual bool jumpsWithState() const { return false; }
  /// True for the laws whose stick branch reads FrictionInput::applied_force over a velocity
  /// band (Karnopp-type: karnopp, switch, awrejcewicz). A route that cannot supply the
  /// applied force must refuse them rather than pass 0. (The jump laws read it at v = 0
  /// exactly, a measure-zero set of states for an integrator.)
  virtual bool usesAppliedForce() const { return false; }
  /// True for the laws with discrete states that settle() commits (file comment).
  virtual bool settlesBetweenSteps() const { return false; }
  /// Commits the discrete switches the state implies at `in` (after an accepted step).
  virtual void settle(const FrictionInput& in, std::span<double> state) const {
    static_cast<void>(in);
    static_cast<void>(state);
  }
  /// Fills `state` for a contact that has been at rest and unloaded for a long time (zero
  /// bristle deflection; fully aged junctions where the law models dwell time). `in` lets a
  /// law that needs it start consistent with the current velocity.
  virtual void initialState(const FrictionInput& in, std::span<double> state) const {
    static_cast<void>(in);
    static_cast<void>(state);
  }
  /// Friction force on the sliding body [N].
  virtual double force(const FrictionInput& in, std::span<const double> state) const = 0;
  /// Time derivative of the internal states.
  virtual void stateRate(const FrictionInput& in, std::span<const double> state,
                         std::span<double> rate) const {
    static_cast<void>(in);
    static_cast<void>(state);
    static_cast<void>(rate);
  }
  /// Whether velocityDerivative() is provided (smooth and piecewise-smooth static laws).
  virtual bool hasVelocityDerivative() const { return false; }
  /// ∂F/∂v at fixed N, Fₑ and state [N·s/m], for implicit integrators. Defined where the law
  /// is differentiable (not at its kinks, nor at v = 0 for the set-valued laws); NaN when the
  /// law does not provide it.
  virtual double velocityDerivative(const FrictionInput& in, std::span<const double> state) const {
    static_cast<void>(in);
    static_cast<void>(state);
    return std::numeric_limits<double>::quiet_NaN();
  }
  /// The steady-state curve: the force once the internal states have settled at constant
  /// sliding velocity v ≠ 0 with nothing else applied (Fₑ = 0) [N]. For static laws this is
  /// force() itself; dynamic laws give the closed form of their steady state.
  virtual double steadyForce(double v, double normal_force) const {
    return force({v, normal_force, 0.0}, {});
  }
  /// For a linear bristle law (file comment): fills `bristles` (size stateSize()) and
  /// `viscous` (c [N·s/m]) at sliding speed `speed` ≥ 0 and load N ≥ 0, and returns true.
  /// Along a line, force() and stateRate() at v = ±speed equal these terms' to round-off.
  /// Other laws (static ones, and those whose rates are not linear in v and z) return false.
  virtual bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                              double& viscous) const {
    static_cast<void>(speed);
    static_cast<void>(normal_force);
    static_cast<void>(bristles);
    static_cast<void>(viscous);
    return false;
  }
};

/// Why a variable-step integrator cannot take `law` (one with settlesBetweenSteps()).
inline std::string variableStepRefusal(const FrictionLaw& law) {
  return "friction law '" + std::string(law.name()) +
         "' switches discrete states between steps, which a variable-step integrator cannot stop for";
}

}  // namespace stickslip::dynamics
