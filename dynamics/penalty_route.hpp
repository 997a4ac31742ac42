#pragma once
/// \file The penalty (regularized) route over a mechanism (DESIGN §1b): the RigidScenario's
/// bodies, joints, drivers and force elements unchanged, its contacts and joint friction
/// turned into smooth forces, integrated by simulatePenalty (penalty_contact.hpp).
///
///  - Normal behaviour. A compliant contact keeps its law, the measured impact velocity
///    δ̇⁽⁻⁾ floored at the larger of the law's min_impact_velocity and the contact's
///    `impact_velocity` (the event-driven route holds δ̇⁽⁻⁾ there: a contact pressed from the
///    start gets the same damping). A rigid unilateral contact takes
///    its `compliant_law` when the model gives one, otherwise the default of
///    defaultCompliantLaw(): Flores et al.'s law (normal_law.hpp; of the dissipative laws the
///    one that follows a low restitution best) with the contact's restitution cₑ, at least
///    0.01 (the law divides by cₑ), exponent 1.5 and the Hertz stiffness of steel on steel
///    (E = 207 GPa, ν = 0.3) for the contact's effective radius: R_B R_J / c for a journal in
///    a bearing, ρ for a disk of radius ρ on a line, 10 mm for a point (ρ = 0). Its impact
///    velocity is at least 0.1 m/s: the law's damping χ ∝ 1/(cₑ δ̇⁽⁻⁾) would otherwise make a
///    resting contact (δ̇⁽⁻⁾ → 0) overdamped by orders of magnitude, a stiff mode that stalls
///    BDF and destabilizes RK4; with the floor a resting plastic contact is near critically
///    damped, and impacts slower than 0.1 m/s rebound more than cₑ says.
///  - Friction. Set-valued Coulomb (μs, μk) becomes the catalogue law the caller names
///    (make_friction_law.hpp), with the contact's μs and μk and the other parameters from
///    `friction_parameters`; a contact that already has a regularized law keeps it; "none"
///    drops friction. Friction in a revolute joint becomes the same law on the joint's
///    reaction (PenaltyJointFriction).
///  - A bilateral contact (a guide holding on both sides) becomes a two-sided compliant one
///    (PenaltyContact::two_sided) with the same law: the default's near-critical damping of a
///    resting plastic contact keeps the guide from ringing.
///
/// The result is the nonsmooth routes' RunResult, with the same history columns (t, q, v,
/// per contact N and F in rigid_contact.hpp's tangent convention, per joint friction |R| and
/// T), so one writer and `compare` serve every route. Its events are the contacts' closings
/// (kClose) and openings (kOpen) at the integrator's crossing times and, since a regularized
/// law has no stick mode, stick/slip changes estimated from the samples: a frictional contact
/// (or joint) counts as sticking while it is closed (δ ≥ 0; a two-sided contact or a joint
/// always) with
/// |v_t| < `stick_velocity`; each change is an event flagged `approximate` at the first sample
/// past it, and the modes at t = 0 are the run's initial_modes (contacts without friction:
/// kOpen unless closed, then slipping).

#include <string>
#include <string_view>

#include "dynamics/contact/normal_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/run_result.hpp"
#include "dynamics/nonsmooth/rigid_contact.hpp"
#include "dynamics/penalty_contact.hpp"

namespace stickslip::dynamics {

struct PenaltyRouteOptions {
  /// The law replacing set-valued Coulomb: a catalogue name, or "none".
  std::string friction_law = "linear";
  FrictionParameters friction_parameters;  ///< all but μs, μk (those are the contact's)
  PenaltyIntegrationOptions integration;
  /// Joints by Baumgarte's stabilization with these terms [1/s] (EomMethod::kBaumgarte).
  double baumgarte_alpha = 10.0;
  double baumgarte_beta = 10.0;
  /// |v_t| below which a loaded frictional contact counts as sticking (file comment) [m/s], > 0.
  double stick_velocity = 1e-3;
  /// Nothing drives the mechanism (no drivers, loads or moving surfaces): its energy can only
  /// fall, and a rise of more than 1 % of the initial energy stops the run as a failure
  /// instead of reporting a wrong motion (integration.max_energy_gain, if smaller, still holds).
  bool passive = false;
};

/// The compliant law the penalty route gives a rigid contact without one (file comment).
NormalLaw defaultCompliantLaw(const RigidContact& contact);

/// Runs the mechanism by the penalty route from its initial state to
/// options.integration.t_end. std::invalid_argument for an invalid contact or joint friction, an unknown law or
/// invalid options; integration failures end
/// the run with ok = false and a message naming the status.
RunResult simulatePenaltyRoute(const RigidScenario& mechanism, const PenaltyRouteOptions& options);

}  // namespace stickslip::dynamics
