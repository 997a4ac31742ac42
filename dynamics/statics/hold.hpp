#pragma once
/// \file Static friction equilibrium: does set-valued Coulomb friction hold a mechanism at
/// rest, with which reactions, and by what margin (`stickslip hold`).
///
/// At rest (v = 0) at time t, with the joints assembled, the mechanism stays at rest iff some
/// reactions w of its contacts and joint friction make every acceleration vanish
/// (constrained_response.hpp, at v = 0 and without Baumgarte terms):
///   a₀ + G (f + Jw w) = 0,                                                         (1)
/// f the known contact forces (compliant normal laws at δ̇ = 0) and Jw's columns the
/// generalized directions of the unknowns: each closed contact's N (J_nᵀ; unilateral, or a
/// bilateral guide) and F (J_tᵀ), each joint friction's torque T (Cᵀ). Coulomb's static law
/// bounds them:
///   unilateral N ≥ 0,  |F| ≤ μs N;   bilateral |F| ≤ μs |N|;   compliant |F| ≤ μs N(δ);
///   revolute |T| ≤ μs r |R(w)|,  R the joint's reaction, affine in w through λ (a pin in
///                                 a slot: the slot contact's (N, F), unknowns of w).
/// Equation (1) is weighted by M^½ (units of √kg·m/s² in every row) and solved by SVD with
/// the columns scaled to unit norm: w = w_p + Z y, w_p the least-squares solution and Z a
/// basis of the statically indeterminate directions (empty: the reactions are unique). The
/// part of M^½ a₀ no reaction can take, relative to the loads' ‖M^-½ Q‖, is the balance
/// residual: above `balance_tolerance` the mechanism accelerates whatever μs is.
///
/// The bounds are linear in y except |N| (bilateral) and |R| (revolute), which are convex
/// only outside a cone: each is written for a chosen sign σ or direction d, σN ≥ 0 and
/// |T| ≤ μs r dᵀR, a linear inner approximation that is exact at d = R/|R|. The margin
///   t* = max { t : every friction bound holds with slack t }   (bounds normalized; N ≥ 0
///                                                               and the signs σ hold exactly)
/// is a linear program in (y, t), solved by the project's Lemke (lcp/linear_program.hpp);
/// σ and d are then set from the optimal reactions and the program solved again (each pass
/// keeps the previous optimum feasible, so t* never falls) until they settle, from several
/// starts. The mechanism holds iff t* ≥ −1e-10 × the reaction scale; "holds" is certified by
/// the reactions found. When that ascent finds none and a bound is nonconvex in y, a branch
/// and bound over the signs σ and arcs of directions d decides: an arc [φ − δ, φ + δ] can
/// hold only if |T| ≤ μs r max(d₋ᵀR, d₊ᵀR) / cos δ for its ends d± (d = a d₋ + b d₊ with
/// a, b ≥ 0, a + b ≤ 1/cos δ), a program per end; arcs where no end reaches t ≥ 0 are
/// dropped, the others halved down to δ = 1e-9, and an arc whose centre holds proves
/// "holds". HoldResult::exact is false only when it could not decide (a case on the edge
/// within round-off, or more than 200 000 programs).

/// Margins, each by the same programs:
///  - critical μs of a contact or joint friction, all others fixed: the smallest μs with
///    t* ≥ 0, by bisection to 1e-12 relative (+∞: no μs holds it; 0: it needs no friction),
///    each verdict decided as above;
///  - the load factors: the range [s_min, s_max] of s for which Q = Q_other + s Q_loads
///    holds, Q_loads the applied forces and torques (PlanarModel::appliedLoads; gravity,
///    springs and contacts unscaled), and which bounds bind at each end (from the duals); with
///    bounds nonconvex in y, the ascent's range (every s in it holds);
///  - each reaction's interval over all holding reactions (with σ, d of the witness): a
///    single value where the reaction is statically determinate.
/// The witness reactions are the max-margin ones.
/// Cross-check: the margin program solved again by enumeration (lcp/enumeration.hpp) when its
/// LCP has at most 20 variables.

#include <Eigen/Dense>
#include <limits>
#include <string>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"
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
  double normal = 0.0, friction = 0.0;  ///< the witness reactions (NaN when it does not hold)
  /// Over every holding set of reactions; unknowns only (a known compliant N is a point).
  HoldInterval normal_range, friction_range;
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

/// Decides whether the scenario holds at rest at q (velocities zero) at options.t. Throws
/// std::invalid_argument naming the reason when q is not assembled (‖Φ‖∞), a driver moves
/// at t, a unilateral rigid contact penetrates, a closed frictional contact's surface moves
/// (a belt), or the joints are singular there; a failed
/// linear program throws std::runtime_error with its LCP status and residual.
HoldResult analyseHold(const RigidScenario& scenario, const Eigen::VectorXd& q, const HoldOptions& options = {});

}  // namespace stickslip::dynamics
