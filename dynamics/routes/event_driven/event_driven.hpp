#pragma once
/// \file The event-driven formulation (DESIGN §2): smooth phases integrated by CVODE with
/// root functions for every possible event, and at each event complementarity problems that
/// decide the new contact modes exactly (Pfeiffer & Glocker 1996; Zheng, Zhang & Wang 2018,
/// eqs. 36–46; Blajer & Markiewicz, constraint addition–deletion).
///
/// Smooth phase, modes fixed (rigid_contact.hpp for J, b, v_s; constrained_response.hpp for
/// a₀, G): every closed contact adds the row g̈ = J_n v̇ + b_n = −2α ġ − β² g with its normal
/// force N; a sticking contact also adds v̇_t = J_t v̇ + b_t = −2α v_t with its friction
/// force F; a slipping contact (direction s = sign v_t) carries F = −s μk |N| on the normal
/// force's column, J_n − s μk σ J_t with σ = sign N. The linear system for the forces is
///   (A G B) r = rhs − b − A a₀,   v̇ = a₀ + G B r.
/// Root functions, two per contact, each positive inside its phase; an event is a decrease
/// through zero: open: g; closed: σN (for a bilateral contact only σ flips); slipping in
/// direction s: s v_t; sticking: μs |N| − |F|. Friction in revolute joints
/// (revolute_friction.hpp) adds a friction torque T to the unknowns while a joint sticks
/// (row ṡ̈ = −2α ṡ) and the force Cᵀ T with T = −s μk r |R| while it slips (a fixed point on
/// |R|); its root is s ṡ or μs r |R| − |T|, and it is decided after the contacts by trial
/// and error (revolute_friction.hpp): the joints at rest are released one at a time, the one
/// whose sticking torque most exceeds μs r |R| first, and a released joint whose relative
/// acceleration then opposes its slip (a joint released later took its load, as the pins
/// above do on a hanging chain) sticks again, once. Several joints at rest in a 1-DoF loop hold each other:
/// their stick rows are dependent, so they stick as one group with a single row, their
/// torques and reactions indeterminate (reported as NaN), and the group sticks or breaks
/// away by Blajer & Markiewicz's criterion (§5): the motion's tendency without friction
/// against every member resisting at μs; that margin is the group's root.
///
/// At an event (t, q, v):
///  1. Impact, when an open unilateral contact has g ≈ 0 and ġ < 0: one velocity-level
///     planar friction problem (lcp::FrictionProblem2D) over every contact at g ≈ 0, with
///     W = J G Jᵀ, u = W P + J v⁻ + (e ġ⁻, −v_s) — Newton's law ġ⁺ = −e ġ⁻ with kinetic
///     friction μk; v⁺ = v⁻ + G Jᵀ P. Impacts slower than `plastic_velocity` use e = 0 (an
///     accumulation of impacts — a ball coming to rest — ends in finite steps). Newton's law
///     with friction can put energy in (Kane's paradox); an impact whose impulses do positive
///     work ½ Pᵀ(u⁻ + u⁺) stops the run, naming the contacts. The candidates of a spatial
///     clearance joint take Moreau's form (1 + e) ġ⁻ on every contact of the impact, a
///     separating one too, with one e (as Moreau–Jean's spatial path): the journal meets one rim
///     while the opposite one, also at g = 0, leaves, and the form e min(ġ⁻, 0) would stop that
///     one and gain energy; Moreau's loses ½ (1 − e)/(1 + e) PᵀWP ≥ 0.
///  2. Mode decision at the acceleration level over the contacts at g ≈ 0, ġ ≈ 0: the same
///     problem class with u = (g̈, v̇_t) = W r + (J a₀ + b); contacts with v_t ≈ 0 have the
///     friction segment |F| ≤ μs N (Glocker–Pfeiffer saturations, exactly the planar friction
///     LCP), sliding ones carry their kinetic force in W's normal column. N = 0 with g̈ > 0
///     opens a contact; v̇_t = 0 sticks; v̇_t ≠ 0 slips in its direction, then with μk.
///     A bilateral contact (a tiny-clearance translational joint) is solved by our Lemke as
///     the friction HLCP of lcp/friction_hlcp.hpp (rₙ = N⁺ − N⁻, one wall pushing) and keeps
///     the side σ that pushes; Siconos' solvers pose it as unilateral on the side σ of its
///     last normal force and flip σ when a solution separates it; no consistent side is
///     reported as an inconsistent (Painlevé-type) contact problem.
///  3. The velocities are projected onto the closed and sticking contacts (ġ = 0, v_t = 0)
///     through G, and CVODE restarts.
/// Solvers: "lemke" (planar friction → LCP → our Lemke), "nsgs" (lcp/nsgs.hpp with its exact
/// finish, on the sparse path below), "newton" (lcp/planar_newton.hpp, on the sparse path),
/// "auto" (on the sparse path beyond lcp::kAutoLemkeContacts contacts: newton where 6 or more
/// contacts are coupled through shared bodies, dynamics/contact/coupling.hpp, else nsgs; lemke
/// otherwise; a sparse solver that stops short hands the problem to Lemke on the dense W;
/// RunResult::contact_solver says which answered), "siconos-<fc2d solver>", or "trial-and-error" (one contact at a time: assume
/// stick, accept if |F| ≤ μs N, else slip against the sticking force; Zheng et al. §3.3).
/// With `cross_check`, every decision on a single friction contact is made by both the LCP
/// and trial-and-error, and disagreements are counted (RunResult::mode_mismatches).
///
/// Spatial contacts (a rigid spatial clearance joint's, spatial_mechanism.hpp) have three rows,
/// n, t along the sliding velocity v_T, and b = n × t, and Coulomb friction in the tangent plane:
///  - sticking: the rows v̇_t = −2α v_t and v̇_b = 0 with the forces F_t, F_b (any basis of the
///    plane gives the same motion); root μs N − ‖F_T‖. Two rims stuck on one generator of the
///    bore have dependent rows, so the mode system is solved by least squares (the forces of
///    least norm: how the rims share the friction is indeterminate);
///  - sliding: the kinetic force −μk N t on the normal's column, t = v_T/‖v_T‖; root
///    ‖v_T‖ − ½ velocity_tolerance;
///  - slipping from rest: the mode carries its slip direction s (world), the kinetic force is
///    −μk N s until ‖v_T‖ reaches 2 velocity_tolerance (root), then it slides.
/// Impacts and mode decisions solve Siconos' fc3d problem over (n, t, b): at impact
/// u = W P + ((1 + e) ġ⁻, v_t, v_b) with μk; at a decision u = (g̈, v̇_t, v̇_b) = W r + R a₀ + (b_n, b_t, b_b), μs for the contacts
/// at rest, a sliding one's kinetic force in W's normal column and its cone shut (μ = 0). A
/// contact at rest with v̇_T ≠ 0 slips (on the round cone, once the problem solved again to
/// Siconos' error 1e-13 still says so): its direction is v̇_T's in the problem solved again with
/// μk for it (where W_TT is anisotropic, the direction at μs is far off: the sliding then grew
/// across s and fell back at once, event after event). Their solver is "auto" or "round-cone",
/// "nsgs" or "newton", ours on the round cone exactly (lcp/round_cone.hpp; the decision's W
/// carries the kinetic columns and is not symmetric: they take it), or "lemke", ours on the
/// faceted cone (lcp/friction_facets.hpp, `facets`);
/// compliant frictional spatial contacts, planar contacts beside them and joint friction with
/// their friction are refused (std::invalid_argument).
///  - impact_law "newton-tangential" restitutes the tangential rows too, u = W P + (1 + e) u⁻:
///    with ξ = u⁺ + e u⁻ on the cone, an impact changes T by Pᵀξ/(1 + e) − ½ (1 − e)/(1 + e)
///    PᵀWP ≤ 0 (Pᵀξ ≤ 0 on the cone and its facets), for any number of contacts (Glocker 2013,
///    Part I: Newton-type laws with equal coefficients). A sticking impact reverses the relative
///    tangential velocity to −e v_T⁻; a sliding one is Newton's. Planar contacts take the same
///    law (impact_law below): each contact's tangential row with its normal row's e (0 at rest,
///    for a bilateral contact, or below plastic_velocity).
///  - Painlevé: a decision without solution while a contact slides (W's normal block not a
///    P-matrix) stops the run, named as such.
///
/// Unilateral roots at zero. A closed contact whose normal force has fallen to zero at an event
/// lifts off when the decision leaves it at most 1e-6 of the set's largest force (its LCP is
/// degenerate there: N = 0 and g̈ = 0). A root that starts a phase within the tolerances that
/// count as zero (an open contact's gap, a closed one's force) fires a margin below its start
/// (handleEvent), or CVODE would never see it decrease through zero; at the next event
/// removeDrift lifts open contacts out of that depth, as it puts closed ones back on g = 0
/// (a spatial mechanism through H(q)). RunResult::max_penetration reports the deepest −g.
/// A force "zero" is a fraction of its contact's (joint's) unit force 1/(J M⁻¹ Jᵀ) at q0, the
/// force of a unit acceleration along its row: the decisions do not change with the units of mass.
/// Likewise a stick phase that starts with its force within 1e-6 of μs N (a slope at
/// tan α = μs) fires its root 1e-6 μs N beyond the limit: the force holds there only to
/// round-off and the integrator's drift, which would otherwise break it away.
///
/// Joints with many rows (a chain of pins) are handled sparse by ConstrainedResponse on either
/// path: G's products cost O(nnz(D)) per column, never G itself (constrained_response.hpp).
/// The sparse path is taken when the mechanism has no joint friction, no bilateral contact, a
/// diagonal mass matrix and either no joints or joints handled sparse (then not with nsgs),
/// and has at least kSparseFromContacts contacts or the solver is nsgs or newton (measured on
/// the belt chain: per event the dense path costs 1.9 ms at 8 blocks and 4.6 ms at 16, the
/// sparse 2.7 and 2.3). The rows of the mode system, of the events' and impacts' W = J M⁻¹ Jᵀ
/// and of the projections are then sparse rows of the contact Jacobian, and their products and
/// factorizations (sparse LU, rank-revealing sparse QR) cost what the contacts' coupling costs,
/// not (2 nc)³. The joints' rows D join them as rows of their own, M⁻¹ staying diagonal:
///   mode system  [R; D] M⁻¹ [C; D]ᵀ [r; μ] = [rhs − R a; D a₀ − D a],  a = a₀ + M⁻¹ F_known,
///   problems     [J; D] M⁻¹ [C; D]ᵀ with D's rows as bilateral blocks (Newton: planar_newton.hpp),
///   projections  [R; D] M⁻¹ [R; D]ᵀ y = [err; 0],
/// each the elimination-free form of the dense path's R G Cᵀ, so a chain of pins between the
/// contacts costs what the chain costs. A problem Lemke takes (a few contacts, or Newton
/// stopped short) gets the eliminated, dense R G Cᵀ. Elsewhere G (constrained_response.hpp)
/// couples the bodies through the joints and the matrices are dense.
///
/// Event times: CVODE locates a sign change of a root function to 100 ε (|t| + |h|)
/// [SUNDIALS CVODE guide, root finding]; `event_tolerance` (default 1e-10 s) must not be
/// below that bound at t_end. The error of an event time is then the integration error of
/// the root function, set by the tolerances.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/integrators/cvode_integrator.hpp"
#include "dynamics/routes/run_result.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"

namespace stickslip::dynamics {

/// The sparse path's least number of contacts (file comment).
inline constexpr Eigen::Index kSparseFromContacts = 16;

struct EventDrivenOptions {
  double t_end = 1.0;                  ///< [s], > 0
  OdeMethod integrator = OdeMethod::kAdams;  ///< rigid phases are not stiff
  double relative_tolerance = 1e-10;   ///< CVODE, > 0
  double absolute_tolerance = 1e-12;   ///< CVODE, > 0
  double max_step = 0.0;               ///< [s], 0: unlimited
  long max_steps = 500000;             ///< CVODE steps between two samples or events, ≥ 1
  long max_total_steps = 100'000'000;  ///< CVODE steps over the run; more stop it (limit-reached), ≥ 1
  double event_tolerance = 1e-10;      ///< [s], see the file comment
  double gap_tolerance = 1e-9;         ///< |g| below this counts as contact [m]
  double velocity_tolerance = 1e-8;    ///< |ġ|, |v_t| below this count as zero [m/s]
  double plastic_velocity = 1e-4;      ///< impacts slower than this are plastic [m/s]
  double baumgarte_alpha = 10.0;       ///< joints and closed contacts [1/s], ≥ 0
  double baumgarte_beta = 10.0;        ///< [1/s], ≥ 0
  std::string solver = "lemke";        ///< auto | lemke | nsgs | newton | trial-and-error | siconos-<fc2d solver>; spatial: round-cone too
  /// Spatial contacts, solver lemke: directions of the faceted friction cone, ≥ 3.
  int facets = 8;
  /// Impacts, planar and spatial (file comment): "newton" (the normal velocity restituted) or
  /// "newton-tangential" (the tangential velocity too, with the contact's e: a single contact's
  /// impact never adds energy, nor one of several with one e).
  std::string impact_law = "newton";
  bool sparse_path = true;             ///< false: dense matrices even where the sparse path applies
  /// Slipping joint frictions up to this many are found through their unit responses (one
  /// solve each, then a fixed point without solves); beyond, each iterate solves again. ≥ 0.
  int unit_response_joints = 4;
  bool cross_check = true;             ///< single contact: LCP vs trial-and-error
  double output_dt = 1e-3;             ///< history sampling [s], > 0 (events add rows)
  /// Guard against event accumulation over the run; besides, more than 50 events each within
  /// event_tolerance of the previous one stop the run at once (Zeno), naming the contacts.
  long max_events = 1000000;
  /// Called with the simulated time after every sample and event (a progress bar); empty:
  /// not called. It must not throw.
  std::function<void(double)> progress;
  /// Throws std::invalid_argument("EventDrivenOptions: expected …, got …").
  void validate() const;
};

/// Runs the mechanism (its contacts and joint friction) from (q0, v0) (consistent with the
/// joints) to t_end, or until a failure, which is reported in the result (its status and a
/// message naming time, contact and cause) with everything computed so far. Events of
/// joint friction e have contact index contacts.size() + e; the history has, after the
/// contacts' (N, F), each joint friction's (|R|, T). Throws std::invalid_argument for
/// invalid options, contacts or sizes.
RunResult simulateEventDriven(const Mechanism& mechanism, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                              const EventDrivenOptions& options);
/// The same for a scenario.
RunResult simulateEventDriven(const RigidScenario& scenario, const EventDrivenOptions& options);

}  // namespace stickslip::dynamics
