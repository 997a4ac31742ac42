#pragma once
/// \file Blajer & Markiewicz's minimal form of a friction-affected mechanism ("The minimal-form
/// modelling of mechanisms with friction", seeds/; DESIGN §2 "minimal form"), computed
/// numerically from a PlanarModel or from any Mechanism without contacts (a spatial one).
///
/// Absolute form (Blajer eq. 2.9, with the model's sign convention M v̇ + Cᵀλ = Q):
///   M ẍ = Q(t, x, ẋ) − Cᵀλ + C_μᵀ f_μ,   C ẍ = γ,
/// n velocity coordinates ẋ (3 per planar body, where they are the positions' rates; 6 per
/// spatial body, ṙ and the body-axes ω′, with q̇ = H(q) ẋ for its Euler parameters), m
/// constraint rows with multipliers λ (Blajer's f = −λ), and one sliding rate ṡ_j = C_μj ẋ
/// per frictional joint with the Coulomb force (eqs. 2.4–2.5)
///   revolute:   f_μj = −sgn(ṡ_j) μ r |R_j|   (torque on body j of the joint; |R_j| = ‖λ_j‖)
///   prismatic:  f_μj = −sgn(ṡ_j) μ |N_j|     (force along the line; N_j = λ of its normal row)
///   a Mechanism's joint friction: f_μj = −sgn(ṡ_j) μ ℓ |R_j|, its lever ℓ and its load |R_j|
///   as Mechanism::jointFrictionReaction gives it (a spatial slider: the end wall forces),
/// with μ = μk while sliding and μs as the static limit. Its DAE dimension is 2n + m.
///
/// Reduction. Blajer cuts the loops (constraints "2", m2 rows), takes the k1 = n − m1 joint
/// coordinates q of the open tree (ẋ = D1 q̇, eq. 4.2), then partitions the closing
/// constraints with the driver as independent velocity u (q̇ = D2 u, eqs. 5.1–5.2). Here the
/// composition D = D1 D2 is formed in one step from the absolute Jacobian: with the k
/// independent absolute coordinates x_I (the driver first) and the m dependent ones x_d,
///   C_d ẋ_d + C_I u = 0  ⇒  ẋ = D u,  D_I = I,  D_d = −C_d⁻¹ C_I,
///   ẍ = D u̇ + ν,  ν_I = 0,  ν_d = C_d⁻¹ γ.
/// Both D and D1 D2 are bases of the null space of C (C1 D1 = 0, C2 D1 D2 = C2′ D2 = 0) whose
/// rows at the independent coordinates are the identity (the driver's joint coordinate is an
/// absolute coordinate, e.g. the crank angle), so they are the same matrix, and
///   M″ = DᵀMD,  h″ = Dᵀ(Q − Mν),  h″_μ = Dᵀ C_μᵀ f_μ   (eq. 5.4₂)
/// are Blajer's reduced mass, forces and friction projection. The reactions solve the
/// projection of the absolute equations onto the constraint space (eq. 3.3₂ / 5.4₃)
///   (C M⁻¹ Cᵀ) λ = C M⁻¹ (Q + C_μᵀ f_μ(λ)) − γ,
/// which is nonlinear through |R|: λ = λ₀ + Σ_j w_j f_μj(λ), solved for the scalars f_μj by
/// Newton (or by the fixed point, a contraction for the usual small μ r); iterations reported.
/// Blajer's minimal DAE dimension is k1 + k + m (k1 kinematic equations q̇ = D2 u, k dynamic,
/// m algebraic). Numerically we integrate the positions q with q̇ = H(q) D u and the k states
/// u, and at every evaluation solve Φ(q) = 0 by Newton along the dependent velocity directions
/// (q ← q + H δ, δ_I = 0), so the dynamics are those of (x_I, u) alone and the closing
/// constraints never drift; the integrated q only starts the Newton iteration.
///
/// Stick–slip for one driver velocity u₀ (Blajer §5). Every sliding rate must be carried by
/// u₀ alone (ṡ = C″_μ u with C″_μ = C_μ D zero outside column 0; checked). At u₀ = 0:
/// u̇₀ with μ = 0 gives the tendency σ; with the friction set against σ at its static limit
/// (μs) u̇₀ is recomputed; equal signs: slip in direction σ (then μk), opposite: stick.
/// While stuck (u₀ ≡ 0) the release function −σ u̇₀(μs, σ) is a CVODE root function; its
/// zero starts the slip. During stiction the friction forces of several joints, hence the
/// reactions, are indeterminate (Blajer Fig. 8): they are reported as NaN; a single joint's is
/// the force that holds, and is reported.
///
/// A frictional joint on a moving surface (FrictionalJoint::surface_speed, then the only
/// one) sticks at ṡ = C″_μ00 u₀ − v_s(t) = 0: u₀ = u_s = v_s / C″_μ00 instead of 0, held
/// by u̇₀ = a_s = (v̇_s − C_μ ν − δ) / C″_μ00 (δ the sliding rate's velocity-product terms);
/// the tendency and the release function compare u̇₀ with a_s instead of 0.
///
/// Unilateral contacts kept closed (MinimalFormOptions::unilateral): their normal forces are
/// CVODE root functions, and the run stops with status lift-off where one reaches zero.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/integrators/cvode_integrator.hpp"
#include "dynamics/routes/run_result.hpp"
#include "dynamics/mechanism/mechanism.hpp"
#include "dynamics/model/planar_model.hpp"

namespace stickslip::dynamics {

enum class FrictionJointKind { kRevolute, kPrismatic, kPinInSlot, kMechanism };

/// Coulomb friction in one ideal joint of a PlanarModel (Blajer eqs. 2.4–2.5).
struct FrictionalJoint {
  std::string name = "joint friction";
  int joint = 0;           ///< index in PlanarModel::joints()
  /// kRevolute: a revolute joint, friction torque μ r |R| on body j (−… on i), ṡ = θ̇_j − θ̇_i.
  /// kPrismatic: a translational or point-on-line joint, friction force μ |N| along the line
  /// of body i on body j's point (opposite on i), ṡ the rate of that point along the line.
  /// kPinInSlot: the pin's rotation in a point-on-line joint (Blajer eq. 2.5₄): torque
  /// μ r |R| on body j, ṡ = θ̇_j − θ̇_i, with |R| = √(N² + F²) the resultant of the normal
  /// force and the slot's friction F (a kPrismatic entry on the same joint, if any); Blajer's
  /// √(1 + μt²) |N| whenever the slot slides.
  /// kMechanism: joint friction `joint` of the Mechanism the form reduces (its jointFriction()),
  /// read through that interface: ṡ its row, |R| its jointFrictionReaction, radius its lever.
  FrictionJointKind kind = FrictionJointKind::kRevolute;
  double radius = 0.0;     ///< lever arm r of the torque [m] (Blajer's d), > 0 for kRevolute
  double mu_static = 0.0;  ///< μs ≥ μk
  double mu_kinetic = 0.0; ///< μk ≥ 0
  /// kPrismatic only: the speed v_s(t) of body i's line along itself and its rate (a belt)
  /// [m/s, m/s²]; empty: 0. Sticking is then ṡ = v_s(t), the driver moving with the surface.
  std::function<double(double)> surface_speed, surface_acceleration;
  /// Throws std::invalid_argument("<name>: expected …, got …"); kMechanism is not a
  /// PlanarModel's.
  void validate(const PlanarModel& model) const;
  double surfaceSpeed(double t) const { return surface_speed ? surface_speed(t) : 0.0; }
};

/// A point-on-line joint standing for a unilateral contact that is closed and loaded at the
/// start: its normal force N = sign · λ(row of the joint) must stay positive, and the run stops
/// where it reaches zero (lift-off), the degrees of freedom changing there.
struct UnilateralJoint {
  std::string name = "contact";
  int joint = 0;      ///< index in PlanarModel::joints(), a point-on-line joint
  double sign = 1.0;  ///< ±1: N = sign · λ of the joint's normal row
};

/// Sizes of Blajer's two formulations (§2, §5).
struct ReductionDimensions {
  Eigen::Index n = 0;   ///< absolute velocity coordinates (3 per planar body, 6 per spatial one)
  Eigen::Index m = 0;   ///< constraint rows (reactions)
  Eigen::Index k = 0;   ///< degrees of freedom n − m
  Eigen::Index m1 = 0;  ///< rows of the open tree
  Eigen::Index m2 = 0;  ///< closing rows (cut joints)
  Eigen::Index k1 = 0;  ///< joint coordinates of the tree, n − m1
  Eigen::Index absolute() const { return 2 * n + m; }  ///< DAE (2.9): x, ẋ, f
  Eigen::Index minimal() const { return k1 + k + m; }  ///< DAE (5.4): q, u, f
};

struct MinimalFormOptions {
  /// Independent velocity coordinates (a planar model's are PlanarModel::coordinate), k of
  /// them; the first is the driver u₀ that carries every sliding rate. Required.
  std::vector<Eigen::Index> independent;
  /// A PlanarModel's joints cut to open the loops (Blajer's constraints "2"), only for the
  /// dimensions; empty: every joint that closes a loop when the joints are added in order.
  std::vector<int> cut_joints;
  /// A Mechanism's: the rows of its loop-closing joints (Blajer's m2), only for the dimensions.
  Eigen::Index closing_rows = 0;
  /// Unilateral contacts kept closed and watched for lift-off.
  std::vector<UnilateralJoint> unilateral;
  double position_tolerance = 1e-13;  ///< Newton on Φ(x) = 0, ‖Φ‖∞ [m, rad]
  int max_newton_iterations = 30;
  double reaction_tolerance = 1e-13;  ///< on the change of f_μ, relative
  int max_reaction_iterations = 200;
  /// Reactions of 5.4₃: Newton on the friction forces f_μ (default; the map is smooth while
  /// every |R_j| > 0) or the plain fixed point f_μ ← φ(λ₀ + W f_μ).
  bool reaction_newton = true;
  void validate() const;  ///< throws std::invalid_argument
};

/// Friction used in one evaluation: per joint the direction d_j (±1, 0: no friction, NaN: the
/// sign of the present ṡ_j) and coefficient μ_j, f_μj = −d_j μ_j (r) |reaction_j|.
struct FrictionSetting {
  Eigen::VectorXd direction, mu;
};

/// Everything one evaluation of the minimal form computes at (t, q, u).
struct MinimalFormState {
  Eigen::VectorXd x, xdot;        ///< positions q (assembled) and velocities ẋ = D u
  Eigen::MatrixXd D;              ///< n × k
  Eigen::MatrixXd reduced_mass;   ///< M″ (k × k)
  Eigen::VectorXd reduced_force;  ///< h″ (k)
  Eigen::VectorXd friction_force; ///< h″_μ (k)
  Eigen::VectorXd udot;           ///< u̇ (k)
  Eigen::VectorXd lambda;         ///< multipliers (m); Blajer's f = −λ
  Eigen::VectorXd reaction;       ///< |R_j| (revolute) or |N_j| (prismatic) per frictional joint [N]
  Eigen::VectorXd friction;       ///< f_μj per frictional joint
  Eigen::MatrixXd sliding;        ///< C″_μ = C_μ D (joints × k)
  /// The driver's velocity and acceleration at which every frictional joint sticks: u₀ with
  /// C″_μ00 u₀ = v_s(t), and u̇₀ keeping that rate (0 and 0 without a moving surface).
  double stick_velocity = 0.0, stick_acceleration = 0.0;
  Eigen::VectorXd normal_force;   ///< N of each UnilateralJoint (NaN where indeterminate)
  int reaction_iterations = 0;    ///< fixed-point iterations of this evaluation
  bool reaction_converged = true;
};

/// The reduction of one model; reusable, not thread-safe (keeps the last assembled positions,
/// the inverse dynamics' Newton guess). Keeps a reference to the model or mechanism.
class MinimalForm {
 public:
  /// Throws std::invalid_argument for invalid options or joints, a rheonomic driver in the
  /// model, k = n − m < 1, or a singular C_d at x0 (a bad choice of independent coordinates).
  MinimalForm(const PlanarModel& model, std::vector<FrictionalJoint> friction,
              MinimalFormOptions options, const Eigen::VectorXd& x0);
  /// The reduction of a Mechanism without contacts, planar or spatial; its frictional joints
  /// are the mechanism's joint friction (kMechanism, in jointFriction()'s order). Keeps a
  /// reference to `mechanism`. Throws as above, and for contacts, unilateral options or a
  /// constraint that moves in time (Φt ≠ 0 at q0).
  MinimalForm(const Mechanism& mechanism, MinimalFormOptions options, const Eigen::VectorXd& q0);

  const ReductionDimensions& dimensions() const { return dims_; }
  const std::vector<FrictionalJoint>& friction() const { return friction_; }
  const MultibodySystem& system() const { return system_; }
  const MinimalFormOptions& options() const { return opt_; }
  Eigen::Index k() const { return dims_.k; }
  /// Its one frictional joint slides on a moving surface (sticking at u₀ = v_s / C″_μ00).
  bool movingSurface() const { return moving_surface_; }

  /// Solves Φ(x) = 0 from the guess q by Newton along the dependent velocity directions
  /// (x ← x + H δ with δ_I = 0: a planar model's x_I stays q_I). Returns false if it does not
  /// converge.
  bool solvePositions(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::VectorXd& x);
  /// Kinematics and dynamics at (t, q, u), q assembled first (solvePositions), with the given
  /// friction (state.udot from 5.4₂, λ from 5.4₃). `locked` (stiction): u̇₀ =
  /// stick_acceleration; with one frictional joint its force is the one that holds and λ
  /// follows, with more they are indeterminate: NaN. Returns false if the positions do not
  /// assemble (state.x then holds the last iterate).
  bool evaluate(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& u, const FrictionSetting& friction,
                bool locked, MinimalFormState& state);
  /// The friction setting against the sliding direction of every joint when u₀ moves in
  /// direction sigma (±1), with μs (static) or μk: d_j = sign(C″_μj0 σ).
  FrictionSetting against(const MinimalFormState& state, double sigma, bool static_limit) const;
  FrictionSetting none() const;

  struct InverseDynamics {
    double torque = 0.0;       ///< driving force/torque along `drive` [N·m or N]
    Eigen::VectorXd lambda;    ///< multipliers (m)
    Eigen::VectorXd reaction;  ///< per frictional joint
    Eigen::VectorXd x;         ///< assembled positions
    int iterations = 0;
    bool converged = false;
  };
  /// Blajer §7 (k = 1, a PlanarModel): the driving torque τ along the generalized direction
  /// `drive` (size n, e.g. the unit vector of the crank angle) and the reactions for the
  /// programmed motion x_I0 = q, u = qd, u̇ = qdd, with kinetic friction against sgn(u)
  /// (against sgn(u̇) at u = 0). Throws std::invalid_argument for k ≠ 1, a Mechanism's form or
  /// a drive that does not move the mechanism.
  InverseDynamics inverseDynamics(double t, double q, double qd, double qdd,
                                  const Eigen::VectorXd& drive);

  /// Sliding rate ṡ_j = C_μj(x) ẋ − v_s(t) of frictional joint j (FrictionalJoint: its sign
  /// convention) at time t, positions x and velocities ẋ.
  double slidingRate(std::size_t j, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& xdot) const;
  /// The velocity-product terms of its rate's derivative, s̈_j − C_μj ẍ, at (x, ẋ) (0 for a
  /// revolute joint, whose rate is linear in ẋ).
  double slidingDrift(std::size_t j, const Eigen::VectorXd& x, const Eigen::VectorXd& xdot) const;

 private:
  void slidingRow(const FrictionalJoint& fj, const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> row) const;
  double reactionOf(const FrictionalJoint& fj, const Eigen::VectorXd& lambda) const;
  // |R_j| from λ and, for a pin in a slot, the slot's friction in f.
  double reactionOf(Eigen::Index j, const Eigen::VectorXd& lambda, const Eigen::VectorXd& f) const;
  bool kinematics(double t, const Eigen::Ref<const Eigen::VectorXd>& xi,
                  const Eigen::Ref<const Eigen::VectorXd>& u, MinimalFormState& s);
  // λ₀ + Σ w_j f_μj with the fixed point on f_μ; `extra` adds a known generalized force.
  // With `fixed`, f_μ = s.friction is given and only λ and the reactions follow.
  void reactions(const FrictionSetting& f, const Eigen::VectorXd& extra, MinimalFormState& s, bool fixed = false);
  void normalForces(MinimalFormState& s) const;
  // Everything both constructors share once friction_ and opt_ are set.
  void initialize(const Eigen::VectorXd& q0);
  // ∂|R_j|/∂λ of a Mechanism's joint friction j into g (size m).
  using RowRef = Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;  // a row of a column-major matrix
  void loadGradient(std::size_t j, const Eigen::VectorXd& lambda, RowRef g) const;

  const MultibodySystem& system_;
  const PlanarModel* planar_ = nullptr;    // the planar form's model
  const Mechanism* mechanism_ = nullptr;   // a Mechanism's form
  std::vector<std::vector<JointLoadTerm>> load_;  // per kMechanism joint: its load's terms
  std::vector<FrictionalJoint> friction_;
  MinimalFormOptions opt_;
  ReductionDimensions dims_;
  std::vector<Eigen::Index> dependent_;
  std::vector<Eigen::Index> slot_of_;  // per joint: the kPrismatic entry on a pin's joint, or −1
  bool moving_surface_ = false;        // the one frictional joint slides on a moving surface
  Eigen::VectorXd last_x_;
  Eigen::MatrixXd C_, Cmu_, MinvCt_;  // C (m × n), C_μ (joints × n), M⁻¹ Cᵀ
  Eigen::VectorXd phi_, gamma_, Q_, nu_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;  // of C_d
};

struct MinimalFormSimulationOptions {
  double t_end = 1.0;                 ///< [s], > 0
  OdeMethod integrator = OdeMethod::kAdams;
  double relative_tolerance = 1e-10;  ///< CVODE
  double absolute_tolerance = 1e-12;
  double max_step = 0.0;              ///< [s], 0: unlimited
  double output_dt = 1e-3;            ///< history sampling [s] (events add rows)
  /// |u̇₀| below this (scaled by 1 + |h″₀/M″₀₀|) counts as no tendency: stick [1/s²]
  double acceleration_tolerance = 1e-12;
  long max_events = 100000;
  long max_total_steps = 100'000'000;  ///< CVODE steps over the run; more stop it (limit-reached)
  void validate() const;  ///< throws std::invalid_argument
};

/// A minimal-form run: the common nonsmooth result plus the reduction's own figures.
/// run.events: per frictional joint (contact = its index) stick / slip+ / slip− (slip± is the
/// sign of its ṡ), at every stick of the mechanism, every slip start, and every change of a
/// joint's sliding direction while u₀ moves (C″_μj0 changing sign, e.g. at a dead centre); a
/// joint that breaks away at a dead centre (ṡ_j ≡ 0 there) has its slip reported at the
/// break-away once its direction shows (the next sample).
/// run.history columns: t, q, ẋ (historyColumns' names), u̇ (k), λ (m), then per frictional joint its
/// reaction |R_j| or |N_j| and f_μj; λ, reactions and friction are NaN while several joints
/// stick (one joint: its holding force).
struct MinimalFormRun {
  RunResult run;
  ReductionDimensions dimensions;
  long rhs_evaluations = 0;
  long reaction_iterations = 0;     ///< over every evaluation
  int max_reaction_iterations = 0;  ///< in one evaluation
  long reaction_failures = 0;       ///< evaluations whose fixed point did not converge
  std::vector<std::pair<double, double>> stick_intervals;  ///< [t_start, t_end] of u₀ ≡ 0
};

/// Integrates the minimal form from the assembled positions x0 with u = u0 (k): the state
/// (q, u), q̇ = H(q) D u. Failures (positions
/// not assembling, friction not carried by u₀ alone) stop the run with a failed status and a
/// message naming time and cause. Throws std::invalid_argument for invalid options or sizes.
MinimalFormRun simulateMinimalForm(MinimalForm& form, const Eigen::VectorXd& x0,
                                   const Eigen::VectorXd& u0,
                                   const MinimalFormSimulationOptions& options);

/// The joints not needed to connect `bodies` bodies to the ground (kGround = −1), each joint
/// given by its two bodies: each one closes a loop when the joints are added in order.
std::vector<int> loopClosingJoints(int bodies, const std::vector<std::pair<BodyIndex, BodyIndex>>& joints);

/// Stick intervals of one element in an event list: from each stick event of `contact` to
/// its next slip event (t_end if none). Works for event-driven runs as well.
std::vector<std::pair<double, double>> stickIntervals(const std::vector<ContactEvent>& events,
                                                      int contact, double t_end);

}  // namespace stickslip::dynamics
