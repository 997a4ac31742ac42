#pragma once
/// \file The regularized (penalty) route on a general planar multibody model (DESIGN §2):
/// compliant contacts with a normal law and a friction law, added to the generalized forces
/// of a PlanarModel, and integrated with its ideal joints as one ODE.
///
/// Each contact k has a gap g_k(q) = −δ_k, a tangential velocity v_t,k and the 2×6 Jacobian
/// J_k = [J_n; J_t] of its geometry (dynamics/contact/journal_bearing.hpp, point_line.hpp), so
/// that ġ = J_n q̇ and v_t = J_t q̇ − v_s(t). A point-on-line contact may be a disk of radius ρ
/// centred at the point: its gap is the point's less ρ and its tangential velocity that of the
/// disk's material point P − ρ n (J_t gains −ρ at θ_i and +ρ at θ_j, t = S n); v_s(t) is the
/// line's surface speed along t (a belt; 0 otherwise). The normal force Fₙ = F(δ, δ̇; δ̇⁽⁻⁾) ≥ 0 comes from the
/// contact's normal law, the friction force Fₜ = F_law(v_t, Fₙ, Fₑ; z) from its friction
/// law with internal states z, and the contact adds Jᵀ (Fₙ, Fₜ) to Q (the virtual power of
/// the contact force is Fₙ ġ + Fₜ v_t; journal_bearing.hpp and point_line.hpp derive the
/// rows). The equations of motion are those of EomSolver with this Q:
///   q̇ = v,   M v̇ + Dᵀλ = Q_model(q, v, t) + Σ_k J_kᵀ (Fₙ,k, Fₜ,k),   D v̇ = γ,
///   ż_k = stateRate_k(v_t,k, Fₙ,k, z_k)
/// on the state y = [q; v; z; W] (z: the friction states of every contact, in contact order, then
/// of every frictional joint; W the work the friction forces have dissipated,
/// Ẇ = −Σ Fₜ v_t − Σ F v over the contacts and the elements below).
///
/// Friction whose load is a constraint's reaction (PenaltyJointFriction), Blajer & Markiewicz
/// eqs. 2.4–2.5:
///  - in an ideal revolute joint, the torque on body j (−T on i)
///      T = r F_law(v = r ṡ, N = |R|, Fₑ = 0; z),   ṡ = θ̇_j − θ̇_i,
///    with |R| the joint's reaction force (revolute_friction.hpp), entering Q as Cᵀ T;
///  - along a guide, a bilateral disk–line contact (rigid_contact.hpp) that an ideal
///    point-on-line joint of the model keeps closed (addClosingJoint): the force
///      F = F_law(v_t, N = |N|, Fₑ = 0; z),   N the joint's multiplier (the normal force −λ),
///    along the contact's tangent, entering Q as J_tᵀ F (v_t = J_t v − v_s(t) as the nonsmooth
///    routes see it, rolling and a moving surface included).
/// The reaction depends on the friction through the constrained equations, which are linear in
/// their forces: with one such element, R(F) = a + b F (two solves, F = 0 and F = 1) and
/// F = F_law(|R(F)|) is one scalar equation, solved to round-off by solveFrictionLoop
/// (friction_loop.hpp) — no value lagged, and on a law with several roots (LuGre's fold) the
/// one that continues the frictionless reaction. With several, derivative() iterates: solve
/// with the |R| of the previous call, recompute |R| from the multipliers, repeat until it
/// changes by less than 1e-12 (1 + |R|) (at most 50 solves; then kNotConverged, naming the
/// element). That map contracts when μ r |∂|R|/∂T| < 1: pins are small against the links.
/// The tangential force from the other forces, Fₑ, which the Karnopp-type laws read over a
/// velocity band (FrictionLaw::usesAppliedForce), is the force that would have to act at the
/// contact to keep it from accelerating tangentially, with the sign of an applied force:
/// Fₑ = a_t / W, where a_t = J_t v̇ is the
/// tangential acceleration with the friction of every such contact left out and W = J_t Δv̇
/// the response to a unit tangential force at the contact alone (the constrained mass seen
/// there; one more solve each). The law's holding force −Fₑ then cancels a_t; the term J̇_t v
/// and a moving surface's acceleration are left out (exact for a translating contact on a
/// steady belt, O(v²κ) on a curved one, where the band absorbs it). Contacts coupled through
/// the masses are each resolved with the others' held friction left out. Other laws get
/// Fₑ = 0 at no extra cost: they read it at v_t = 0 exactly at most. Joint friction gets 0;
/// the constructor refuses a law that reads Fₑ there.
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
/// is added through MultibodySystem::generalizedForces of this class, which wraps the model).
/// Not thread-safe: one PenaltySystem per thread.

#include <Eigen/Dense>
#include <limits>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/contact/journal_bearing.hpp"
#include "dynamics/contact/normal_law.hpp"
#include "dynamics/contact/point_line.hpp"
#include "dynamics/eom_solver.hpp"
#include "dynamics/forwarded_system.hpp"
#include "dynamics/friction/friction_law.hpp"
#include "dynamics/nonsmooth/revolute_friction.hpp"
#include "dynamics/nonsmooth/rigid_contact.hpp"
#include "dynamics/planar_model.hpp"

namespace stickslip::dynamics {

/// A compliant contact between body i and body j of a PlanarModel (either may be kGround).
struct PenaltyContact {
  enum class Kind { kJournalBearing, kPointOnLine };
  Kind kind = Kind::kJournalBearing;
  std::string name = "contact";
  /// Journal body (kJournalBearing) or point (disk centre) body (kPointOnLine).
  BodyIndex body_i = kGround;
  /// Bearing body (kJournalBearing) or line body (kPointOnLine).
  BodyIndex body_j = kGround;
  JournalBearingJoint journal_bearing;  ///< used when kind == kJournalBearing
  PointLineContact point_line;          ///< used when kind == kPointOnLine
  double radius = 0.0;                   ///< kPointOnLine: disk radius ρ [m], ≥ 0
  /// kPointOnLine: the line's surface speed v_s(t) along t = S n [m/s]; empty: 0.
  std::function<double(double)> surface_speed;
  /// Two-sided (a compliant guide): on the free side, g > 0, the law pulls back with
  /// Fₙ = −F(g, −δ̇) (friction then on |Fₙ|), with δ̇⁽⁻⁾ held at the law's minimum. Its gap
  /// crossings are no contact events.
  bool two_sided = false;
  NormalLaw normal = HertzLaw{};
  /// Friction law (shared: a law object is const and may serve several contacts); null for
  /// a frictionless contact.
  std::shared_ptr<const FrictionLaw> friction;

  static PenaltyContact journalBearing(BodyIndex journal, BodyIndex bearing,
                                       const JournalBearingJoint& joint, NormalLaw normal,
                                       std::shared_ptr<const FrictionLaw> friction = nullptr,
                                       std::string name = "journal-bearing");
  static PenaltyContact pointOnLine(BodyIndex point_body, BodyIndex line_body,
                                    const PointLineContact& geometry, NormalLaw normal,
                                    std::shared_ptr<const FrictionLaw> friction = nullptr,
                                    std::string name = "point-on-line");
  /// Throws std::invalid_argument for invalid geometry or normal-law parameters.
  void validate(const PlanarModel& model) const;
  int frictionStateSize() const { return friction ? friction->stateSize() : 0; }
};

/// Friction whose load is a constraint reaction (see the file comment): in a revolute joint, or
/// along a guide.
struct PenaltyJointFriction {
  /// The revolute joint and its pin radius r; for a guide, the point-on-line joint that keeps it
  /// closed (its name and index; the radius and μ unused).
  RevoluteFriction joint;
  /// A guide: the bilateral disk–line contact whose v_t slides. Empty: a revolute joint.
  std::optional<RigidContact> guide;
  /// The law; null: a frictionless guide, kept for its normal force.
  std::shared_ptr<const FrictionLaw> law;
  int frictionStateSize() const { return law ? law->stateSize() : 0; }
  const std::string& name() const { return guide ? guide->name : joint.name; }
};

/// Everything about one contact at one instant.
struct ContactEvaluation {
  double penetration = 0.0;          ///< δ = −g [m]
  double penetration_rate = 0.0;     ///< δ̇ [m/s]
  double tangential_velocity = 0.0;  ///< v_t [m/s]
  double normal_force = 0.0;         ///< Fₙ ≥ 0 [N]
  double friction_force = 0.0;       ///< Fₜ [N], along the tangent t, on body i
  Eigen::Vector2d normal = Eigen::Vector2d::Zero();   ///< n (world)
  Eigen::Vector2d tangent = Eigen::Vector2d::Zero();  ///< t (world)
  /// World force on body i: −Fₙ n + Fₜ t (journal) or Fₙ n + Fₜ t (point-line).
  Eigen::Vector2d force_on_i = Eigen::Vector2d::Zero();
  Eigen::Vector2d point_on_i = Eigen::Vector2d::Zero();  ///< where it acts on i (C_J or P)
  Eigen::Vector2d point_on_j = Eigen::Vector2d::Zero();  ///< where −force_on_i acts on j
  /// Row 0 J_n = ∂g/∂q, row 1 J_t; columns (q_i, q_j), zero for a ground body.
  Eigen::Matrix<double, 2, 6> jacobian = Eigen::Matrix<double, 2, 6>::Zero();
  /// Jᵀ (Fₙ, Fₜ): the generalized forces on (q_i, q_j).
  Eigen::Matrix<double, 6, 1> generalized_force = Eigen::Matrix<double, 6, 1>::Zero();
};

/// Per-contact discrete state: whether a contact is recorded as closed and its δ̇⁽⁻⁾.
struct ContactStatus {
  bool closed = false;
  double impact_velocity = 0.0;  ///< δ̇⁽⁻⁾ of the present (or last) contact [m/s]
};

/// The model with its penalty contacts as one MultibodySystem (its generalizedForces() adds
/// the contact forces) and the ODE ẏ = f(t, y) on y = [q; v; z].
class PenaltySystem final : public ForwardedSystem<MultibodySystem> {
 public:
  /// Keeps a reference to `model`, which must outlive this object. Throws
  /// std::invalid_argument for an invalid contact or option.
  PenaltySystem(const PlanarModel& model, std::vector<PenaltyContact> contacts,
                EomMethod method = EomMethod::kLagrange, EomOptions options = {},
                std::vector<PenaltyJointFriction> joint_friction = {});
  PenaltySystem(const PenaltySystem&) = delete;
  PenaltySystem& operator=(const PenaltySystem&) = delete;

  const PlanarModel& model() const { return model_; }
  const std::vector<PenaltyContact>& contacts() const { return contacts_; }
  const std::vector<PenaltyJointFriction>& jointFriction() const { return joint_friction_; }
  Eigen::Index frictionStateSize() const { return nz_; }
  Eigen::Index stateSize() const { return 2 * model_.velocitySize() + nz_ + 1; }  ///< size of y
  /// Index of W, the dissipated friction work, in y (its last entry).
  Eigen::Index workIndex() const { return stateSize() - 1; }
  /// Offset of contact k's friction states in z.
  Eigen::Index frictionStateOffset(int k) const { return z_offset_[std::size_t(k)]; }
  /// Offset of joint friction e's states in z.
  Eigen::Index jointFrictionStateOffset(int e) const { return joint_z_offset_[std::size_t(e)]; }

  /// y = [q; v; z; 0] with z from each law's initialState() at (q, v); the contact statuses
  /// are reset (closed where δ > 0, with δ̇⁽⁻⁾ = max(δ̇, 0)). Throws on size mismatch.
  Eigen::VectorXd initialState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  /// ẏ = f(t, y). Returns the EOM status (accelerations undefined unless kSuccess).
  EomStatus derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                       Eigen::Ref<Eigen::VectorXd> ydot);

  /// Contact k at (t, q, v) with friction states z_k (size of its law's states) and the
  /// impact velocity from its status (or the current δ̇ if it is not recorded closed).
  ContactEvaluation evaluateContact(int k, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& v,
                                    const Eigen::Ref<const Eigen::VectorXd>& z) const;

  /// Element e after the last derivative(): the reaction |R| or |N| [N] it converged to, the
  /// friction it exerts (a joint's torque T on body j [N·m], a guide's force F along its
  /// tangent [N]), and a guide's signed normal force N (NaN for a joint) [N].
  double jointReaction(int e) const { return reaction_[std::size_t(e)]; }
  double jointFrictionTorque(int e) const { return joint_torque_[std::size_t(e)]; }
  double guideNormal(int e) const { return guide_normal_[std::size_t(e)]; }

  const std::vector<ContactStatus>& contactStatus() const { return status_; }
  /// Records contact k as closed (impact velocity δ̇⁽⁻⁾ = `impact_velocity`) or open.
  void setContactStatus(int k, bool closed, double impact_velocity);

  /// T + V_model + Σ elastic contact energy [J] at y (for energy checks).
  double totalEnergy(const Eigen::Ref<const Eigen::VectorXd>& y) const;

  EomSolver& eomSolver() { return solver_; }

  // MultibodySystem: the model's (ForwardedSystem), with the contacts' Jᵀ(Fₙ, Fₜ) added to Q.
  // generalizedForces uses the friction states of the y passed to the last derivative() call.
  void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v,
                         Eigen::Ref<Eigen::VectorXd> forces) const override;
  /// Why the last derivative() failed (EomSolver::failure(), or the joint friction's fixed
  /// point).
  const std::string& eomFailure() const { return failure_.empty() ? solver_.failure() : failure_; }

 private:
  /// The accelerations with the reaction-dependent friction resolved (file comment).
  EomStatus solveJointFriction(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v,
                               Eigen::Ref<Eigen::VectorXd> vdot);
  /// The one element's exact loop (file comment).
  EomStatus solveFrictionLoop(std::size_t e, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                              const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot);
  /// |R| of element e (a joint's reaction force, a guide's |N|) from multipliers λ.
  double elementReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda) const;
  /// The law's sliding velocity of element e at v: r ṡ for a joint, v_t for a guide
  /// (guide_kin_ evaluated at the present positions).
  double elementVelocity(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const;

  const PlanarModel& model_;
  std::vector<PenaltyContact> contacts_;
  std::vector<PenaltyJointFriction> joint_friction_;
  std::vector<Eigen::Index> z_offset_, joint_z_offset_;
  Eigen::Index nz_ = 0;
  std::vector<ContactStatus> status_;
  EomSolver solver_;
  /// Fₑ of every contact whose law reads it, from the accelerations (file comment).
  void computeAppliedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v);

  // Workspace: the friction states of the current derivative() call, and each contact's
  // last evaluation (its v_t and Fₙ feed the friction-state rates).
  mutable Eigen::VectorXd z_;
  mutable std::vector<ContactEvaluation> last_;
  // Fₑ: the contacts whose law reads it, their values, and what generalizedForces() puts at
  // those contacts while they are computed — their friction (kFull), nothing (kHeldOff), or
  // nothing but a unit Fₜ at `probe_` (kProbe).
  enum class Pass { kFull, kHeldOff, kProbe };
  std::vector<int> held_;
  std::vector<double> applied_;
  mutable Pass pass_ = Pass::kFull;
  int probe_ = -1;
  Eigen::VectorXd vdot_free_, vdot_probe_;
  // Reaction-dependent friction: the |R| the forces are computed with (the fixed point's
  // iterate), the friction of the last generalizedForces() (torque or force), a force that
  // replaces the law's while the loop probes (NaN: none), the guides' normal forces, and the
  // guides' kinematics at the present positions (guide_index_: element → its row in them).
  std::vector<double> reaction_;
  mutable std::vector<double> joint_torque_;
  std::vector<double> probe_force_, guide_normal_;
  std::vector<RigidContact> guides_;
  std::vector<int> guide_index_;
  mutable ContactKinematics guide_kin_;
  Eigen::VectorXd lambda0_, lambda1_;
  std::string failure_;
};

/// Options of simulatePenalty().
struct PenaltyIntegrationOptions {
  enum class Integrator { kBdf, kRk4 } integrator = Integrator::kBdf;
  double t_end = 0.2;                ///< [s], > 0
  double dt = 1e-6;                  ///< RK4 step [s], > 0
  double relative_tolerance = 1e-8;  ///< BDF, > 0
  double absolute_tolerance = 1e-12; ///< BDF, > 0 (the states include δ of µm and below)
  double max_step = 1e-4;            ///< BDF largest step [s], ≥ 0 (0: unlimited)
  long max_steps = 500000;           ///< BDF steps between two samples or events, ≥ 1
  double output_dt = 1e-4;           ///< history sampling [s], > 0
  /// BDF: give up (kIntegratorFailure, with the reason) after this many internal steps in
  /// all, or after this many contact events in a row that leave t where it was (chattering).
  long max_total_steps = 2000000;
  int max_stalled_events = 200;
  /// For a passive system (no drivers, no applied work): stop with kEnergyIncrease when the
  /// sampled total energy exceeds its initial value by more than this [J] — a numerical
  /// instability or a friction law that is not dissipative here. Infinite: no check.
  double max_energy_gain = std::numeric_limits<double>::infinity();
  /// Called with the simulated time after every sample (a progress bar); empty: not called.
  std::function<void(double)> progress;
};

enum class PenaltyStatus { kSuccess, kEomFailure, kIntegratorFailure, kEnergyIncrease };
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
  double cpu_seconds = 0.0;
  std::vector<ContactCrossing> events;
  /// Sampled every output_dt; columns: t, y (stateSize), per contact (δ, v_t, Fₙ, Fₜ), the
  /// total energy, the accelerations v̇ (nv) and multipliers λ (m) at the sample, then per
  /// reaction-dependent friction element (|R|, its friction, a guide's N).
  Eigen::MatrixXd history;
  Eigen::VectorXd final_state;  ///< y at t
};

/// Integrates the system from y0 at t = 0 to options.t_end (BDF with root functions on the
/// gaps, or RK4 with the crossings interpolated inside each step), recording the contact
/// events and δ̇⁽⁻⁾ as described in the file comment. Throws std::invalid_argument for bad
/// options or a y0 of the wrong size; integration failures are statuses.
PenaltyRun simulatePenalty(PenaltySystem& system, const Eigen::VectorXd& y0,
                           const PenaltyIntegrationOptions& options);

}  // namespace stickslip::dynamics
