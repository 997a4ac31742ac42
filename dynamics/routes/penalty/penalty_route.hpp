#pragma once
/// \file The penalty (regularized) route over a mechanism (DESIGN §1b), planar (a RigidScenario)
/// or any other (a Mechanism with compliant contacts only: a spatial one): its
/// bodies, joints, drivers and force elements unchanged, its contacts and joint friction
/// turned into smooth forces, integrated by simulatePenalty (penalty_system.hpp).
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
///  - A bilateral disk–line contact (a guide holding on both sides) stays an ideal constraint:
///    an ideal point-on-line joint keeps it closed (addClosingJoint), and its friction becomes
///    the law applied to that joint's reaction N, as joint friction is (Blajer's prismatic
///    friction μ |N|; the review's roller on the ground), resolved exactly with the equations of
///    motion (penalty_system.hpp). A bilateral contact the model gives a `compliant_law` becomes
///    a two-sided compliant one (PenaltyContact::two_sided) instead.
///  - The joints by Baumgarte's stabilization with the mechanism's terms (RigidScenario).
///
/// The result has every route's history columns (run_result.hpp: t, q, v, per contact N and F in
/// rigid_contact.hpp's tangent convention — a spatial contact's F is the friction's component
/// along its sliding direction t, penalty_system.hpp —, a guide's N its joint's reaction, per joint friction
/// |R| and T), then the route's own: the accelerations ("B.ax", "B.ay", "B.alpha"), the
/// multipliers of every joint row ("J.lambda0", "J.lambda1"; a one-row joint "J.lambda"; the
/// guides' closing joints last, named after their contacts; thesis sign, M v̇ + Dᵀλ = Q) at the
/// sample, the friction laws' states ("C.z", or "C.z0", "C.z1", …; a spatial contact's bristle
/// vectors in world axes "C.zx", "C.zy", "C.zz") and "friction_work", the
/// work the friction forces have dissipated so far (integrated with the state; also the
/// result's friction_work). Its events are the contacts' closings
/// (kClose) and openings (kOpen) at the integrator's crossing times and, since a regularized
/// law has no stick mode, stick/slip changes estimated from the samples: a frictional contact
/// (or joint) counts as sticking while it is closed (δ ≥ 0; a guide, a two-sided contact or a
/// joint always) with |v_t| < `stick_velocity`; each change is an event flagged `approximate`
/// at the first sample past it, and the modes at t = 0 are the run's initial_modes (contacts
/// without friction: kOpen unless closed, then slipping).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/contact/normal_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/routes/run_result.hpp"
#include "dynamics/contact/rigid_contact.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"

namespace stickslip::dynamics {

struct PenaltyRouteOptions {
  /// The law replacing set-valued Coulomb: a catalogue name, or "none".
  std::string friction_law = "linear";
  FrictionParameters friction_parameters;  ///< all but μs, μk (those are the contact's)
  PenaltyIntegrationOptions integration;
  /// |v_t| below which a loaded frictional contact counts as sticking (file comment) [m/s], > 0.
  double stick_velocity = 1e-3;
  /// Nothing drives the mechanism (no drivers, loads or moving surfaces): its energy (plus the
  /// friction work dissipated) can only fall, and a rise of more than 1 % of the initial
  /// energy (PenaltyIntegrationOptions::max_energy_gain) stops the run as a failure
  /// instead of reporting a wrong motion (integration.max_energy_gain, if smaller, still holds).
  bool passive = false;
};

/// The compliant law the penalty route gives a rigid contact without one (file comment).
NormalLaw defaultCompliantLaw(const RigidContact& contact);

/// The mechanism in the penalty route's terms (file comment), built once: its model with the
/// guides' closing joints and the PenaltySystem on it. Keeps a reference to the mechanism, which
/// must outlive it.
class PenaltyRoute {
 public:
  /// Throws std::invalid_argument for an invalid contact or joint friction, an unknown law or
  /// invalid options.
  PenaltyRoute(const RigidScenario& mechanism, PenaltyRouteOptions options);
  /// Any mechanism (a spatial one) from the consistent state (q0, v0), its joints stabilized by
  /// Baumgarte's terms α, β [1/s]. Its contacts must already be compliant (one- or two-sided):
  /// making a rigid contact compliant and closing a guide are the planar constructor's. Keeps a
  /// reference to `mechanism`. Throws as the other.
  PenaltyRoute(const Mechanism& mechanism, Eigen::VectorXd q0, Eigen::VectorXd v0, double baumgarte_alpha,
               double baumgarte_beta, PenaltyRouteOptions options);
  ~PenaltyRoute();
  PenaltyRoute(const PenaltyRoute&) = delete;
  PenaltyRoute& operator=(const PenaltyRoute&) = delete;

  /// The history's columns (file comment), known before a run.
  const std::vector<std::string>& columns() const { return columns_; }
  /// Runs from the initial state with `integration` (the options' own, or another integrator
  /// for a retry). Integration failures end the run with its status and a message.
  RunResult run(const PenaltyIntegrationOptions& integration);

 private:
  int stateCount(std::size_t element) const;            ///< friction states of contact k or joint friction
  Eigen::Index stateOffset(std::size_t element) const;  ///< their offset in z

  /// What both constructors share, once the mechanism is in the route's terms: the joint
  /// frictions' laws, the system and the columns.
  void build(std::vector<std::shared_ptr<const FrictionLaw>> contact_friction, std::vector<PenaltyJointFriction> elements,
             double baumgarte_alpha, double baumgarte_beta);

  PenaltyRouteOptions options_;
  Eigen::VectorXd q0_, v0_;
  /// A planar scenario's model with a closing joint per guide, and the mechanism over it.
  std::unique_ptr<PlanarModel> model_;
  std::unique_ptr<PlanarMechanism> planar_;
  const Mechanism* mechanism_ = nullptr;  ///< the mechanism run: planar_ or the caller's
  std::unique_ptr<PenaltySystem> system_;
  // Per contact (a guide) and per joint friction (after the contacts): its reaction-dependent
  // friction element; −1: none.
  std::vector<int> element_of_;
  std::vector<bool> always_closed_, frictional_;
  std::vector<std::string> columns_;
};

/// PenaltyRoute(mechanism, options).run(options.integration).
RunResult simulatePenaltyRoute(const RigidScenario& mechanism, const PenaltyRouteOptions& options);

}  // namespace stickslip::dynamics
