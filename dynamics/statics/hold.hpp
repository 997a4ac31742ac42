#pragma once
/// \file Static friction equilibrium: does set-valued Coulomb friction hold a mechanism, planar
/// or spatial, at rest, with which reactions, and by what margin (`stickslip hold`).
///
/// At rest (v = 0) at time t, with the joints assembled, the mechanism stays at rest iff some
/// reactions w of its contacts and joint friction make every acceleration vanish
/// (constrained_response.hpp, at v = 0 and without Baumgarte terms):
///   a₀ + G (f + Jw w) = 0,                                                         (1)
/// f the known contact forces (compliant normal laws at δ̇ = 0) and Jw's columns the
/// generalized directions of the unknowns: each closed contact's N (J_nᵀ; unilateral, or a
/// bilateral guide) and F (J_tᵀ; a spatial contact's F = (F_t, F_b) in its tangent plane, J_tᵀ
/// and J_bᵀ), each joint friction's torque or force T (Cᵀ). Coulomb's static law bounds them:
///   unilateral N ≥ 0,  |F| ≤ μs N;   bilateral |F| ≤ μs |N|;   compliant |F| ≤ μs N(δ);
///   spatial contacts on the round cone ‖F‖ ≤ μs N;
///   joints |T| ≤ μs r |R(w)|,  |R| = Σ_k weight_k ‖R_k‖ the joint's load
///                  (Mechanism::jointFrictionLoad: a pin's resultant, a finite slider's two
///                  ends), each R_k affine in w through λ (a pin in a slot: the slot contact's
///                  (N, F), unknowns of w); r the lever (1 for a slider).
/// Equation (1) is weighted by Lᵀ, M = L Lᵀ (M^½ for planar bodies; units of √kg·m/s² in
/// every row) and solved by SVD with
/// the columns scaled to unit norm: w = w_p + Z y, w_p the least-squares solution and Z a
/// basis of the statically indeterminate directions (empty: the reactions are unique). The
/// part of M^½ a₀ no reaction can take, relative to the loads' ‖M^-½ Q‖, is the balance
/// residual: above `balance_tolerance` the mechanism accelerates whatever μs is.
///
/// The bounds are linear in y except |N| (bilateral) and |R| (joints), which are convex
/// only outside a cone, and the round cones. |N| and |R| are each written for a chosen sign σ
/// or directions d_k, σN ≥ 0 and |T| ≤ μs r Σ weight_k d_kᵀR_k, a linear inner approximation
/// that is exact at d_k = R_k/‖R_k‖. A round cone is a convex bound, written as its cuts
/// dᵀF ≤ μs σ N for unit directions d (an outer polygon, first an equilateral triangle): each
/// program is solved, a cut added at F/‖F‖ to every cone the solution's F leaves by more than
/// the program's slack, and solved again (Kelley's cutting planes) until the program's bound
/// and the best solution's margin on the cones themselves meet to 1e-12 of the reactions;
/// the cuts stay for every later program (each holds for any μs, s and y). The margin
///   t* = max { t : every friction bound holds with slack t }   (bounds normalized; N ≥ 0
///                                                               and the signs σ hold exactly)
/// is a linear program in (y, t), solved by the project's Lemke (lcp/linear_program.hpp; with
/// round cones, whose cuts crowd near the answer and make the programs degenerate, by its
/// simplex);
/// σ and d are then set from the optimal reactions and the program solved again (each pass
/// keeps the previous optimum feasible, so t* never falls) until they settle, from several
/// starts. The mechanism holds iff t* ≥ −1e-10 × the reaction scale; "holds" is certified by
/// the reactions found. When that ascent finds none and a bound is nonconvex in y, a branch
/// and bound over the signs σ and arcs of directions d decides: an arc [φ − δ, φ + δ] can
/// hold only if |T| ≤ μs r max(d₋ᵀR, d₊ᵀR) / cos δ for its ends d± (d = a d₋ + b d₊ with
/// a, b ≥ 0, a + b ≤ 1/cos δ), a program per end; arcs where no end reaches t ≥ 0 are
/// dropped, the others halved down to δ = 1e-9, and an arc whose centre holds proves
/// "holds" (planar joints only: a spatial joint's load whose direction varies with y leaves
/// the verdict undecided when the ascent finds no holding reactions). HoldResult::exact is
/// false only when it could not decide (a case on the edge within round-off, more than
/// 200 000 programs, or that spatial joint).

/// Margins, each by the same programs:
///  - critical μs of a contact or joint friction, all others fixed: the smallest μs with
///    t* ≥ 0, by bisection to 1e-12 relative (+∞: no μs holds it; 0: it needs no friction),
///    each verdict decided as above (with round cones, to their cuts' 1e-12);
///  - the load factors: the range [s_min, s_max] of s for which Q = Q_other + s Q_loads
///    holds, Q_loads the applied forces and torques (MultibodySystem::appliedLoads; gravity,
///    springs and contacts unscaled), and which bounds bind at each end (from the duals); with
///    bounds nonconvex in y, the ascent's range (every s in it holds);
///  - each reaction's interval over all holding reactions (with σ, d of the witness): a
///    single value where the reaction is statically determinate.
/// The witness reactions are the max-margin ones.
/// Cross-check: the margin program at the witness's choices solved again by vertex enumeration
/// (small programs), by direct evaluation (statically determinate), and with round cones by
/// Lemke beside the simplex and by the witness's margin on the cones themselves against the
/// polygons' bound.

#include <Eigen/Dense>
#include <array>
#include <limits>
#include <string>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"
#include "dynamics/mechanism/mechanism.hpp"
#include "lcp/linear_program.hpp"

namespace stickslip::dynamics {

struct HoldOptions {
  double t = 0.0;                     ///< the instant whose loads act [s]
  double gap_tolerance = 1e-9;        ///< |g| ≤ this: a unilateral contact is closed [m]
  double assembly_tolerance = 1e-8;   ///< ‖Φ(q)‖∞ above this: not assembled
  double balance_tolerance = 1e-8;    ///< relative part of the loads no reaction can take
  bool margins = true;                ///< critical μs, load factors, intervals
};

struct HoldInterval {
  double low = std::numeric_limits<double>::quiet_NaN();
  double high = std::numeric_limits<double>::quiet_NaN();
};

/// A contact or a joint friction. Contacts: `normal` N and `friction` F (rigid_contact.hpp
/// convention); joint friction: `normal` the reaction |R| and `friction` the torque T.
struct HoldElement {
  std::string name;
  bool joint = false;          ///< joint friction (else a contact)
  bool closed = false;         ///< carries force: closed or bilateral contact, every joint
  bool frictional = false;     ///< has μs > 0 (or μk)
  double mu_static = 0.0;
  /// The witness reactions (NaN when it does not hold); a spatial contact's friction is ‖F‖.
  double normal = 0.0, friction = 0.0;
  /// A spatial contact's friction force on its body i, world components (NaN otherwise).
  Eigen::Vector3d friction_vector = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
  /// Over every holding set of reactions; unknowns only (a known compliant N is a point). A
  /// spatial contact's friction range (of ‖F‖) is given only where F is determinate (NaN
  /// otherwise); the range of each world component of its F is friction_vector_range.
  HoldInterval normal_range, friction_range;
  std::array<HoldInterval, 3> friction_vector_range;
  double critical_mu = std::numeric_limits<double>::quiet_NaN();  ///< see the file comment
  bool saturated = false;      ///< |F| = μs N (|T| = μs r |R|) at the witness: slip impends
};

struct HoldBound {
  std::string element;
  std::string kind;  ///< "slips" (a friction bound) or "lifts off" (N ≥ 0)
};

struct HoldLoadFactor {
  bool loads = false;  ///< false: no applied force or torque acts at t
  double low = std::numeric_limits<double>::quiet_NaN(), high = low;  ///< ±∞: unbounded
  std::vector<HoldBound> first_low, first_high;  ///< what gives way at each end
};

struct HoldResult {
  bool holds = false;
  bool exact = true;           ///< the verdict and critical μs decided (file comment)
  double margin = 0.0;         ///< t* (normalized reactions) [N or N·m]
  double balance_residual = 0.0;
  int indeterminacy = 0;       ///< columns of Z
  std::vector<HoldElement> elements;  ///< contacts then joint friction, as the scenario lists them
  std::vector<HoldBound> violated;    ///< when it does not hold: bounds short at the best reactions
  Eigen::VectorXd lambda;             ///< joint multipliers at the witness (thesis sign)
  /// Per multiplier (PlanarModel::constraintRowName), its interval over the holding reactions:
  /// a single value where the joint's reaction is determinate (empty without margins or
  /// when it does not hold).
  std::vector<HoldInterval> lambda_ranges;
  HoldLoadFactor load_factor;
  long lp_solves = 0, pivots = 0;
  std::string cross_check;     ///< "enumeration: t* agrees to …", or why it was not run
  bool cross_check_ok = true;
};

/// Decides whether the mechanism, planar or spatial, holds at rest at q (velocities zero) at
/// options.t. Throws
/// std::invalid_argument naming the reason when q is not assembled (‖Φ‖∞), a driver moves
/// at t, a unilateral rigid contact penetrates, a closed frictional contact's surface moves
/// (a belt), or the joints are singular there; a failed
/// linear program throws std::runtime_error with its LCP status and residual.
HoldResult analyseHold(const Mechanism& mechanism, const Eigen::VectorXd& q, const HoldOptions& options = {});
/// The same for a planar scenario's mechanism.
HoldResult analyseHold(const RigidScenario& scenario, const Eigen::VectorXd& q, const HoldOptions& options = {});

}  // namespace stickslip::dynamics
