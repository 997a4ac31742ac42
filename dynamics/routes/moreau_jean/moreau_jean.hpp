#pragma once
/// \file Moreau–Jean time-stepping (DESIGN §2) for a PlanarModel with rigid contacts and
/// friction in revolute joints [Moreau 1988; Jean 1999; Acary & Brogliato 2008, ch. 10].
///
/// One step from (t_k, q_k, v_k) with size h (θ = `theta`, rigid_contact.hpp for J, g, v_s,
/// constrained_response.hpp for a₀ and G):
///   q_θ = q_k + θ h v_k,  t_θ = t_k + θ h:   a₀, G = ConstrainedResponse(t_θ, q_θ, v_k)
///   contacts at (t_θ, q_θ, v_k):   g, ġ = J_n v_k, J = J(q_θ)   (rows 2i: J_n, 2i+1: J_t)
///   v_free = v_k + h a₀, projected onto D(q_θ) v = −Φ_t − κ Φ / h (joints at velocity level;
///                                              D G = 0 keeps impulses on that set)
///   active set A = { unilateral i : g + γ h ġ ≤ ε_g, or closed in the previous step }
///                  ∪ { bilateral i },  γ = ½ (as Siconos), ε_g = gap_tolerance
///   planar friction problem over A (lcp::FrictionProblem2D, r = impulses P):
///     W = J_A G J_Aᵀ,  q_n = J_n v_free + e_i min(ġ_k, 0),  q_t = J_t v_free − v_s(t_{k+1})
///     so that u_n = ġ_{k+1} + e ġ_k  (Newton's impact law ġ⁺ = −e ġ⁻ when 0 < P_n) and
///     u_t = v_t,{k+1} (sliding velocity against the moving surface);
///   v_{k+1} = v_free + G J_Aᵀ P,   q_{k+1} = q_k + h ((1 − θ) v_k + θ v_{k+1}),
///   then a closed contact that penetrates projected back to g = 0 (project_contacts).
/// The forces are evaluated at q_θ (the midpoint for θ = ½) so the free flight is second
/// order, and the contacts with them, so that G and J belong to one configuration: written at
/// q_k (as Siconos' MoreauJeanOSI) against the joints' projection at q_θ, a journal in its
/// bearing rang at θ = ½ and stuck every ~10 ms (zheng-torque: 59 changes for event-driven's
/// 9). A contact closed in the previous step stays in the problem whatever its predicted gap
/// (its LCP opens it, P_n = 0, when it separates): projected to g = 0, a contact carrying a
/// small load would otherwise drop out and re-close every other step. A bilateral contact's
/// gap feedback takes g_k = g(q_θ) − θ h ġ.
///
/// Static and kinetic friction. The velocity-level problem admits one coefficient per
/// contact and step. We take μk for a contact that slipped in the previous step and μs
/// otherwise (stuck, just closing, or open); if a contact solved with μs comes out slipping
/// (a break-away inside the step: Lemke's sliding speed λ > 0, exactly zero while it sticks;
/// Siconos' solvers: |u_t| > stick_velocity), the problem is solved again with μk for that
/// contact (only one LCP entry changes). A slipping contact therefore sticks again
/// when an impulse within μk P_n can stop it (its velocity crosses zero inside the step), and
/// a stuck one breaks away when μs P_n is not enough: the set-valued law with stiction, to
/// O(h) in the event times. A velocity reversal inside a step ends that step at rest, and the
/// next breaks away: one step of stick between the two slip directions (Dupont's problem has
/// such reversals), which the events report as the reversal (below). A contact (or joint,
/// "lemke" solver) that slipped in the last step and whose sliding velocity changes sign with
/// μk passed through rest inside the step, where μs acts: it is solved again with μs, and
/// keeps that solution if it sticks, else (or if the joints' bounds do not converge with μs,
/// as at an impact) goes back to μk. Without this a mechanism that comes to rest where it
/// needs more than μk but no more than μs to hold slid on whenever the crossing fell early in
/// a step (Blajer's Example 1 with friction everywhere, at h = 1e-4 s).
///
/// Solvers: "lemke" writes the exact 4-per-contact LCP of friction_to_lcp.hpp into a
/// workspace sized once per active-set size (one problem and one LemkeSolver each, made when
/// that size is first met), so a step allocates nothing once every active-set size has been
/// met (the test nonsmooth_moreau_jean_test measures it). Its W = [J_A; C_E] G [J_A; C_E]ᵀ is
/// dense, (2 na + nj)² entries for ~(2 na)² nv operations.
/// "nsgs" (lcp/nsgs.hpp, unilateral contacts without joint friction) works on the sparse W:
/// with no ideal joints (G = M⁻¹, diagonal) W_A = J_A M⁻¹ J_Aᵀ is assembled directly in
/// compressed rows, its nonzero blocks those of contacts that share a body (the pattern of
/// such pairs is found once), so a step costs O(nnz(J) + nnz(W) · sweeps) and allocates
/// nothing. With ideal joints G couples everything they connect, and J_A G J_Aᵀ is dense;
/// where the joints are handled sparse (ConstrainedResponse::sparse()) they join the problem
/// instead, as bilateral blocks of two rows of D after the contacts' (padded by a decoupled row
/// when m is odd):
///   [u; u_D] = [J_A; D] M⁻¹ [J_A; D]ᵀ [P; λ] + [q; 0],   u_D = 0, λ free,
/// whose elimination of λ is W = J_A G J_Aᵀ: the same step, v = v_free + M⁻¹ (J_Aᵀ P + Dᵀ λ),
/// on a matrix as sparse as the mechanism (q_D = 0 since D v_free already meets the joints'
/// velocity equation, which G Jᵀ P leaves unchanged). Elsewhere W is formed densely as for
/// Lemke and handed to NSGS by its nonzeros. NSGS starts from the contacts' impulses of the
/// last step (and the joints', scaled by the step ratio) and stops at Siconos' error
/// nsgs_tolerance.
/// "newton" (lcp/planar_newton.hpp, the same contacts and the same W) solves the step's problem
/// by the global nonsmooth Newton, warm-started likewise: its sparse factorization keeps its
/// pattern and pivots from step to step (a step allocates nothing while the closed contacts
/// and the pivot order stay), and it costs what W's pattern costs, where Gauss–Seidel needs
/// sweeps that grow with a coupled chain's length. The contacts' position projection is then
/// sparse too (S = R M⁻¹ Rᵀ over the penetrating contacts' normal rows, and the joints' rows
/// where they join).
/// "auto" (the default), where W can be assembled sparse (no ideal joints, or joints handled
/// sparse), with unilateral contacts only and no joint friction, chooses by the largest group
/// of contacts coupled through shared bodies or joints (dynamics/contact/coupling.hpp): nsgs
/// when the contacts are decoupled (one sweep is exact) or in groups of at most 4 among more
/// than 16 contacts and no joints join, newton for a group of 6 or more (a chain), else
/// lemke. contactSolver() says which.
/// "siconos-<name>" uses lcp::SiconosFc2dSolver (lemke, enum, nsgs, cpg), which copies into
/// its own buffers and returns new vectors: it allocates per step.
///
/// Spatial contacts (a SpatialMechanism's rigid clearance joints, spatial_mechanism.hpp). Each
/// active contact has three rows, J_n, J_t and J_b (ContactKinematics::second_tangent), and
/// the step's problem is Siconos' fc3d (lcp::FrictionProblem3D, r = (P_n, P_t, P_b)):
///   W = J_A G J_Aᵀ (3na × 3na),  q_n = J_n v_free + e min(ġ_k, 0),  q_(t,b) = J_(t,b) v_free,
///   u_n ≥ 0 ⊥ P_n ≥ 0,  ‖P_T‖ ≤ μ P_n,  u_T ≠ 0 ⇒ P_T = −μ P_n u_T/‖u_T‖,
/// the round Coulomb cone in the tangent plane: its friction impulse has a direction, not a
/// sign. Newton's law acts on every active contact, a separating one too (e ġ_k, not the planar
/// e min(ġ_k, 0)): then a frictionless step's impulse changes T by −½ (1 − e)/(1 + e) Pᵀ W P ≤ 0
/// (Moreau), where with the min a journal striking one wall while it left the opposite one
/// pressed that one to a stop and gained energy. "auto" (= "round-cone"), "nsgs" and "newton"
/// solve it exactly on the round cone by our solvers (lcp/round_cone.hpp), warm-started from
/// the last step's impulse; "lemke" on the faceted cone with `facets` directions
/// (lcp/friction_facets.hpp: inscribed, a sliding contact's impulse within 1 − cos(π/k) of μ P_n
/// and π/k of the direction opposing u_T; a stuck or open one exact). Both keep their workspace
/// per active-set size, so that a step allocates nothing once each size has been met (the round
/// cone's faceted starts, for hyperstatic steps, size theirs when first needed);
/// "siconos-<fc3d name>" allocates per step. μs and μk as above: μs
/// where the contact did not slip in the last step, solved again with μk when it slips
/// (‖u_T‖ above the round-off of its sums; for the iterative solvers, also above stick_velocity,
/// as their tolerance leaves a force on its cone ~1e-8 of slip). No joint friction and no
/// bilateral contacts with them. In the history and the events a spatial contact's sliding
/// velocity is ‖v_T⁺‖ ≥ 0 (a slip is reported as kSlipPositive) and its F the friction
/// impulse along v_T⁺ over the step (−‖P_T‖/h at rest), so that −F ‖v_T⁺‖ h = −P_Tᵀ v_T⁺ is
/// the step's friction work.
///
/// Events. After each step every contact is classified: open (no normal impulse, or not
/// active), stick (P_n > 0, |v_t| ≤ stick_velocity), slip+ / slip− (P_n > 0, v_t ≷ 0). A
/// change seen after the step happened inside it and is reported at its middle t_k + h/2
/// (an error of at most h/2, against h at t_{k+1}): open → closed as kImpact when ġ_k < −stick_velocity, else
/// kClose, followed (frictional contacts only) by the mode it closes in; closed → open as
/// kOpen; stick ↔ slip± changes of frictional contacts as kStick, kSlipPositive,
/// kSlipNegative. A stick that lasts a single step and ends in a slip is reported as that
/// slip at the stick's time (dropped when the slip resumes the previous direction): a stick
/// shorter than h cannot be told from a reversal, and one of finite length is longer than a
/// step once h is small enough. The initial mode comes from (q0, v0): closed if
/// |g| ≤ gap_tolerance and |ġ| ≤ stick_velocity.
///
/// Bilateral contacts are always active, with no restitution and the gap fed back like the
/// joints' drift (q_n = σ (J_n v_free + κ g_k / h)). Their normal impulse has either sign,
/// which the friction LCP cannot express directly: the contact is posed as unilateral on the
/// side σ of its last normal impulse (normal row σ J_n, friction bounded by μ |P_n|), and if
/// that side would separate (P_n = 0, u_n > stick_velocity) σ flips and the step's problem is
/// solved again — the two walls of DESIGN §2's translational joint, one at a time. They never
/// report open/close/impact events.
///
/// Friction in revolute joints (revolute_friction.hpp). Joint e adds a torque impulse τ_e
/// on its constant row C_e (ṡ_e = C_e v), entering like a contact's tangential impulse:
///   v_{k+1} = v_free + G (J_Aᵀ P + C_Eᵀ τ),   ṡ⁺ = C v_{k+1},
/// with the set-valued law on the impulse, bound b_e = μ_e r_e |Λ_e|:
///   τ_e = −b_e ⇒ ṡ⁺_e ≥ 0,   τ_e = b_e ⇒ ṡ⁺_e ≤ 0,   |τ_e| < b_e ⇒ ṡ⁺_e = 0.
/// Λ_e is the joint's reaction impulse over the step, the two multipliers of its rows in
///   M (v_{k+1} − v_k) = h Q + J_Aᵀ P + C_Eᵀ τ − DᵀΛ,
/// i.e. Λ = S⁻¹ D (M⁻¹(h Q + J_Aᵀ P + C_Eᵀ τ) − (v_{k+1} − v_k))
/// (ConstrainedResponse::jointImpulse; the projection's impulse, including the one that
/// carries P and τ and the centripetal one that turns v_k onto D(q_θ)). Λ is affine in (P, τ),
/// |Λ| is not, so b is found by a fixed point: b⁰ = μ r |Λ_prev| h / h_prev (the last step's
/// mean reaction; on the first step Λ with P = τ = 0, or for a joint at rest at least twice
/// the impulse that holds it alone, so that a stick at its limit starts held and stays exact),
/// then with b fixed one LCP for (P, τ), Λ from its solution, b ← μ r |Λ|, until every
/// |Δb_e| ≤ 1e-10 (h + b_e) — the relative 1e-10 (1 + T) of the mean torque T = b/h [N m] —
/// or 100 iterations, which fail the step naming the joint and its |Δb|. A joint at rest
/// (ṡ⁺ = 0) whose τ lies inside its new bound is converged whatever Δb: the solution does not
/// depend on an inactive bound (a stuck step costs one LCP). The contraction factor is
/// μ r ‖∂Λ/∂τ‖, μ r over a lever arm: a few iterations for a slipping joint. A loop stuck as a
/// whole is statically indeterminate (its holding impulses a set): Lemke may then alternate between two vertices of it, each at rest
/// under the bounds of the other; a period-2 cycle with every joint at rest in both ends the
/// fixed point (the step ends at rest either way), τ within the bounds it was solved for.
/// With b fixed the box τ ∈ [−b, b] ⊥ ṡ⁺ is split as τ = −b + a, ṡ⁺ = w⁺ − c with
///   a ≥ 0 ⊥ w⁺ = ṡ⁺ + c ≥ 0,   c ≥ 0 ⊥ 2b − a ≥ 0,
/// two LCP variables (a, c) per joint after the contacts' four: z = (…contacts…, a_e, c_e),
/// the joints' columns of W = [J_A; C_E] G [J_A; C_E]ᵀ coupling both, q shifted by −W_{·E} b.
/// μ_e is μk if the joint slipped in the previous step, else μs; a joint solved with μs that
/// comes out slipping (|ṡ⁺| > stick_velocity) is solved again with μk (b rescaled, fixed point
/// resumed), as the contacts. Its mode after the step is stick (|ṡ⁺| ≤ stick_velocity) or
/// slip± (sign ṡ⁺); the initial one from v0. Changes are reported as kStick, kSlipPositive,
/// kSlipNegative with contact index contacts.size() + e, as the event-driven route does; the
/// history has, after the contacts' (N, F), each joint friction's (|R|, T) = (|Λ_e|, τ_e) / h,
/// and the friction work adds −τ_e ṡ⁺_e per step. Joint friction needs the "lemke" solver
/// (the Siconos fc2d problem has no box rows). With joint friction the LCP is solved every
/// step, contacts active or not.

#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dynamics/model/constrained_response.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "dynamics/routes/run_result.hpp"
#include "lcp/lemke.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/planar_newton.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/sparse_lu.hpp"

namespace stickslip::dynamics {

struct MoreauJeanOptions {
  double t_end = 1.0;  ///< [s], > 0
  double h = 1e-4;     ///< time step [s], > 0 (the last step is shortened to land on t_end)
  double theta = 0.5;  ///< θ ∈ [½, 1]
  /// Planar contacts: "auto", "lemke", "nsgs" or "siconos-<fc2d name>"
  /// (lcp::siconosFc2dSolverNames()); spatial: "auto" = "round-cone", "nsgs" or "newton" (ours
  /// on the round cone, lcp/round_cone.hpp), "lemke" (the faceted cone) or
  /// "siconos-<fc3d name>" (lcp::siconosFc3dSolverNames()).
  std::string solver = "auto";
  /// NSGS: stop at Siconos' fc2d error ≤ nsgs_tolerance (> 0), or fail the step after
  /// nsgs_max_sweeps (≥ 1) sweeps (the spatial round-cone solvers: their sweeps at most, and
  /// Siconos' fc3d error 1e-10).
  double nsgs_tolerance = 1e-12;
  int nsgs_max_sweeps = 10000;
  /// Spatial contacts, solver "lemke": directions of the faceted cone, ≥ 3
  /// (lcp/friction_facets.hpp: a sliding contact's friction within 1 − cos(π/facets) of μ P_n).
  int facets = 8;
  double output_dt = 1e-3;  ///< history sampling [s], ≥ 0 (0: every step)
  /// Called with the simulated time after every step (a progress bar); empty: not called,
  /// at the cost of one test per step. It must not throw.
  std::function<void(double)> progress;
  /// |v_t| ≤ this with a positive normal impulse counts as stick; also the approach speed
  /// above which a closing contact is reported as an impact [m/s], > 0.
  double stick_velocity = 1e-8;
  /// A contact is active when its predicted gap g_k + ½ h ġ_k ≤ gap_tolerance [m], ≥ 0. Not
  /// zero: a resting contact's velocity is zero to round-off, and the positions it leaves
  /// would otherwise open it for a step now and then. Also the closed-contact test at t = 0.
  double gap_tolerance = 1e-10;
  /// Joints at velocity level: v_free is projected (mass-weighted; D G = 0 keeps the
  /// impulses on that set) onto D(q_θ) v = −Φ_t − (κ/h) Φ(q_θ), κ = joint_position_feedback,
  /// so every v_{k+1} satisfies the joints' velocity equations at q_θ and each step removes
  /// the fraction κ of the position drift Φ. The drift that remains is O(h²) per step / κ
  /// (v_k satisfies the joints at the previous q_θ): flores-translational at h = 1e-5 keeps
  /// |Φ| ≤ 1.3e-6 m with κ = 0.1. Without the projection (false) the joints are imposed on v̇
  /// only, through a₀ (Baumgarte terms below), and drift ~2e-4 m there.
  bool joint_velocity_projection = true;
  double joint_position_feedback = 0.1;  ///< κ ∈ [0, 1]
  /// Baumgarte terms of the acceleration-level joint equations in a₀ (ConstrainedResponse)
  /// [1/s], ≥ 0. They matter only without joint_velocity_projection (the projection
  /// replaces the joint-normal part of v_free that they change).
  double joint_baumgarte_alpha = 20.0;
  double joint_baumgarte_beta = 20.0;
  /// After each step, project q onto Φ(q, t) = 0 by Newton iterations with the mass-weighted
  /// minimum-norm correction Δq = −M⁻¹Dᵀ (D M⁻¹ Dᵀ)⁻¹ Φ (at most 5, until ‖Φ‖∞ ≤ 1e-12).
  bool project_positions = false;
  /// After each step, a unilateral contact that carried a normal impulse and now penetrates
  /// (g < −contact_projection_tolerance) is projected back to g = 0, together with the
  /// joints (the rows of Φ join those of g in the correction above): the position part of
  /// Acary's projected Moreau–Jean scheme (2013), velocities untouched. Imposed at velocity
  /// level only (ġ⁺ = 0 on the contact's tangent at q_θ), a contact on a curved surface or
  /// a rotating body drifts inwards by O(h²) per step: zheng-torque's journal sank 7.6
  /// clearances into its bearing over 2 s at h = 1e-4 without it.
  bool project_contacts = true;
  double contact_projection_tolerance = 1e-9;  ///< [m], > 0
  long max_steps = 100'000'000;  ///< refuse runs needing more steps (limit-reached), ≥ 1

  /// Throws std::invalid_argument("MoreauJeanOptions: expected …, got …").
  void validate() const;
};

/// Whether `solver` names one of the scheme's contact solvers (planar or spatial contacts).
bool isMoreauJeanSolver(const std::string& solver);

/// The workspace and one-step map of the scheme in the file comment. Keeps references to
/// the model and the contacts. Not thread-safe.
class MoreauJeanStepper {
 public:
  /// Throws std::invalid_argument for invalid options, a contact that is not rigid (unilateral
  /// or bilateral), joint friction with a solver other than "lemke" (or "auto"), a bilateral
  /// contact with "nsgs", an unknown solver name or one for the other kind of contacts, or
  /// spatial contacts with joint friction, with planar contacts or with "nsgs". Keeps a
  /// reference to the mechanism.
  MoreauJeanStepper(const Mechanism& mechanism, const MoreauJeanOptions& options);
  ~MoreauJeanStepper();
  MoreauJeanStepper(const MoreauJeanStepper&) = delete;
  MoreauJeanStepper& operator=(const MoreauJeanStepper&) = delete;

  /// Advances (q, v) from t to t + h in place. Returns false (state unchanged, message()
  /// says why) when G cannot be formed, the contact problem is not solved, the joint-friction
  /// bounds do not converge, or the new state is not finite.
  bool step(double t, double h, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v);

  /// Impulses of the last step per contact, (P_n, P_t) at 2i, 2i+1 (zero if inactive).
  const Eigen::VectorXd& impulses() const { return impulse_; }
  /// Normal velocity ġ_k before the last step and sliding velocity after it, per contact.
  const Eigen::VectorXd& approachVelocity() const { return approach_; }
  const Eigen::VectorXd& slidingVelocity() const { return sliding_; }
  /// Whether contact i carried a normal impulse in the last step.
  bool closed(Eigen::Index i) const { return closed_[static_cast<std::size_t>(i)] != 0; }
  /// Per joint friction e, for the last step: the torque impulse τ_e on C_e, the reaction
  /// impulse |Λ_e| and the rate ṡ⁺_e = C_e v_{k+1}.
  const Eigen::VectorXd& jointTorqueImpulses() const { return joint_tau_; }
  const Eigen::VectorXd& jointReactionImpulses() const { return joint_reaction_; }
  const Eigen::VectorXd& jointRates() const { return joint_rate_; }
  /// Spatial contacts: the last step's contact problem and its final solution, or nullptr when
  /// the step solved none (no active contact, or planar contacts). For checks by other solvers.
  const lcp::FrictionProblem3D* spatialProblem() const;
  /// The round-cone solvers' options from these (solver, nsgs_max_sweeps).
  lcp::RoundConeOptions roundConeOptions() const;
  const lcp::FrictionResult* spatialResult() const;
  /// Planar contacts by nsgs or newton: the last step's contact problem as its solver was last
  /// given it (W_A from the compressed rows, q, the coefficients), empty when the step solved
  /// none. For comparisons with other solvers (bench_scaling).
  std::optional<lcp::SparseFrictionProblem2D> sparseProblem() const;
  /// Fixed-point iterations on the joint-friction bounds, over all steps.
  long jointIterations() const { return joint_iterations_; }
  long lcpSolves() const { return lcp_solves_; }
  /// The contact solver in use: "lemke", "nsgs" or "siconos-<name>" ("auto" resolved).
  const std::string& contactSolver() const { return contact_solver_; }
  long pivots() const { return pivots_; }
  /// Why the last step failed: its status, the message, and for an unsolved contact problem
  /// the solver's status and residual.
  RunStatus status() const { return status_; }
  const std::string& message() const { return message_; }
  lcp::Status solverStatus() const { return solver_status_; }
  double solverResidual() const { return solver_residual_; }

 private:
  bool checkContactsAndSolver() const;
  /// coupled_ for the contacts and `joint_blocks` blocks of joint rows (file comment).
  void coupleUnits(Eigen::Index joint_blocks);
  void sizeNsgs();
  void sizeSolvers(bool spatial);
  /// Records why the step fails; returns false.
  bool fail(RunStatus status, const std::string& why, lcp::Status solver = lcp::Status::kSuccess,
            double residual = std::numeric_limits<double>::quiet_NaN());
  struct Siconos;
  struct Spatial;
  bool solveContacts(Eigen::Index active, double h);
  /// The spatial contact problem of the active set (file comment, Spatial contacts); sets v.
  bool solveSpatial(Eigen::Index active, Eigen::Ref<Eigen::VectorXd> v);
  /// 'name', 'name', … of the active contacts, for messages.
  std::string activeNames(Eigen::Index active) const;
  bool solveLemke(Eigen::Index active, double h);
  void formLemkeMatrix(Eigen::Index active);
  void setLemkeQ(Eigen::Index active);
  bool solveLemkeOnce(Eigen::Index active);
  double jointRate(Eigen::Index active, Eigen::Index e) const;
  void holdJointsAtRest(Eigen::Index active);
  bool solveJointBounds(Eigen::Index active, double h);
  /// |Λ_e| of every joint friction for the impulses r_ (2 active + joint columns).
  void jointReactions(Eigen::Index active, double h);
  bool solveSiconos(Eigen::Index active);
  /// NSGS and Newton's path: W_A (compressed rows) and qf_ for the active set from the sparse J
  /// and the diagonal M⁻¹, the joints' rows as bilateral blocks after the contacts' where they
  /// join (file comment), or W_A from the dense w_; then the solve, again with the
  /// coefficients nextMu gives until they hold.
  void assembleSparse(Eigen::Index active, double t_next);
  void sparseFromDense(Eigen::Index active);
  bool solveSparse(Eigen::Index active, double h);
  /// slipFloor on the compressed W_A.
  double sparseSlipFloor(Eigen::Index i) const;
  /// The coefficient active contact a is solved with next (file comment, Static and kinetic
  /// friction), after a solve with mu_used_(a): μs for a reversal inside the step (tried once
  /// per step, marked in reversal_tried_), μk for a break-away, else mu_used_(a). `ut()` is its
  /// sliding velocity, `floor()` the round-off below which it is none, `slips()` whether a
  /// contact solved with μs slips; each is evaluated only if needed.
  template <typename Velocity, typename Floor, typename Slips>
  double nextMu(Eigen::Index a, Velocity ut, Floor floor, Slips slips);

  /// Whether active contact a is unilateral and carried a normal impulse in the step: one the
  /// contact projection may move.
  bool pushed(Eigen::Index a) const;
  /// Where some active contact was pushed: the contacts evaluated at (t, q), and those pushed that
  /// penetrate by more than contact_projection_tolerance listed (contact index in proj_contacts_,
  /// −g in proj_rhs_). Returns how many (0, without an evaluation, where none was pushed) and
  /// the deepest −g.
  Eigen::Index penetratingContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Index active,
                                   double& deepest);
  /// The projection of project_positions / project_contacts; `active` the step's active set.
  void projectPositions(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Index active);
  /// The same where W is assembled sparse: S = R M⁻¹ Rᵀ, R the penetrating contacts' normal rows
  /// and, where the joints join the problem, the joints' rows (their drift Φ corrected at once),
  /// sparse (rows sharing a column), factored by sparse LU on the pattern of every active
  /// contact (the others' rows decoupled), which holds from step to step.
  void projectContactsSparse(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Index active);
  /// The same where the joints are handled sparse (ConstrainedResponse::sparse()): the joints'
  /// drift Φ and the penetrating contacts' gaps g corrected by block elimination through the
  /// step's joint factorization (D, S and G at q_θ; Φ, g and J_c at q):
  ///   Δq = −M⁻¹Dᵀ S⁻¹ Φ + G J_cᵀ μ,   (J_c G J_cᵀ) μ = −(g + J_c (−M⁻¹Dᵀ S⁻¹ Φ)),
  /// iterated like the dense projection, whose system [D; J_c] M⁻¹ [D; J_c]ᵀ this eliminates.
  void projectThroughJoints(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Index active);
  /// Row `row` (0, 1) of unit `unit`: contact unit's rows of J, or joint block (unit − nc)'s
  /// rows of D (empty: the padding of an odd count).
  SparseJointSystem::Row unitRow(int unit, int row) const;
  /// x M⁻¹ yᵀ with M⁻¹ diagonal, over the rows' nonzeros.
  double rowProduct(const SparseJointSystem::Row& x, const SparseJointSystem::Row& y) const;
  /// The |u| above which tangent row `row` of the dense problem, solved with μs, slips:
  /// round-off of the sum u = W_row r + q_row over its ncol terms (kSlipRoundOff of their
  /// magnitudes). Not stick_velocity: just past a break-away μs P_n still nearly balances the
  /// load and u_t grows from zero quadratically, so an absolute threshold held μs for
  /// √(threshold / rate), the belt's break-aways 3e-4 s late at every h
  /// (moreau_jean_accuracy_test).
  double slipFloor(Eigen::Index row, Eigen::Index ncol, const Eigen::VectorXd& r) const;
  /// w_ = jat_ᵀ G jat_ and qf_ = jat_ᵀ v_free over the first ncol columns of jat_ (gjt_ = G jat_).
  void formDelassus(Eigen::Index ncol);

  const Mechanism& mechanism_;
  const std::vector<RigidContact>& contacts_;
  MoreauJeanOptions options_;
  ConstrainedResponse response_;
  ContactKinematics kin_;
  Eigen::VectorXd q_theta_, q_old_, v_old_, dq_, v_free_, impulse_, approach_, sliding_, mu_used_;
  std::vector<int> active_, closed_, slipped_;
  std::vector<double> side_;  ///< σ = ±1: the side a bilateral contact is posed on
  // Active contacts then joint frictions, 2na + nj columns: jat_ = [J_A; C_E]ᵀ,
  // gjt_ = G jat_ (nv × ·), w_ = jat_ᵀ G jat_, qf_ = jat_ᵀ v_free, r_ = (P, τ).
  Eigen::MatrixXd jat_, gjt_, w_;
  Eigen::VectorXd qf_, r_;
  // Joint friction: rows C_e as columns (nv × nj), bound b, coefficient in use, last step's
  // τ, |Λ|, ṡ⁺; joint impulse Λ (m), and the step's Δv and non-joint impulse (nv).
  const std::vector<JointFriction>& joints_;
  Eigen::MatrixXd joint_cols_;
  Eigen::VectorXd joint_bound_, bound_before_, joint_mu_, joint_tau_, joint_reaction_, joint_rate_, joint_lambda_,
      step_dv_, step_impulse_;
  std::vector<int> joint_slipped_;
  std::vector<char> reversal_tried_;  // per contact, then joint: re-solved with μs in this step
  bool joint_reaction_known_ = false;
  double last_h_ = 0.0;
  long joint_iterations_ = 0;
  std::vector<lcp::Problem> problems_;   ///< index na: the 4na + 2nj LCP
  std::vector<lcp::LemkeSolver> lemke_;  ///< index na
  std::vector<lcp::Result> results_;     ///< index na
  std::unique_ptr<Siconos> siconos_;
  std::unique_ptr<Spatial> spatial_;  ///< set for a mechanism of spatial contacts
  std::string contact_solver_;
  // NSGS: whether W is assembled sparse (diagonal M⁻¹, no joints or joints that join); per
  // unit (contact, then block of two joint rows) the units sharing a velocity column with it
  // (itself included, ascending), its position in the problem (−1: inactive); W_A in
  // compressed rows (capacity for every contact active); the solver, its iterate and
  // velocities; the last step's impulses per contact and per joint row (the warm start).
  bool use_nsgs_ = false, use_newton_ = false, sparse_assembly_ = false;
  Eigen::Index joint_blocks_ = 0;  ///< blocks of joint rows in the problem: ⌈m/2⌉ where the joints join, else 0
  Eigen::Index sparse_solved_ = -1;  ///< the last step's active contacts on the sparse solvers' path
  std::vector<std::vector<int>> coupled_;
  std::vector<int> position_, w_outer_, w_inner_;
  std::vector<double> w_values_;
  lcp::NsgsSolver nsgs_;
  lcp::PlanarNewtonSolver newton_;
  Eigen::VectorXd nsgs_r_, nsgs_u_, last_impulse_, last_joint_impulse_, wnn_;
  // Velocity and position projections onto the joints.
  Eigen::MatrixXd proj_d_, proj_minv_dt_, proj_s_;  ///< rows: the joints', then the contacts'
  Eigen::MatrixXd proj_jc_, proj_gjc_;  ///< projectThroughJoints: J_cᵀ and G J_cᵀ (nv × contacts)
  Eigen::VectorXd proj_phi_, proj_rhs_, proj_mu_;
  Eigen::LDLT<Eigen::MatrixXd> proj_ldlt_;
  std::vector<int> proj_contacts_, proj_outer_, proj_inner_;  ///< the sparse projection's S
  std::vector<char> proj_penetrates_;  ///< per contact, in a sparse projection: it penetrates
  std::vector<double> proj_values_;
  lcp::SparseLu proj_lu_;
  long lcp_solves_ = 0, pivots_ = 0;
  RunStatus status_ = RunStatus::kOk;
  std::string message_;
  lcp::Status solver_status_ = lcp::Status::kSuccess;
  double solver_residual_ = std::numeric_limits<double>::quiet_NaN();
};

/// Runs the scheme from (q0, v0) at t = 0 to options.t_end. Throws std::invalid_argument for
/// invalid options, contacts or state sizes; a failed step ends the run with its status and a
/// message naming the time, the step, the solver status and its residual.
/// Events of the mechanism's joint friction e have contact index contacts.size() + e and
/// the history has, after the contacts' (N, F), each joint friction's (|R|, T) (file comment).
RunResult simulateMoreauJean(const Mechanism& mechanism, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                             const MoreauJeanOptions& options);
/// The same for a scenario.
RunResult simulateMoreauJean(const RigidScenario& scenario, const MoreauJeanOptions& options);

}  // namespace stickslip::dynamics
