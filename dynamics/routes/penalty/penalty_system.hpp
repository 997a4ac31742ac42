#pragma once
/// \file The regularized (penalty) route's equations of motion on a mechanism (DESIGN §2): the
/// forces of its compliant contacts and its reaction-dependent friction added to the
/// generalized forces of the mechanism (mechanism.hpp), integrated with its ideal joints as one
/// ODE.
///
/// Contacts are the mechanism's, with the kinematics every route uses (rigid_contact.hpp):
/// contact k has the gap g_k(q) = −δ_k with ġ = J_n v, the sliding velocity v_t = J_t v − v_s(t)
/// (a disk's material point, a moving surface included) and its rows J_n, J_t over v. Its normal
/// force Fₙ comes from its compliant law F(δ, δ̇; δ̇⁽⁻⁾) (normal_law.hpp), by its kind:
///  - kCompliant: one-sided, Fₙ = F(δ, δ̇) ≥ 0 while δ > 0;
///  - kBilateral with a `compliant_law`: two-sided, on the free side Fₙ = −F(−δ, −δ̇) with δ̇⁽⁻⁾
///    at the law's minimum; its gap crossings are no contact events;
///  - kBilateral without: a guide, kept closed by a joint of the mechanism; its normal force is
///    that joint's reaction (below);
///  - kUnilateral: refused (the penalty route gives a rigid contact its compliant law first).
/// The friction force Fₜ = F_law(v_t, |Fₙ|, Fₑ; z) comes from the contact's law (if any) with
/// internal states z, and the contact adds J_nᵀ Fₙ + J_tᵀ Fₜ to Q (Fₙ > 0 pushes the bodies
/// apart; a contact without load has no friction: the laws' viscous terms would otherwise drag an
/// open contact). The equations are those of EomSolver with this Q:
///   q̇ = H(q) v,   M v̇ + Dᵀλ = Q_mechanism(q, v, t) + Σ_k (J_n,kᵀ Fₙ,k + J_t,kᵀ Fₜ,k),   D v̇ = γ,
///   ż_k = stateRate_k(v_t,k, Fₙ,k, z_k),   Ẇ = −Σ_k Fₜ,k v_t,k − Σ_e F_e u_e
/// on the state y = [q; v; z; W] (z: the friction states of every contact, in contact order,
/// then of every reaction-dependent friction; W the work the friction forces have dissipated).
///
/// A spatial contact (RigidContact::Shape::kSpatialClearance) slides in a plane: v_t = ‖v_T‖ ≥ 0
/// along t = v_T/‖v_T‖, and the second tangent b = n × t (ContactKinematics::second_tangent).
/// A static law's Fₜ ≤ 0 along t is the plane's friction. A law with bristle states is lifted to
/// the plane (tangent_plane_friction.hpp): its states are vectors z_i in world axes (3 per state,
/// in y's z), its force F_T a vector in the plane, which enters Q by both tangent rows,
/// J_tᵀ (tᵀF_T) + J_bᵀ (bᵀF_T); the work is −F_T·v_T = −(tᵀF_T) v_t, and ContactForce reports
/// friction_force = tᵀF_T and second_tangent_force = bᵀF_T. While such a contact carries no load
/// its bristles hold still (ż = 0): an open candidate's contact point and sliding velocity follow
/// no surface. When it closes (simulatePenalty: at the crossing BDF locates, or at the end of the
/// RK4 step it falls in) they restart in the law's steady state for the present v_T and load
/// (TangentPlaneFriction::steadyState). For Dahl and LuGre that is undeflected, their own limit:
/// their relaxation rate σ0 s/g grows without bound as the load vanishes, so ∫ σ0 s/g dt
/// diverges as a contact closes while sliding and erases the bristle. For the load-scaled laws
/// (lugre-wojtyra, lugre-nondimensional, Bliman–Sorine) it is our choice: a contact that forms
/// while sliding starts at the kinetic level, rather than from undeflected bristles, whose
/// damping term σ1 ż = σ1 v at the onset of an impact exceeds μ N many times over (measured:
/// docs/theory/spatial.md). A law with states and no such lift
/// (elasto-plastic, reset-integrator, Liang, GMS, Gonthier) is refused, naming the contact.
///
/// Bristles relaxed. A contact law with a linear bristle form has ż = α v − β z per state, and
/// for Dahl and LuGre β = σ0 s/g → ∞ as the load vanishes. simulatePenalty's RK4 takes the
/// states of such contacts as Rk4's relaxing components (rk4.hpp): derivative() with a stage
/// reports each state's drive α v and decay β, and where the stage relaxes a state it uses the
/// relaxed value for the force's a Π z and the step's mean rate for its b Π ż (ratedFriction;
/// F = −Σ(a_i Π z_i + b_i Π ż_i) − c v_T, the law's own coefficients), and after the step
/// correctRelaxedDamping() applies the impulse those rates left owing. The joint and guide
/// elements' states are not relaxed (their load comes from the friction loop). When a contact
/// opens, a law with damping at N = 0 (LuGre's σ1) releases its bristle: z relaxes to 0 as
/// N → 0, so the damping acts as the impulse I = Σ b_i Π z_i, applied by releaseBristles() as
/// the velocity jump Δv of the constrained equations under the generalized impulse
/// J_tᵀ(tᵀI) + J_bᵀ(bᵀI), with the work p·(v⁻ + v⁺)/2 taken from W.
///
/// Friction whose load is a constraint's reaction (PenaltyJointFriction), Blajer & Markiewicz
/// eqs. 2.4–2.5:
///  - in a joint of the mechanism with friction (mechanism.jointFriction()), the torque
///      T = r F_law(u = r ṡ, N = |R|, Fₑ = 0; z)
///    with ṡ its sliding rate and |R| its reaction (Mechanism::jointFrictionRate, …Reaction),
///    entering Q by its row (Mechanism::addJointFrictionRow);
///  - along a guide (a contact of kind kBilateral without a compliant law), the force
///      F = F_law(u = v_t, N = |N|, Fₑ = 0; z),   N = −λ_row the closing joint's multiplier,
///    along the contact's tangent, entering Q as J_tᵀ F.
/// The reaction depends on the friction through the constrained equations, which are linear in
/// their forces: with one such element, R(F) = a + b F (two solves, F = 0 and F = 1) and
/// F = F_law(|R(F)|) is one scalar equation, solved to round-off by solveFrictionLoop
/// (friction_loop.hpp) — no value lagged, and on a law with several roots (LuGre's fold) the
/// one that continues the frictionless reaction. With n elements, derivative() first iterates:
/// solve with the |R| of the previous solve (the previous call's at first), until no |R|
/// changes by more than 1e-12 (1 + |R|); that map contracts fast when μ r |∂|R|/∂T| ≪ 1 (pins
/// are small against the links). After 20 solves it turns to the affine form: λ and v̇ are
/// affine in the n forces (n + 1 solves, reusing the first one's factors), and it sweeps over
/// the elements, each one's loop solved exactly as above under the others' present forces and
/// from its last |R|, until no |R| changes by more than 1e-12 (1 + |R|) in a sweep (each a few
/// vector operations per law evaluation, no solve). After 10 sweeps, Newton's method on
/// H(N) = N − |R(F(N))| finishes. Where it stalls, kNotConverged names the element, the sweeps'
/// ratio of changes and Newton's least |H| and reciprocal condition: a singular Jacobian with
/// |H| > 0 is a fold, the end of the solution the loop followed (LuGre's 1/|R| term brings
/// blajer-1 and blajer-2 to one).
///
/// The tangential force from the other forces, Fₑ, which the Karnopp-type laws read over a
/// velocity band (FrictionLaw::usesAppliedForce), is the force that would have to act at the
/// contact to keep it from accelerating tangentially, with the sign of an applied force:
/// Fₑ = a_t / W, where a_t = J_t v̇ is the tangential acceleration with the friction of every
/// such contact left out and W = J_t Δv̇ the response to a unit tangential force at the contact
/// alone (the constrained mass seen there; one more solve each). The law's holding force −Fₑ
/// then cancels a_t; the term J̇_t v and a moving surface's acceleration are left out (exact for
/// a translating contact on a steady belt, O(v²κ) on a curved one, where the band absorbs it).
/// Contacts coupled through the masses are each resolved with the others' held friction left
/// out. Other laws get Fₑ = 0 at no extra cost: they read it at v_t = 0 exactly at most.
/// Reaction-dependent friction gets 0; the constructor refuses a law that reads Fₑ there.
///
/// Impact velocity δ̇⁽⁻⁾ (Lankarani–Nikravesh, Hunt–Crossley, Flores). It is the value of δ̇
/// when the present contact began, a discrete state held per contact outside y. The choice
/// made here: it is recorded at the instant δ crosses 0 upwards — located by CVODE's root
/// functions g_k = −δ_k for BDF, and by linear interpolation of δ and δ̇ inside the step for
/// RK4 (O(h) in time) — never inside the right-hand side, which CVODE also evaluates at trial
/// states and times that are later rejected. Until the crossing is recorded (within the step
/// in which contact begins) the right-hand side uses the current δ̇, which is the impact
/// velocity to first order in δ. The laws clamp δ̇⁽⁻⁾ from below (min_impact_velocity).
///
/// Workspace is sized in the constructor; derivative() allocates nothing (the contact force
/// is added through MultibodySystem::generalizedForces of this class, which wraps the
/// mechanism). Not thread-safe: one PenaltySystem per thread.

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/model/eom_solver.hpp"
#include "dynamics/model/forwarded_system.hpp"
#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/tangent_plane_friction.hpp"
#include "dynamics/mechanism/mechanism.hpp"
#include "dynamics/integrators/rk4.hpp"

namespace stickslip::dynamics {

/// Friction whose load is a constraint reaction (see the file comment).
struct PenaltyJointFriction {
  enum class Kind { kJoint, kGuide };
  Kind kind = Kind::kJoint;
  /// kJoint: the index of the mechanism's joint friction; kGuide: of its contact.
  std::size_t index = 0;
  Eigen::Index row = 0;  ///< kGuide: the closing joint's row in λ
  /// The law; null: a frictionless guide, kept for its normal force.
  std::shared_ptr<const FrictionLaw> law;
  int frictionStateSize() const { return law ? law->stateSize() : 0; }
};

/// One compliant contact at one instant.
struct ContactForce {
  double penetration = 0.0;          ///< δ = −g [m]
  double penetration_rate = 0.0;     ///< δ̇ [m/s]
  double tangential_velocity = 0.0;  ///< v_t [m/s]
  double normal_force = 0.0;         ///< Fₙ (≥ 0 but on a two-sided contact's free side) [N]
  double friction_force = 0.0;       ///< Fₜ along the contact's tangent [N]
  double second_tangent_force = 0.0; ///< a spatial contact's friction along b = n × t [N]
};

/// Per-contact discrete state: whether a contact is recorded as closed and its δ̇⁽⁻⁾.
struct ContactStatus {
  bool closed = false;
  double impact_velocity = 0.0;  ///< δ̇⁽⁻⁾ of the present (or last) contact [m/s]
};

/// The mechanism with its compliant contacts as one MultibodySystem (its generalizedForces()
/// adds the contact and friction forces) and the ODE ẏ = f(t, y) on y = [q; v; z; W].
class PenaltySystem final : public ForwardedSystem<MultibodySystem> {
 public:
  /// Keeps a reference to `mechanism`, which must outlive this object. `contact_friction` has a
  /// law (or null) per contact of the mechanism (a guide's friction is its element's).
  /// Throws std::invalid_argument for a unilateral contact, a compliant contact without its
  /// law, a law of the wrong size or kind, or an invalid element.
  PenaltySystem(const Mechanism& mechanism, std::vector<std::shared_ptr<const FrictionLaw>> contact_friction,
                EomMethod method = EomMethod::kLagrange, EomOptions options = {},
                std::vector<PenaltyJointFriction> joint_friction = {});
  PenaltySystem(const PenaltySystem&) = delete;
  PenaltySystem& operator=(const PenaltySystem&) = delete;

  const Mechanism& mechanism() const { return mechanism_; }
  const std::vector<PenaltyJointFriction>& jointFriction() const { return joint_friction_; }
  Eigen::Index contactCount() const { return Eigen::Index(mechanism_.contacts().size()); }
  /// Whether contact k adds a compliant force (a guide does not) and whether it is two-sided.
  bool compliant(Eigen::Index k) const { return kind_[std::size_t(k)] != Kind::kGuide; }
  bool twoSided(Eigen::Index k) const { return kind_[std::size_t(k)] == Kind::kTwoSided; }
  Eigen::Index frictionStateSize() const { return nz_; }
  /// Size of y: nq + nv + the friction states + W.
  Eigen::Index stateSize() const { return mechanism_.positionSize() + mechanism_.velocitySize() + nz_ + 1; }
  Eigen::Index workIndex() const { return stateSize() - 1; }  ///< W's index in y (its last entry)
  /// Offset in z (not in y) of contact k's friction states, and their count.
  Eigen::Index frictionStateOffset(Eigen::Index k) const { return z_offset_[std::size_t(k)]; }
  int contactFrictionStateSize(Eigen::Index k) const;
  /// Contact k's law lifted to its tangent plane (its states are then world vectors), or null.
  const TangentPlaneFriction* planeFriction(Eigen::Index k) const { return plane_friction_[std::size_t(k)].get(); }
  /// Offset in z of element e's friction states.
  Eigen::Index jointFrictionStateOffset(Eigen::Index e) const { return joint_z_offset_[std::size_t(e)]; }

  /// y = [q; v; z; 0] with z from each law's initialState() at (q, v); the contact statuses
  /// are reset (closed where δ > 0, with δ̇⁽⁻⁾ = max(δ̇, 0)). Throws on size mismatch.
  Eigen::VectorXd initialState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  /// ẏ = f(t, y). Returns the EOM status (accelerations undefined unless kSuccess).
  EomStatus derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y, Eigen::Ref<Eigen::VectorXd> ydot);
  /// Whether some contact's law has a linear bristle form (FrictionLaw::linearBristles).
  bool hasBristles() const { return bristles_; }
  /// ẏ as derivative(), in the form of Rk4::RelaxingDerivative (rk4.hpp; "bristles relaxed" in
  /// the file comment): each bristle state of a contact whose law has a linear bristle form gets
  /// its drive a_j = α v (a component of α v_T on a spatial contact) and decay d_j = β in y's
  /// layout (0 elsewhere, and on an unloaded spatial contact, whose bristles hold still). Where
  /// the stage relaxes state j, its force takes the relaxed state and the step's mean rate.
  EomStatus derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y, const Rk4::RelaxedStage& stage,
                       Eigen::Ref<Eigen::VectorXd> ydot, Eigen::Ref<Eigen::VectorXd> drive,
                       Eigen::Ref<Eigen::VectorXd> decay);

  /// Every contact at (t, q, v) with friction states z (size frictionStateSize(), y's layout)
  /// and the impact velocities of their statuses (or the current δ̇ of a contact not recorded
  /// closed), into `out` (one per contact; resized). Their kinematics: kinematics().
  void evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, const Eigen::Ref<const Eigen::VectorXd>& z,
                        std::vector<ContactForce>& out) const;
  /// The kinematics of the last evaluation (rigid_contact.hpp).
  const ContactKinematics& kinematics() const { return kin_; }

  /// Element e after the last derivative(): the reaction |R| or |N| [N] it converged to, the
  /// friction it exerts (a joint's torque T [N·m], a guide's force F along its tangent [N]), and
  /// a guide's signed normal force N (NaN for a joint) [N].
  double jointReaction(int e) const { return reaction_[std::size_t(e)]; }
  double jointFrictionTorque(int e) const { return joint_torque_[std::size_t(e)]; }
  double guideNormal(int e) const { return guide_normal_[std::size_t(e)]; }

  const std::vector<ContactStatus>& contactStatus() const { return status_; }
  /// Records contact k as closed (impact velocity δ̇⁽⁻⁾ = `impact_velocity`) or open.
  void setContactStatus(int k, bool closed, double impact_velocity);
  /// Contact k's lifted bristles in y set to their steady state at (t, y) (nothing for other
  /// contacts), as simulatePenalty sets them when the contact closes (file comment).
  void restartBristles(int k, double t, Eigen::Ref<Eigen::VectorXd> y) const;
  /// Contact k opening at (t, y): its bristles' release ("bristles relaxed" in the file
  /// comment) applied to y — the velocity jump of the impulse I = Σ b_i Π z_i (b_i the law's
  /// damping at N = 0), the work it does taken from W, and the bristles zeroed. Nothing for a
  /// law without damping at N = 0 (Dahl; the load-scaled laws). Returns ‖I‖ [N·s].
  double releaseBristles(int k, double t, Eigen::Ref<Eigen::VectorXd> y);
  /// After an RK4 step (t, y at its end) that relaxed some bristles: the impulse their damping
  /// owes, −Σ b_i Π m_i with m the change of each relaxed state less the change its stage rates
  /// gave the forces (Rk4::relaxedMismatch), applied as releaseBristles() applies its own. So
  /// the damping's impulse over a step is −b Π Δz, as ∫ b ż dt is.
  void correctRelaxedDamping(double t, Eigen::Ref<Eigen::VectorXd> y, const Eigen::Ref<const Eigen::VectorXd>& mismatch);

  /// The first law that switches discrete states between steps (FrictionLaw::settle), or null.
  const FrictionLaw* settlingLaw() const { return settling_; }
  /// After an accepted step (t, y at its end): each such law's switches committed in y, at the
  /// sliding velocities and loads at (t, y): the contacts' kinematics, or a whole evaluation
  /// when a joint or guide element's law settles (its load is a reaction). Nothing without one.
  void settleFriction(double t, Eigen::Ref<Eigen::VectorXd> y);

  /// T + V of the mechanism + Σ elastic contact energy [J] at y (for energy checks).
  double totalEnergy(const Eigen::Ref<const Eigen::VectorXd>& y) const;
  /// d(totalEnergy + W)/dt along ẏ, the rate derivative() just gave at y [W]: the power of
  /// everything that has no potential here (applied loads, drivers, dampers, contact damping,
  /// callbacks) less the friction's dissipation W's rate takes back. Allocates nothing.
  double energyRate(const Eigen::Ref<const Eigen::VectorXd>& y, const Eigen::Ref<const Eigen::VectorXd>& ydot);

  EomSolver& eomSolver() { return solver_; }
  /// The joints' multipliers λ of the last derivative(), with its friction.
  const Eigen::VectorXd& multipliers() const { return multipliers_; }

  // MultibodySystem: the mechanism's (ForwardedSystem), with the contact and friction forces
  // added to Q at the friction states of the y passed to the last derivative() call.
  void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
                         Eigen::Ref<Eigen::VectorXd> forces) const override;
  /// Why the last derivative() failed (EomSolver::failure(), or the friction's loop).
  const std::string& eomFailure() const { return failure_.empty() ? solver_.failure() : failure_; }

 private:
  enum class Kind { kOneSided, kTwoSided, kGuide };
  /// Contact c's law lifted to its plane: null for a planar contact or a law without states;
  /// throws std::invalid_argument for a law with states that has no lift.
  static std::unique_ptr<const TangentPlaneFriction> planeForm(const RigidContact& c,
                                                               const std::shared_ptr<const FrictionLaw>& law);
  /// What a lifted law reads at contact k of the last evaluation, with its force e.
  PlaneFrictionInput planeInput(std::size_t k, const ContactForce& e) const {
    const Eigen::Matrix3d& frame = kin_.frame[k];
    return {frame.col(0), e.tangential_velocity * frame.col(1), std::abs(e.normal_force)};
  }
  /// Both derivative()s; stage, drive and decay null for the first.
  EomStatus evaluate(double t, const Eigen::Ref<const Eigen::VectorXd>& y, Eigen::Ref<Eigen::VectorXd> ydot,
                     const Rk4::RelaxedStage* stage, double* drive, double* decay);
  /// The bristles' drives and decays into drive and decay (y's layout), from the contacts of the
  /// last evaluation; where the stage relaxes a state, its relaxed value into z_, its mean rate
  /// into zrate_, and its contact marked in rated_.
  void relaxBristles(const Rk4::RelaxedStage& stage, double* drive, double* decay);
  /// Adds to impulse_ the generalized impulse −Σ b_i Π Δz_i of contact k's bristle damping
  /// (b_i at sliding speed and load) for the change dz of its states (their layout, from kin_);
  /// returns its size [N·s].
  double addDampingImpulse(std::size_t k, double speed, double load, const double* dz);
  /// Applies impulse_ to y as the constrained velocity jump, its work p·(v⁻ + v⁺)/2 taken from
  /// W, and clears it.
  void applyImpulse(double t, Eigen::Ref<Eigen::VectorXd> y);
  /// Contact k's friction from its law's bristle coefficients at the states z_ and rates zrate_
  /// (a relaxed contact's, rated_), along t and b: F = −Σ (a_i z_i + b_i ż_i) − c v.
  void ratedFriction(std::size_t k, ContactForce& e) const;
  /// The accelerations at evaluate()'s state under the present forces: its first solve factors
  /// the constraints, the later ones (other friction or applied forces) reuse the factors.
  EomStatus solveAtState(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot);
  /// The accelerations with the reaction-dependent friction resolved (file comment).
  EomStatus solveJointFriction(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot);
  /// Several elements, first: solve with the |R| of the previous solve (or call) until it
  /// changes by less than 1e-12 (1 + |R|). True when done (settled, or a solve failed: st);
  /// false when not settled in 20 solves.
  bool iterateReactions(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot, EomStatus& st);
  /// The n + 1 solves that make λ and v̇ affine in the laws' forces: all of them 0 (into vdot and
  /// lambda_free_), then a unit force on each element with a law alone (lambda_units_, vdot_units_).
  EomStatus probeFrictions(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot);
  /// Element laws_[i]'s exact loop F = law(|R(λ₀ + F λ₁)|), λ₀ lambda0_ and λ₁ its column of
  /// lambda_units_; false, with failure_ set, when it does not converge.
  bool settleElement(std::size_t i, double t, const Eigen::Ref<const Eigen::VectorXd>& v);
  /// Several elements: sweeps of settleElement, each under the others' present forces (file comment).
  bool settleElements(double t, const Eigen::Ref<const Eigen::VectorXd>& v);
  /// H(N) = N − |R(F(N))| of the elements with a law at their loads N, on the affine form; sets
  /// loop_force_, their joint_torque_ and lambda0_ (λ) at N.
  void loopResidual(const Eigen::VectorXd& loads, Eigen::VectorXd& h, const Eigen::Ref<const Eigen::VectorXd>& v);
  /// Newton's method on H(N) = 0 from the present |R|, its Jacobian by forward differences and its
  /// step halved until |H| decreases; true when a step changes no |R| by more than 1e-12 (1 + |R|)
  /// or |H| ≤ 1e-12 (1 + |N|), with `residual` |H|∞ [N] at the loads kept (reaction_); when false,
  /// `rcond` is the last Jacobian's reciprocal condition.
  bool newtonReactions(const Eigen::Ref<const Eigen::VectorXd>& v, double& residual, double& rcond);
  /// The force of element laws_[i] in the loops (loop_force_) and as its friction (joint_torque_).
  void setLoopForce(std::size_t i, double force);
  /// Element e's friction force at the load n ≥ 0 (none without one).
  double elementForce(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v, double n) const;
  /// Every element's |R| (but those with a law, if skip_laws) and guide normal from multipliers_.
  void recordReactions(bool skip_laws);
  const std::string& elementName(std::size_t e) const;
  /// |R| of element e from multipliers λ; the law's sliding velocity u of element e at v (a
  /// guide's from the kinematics of the present derivative() call).
  double elementReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda) const;
  /// The contacts' forces (N_k, F_k) at multipliers λ: a compliant contact's from its law, a
  /// guide's N its closing joint's reaction and F its element's present force.
  const Eigen::VectorXd& contactForces(const Eigen::Ref<const Eigen::VectorXd>& lambda) const;
  double elementVelocity(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const;
  /// Fₑ of every contact whose law reads it, from the accelerations (file comment).
  void computeAppliedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v);

  const Mechanism& mechanism_;
  std::vector<std::shared_ptr<const FrictionLaw>> contact_friction_;
  std::vector<std::unique_ptr<const TangentPlaneFriction>> plane_friction_;
  std::vector<Kind> kind_;
  std::vector<PenaltyJointFriction> joint_friction_;
  std::vector<Eigen::Index> z_offset_, joint_z_offset_;
  Eigen::Index nz_ = 0;
  const FrictionLaw* settling_ = nullptr;
  Eigen::VectorXd settle_rate_;  // settleFriction()'s evaluation; empty when no element's law settles
  std::vector<ContactStatus> status_;
  EomSolver solver_;

  // Workspace: the friction states of the current derivative() call, the contacts' kinematics
  // and forces of the last evaluation.
  mutable Eigen::VectorXd z_;
  mutable ContactKinematics kin_;
  // Set while evaluate() solves at one state: every generalizedForces() of its solves is at that
  // state, so kin_ is already the contacts' kinematics there.
  bool kinematics_current_ = false;
  bool solved_at_state_ = false;  // and a solve at that state has factored the constraints
  mutable std::vector<ContactForce> last_;
  // Fₑ: the contacts whose law reads it, their values, and what generalizedForces() puts at
  // those contacts while they are computed — their friction (kFull), nothing (kHeldOff), or
  // nothing but a unit Fₜ at `probe_` (kProbe).
  enum class Pass { kFull, kHeldOff, kProbe };
  std::vector<int> held_;
  std::vector<double> applied_;
  mutable Pass pass_ = Pass::kFull;
  int probe_ = -1;
  Eigen::VectorXd vdot_free_, vdot_probe_;
  Eigen::VectorXd momentum_rate_;  // M v̇, for energyRate()
  // Reaction-dependent friction: the |R| the forces are computed with (the fixed point's
  // iterate), the friction of the last generalizedForces() (torque or force), a force that
  // replaces the law's while the loop probes (NaN: none), the guides' normal forces.
  std::vector<double> reaction_;
  mutable std::vector<double> joint_torque_;
  std::vector<double> probe_force_, guide_normal_;
  // The elements with a law; λ and v̇ with none of their forces, and per unit force of each;
  // the forces of the loops; the base λ₀ of the loop being solved.
  std::vector<std::size_t> laws_;
  Eigen::VectorXd lambda_free_;
  Eigen::MatrixXd lambda_units_, vdot_units_;
  std::vector<double> loop_force_;
  Eigen::VectorXd newton_loads_, newton_h_, newton_trial_, newton_h_trial_, newton_step_;
  Eigen::MatrixXd newton_jacobian_;
  Eigen::PartialPivLU<Eigen::MatrixXd> newton_lu_;
  Eigen::VectorXd lambda0_;
  Eigen::VectorXd multipliers_;   // λ of the last derivative()
  std::vector<int> guide_element_;          // per contact: its guide's element, or −1
  mutable Eigen::VectorXd contact_forces_;  // (N_k, F_k) interleaved, for a pin's slot
  bool pins_ = false;                       // a joint friction is a pin in a slot
  std::vector<char> linear_;                // per contact: its law has a linear bristle form
  bool bristles_ = false;                   // some contact's does
  // A relaxed stage (relaxBristles): the contacts whose friction takes the rates zrate_, while
  // the stage's forces are computed (rating_).
  std::vector<char> rated_;
  Eigen::VectorXd zrate_;
  bool rating_ = false;
  // The bristle impulses (releaseBristles, correctRelaxedDamping): a generalized impulse added
  // to Q while its velocity jump is solved for (applyImpulse).
  Eigen::VectorXd impulse_, vdot_impulse_;
  bool impulsive_ = false;
  std::string failure_;
};

/// Options of simulatePenalty().
struct PenaltyIntegrationOptions {
  /// CVODE's BDF (stiff); fixed-step RK4; or CVODE's Adams–Moulton with fixed-point iteration,
  /// a non-stiff variable-step method as MATLAB's ode45 is, whose steps a stiff bristle cuts
  /// short (the review's Table 4 setting).
  enum class Integrator { kBdf, kRk4, kAdams } integrator = Integrator::kBdf;
  double t_end = 0.2;                ///< [s], > 0
  double dt = 1e-6;                  ///< RK4 step [s], > 0
  double relative_tolerance = 1e-8;  ///< BDF and Adams, > 0
  double absolute_tolerance = 1e-12; ///< BDF and Adams, > 0 (the states include δ of µm and below)
  double max_step = 1e-4;            ///< BDF and Adams largest step [s], ≥ 0 (0: unlimited)
  long max_steps = 500000;           ///< BDF and Adams steps between two samples or events, ≥ 1
  double output_dt = 1e-4;           ///< history sampling [s], > 0
  /// BDF and Adams: give up (kIntegratorFailure, with the reason) after this many internal steps in
  /// all, or after this many contact events in a row that leave t where it was (chattering).
  long max_total_steps = 2000000;
  int max_stalled_events = 200;
  /// BDF and Adams: the caller's budget of internal steps in all; more stop the run with
  /// kLimitReached (a limit asked for, where max_total_steps is the route's own guard).
  long max_run_steps = 100'000'000;
  /// RK4: refuse a run needing more than this many steps (t_end / dt) with kLimitReached.
  long max_rk4_steps = 100'000'000;
  /// For a passive system (no drivers, no applied work): stop with kEnergyIncrease when the
  /// sampled total energy E, or E plus the friction work W dissipated so far when W > 0,
  /// exceeds its initial value by more than this [J]: a friction law that is not dissipative
  /// here (W < 0, E rises), or a numerical instability (the equations conserve E + W).
  /// Infinite: no check.
  double max_energy_gain = std::numeric_limits<double>::infinity();
  /// RK4, driven or not: end with kEnergyIncrease when the steps created more than this fraction
  /// of the energy that flowed (PenaltyRun::energy_created). A step too large for the contacts'
  /// stiffness makes energy up wholesale (0.5 to 1 of it); a resolved run less than 1e-3 of it.
  double max_created_energy = 0.1;
  /// Called with the simulated time after every sample (a progress bar); empty: not called.
  std::function<void(double)> progress;
};

enum class PenaltyStatus { kSuccess, kEomFailure, kIntegratorFailure, kEnergyIncrease, kLimitReached };
std::string_view toString(PenaltyStatus s);

/// A contact closing (δ crosses 0 upwards) or opening, at an approximate time.
struct ContactCrossing {
  double t = 0.0;
  int contact = 0;
  bool closing = true;
  double penetration_rate = 0.0;  ///< δ̇ at the crossing [m/s] (> 0 closing, < 0 opening)
};

struct PenaltyRun {
  PenaltyStatus status = PenaltyStatus::kSuccess;
  std::string message;     ///< why, when not kSuccess
  double t = 0.0;          ///< time reached
  long steps = 0;          ///< accepted steps (RK4 steps, or CVODE's internal steps)
  long rhs_evaluations = 0;
  long relaxed_steps = 0;  ///< RK4 steps that integrated some bristle exactly (rk4.hpp)
  /// RK4's energy account (NaN by BDF or Adams, or a run cut short). Along the equations E + W
  /// changes by the work of the forces without a potential, ∫ P dt (energyRate), which the run
  /// integrates with RK4's own stages: energy_created is what E + W gained beyond it [J], and
  /// energy_flowed the scale it is judged against, the largest |E + W| plus kinetic energy
  /// sampled and ∫ |P| dt [J]. The kinetic energy and ∫ |P| dt do not depend on the potential's
  /// datum, and |E + W| holds the scale of a mechanism at rest under load.
  double energy_created = std::numeric_limits<double>::quiet_NaN();
  double energy_flowed = std::numeric_limits<double>::quiet_NaN();
  double cpu_seconds = 0.0;
  std::vector<ContactCrossing> events;
  /// Sampled every output_dt; columns: t, y (stateSize), per contact (δ, v_t, Fₙ, Fₜ), the
  /// total energy, the accelerations v̇ (nv) and multipliers λ (m) at the sample, then per
  /// reaction-dependent friction element (|R|, its friction, a guide's N).
  Eigen::MatrixXd history;
  Eigen::VectorXd final_state;  ///< y at t
};

/// Integrates the system from y0 at t = 0 to options.t_end (BDF with root functions on the
/// one-sided contacts' gaps, or RK4 with the crossings interpolated inside each step and the
/// positions normalized after it, MultibodySystem::normalizePositions; BDF holds a spatial
/// body's ‖p‖ = 1 to its tolerance only), recording the contact events and δ̇⁽⁻⁾ as described in the file comment. Throws
/// std::invalid_argument for bad options or a y0 of the wrong size; integration failures are
/// statuses.
PenaltyRun simulatePenalty(PenaltySystem& system, const Eigen::VectorXd& y0, const PenaltyIntegrationOptions& options);

}  // namespace stickslip::dynamics
