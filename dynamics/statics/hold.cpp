#include "dynamics/statics/hold.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/mechanism/planar_mechanism.hpp"
#include "dynamics/model/constrained_response.hpp"

namespace stickslip::dynamics {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Cutting rounds per program: each halves the angle a round cone's polygon overshoots by near
/// the witness, so ~20 reach round-off.
constexpr int kCutRounds = 200;
constexpr int kFirstCuts = 3;
/// A cut beyond the first ones is forgotten once this many programs have been solved since it
/// last bound: the cuts of every μs, load and interval tried would otherwise all stay in every
/// later program (15 000 rows on box_on_slope.yaml's margins). The cutting loops still stop
/// only on the round cones themselves, so a forgotten cut that matters is cut again.
constexpr long kCutMemory = 100;
/// A program's bound that stands still for this many cutting rounds has converged: the cuts then
/// go to reactions it does not depend on (an indeterminate contact's F, which the programs leave
/// at any vertex of its polygon, so that its cuts would ring the whole cone).
constexpr int kStillRounds = 5;
/// Loads of ‖Q‖∞ in [1, kLargestLoads] N are taken in N; others in the power of two of N
/// (HoldProblem::unit_) that brings them near kTypicalLoads, the middle of that range.
constexpr double kLargestLoads = 1024.0, kTypicalLoads = 32.0;

std::string str(double x) {  // for messages: 6 significant digits, not std::to_string's fixed 6 decimals
  std::ostringstream s;
  s << x;
  return s.str();
}

/// One linear bound aᵀw + e s ≤ b on the unknowns w and the load factor s, normalized.
struct Bound {
  Eigen::VectorXd a;
  double e = 0.0, b = 0.0;
  int element = 0;
  enum Kind { kLift, kSign, kSlip } kind = kSlip;
  int cut = -1;  ///< a round cone's row: its cut's index among the element's
};

/// A round cone's cut dᵀF ≤ μ σ N, and the program count when it last bound.
struct Cut {
  Eigen::Vector2d d;
  long bound_at = 0;
};

/// The sign of a bilateral N and the direction of each joint load term the bounds are written
/// for (the file comment's σ and d).
struct Choices {
  std::vector<double> sign;  ///< per element (contacts); 1 for the others
  std::vector<std::vector<Eigen::VectorXd>> direction;  ///< per element (joints), per load term
  /// Per element (joints): the bound written |T| ≤ μ r · widen · dᵀR (1; 1/cos δ in
  /// certify()'s relaxations), and R held within δ = half of d (0: not held).
  std::vector<double> widen, half;
};

/// What certify() concluded.
enum class Certificate { kBreaksAway, kHolds, kUndecided };

struct MarginSolution {
  double t = -kInf;
  Eigen::VectorXd w;
  Choices choices;
};

/// One term of a joint's load, weight ‖R‖ with R = zero + s load + w_map w (Mechanism::
/// jointFrictionLoad with λ and the contact forces affine in w and s).
struct LoadTerm {
  double weight = 1.0;
  Eigen::VectorXd zero, load;
  Eigen::MatrixXd w_map;
};

class HoldProblem {
 public:
  HoldProblem(const Mechanism& m, const Eigen::VectorXd& q, const HoldOptions& o);

  HoldResult solve();

 private:
  const Mechanism& m_;
  const HoldOptions& o_;
  Eigen::Index nv_ = 0, p_ = 0, nc_ = 0;
  // Per element: its unknowns' indices in w (−1: none) and data. A spatial contact's friction
  // has two unknowns, along t (friction_) and along b (second_).
  std::vector<int> normal_, friction_, second_;
  std::vector<double> known_normal_, mu_;
  std::vector<char> bilateral_, closed_;
  /// Joints: their load's terms, and the lever (a pin's radius, 1 for a slider).
  std::vector<std::vector<LoadTerm>> terms_;
  std::vector<double> lever_;
  /// Per spatial frictional contact: the unit directions d of its cuts dᵀF ≤ μ σ N (file
  /// comment), shared by every program (each holds for any μs, s and y).
  std::vector<std::vector<Cut>> cuts_;
  bool round_cones_ = false;  ///< a closed spatial contact has friction
  /// Per contact: its world (n, t, b) (spatial contacts; NaN for planar ones).
  std::vector<Eigen::Matrix3d> frames_;
  // w = w0 + s wl + Z y; λ = λ0 + s λl + L w.
  Eigen::VectorXd w0_, wl_, lambda0_, lambdal_;
  Eigen::MatrixXd Z_, L_;
  double balance_residual_ = 0.0, load_residual_ = 0.0;
  /// scale_: the particular reactions' max |w|, which the tolerances are relative to. unit_:
  /// the unit of every force held here, N (N·m) times a power of two that brings loads ‖Q‖∞
  /// outside [1, kLargestLoads] N near kTypicalLoads, so that the programs, whose tolerances
  /// are relative above 1 only, see data of order one (the problem is homogeneous in the
  /// loads). Chosen from Q, not from scale_: near a dead centre the particular reactions are
  /// huge and cancel.
  double scale_ = 0.0, unit_ = 1.0;
  bool loads_ = false;
  long lp_solves_ = 0, pivots_ = 0;

  Eigen::Index elements() const { return Eigen::Index(mu_.size()); }
  bool isJoint(Eigen::Index e) const { return e >= nc_; }
  bool roundCone(Eigen::Index e) const { return second_[std::size_t(e)] >= 0; }
  /// A planar revolute joint or pin: one load term in the plane (certify()'s arcs apply).
  bool planarLoad(Eigen::Index e) const {
    const auto& t = terms_[std::size_t(e)];
    return t.size() == 1 && t[0].zero.size() == 2;
  }
  const std::string& name(Eigen::Index e) const {
    return isJoint(e) ? m_.jointFriction()[std::size_t(e - nc_)].name : m_.contacts()[std::size_t(e)].name;
  }
  double tolerance() const { return 1e-10 * scale_; }
  Eigen::VectorXd reaction(Eigen::Index e, std::size_t k, const Eigen::VectorXd& w, double s) const {
    const LoadTerm& t = terms_[std::size_t(e)][k];
    return t.zero + s * t.load + t.w_map * w;
  }
  /// A joint's load Σ weight ‖R‖ at (w, s).
  double load(Eigen::Index e, const Eigen::VectorXd& w, double s) const {
    double sum = 0.0;
    for (std::size_t k = 0; k < terms_[std::size_t(e)].size(); ++k)
      sum += terms_[std::size_t(e)][k].weight * reaction(e, k, w, s).norm();
    return sum;
  }
  /// A round cone's friction (F_t, F_b) and its normal force at w.
  Eigen::Vector2d coneFriction(Eigen::Index e, const Eigen::VectorXd& w) const {
    return {w(friction_[std::size_t(e)]), w(second_[std::size_t(e)])};
  }
  double normalAt(Eigen::Index e, const Eigen::VectorXd& w) const {
    const int in = normal_[std::size_t(e)];
    return in >= 0 ? w(in) : known_normal_[std::size_t(e)];
  }
  /// The normalized slack (μ N − ‖F‖)/√(1 + μ²) of round cone e at w, and the smallest of all
  /// (+∞: none).
  double coneSlack(Eigen::Index e, double mu, const Eigen::VectorXd& w) const;
  double coneSlack(const std::vector<double>& mu, const Eigen::VectorXd& w) const;
  /// Adds a cut at F/‖F‖ to each round cone whose slack at w falls short of `floor` (the slack
  /// the program gave every cut) by more than round-off; whether any was added.
  bool refineCones(const std::vector<double>& mu, const Eigen::VectorXd& w, double floor);
  /// Marks the cuts whose rows in `bs` bind (a positive multiplier in `dual`).
  void noteBinding(const std::vector<Bound>& bs, const Eigen::VectorXd& dual);
  /// Drops the cuts beyond the first that have not bound for kCutMemory programs.
  void forgetCuts();
  std::vector<Bound> bounds(const std::vector<double>& mu, const Choices& c) const;
  /// σ and d of the reactions w at load factor s (file comment).
  Choices choicesFrom(const Eigen::VectorXd& w, const Choices& previous, double s = 1.0) const;
  /// Flips the sign choice of every guide whose normal force in w is zero (within
  /// tolerance()); whether there was one.
  bool crossZeroNormals(const Eigen::VectorXd& w, Choices& c) const;
  bool nonconvexInY() const;
  /// Whether element e's nonconvex bound (a guide's |N|, a joint's |R|) varies with y.
  bool variesWithY(Eigen::Index e) const;
  /// The global decision by branch and bound over the signs and reaction directions (file
  /// comment); kHolds sets `found`.
  Certificate certify(const std::vector<double>& mu, MarginSolution& found, double tol);
  bool undecided_ = false;        ///< a certify() in the margins was undecided
  bool certify_on_edge_ = false;  ///< the last certify() was undecided at δ = 1e-9
  /// The programs' method: Lemke, or the simplex when round cones make them degenerate.
  lcp::LpMethod primary() const { return round_cones_ ? lcp::LpMethod::kSimplex : lcp::LpMethod::kLemke; }
  lcp::LpResult lp(const lcp::LinearProgram& program, std::optional<lcp::LpMethod> method = std::nullopt);
  /// The margin program of the bounds b: (t*, w*, duals).
  std::pair<double, Eigen::VectorXd> marginProgram(const std::vector<Bound>& b,
                                                   std::optional<lcp::LpMethod> method = std::nullopt,
                                                   Eigen::VectorXd* dual = nullptr);
  /// The margin for fixed choices, the round cones cut (Kelley) until the program's bound and
  /// the best witness's exact margin on the cones meet: (that margin, that witness). `decide`
  /// (not NaN): stop as soon as t* ≥ −decide or t* < −decide is certain.
  std::pair<double, Eigen::VectorXd> margin(const std::vector<double>& mu, const Choices& c, double decide = NAN);
  /// The program `build` writes from the bounds, solved, the round cones cut until `witness`
  /// (the reactions w at the solution x) has slack ≥ floor in them, or the bound stands still
  /// (kStillRounds); `used`: the final bounds.
  lcp::LpResult withCuts(const std::vector<double>& mu, const Choices& c,
                         const std::function<lcp::LinearProgram(const std::vector<Bound>&)>& build,
                         const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& witness, double floor,
                         std::vector<Bound>* used = nullptr);
  MarginSolution bestMargin(const std::vector<double>& mu, const Choices* start = nullptr, double decide = NAN);
  Choices initialChoices() const;
  void requireAtRest(const Eigen::VectorXd& q) const;
  /// Loads (‖Q‖∞, N or N·m) outside [1, kLargestLoads]: every force divided by unit_, a power
  /// of two near them. Z scaled to order one.
  void inLoadUnits(double loads);
  /// The result's forces, held in unit_, in N (N·m).
  void inNewtons(HoldResult& out) const;
  Eigen::MatrixXd unknowns(const Eigen::VectorXd& q, Eigen::VectorXd& known);
  void elementReactions(const Eigen::VectorXd& known_forces, const Eigen::MatrixXd& force_map);
  double criticalMu(Eigen::Index e, const MarginSolution& at);
  void loadFactor(const MarginSolution& at, HoldLoadFactor& out);
  void intervals(const MarginSolution& at, HoldResult& out);
  void crossCheck(const std::vector<Bound>& bs, const MarginSolution& best, HoldResult& out);
};

/// The configuration is assembled and nothing drives it at t: else std::invalid_argument.
void HoldProblem::requireAtRest(const Eigen::VectorXd& q) const {
  const Mechanism& m = m_;
  const HoldOptions& o = o_;
  const Eigen::Index nm = m.constraintCount();
  Eigen::VectorXd phi(nm), phi_t(nm), gamma(nm);
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(nv_);
  m.constraints(o.t, q, phi);
  m.constraintTimeDerivative(o.t, q, phi_t);
  m.gamma(o.t, q, rest, gamma);
  auto worst = [&](const Eigen::VectorXd& x) {
    Eigen::Index i = 0;
    if (x.size() > 0) x.cwiseAbs().maxCoeff(&i);
    return i;
  };
  if (nm > 0 && phi.lpNorm<Eigen::Infinity>() > o.assembly_tolerance) {
    const Eigen::Index i = worst(phi);
    throw std::invalid_argument("the configuration is not assembled: constraint '" + m.constraintRowName(i) +
                                "' is off by " + str(phi(i)) + " (tolerance " +
                                str(o.assembly_tolerance) + ")");
  }
  if (nm > 0 && (phi_t.lpNorm<Eigen::Infinity>() > 1e-12 || gamma.lpNorm<Eigen::Infinity>() > 1e-12)) {
    const Eigen::Index i = phi_t.lpNorm<Eigen::Infinity>() > 1e-12 ? worst(phi_t) : worst(gamma);
    throw std::invalid_argument("not at rest at t = " + str(o.t) + ": '" + m.constraintRowName(i) +
                                "' is driven (it moves or accelerates there)");
  }
}

/// The unknown contact and joint-friction forces, each its column J_wᵀ of J_w (returned), with
/// their element's bookkeeping; the known forces of closed compliant contacts added to `known`.
Eigen::MatrixXd HoldProblem::unknowns(const Eigen::VectorXd& q, Eigen::VectorXd& known) {
  const Mechanism& m = m_;
  const HoldOptions& o = o_;
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(nv_);
  ContactKinematics k;
  m.resizeContacts(k);
  m.evaluateContacts(o.t, q, rest, k, false);
  frames_ = k.frame;
  std::vector<Eigen::VectorXd> columns;  // Jw's
  auto unknown = [&](const Eigen::VectorXd& column) {
    columns.push_back(column);
    return int(columns.size()) - 1;
  };
  for (Eigen::Index c = 0; c < nc_; ++c) {
    const RigidContact& rc = m.contacts()[std::size_t(c)];
    const double gap = k.gap(c);
    const Eigen::VectorXd jn = k.jacobian.row(2 * c).transpose(), jt = k.jacobian.row(2 * c + 1).transpose();
    int in = -1, it = -1, ib = -1;
    double known_n = 0.0;
    bool closed = false;
    switch (rc.normal) {
      case RigidContact::Normal::kUnilateral:
        if (gap < -o.gap_tolerance)
          throw std::invalid_argument("contact '" + rc.name + "' penetrates by " + str(-gap) +
                                      " m (tolerance " + str(o.gap_tolerance) + ")");
        closed = gap <= o.gap_tolerance;
        if (closed) in = unknown(jn);
        break;
      case RigidContact::Normal::kBilateral:
        if (std::abs(gap) > o.assembly_tolerance)
          throw std::invalid_argument("the configuration is not assembled: the guide '" + rc.name +
                                      "' is off by " + str(gap));
        closed = true;
        in = unknown(jn);
        break;
      case RigidContact::Normal::kCompliant:
        closed = gap < 0.0;
        if (closed) known_n = normalForce(*rc.compliant_law, -gap, 0.0, rc.impact_velocity);
        known += known_n * jn;
        break;
    }
    if (closed && rc.frictional()) {
      if (std::abs(k.sliding_velocity(c)) > 1e-12)  // a moving surface under it (a belt)
        throw std::invalid_argument("not at rest: contact '" + rc.name + "' slides at " +
                                    str(k.sliding_velocity(c)) + " m/s at t = " + str(o.t) +
                                    " (its surface moves); static friction does not apply");
      it = unknown(jt);
      if (rc.spatial()) ib = unknown(k.second_tangent.row(c).transpose());
    }
    // A regularized static law (smooth_friction) gives no force at v_t = 0 with no stick
    // state: it holds nothing, and adds nothing here.
    normal_.push_back(in);
    friction_.push_back(it);
    second_.push_back(ib);
    known_normal_.push_back(known_n);
    mu_.push_back(rc.frictional() ? rc.mu_static : 0.0);
    bilateral_.push_back(rc.normal == RigidContact::Normal::kBilateral);
    closed_.push_back(closed);
    lever_.push_back(0.0);
  }
  for (std::size_t f = 0; f < m.jointFriction().size(); ++f) {
    Eigen::VectorXd row = Eigen::VectorXd::Zero(nv_);
    m.addJointFrictionRow(f, 1.0, row);
    normal_.push_back(-1);
    friction_.push_back(unknown(row));
    second_.push_back(-1);
    known_normal_.push_back(0.0);
    mu_.push_back(m.jointFriction()[f].mu_static);
    bilateral_.push_back(false);
    closed_.push_back(true);
    lever_.push_back(m.jointFriction()[f].lever);
  }
  p_ = Eigen::Index(columns.size());
  Eigen::MatrixXd jw(nv_, p_);
  for (Eigen::Index i = 0; i < p_; ++i) jw.col(i) = columns[std::size_t(i)];
  // The cuts start as an equilateral triangle (the fewest that bound F).
  for (Eigen::Index e = 0; e < elements(); ++e) {
    cuts_.emplace_back();
    if (roundCone(e) && closed_[std::size_t(e)]) round_cones_ = true;
    if (roundCone(e))
      for (int i = 0; i < kFirstCuts; ++i) {
        const double angle = 2.0 * std::numbers::pi * i / kFirstCuts;
        cuts_.back().push_back({Eigen::Vector2d(std::cos(angle), std::sin(angle))});
      }
  }
  return jw;
}

/// Each joint's load terms as affine functions of w and s: R = A λ + B f with λ = λ0 + s λl + L w
/// and the contact forces f = f_known + F w (`known_forces`, `force_map`).
void HoldProblem::elementReactions(const Eigen::VectorXd& known_forces, const Eigen::MatrixXd& force_map) {
  terms_.resize(std::size_t(elements()));
  for (Eigen::Index e = nc_; e < elements(); ++e)
    for (const JointLoadTerm& t : m_.jointFrictionLoad(std::size_t(e - nc_)))
      terms_[std::size_t(e)].push_back({t.weight, t.lambda * lambda0_ + t.contact * known_forces, t.lambda * lambdal_,
                                        t.lambda * L_ + t.contact * force_map});
}

HoldProblem::HoldProblem(const Mechanism& m, const Eigen::VectorXd& q, const HoldOptions& o) : m_(m), o_(o) {
  nv_ = m.velocitySize();
  nc_ = Eigen::Index(m.contacts().size());
  if (q.size() != m.positionSize())
    throw std::invalid_argument("expected " + std::to_string(m.positionSize()) + " coordinates, got " +
                                std::to_string(q.size()));
  requireAtRest(q);
  const Eigen::Index nm = m.constraintCount();
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(nv_);
  ConstrainedResponse cr(m);
  if (!cr.update(o.t, q, rest)) throw std::invalid_argument("" + cr.message());

  Eigen::VectorXd known = Eigen::VectorXd::Zero(nv_);  // the compliant contacts' forces, Σ N J_n
  const Eigen::MatrixXd jw = unknowns(q, known);

  // Loads: Q_l the applied loads; the base problem is s = 1.
  Eigen::VectorXd ql(nv_);
  m.appliedLoads(o.t, q, ql);
  loads_ = ql.lpNorm<Eigen::Infinity>() > 0.0;
  // An overflowing load (a huge parameter, a far t) would reach the programs as NaN.
  if (!ql.allFinite() || !cr.freeAcceleration().allFinite() || !known.allFinite())
    throw std::invalid_argument("the loads at t = " + str(o.t) +
                                " are not finite (a parameter or the time too large for double precision)");
  // Rows weighted by Lᵀ, M = L Lᵀ (M^½ = diag(√m) for planar bodies), so that every row is in
  // √kg·m/s² and ‖Lᵀ a‖² = aᵀ M a.
  Eigen::MatrixXd mass = Eigen::MatrixXd::Identity(nv_, nv_);
  m.applyMass(mass);
  const Eigen::MatrixXd mh = Eigen::LLT<Eigen::MatrixXd>(mass).matrixU();
  const Eigen::MatrixXd& g = cr.inverseMass();
  const Eigen::MatrixXd b = mh * (g * jw);
  const Eigen::VectorXd beta1 = -(mh * (cr.freeAcceleration() + g * known)).eval();
  const Eigen::VectorXd betal = -(mh * (g * ql)).eval();
  // Columns scaled to unit norm, but a column of round-off (a reaction the joints take whole,
  // 0 or 1e-17 as the masses go) stays as it is: scaled up, it would pass for a reaction.
  Eigen::VectorXd cs = Eigen::VectorXd::Ones(p_);
  const Eigen::VectorXd norms = b.colwise().norm().transpose();
  const double widest = p_ > 0 ? norms.maxCoeff() : 0.0;
  for (Eigen::Index i = 0; i < p_; ++i)
    if (norms(i) > 1e-12 * widest) cs(i) = 1.0 / norms(i);
  Eigen::VectorXd wp1 = Eigen::VectorXd::Zero(p_);
  wl_ = Eigen::VectorXd::Zero(p_);
  Eigen::Index rank = 0;
  if (p_ > 0) {
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(b * cs.asDiagonal(), Eigen::ComputeThinU | Eigen::ComputeFullV);
    const Eigen::VectorXd& sv = svd.singularValues();
    while (rank < sv.size() && sv(rank) > 1e-9 * sv(0)) ++rank;
    const Eigen::MatrixXd ur = svd.matrixU().leftCols(rank);
    const Eigen::MatrixXd vr = svd.matrixV().leftCols(rank);
    const Eigen::VectorXd inv = sv.head(rank).cwiseInverse();
    wp1 = cs.asDiagonal() * (vr * (inv.asDiagonal() * (ur.transpose() * beta1)));
    wl_ = cs.asDiagonal() * (vr * (inv.asDiagonal() * (ur.transpose() * betal)));
    Z_ = cs.asDiagonal() * svd.matrixV().rightCols(p_ - rank);
  } else {
    Z_.resize(0, 0);
  }
  Z_.conservativeResize(p_, p_ - rank);
  w0_ = wp1 - wl_;
  // The loads' scale ‖M^-½ Q‖ (with the known contact forces) for the balance residual.
  const Eigen::VectorXd qtot = cr.forces() + known;
  const double reference = mh.transpose().triangularView<Eigen::Lower>().solve(qtot).norm() + 1e-300;
  balance_residual_ = (beta1 - b * wp1).norm() / reference;
  load_residual_ = loads_ ? (betal - b * wl_).norm() / reference : 0.0;

  // λ = λ0 + s λl + L w (multipliers() is affine in the contact force; Q at s = 1).
  Eigen::VectorXd l_known(nm), l_zero(nm), l_q(nm), col(nm);
  cr.multipliers(known, l_known);
  cr.multipliers(Eigen::VectorXd::Zero(nv_), l_zero);
  cr.multipliers(ql, l_q);
  lambdal_ = l_q - l_zero;
  lambda0_ = l_known - lambdal_;
  L_.resize(nm, p_);
  for (Eigen::Index i = 0; i < p_; ++i) {
    cr.multipliers(known + jw.col(i), col);
    L_.col(i) = col - l_known;
  }
  // The contacts' forces f (N at 2c, F at 2c + 1) = f_known + F w, for the pins in slots.
  Eigen::VectorXd f_known = Eigen::VectorXd::Zero(2 * nc_);
  Eigen::MatrixXd f_map = Eigen::MatrixXd::Zero(2 * nc_, p_);
  for (Eigen::Index c = 0; c < nc_; ++c) {
    f_known(2 * c) = known_normal_[std::size_t(c)];
    if (normal_[std::size_t(c)] >= 0) f_map(2 * c, normal_[std::size_t(c)]) = 1.0;
    if (friction_[std::size_t(c)] >= 0) f_map(2 * c + 1, friction_[std::size_t(c)]) = 1.0;
  }
  elementReactions(f_known, f_map);
  scale_ = std::max({wp1.lpNorm<Eigen::Infinity>(), wl_.lpNorm<Eigen::Infinity>(),
                     known.lpNorm<Eigen::Infinity>(), 1e-300});
  for (double n : known_normal_) scale_ = std::max(scale_, n);
  inLoadUnits(std::max(qtot.lpNorm<Eigen::Infinity>(), ql.lpNorm<Eigen::Infinity>()));
  // Round-off of exact zeros (1e-93 at a dead centre) would reach Lemke as badly scaled data.
  for (Eigen::VectorXd* x : {&w0_, &wl_})
    *x = x->unaryExpr([&](double v) { return std::abs(v) < 1e-15 * scale_ ? 0.0 : v; });
}

void HoldProblem::inLoadUnits(double loads) {
  // Z's columns keep their relative scale (the thin slabs of degenerate programs depend on it);
  // a power of two, exact, brings the largest to about 1, whatever the unit of the masses.
  if (Z_.size() > 0 && Z_.colwise().norm().maxCoeff() > 0.0)
    Z_ *= std::exp2(-std::round(std::log2(Z_.colwise().norm().maxCoeff())));
  if (!(loads > 0.0) || (loads >= 1.0 && loads <= kLargestLoads)) return;
  unit_ = std::exp2(std::round(std::log2(loads / kTypicalLoads)));
  scale_ /= unit_;
  for (Eigen::VectorXd* x : {&w0_, &wl_, &lambda0_, &lambdal_}) *x /= unit_;
  for (double& n : known_normal_) n /= unit_;
  for (auto& element : terms_)
    for (LoadTerm& t : element) {
      t.zero /= unit_;
      t.load /= unit_;
    }
}

void HoldProblem::inNewtons(HoldResult& out) const {
  auto scaled = [&](HoldInterval& i) {
    i.low *= unit_;
    i.high *= unit_;
  };
  out.margin *= unit_;
  out.lambda *= unit_;
  for (HoldInterval& i : out.lambda_ranges) scaled(i);
  for (HoldElement& el : out.elements) {
    el.normal *= unit_;
    el.friction *= unit_;
    el.friction_vector *= unit_;
    scaled(el.normal_range);
    scaled(el.friction_range);
    for (HoldInterval& i : el.friction_vector_range) scaled(i);
  }
}

std::vector<Bound> HoldProblem::bounds(const std::vector<double>& mu, const Choices& c) const {
  std::vector<Bound> out;
  auto add = [&](Bound b) {
    const double n = b.a.norm();
    if (n > 0.0) {
      b.a /= n;
      b.e /= n;
      b.b /= n;
    }
    out.push_back(std::move(b));
  };
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(p_);
  for (Eigen::Index e = 0; e < elements(); ++e) {
    if (!closed_[std::size_t(e)]) continue;
    const int in = normal_[std::size_t(e)], it = friction_[std::size_t(e)];
    const double m = mu[std::size_t(e)];
    if (isJoint(e)) {
      // ±T − μ r Σ weight dᵀ(R0 + s Rl + Rw w) ≤ 0
      const auto i = std::size_t(e);
      const double k = m * lever_[i] * c.widen[i];
      Eigen::VectorXd lr = zero;
      double el = 0.0, b0 = 0.0;
      for (std::size_t t = 0; t < terms_[i].size(); ++t) {
        const LoadTerm& term = terms_[i][t];
        const Eigen::VectorXd& d = c.direction[i][t];
        lr += (k * term.weight) * (term.w_map.transpose() * d);
        el += (k * term.weight) * d.dot(term.load);
        b0 += (k * term.weight) * d.dot(term.zero);
      }
      for (double sgn : {1.0, -1.0}) {
        Bound b{zero, -el, b0, int(e), Bound::kSlip};
        b.a(it) = sgn;
        b.a -= lr;
        add(b);
      }
      // certify(): R in the sector of directions [φ − δ, φ + δ] around d, −nᵀR ≤ 0 for the
      // inward normals n of its two edges.
      if (const double half = c.half[std::size_t(e)]; half > 0.0) {  // a planar load only
        const LoadTerm& term = terms_[i][0];
        const Eigen::Vector2d d = c.direction[i][0];
        const Eigen::Vector2d lo = Eigen::Rotation2Dd(-half) * d, hi = Eigen::Rotation2Dd(half) * d;
        for (const Eigen::Vector2d& n : {Eigen::Vector2d(-lo.y(), lo.x()), Eigen::Vector2d(hi.y(), -hi.x())}) {
          Bound b{zero, -n.dot(term.load), n.dot(term.zero), int(e), Bound::kSign};
          b.a = -(term.w_map.transpose() * n);
          add(b);
        }
      }
      continue;
    }
    const double sigma = c.sign[std::size_t(e)];
    if (in >= 0) {
      Bound b{zero, 0.0, 0.0, int(e), bilateral_[std::size_t(e)] ? Bound::kSign : Bound::kLift};
      b.a(in) = -sigma;
      add(b);
    }
    if (it < 0) continue;
    if (roundCone(e)) {  // dᵀ(F_t, F_b) − μ σ N ≤ 0 for each cut d
      const auto& cuts = cuts_[std::size_t(e)];
      for (std::size_t k = 0; k < cuts.size(); ++k) {
        Bound b{zero, 0.0, 0.0, int(e), Bound::kSlip, int(k)};
        b.a(it) = cuts[k].d.x();
        b.a(second_[std::size_t(e)]) = cuts[k].d.y();
        if (in >= 0) b.a(in) = -m * sigma;
        else b.b = m * known_normal_[std::size_t(e)];
        add(b);
      }
      continue;
    }
    for (double sgn : {1.0, -1.0}) {
      Bound b{zero, 0.0, 0.0, int(e), Bound::kSlip};
      b.a(it) = sgn;
      if (in >= 0) b.a(in) = -m * sigma;
      else b.b = m * known_normal_[std::size_t(e)];
      add(b);
    }
  }
  return out;
}

Choices HoldProblem::choicesFrom(const Eigen::VectorXd& w, const Choices& previous, double s) const {
  Choices c = previous;
  for (Eigen::Index e = 0; e < elements(); ++e) {
    if (isJoint(e)) {
      for (std::size_t k = 0; k < terms_[std::size_t(e)].size(); ++k) {
        const Eigen::VectorXd r = reaction(e, k, w, s);
        if (r.norm() > 0.0) c.direction[std::size_t(e)][k] = r.normalized();
      }
    } else if (bilateral_[std::size_t(e)] && normal_[std::size_t(e)] >= 0) {
      const double n = w(normal_[std::size_t(e)]);
      if (n != 0.0) c.sign[std::size_t(e)] = n > 0.0 ? 1.0 : -1.0;
    }
  }
  return c;
}

bool HoldProblem::crossZeroNormals(const Eigen::VectorXd& w, Choices& c) const {
  bool crossed = false;
  for (Eigen::Index e = 0; e < elements(); ++e) {
    if (isJoint(e) || !bilateral_[std::size_t(e)] || normal_[std::size_t(e)] < 0) continue;
    const double n = w(normal_[std::size_t(e)]);
    if (std::abs(n) > tolerance() || n * c.sign[std::size_t(e)] < 0.0) continue;
    c.sign[std::size_t(e)] = -c.sign[std::size_t(e)];
    crossed = true;
  }
  return crossed;
}

Choices HoldProblem::initialChoices() const {
  Choices c;
  c.sign.assign(std::size_t(elements()), 1.0);
  c.direction.resize(std::size_t(elements()));
  for (Eigen::Index e = nc_; e < elements(); ++e)
    for (const LoadTerm& t : terms_[std::size_t(e)])
      c.direction[std::size_t(e)].push_back(Eigen::VectorXd::Unit(t.zero.size(), 0));
  c.widen.assign(std::size_t(elements()), 1.0);
  c.half.assign(std::size_t(elements()), 0.0);
  return choicesFrom(w0_ + wl_, c);
}

bool HoldProblem::variesWithY(Eigen::Index e) const {
  if (Z_.cols() == 0 || !closed_[std::size_t(e)]) return false;
  double dependence = 0.0;
  if (isJoint(e)) {
    for (const LoadTerm& t : terms_[std::size_t(e)]) dependence += (t.w_map * Z_).norm();
  } else if (bilateral_[std::size_t(e)] && normal_[std::size_t(e)] >= 0) {
    dependence = Z_.row(normal_[std::size_t(e)]).norm();
  }
  return dependence > 1e-12 * std::max(1.0, L_.norm());
}

bool HoldProblem::nonconvexInY() const {
  for (Eigen::Index e = 0; e < elements(); ++e)
    if (variesWithY(e)) return true;
  return false;
}

Certificate HoldProblem::certify(const std::vector<double>& mu, MarginSolution& found, double tol) {
  // Boxes partition the directions ψ of each branched joint's reaction R into arcs
  // [φ − δ, φ + δ] (δ ≤ π/4), and take each sign of each branched guide's N. In an arc,
  // |R| ≥ |T|/(μ r) lies between cᵀR ≥ |T|/(μ r) (c = (cos φ, sin φ): the exact linearization
  // at c, which proves "holds" when it reaches t ≥ 0) and cᵀR ≥ cos δ |T|/(μ r) with R in the
  // sector (since |R| cos δ ≤ cᵀR there): a box whose relaxation stays below t = 0 cannot
  // hold; the others are halved.
  std::vector<Eigen::Index> joints, guides;
  for (Eigen::Index e = 0; e < elements(); ++e) {
    if (!variesWithY(e)) continue;
    if (isJoint(e) && !planarLoad(e)) return Certificate::kUndecided;  // arcs of a circle only
    (isJoint(e) ? joints : guides).push_back(e);
  }
  struct Box {
    std::vector<double> phi, half, sign;
  };
  const double quarter = 0.25 * std::numbers::pi;
  const std::size_t nj = joints.size(), ng = guides.size();
  if (nj > 6 || ng > 6) return Certificate::kUndecided;  // 4^nj · 2^ng roots: too many
  std::vector<Box> stack;
  for (std::size_t root = 0; root < (std::size_t(1) << (2 * nj + ng)); ++root) {
    Box b;
    for (std::size_t j = 0; j < nj; ++j) {
      b.phi.push_back(quarter * (2.0 * double((root >> (2 * j)) & 3u) + 1.0));
      b.half.push_back(quarter);
    }
    for (std::size_t g = 0; g < ng; ++g) b.sign.push_back((root >> (2 * nj + g)) & 1u ? -1.0 : 1.0);
    stack.push_back(b);
  }
  Choices c = initialChoices();
  const long budget = lp_solves_ + 100000;
  certify_on_edge_ = false;
  while (!stack.empty()) {
    if (lp_solves_ > budget) return Certificate::kUndecided;
    const Box b = stack.back();
    stack.pop_back();
    for (std::size_t g = 0; g < ng; ++g) c.sign[std::size_t(guides[g])] = b.sign[g];
    for (std::size_t j = 0; j < nj; ++j) {
      const auto e = std::size_t(joints[j]);
      c.direction[e][0] = Eigen::Vector2d(std::cos(b.phi[j]), std::sin(b.phi[j]));
      c.widen[e] = 1.0;
      c.half[e] = 0.0;
    }
    auto [t, w] = margin(mu, c);
    if (t >= -tol) {
      found = {t, w, c};
      return Certificate::kHolds;
    }
    for (std::size_t j = 0; j < nj; ++j) {
      const auto e = std::size_t(joints[j]);
      c.widen[e] = 1.0 / std::cos(b.half[j]);
      c.half[e] = b.half[j];
    }
    const bool possible = margin(mu, c).first >= -tol;
    for (std::size_t j = 0; j < nj; ++j) c.widen[std::size_t(joints[j])] = 1.0, c.half[std::size_t(joints[j])] = 0.0;
    if (!possible) continue;
    std::size_t widest = 0;
    for (std::size_t j = 1; j < nj; ++j)
      if (b.half[j] > b.half[widest]) widest = j;
    if (nj == 0 || b.half[widest] < 1e-9) {  // borderline within round-off
      certify_on_edge_ = true;
      return Certificate::kUndecided;
    }
    for (double side : {-0.5, 0.5}) {
      Box half = b;
      half.half[widest] *= 0.5;
      half.phi[widest] += side * b.half[widest];
      stack.push_back(half);
    }
  }
  return Certificate::kBreaksAway;
}

namespace {
/// Few enough vertices and edges (subsets of n and n − 1 rows) to enumerate.
bool enumerable(const lcp::LinearProgram& p) {
  const Eigen::Index m = p.A.rows(), n = p.A.cols();
  double subsets = 1.0;  // C(m, n)
  for (Eigen::Index i = 0; i < n; ++i) subsets = subsets * double(m - i) / double(i + 1);
  return subsets * (1.0 + double(n) / double(std::max<Eigen::Index>(1, m - n + 1))) <= 2e5;
}
}  // namespace

lcp::LpResult HoldProblem::lp(const lcp::LinearProgram& program, std::optional<lcp::LpMethod> chosen) {
  const lcp::LpMethod method = chosen.value_or(primary());
  lcp::LpResult r = lcp::solveLinearProgram(program, method);
  ++lp_solves_;
  pivots_ += r.pivots;
  if (r.status == lcp::LpStatus::kFailed && method == lcp::LpMethod::kLemke && enumerable(program)) {
    // A degenerate program (sign rows that pin a reaction to a thin slab) can stop Lemke on a
    // bad basis: the small program is solved by vertex enumeration instead.
    const lcp::LpResult v = lcp::solveLinearProgram(program, lcp::LpMethod::kVertices);
    ++lp_solves_;
    if (v.status != lcp::LpStatus::kFailed) return v;
  }
  if (r.status == lcp::LpStatus::kFailed) {
    std::ostringstream msg;
    msg << "a linear program failed (" << r.message << ", relative residual " << r.lcp_residual << ")";
    throw std::runtime_error(msg.str());
  }
  return r;
}

double HoldProblem::coneSlack(Eigen::Index e, double mu, const Eigen::VectorXd& w) const {
  return (mu * normalAt(e, w) - coneFriction(e, w).norm()) / std::sqrt(1.0 + mu * mu);
}

double HoldProblem::coneSlack(const std::vector<double>& mu, const Eigen::VectorXd& w) const {
  double slack = kInf;
  for (Eigen::Index e = 0; e < nc_; ++e)
    if (roundCone(e) && closed_[std::size_t(e)]) slack = std::min(slack, coneSlack(e, mu[std::size_t(e)], w));
  return slack;
}

bool HoldProblem::refineCones(const std::vector<double>& mu, const Eigen::VectorXd& w, double floor) {
  bool added = false;
  for (Eigen::Index e = 0; e < nc_; ++e) {
    if (!roundCone(e) || !closed_[std::size_t(e)]) continue;
    const Eigen::Vector2d f = coneFriction(e, w);
    if (f.norm() > 0.0 && coneSlack(e, mu[std::size_t(e)], w) < floor - 1e-13 * scale_) {
      cuts_[std::size_t(e)].push_back({f.normalized(), lp_solves_});
      added = true;
    }
  }
  return added;
}

void HoldProblem::noteBinding(const std::vector<Bound>& bs, const Eigen::VectorXd& dual) {
  for (std::size_t i = 0; i < bs.size() && Eigen::Index(i) < dual.size(); ++i)
    if (bs[i].cut >= 0 && dual(Eigen::Index(i)) > 0.0)
      cuts_[std::size_t(bs[i].element)][std::size_t(bs[i].cut)].bound_at = lp_solves_;
}

void HoldProblem::forgetCuts() {
  for (auto& cuts : cuts_)
    if (cuts.size() > kFirstCuts)
      cuts.erase(std::remove_if(cuts.begin() + kFirstCuts, cuts.end(),
                                [&](const Cut& c) { return lp_solves_ - c.bound_at > kCutMemory; }),
                 cuts.end());
}

std::pair<double, Eigen::VectorXd> HoldProblem::margin(const std::vector<double>& mu, const Choices& c, double decide) {
  double best = -kInf;  // the best witness's margin on the cones themselves
  Eigen::VectorXd witness;
  forgetCuts();
  for (int round = 0;; ++round) {
    auto [t, w] = marginProgram(bounds(mu, c));
    if (!std::isfinite(t)) return {t, w};
    if (const double exact = std::min(t, coneSlack(mu, w)); exact > best || witness.size() == 0) {
      best = exact;
      witness = w;
    }
    if (t - best <= 1e-12 * scale_ || round == kCutRounds) break;
    if (best >= -decide || t < -decide) break;  // false for NaN
    if (!refineCones(mu, w, t)) break;
  }
  return {best, witness};
}

lcp::LpResult HoldProblem::withCuts(const std::vector<double>& mu, const Choices& c,
                                    const std::function<lcp::LinearProgram(const std::vector<Bound>&)>& build,
                                    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& witness,
                                    double floor, std::vector<Bound>* used) {
  forgetCuts();
  double last = NAN;
  int still = 0;  // rounds in a row that left the bound where it was
  for (int round = 0;; ++round) {
    std::vector<Bound> bs = bounds(mu, c);
    const lcp::LpResult r = lp(build(bs));
    noteBinding(bs, r.dual);
    still = std::abs(r.objective - last) <= 1e-13 * std::max(scale_, std::abs(r.objective))
                ? still + 1
                : 0;
    last = r.objective;
    if (round == kCutRounds || still == kStillRounds || r.status != lcp::LpStatus::kOptimal ||
        !refineCones(mu, witness(r.x), floor)) {
      if (used) *used = std::move(bs);
      return r;
    }
  }
}

std::pair<double, Eigen::VectorXd> HoldProblem::marginProgram(const std::vector<Bound>& bs,
                                                             std::optional<lcp::LpMethod> chosen,
                                                             Eigen::VectorXd* dual) {
  const Eigen::Index ny = Z_.cols(), m = Eigen::Index(bs.size());
  const Eigen::VectorXd wp = w0_ + wl_;
  // Friction rows (aᵀZ) y + t ≤ b − e − aᵀ w_p; the others (N ≥ 0, the chosen sign of a
  // bilateral N) hold without slack, within round-off. Unbounded (an indeterminate N may grow
  // without end, or no friction row binds), the witness comes from the cap t ≤ scale.
  lcp::LinearProgram prog;
  prog.A = Eigen::MatrixXd::Zero(m, ny + 1);
  prog.b.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const Bound& b = bs[std::size_t(i)];
    prog.A.row(i).head(ny) = b.a.transpose() * Z_;
    const bool slip = b.kind == Bound::kSlip;
    prog.A(i, ny) = slip ? 1.0 : 0.0;
    prog.b(i) = b.b - b.e - b.a.dot(wp) + (slip ? 0.0 : tolerance());
  }
  prog.c = Eigen::VectorXd::Zero(ny + 1);
  prog.c(ny) = -1.0;
  lcp::LpResult r = lp(prog, chosen);
  if (r.status == lcp::LpStatus::kInfeasible) return {-kInf, wp};  // N < 0 needed
  double t = r.x(ny);
  if (r.status == lcp::LpStatus::kUnbounded) {
    t = kInf;
    prog.A.conservativeResize(m + 1, Eigen::NoChange);
    prog.b.conservativeResize(m + 1);
    prog.A.row(m).setZero();
    prog.A(m, ny) = 1.0;
    prog.b(m) = scale_;
    r = lp(prog, chosen);
  }
  // Capped, the program is bounded: a ray is Lemke lost on a degenerate program.
  if (r.status == lcp::LpStatus::kUnbounded && chosen.value_or(primary()) == lcp::LpMethod::kLemke &&
      enumerable(prog))
    r = lp(prog, lcp::LpMethod::kVertices);
  if (r.status != lcp::LpStatus::kOptimal)
    throw std::runtime_error("the margin program is " + std::string(lcp::toString(r.status)));
  noteBinding(bs, r.dual);
  if (dual) *dual = r.dual.head(m);
  return {t, wp + Z_ * r.x.head(ny)};
}

MarginSolution HoldProblem::bestMargin(const std::vector<double>& mu, const Choices* start, double decide) {
  std::vector<Choices> starts;
  if (start) starts.push_back(*start);
  starts.push_back(initialChoices());
  if (nonconvexInY()) {  // the reactions' other senses (file comment)
    for (int turn = 1; turn < 4; ++turn) {
      Choices c = starts.back();
      const Eigen::Rotation2Dd quarter(turn * 1.5707963267948966);
      for (auto& joint : c.direction)
        for (Eigen::VectorXd& d : joint)  // a quarter turn in the plane, a cyclic shift in space
          d = d.size() == 2 ? Eigen::VectorXd(quarter * Eigen::Vector2d(d)) : Eigen::VectorXd(Eigen::Vector3d(d(1), d(2), d(0)));
      if (turn == 2)
        for (auto& sg : c.sign) sg = -sg;
      starts.push_back(c);
    }
  }
  MarginSolution best;
  for (const Choices& first : starts) {
    Choices c = first;
    MarginSolution here;
    for (int pass = 0; pass < 50; ++pass) {
      auto [t, w] = margin(mu, c, decide);
      const bool better = t > here.t + 1e-14 * scale_;
      if (pass == 0 || t >= here.t) here = {t, w, c};
      const Choices next = choicesFrom(w, c);
      bool same = next.sign == c.sign;
      for (std::size_t e = 0; e < c.direction.size() && same; ++e)
        for (std::size_t k = 0; k < c.direction[e].size() && same; ++k)
          same = (next.direction[e][k] - c.direction[e][k]).norm() < 1e-13;
      if (same || (pass > 0 && !better)) break;
      c = next;
    }
    // The first start's at least, also when no reactions with N ≥ 0 balance the loads (t = −∞).
    if (here.t > best.t || best.w.size() == 0) best = here;
    if (best.t >= -tolerance() && start) break;  // the warm start holds: enough for bisection
  }
  return best;
}

double HoldProblem::criticalMu(Eigen::Index e, const MarginSolution& at) {
  std::vector<double> mu = mu_;
  // Round-off only: hold()'s tolerance would bias the critical μs down by 1e-10 relative.
  // With round cones, their cuts' accuracy.
  const double tol = (round_cones_ ? 1e-12 : 1e-14) * scale_;
  auto holds = [&](double value) {
    mu[std::size_t(e)] = value;
    if (bestMargin(mu, &at.choices, tol).t >= -tol) return true;
    if (!nonconvexInY()) return false;
    MarginSolution found;
    const Certificate c = certify(mu, found, tol);
    // Undecided within the budget: not exact. Undecided at δ = 1e-9: on the edge within the
    // programs' round-off (margins of 1e-12), i.e. at the critical μs itself.
    undecided_ = undecided_ || (c == Certificate::kUndecided && !certify_on_edge_);
    return c == Certificate::kHolds || c == Certificate::kUndecided;
  };
  if (holds(0.0)) return 0.0;
  double low = 0.0, high = std::max(1.0, 2.0 * mu_[std::size_t(e)]);
  while (!holds(high)) {
    low = high;
    high *= 4.0;
    if (high > 1e6) return kInf;
  }
  while (high - low > 1e-12 * high) {
    const double mid = 0.5 * (low + high);
    (holds(mid) ? high : low) = mid;
  }
  return high;
}

void HoldProblem::loadFactor(const MarginSolution& at, HoldLoadFactor& out) {
  out.loads = loads_;
  if (!loads_) return;
  if (load_residual_ > o_.balance_tolerance) {  // only s = 1 balances
    out.low = out.high = at.t >= -tolerance() ? 1.0 : NAN;
    return;
  }
  const Eigen::Index ny = Z_.cols();
  for (double direction : {1.0, -1.0}) {
    double best = -kInf;
    lcp::LpResult kept;
    std::vector<Bound> kept_bounds;
    // Rows (aᵀZ) y + (aᵀ w_l + e) s ≤ b − aᵀ w0; maximize direction · s.
    auto build = [&](const std::vector<Bound>& bs) {
      const Eigen::Index m = Eigen::Index(bs.size());
      lcp::LinearProgram prog;
      prog.A.resize(m, ny + 1);
      prog.b.resize(m);
      for (Eigen::Index i = 0; i < m; ++i) {
        const Bound& b = bs[std::size_t(i)];
        prog.A.row(i).head(ny) = b.a.transpose() * Z_;
        prog.A(i, ny) = b.a.dot(wl_) + b.e;
        prog.b(i) = b.b - b.a.dot(w0_);
      }
      prog.c = Eigen::VectorXd::Zero(ny + 1);
      prog.c(ny) = -direction;
      return prog;
    };
    auto witness = [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(w0_ + x(ny) * wl_ + Z_ * x.head(ny)); };
    Choices c = at.choices;
    bool crossed = false;  // the last pass crossed a zero normal force, and gained nothing yet
    for (int pass = 0; pass < 50; ++pass) {
      std::vector<Bound> bs;
      const lcp::LpResult r = withCuts(mu_, c, build, witness, 0.0, &bs);
      if (r.status == lcp::LpStatus::kUnbounded) {
        best = kInf;
        kept = r;
        break;
      }
      if (r.status != lcp::LpStatus::kOptimal) break;  // infeasible for these choices
      const double s = direction * r.x(ny);
      if (!(s > best + 1e-14 * std::max(1.0, std::abs(s))) && pass > 0) {
        // A stall on a guide whose normal force is zero: its sign, a choice, binds; the
        // other side goes on (N changes sign as the load grows through it). Once.
        if (crossed || !crossZeroNormals(witness(kept.x), c)) break;
        crossed = true;
        continue;
      }
      crossed = false;
      best = s;
      kept = r;
      kept_bounds = bs;
      c = choicesFrom(witness(r.x), c, r.x(ny));
    }
    (direction > 0 ? out.high : out.low) = direction * best;
    auto& first = direction > 0 ? out.first_high : out.first_low;
    if (kept.status == lcp::LpStatus::kOptimal && !kept_bounds.empty()) {
      const double top = kept.dual.maxCoeff();
      for (std::size_t i = 0; i < kept_bounds.size(); ++i) {
        const Bound& b = kept_bounds[i];
        if (b.kind == Bound::kSign || !(kept.dual(Eigen::Index(i)) > 1e-9 * top)) continue;
        const std::size_t e = std::size_t(b.element);
        HoldBound hb{name(Eigen::Index(e)), b.kind == Bound::kLift ? "lifts off" : "slips"};
        if (std::none_of(first.begin(), first.end(),
                         [&](const HoldBound& x) { return x.element == hb.element && x.kind == hb.kind; }))
          first.push_back(hb);
      }
    }
  }
}

void HoldProblem::intervals(const MarginSolution& at, HoldResult& out) {
  const Eigen::Index ny = Z_.cols();
  const Eigen::VectorXd wp = w0_ + wl_;
  // The interval of value + rowᵀ y over the holding y.
  auto interval = [&](double value, const Eigen::RowVectorXd& row) {
    HoldInterval r;
    if (ny == 0 || row.norm() <= 1e-12 * std::max(1.0, Z_.norm())) {
      r.low = r.high = value;
      return r;
    }
    for (double sgn : {1.0, -1.0}) {  // minimize sgn · (row y): the low end, then the high one
      auto build = [&](const std::vector<Bound>& bs) {
        const Eigen::Index m = Eigen::Index(bs.size());
        lcp::LinearProgram prog;
        prog.A.resize(m, ny);
        prog.b.resize(m);
        for (Eigen::Index i = 0; i < m; ++i) {
          const Bound& b = bs[std::size_t(i)];
          prog.A.row(i) = b.a.transpose() * Z_;
          prog.b(i) = b.b - b.e - b.a.dot(wp) + tolerance();
        }
        prog.c = sgn * row.transpose();
        return prog;
      };
      const lcp::LpResult x =
          withCuts(mu_, at.choices, build, [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(wp + Z_ * y); },
                   -tolerance());
      (sgn > 0 ? r.low : r.high) = x.status == lcp::LpStatus::kUnbounded ? -sgn * kInf : value + row.dot(x.x);
    }
    return r;
  };
  auto range = [&](int k) { return k < 0 ? HoldInterval{} : interval(wp(k), Z_.row(k)); };
  const Eigen::VectorXd lambda_p = lambda0_ + lambdal_ + L_ * wp;
  const Eigen::MatrixXd lz = L_ * Z_;
  for (Eigen::Index i = 0; i < lambda_p.size(); ++i)
    out.lambda_ranges.push_back(interval(lambda_p(i), ny ? Eigen::RowVectorXd(lz.row(i)) : Eigen::RowVectorXd()));
  for (Eigen::Index e = 0; e < elements(); ++e) {
    HoldElement& el = out.elements[std::size_t(e)];
    if (!el.closed) continue;
    if (!roundCone(e)) el.friction_range = range(friction_[std::size_t(e)]);
    else if (ny == 0 || (Z_.row(friction_[std::size_t(e)]).norm() <= 1e-12 * std::max(1.0, Z_.norm()) &&
                         Z_.row(second_[std::size_t(e)]).norm() <= 1e-12 * std::max(1.0, Z_.norm())))
      el.friction_range.low = el.friction_range.high = coneFriction(e, wp).norm();  // determinate: ‖F‖
    if (roundCone(e)) {  // each world component of F = F_t t + F_b b, linear in y
      const int it = friction_[std::size_t(e)], ib = second_[std::size_t(e)];
      const Eigen::Matrix3d& frame = frames_[std::size_t(e)];
      for (int k = 0; k < 3; ++k) {
        const double tk = frame(k, 1), bk = frame(k, 2);
        const Eigen::RowVectorXd row = ny ? Eigen::RowVectorXd(tk * Z_.row(it) + bk * Z_.row(ib)) : Eigen::RowVectorXd();
        el.friction_vector_range[std::size_t(k)] = interval(tk * wp(it) + bk * wp(ib), row);
      }
    }
    if (normal_[std::size_t(e)] >= 0) el.normal_range = range(normal_[std::size_t(e)]);
    else if (!isJoint(e)) el.normal_range = {known_normal_[std::size_t(e)], known_normal_[std::size_t(e)]};
  }
}

/// The margin program at the witness's choices solved again by other methods: vertex enumeration
/// (small programs), the direct evaluation it reduces to with no free y, Lemke beside the
/// simplex, and the witness on the round cones themselves against their polygons' bound.
void HoldProblem::crossCheck(const std::vector<Bound>& bs, const MarginSolution& best, HoldResult& out) {
  double subsets = 1.0;  // C(rows, variables) of the margin program
  for (Eigen::Index i = 0; i <= Z_.cols(); ++i) subsets *= double(Eigen::Index(bs.size()) + 1 - i) / double(i + 1);
  const double solved = marginProgram(bs).first;
  std::ostringstream msg;
  double worst = 0.0;
  auto compare = [&](double other) { worst = std::max(worst, other == solved ? 0.0 : std::abs(other - solved)); };
  if (Z_.cols() == 0) {
    double direct = kInf;
    for (const Bound& b : bs) {
      const double slack = b.b - b.e - b.a.dot(w0_ + wl_);
      if (b.kind == Bound::kSlip) direct = std::min(direct, slack);
      else if (slack < -tolerance()) direct = -kInf;
    }
    compare(direct);
    msg << "direct evaluation (statically determinate): margin " << direct * unit_;
  }
  if (subsets <= 1e5) {
    msg << (Z_.cols() == 0 ? "; " : "");
    try {
      const double enumerated = marginProgram(bs, lcp::LpMethod::kVertices).first;
      compare(enumerated);
      msg << "vertex enumeration: margin " << enumerated * unit_;
    } catch (const std::runtime_error& e) {  // A without full column rank
      msg << "no vertex enumeration (" << e.what() << ")";
    }
  } else if (Z_.cols() > 0) {
    msg << "none (the margin program has " << subsets << " vertex candidates)";
  }
  if (primary() == lcp::LpMethod::kSimplex) {
    try {
      const double lemke = marginProgram(bs, lcp::LpMethod::kLemke).first;
      compare(lemke);
      msg << "; Lemke: " << lemke * unit_;
    } catch (const std::runtime_error& e) {  // degenerate: Lemke may stop on a bad basis
      msg << "; no Lemke (" << e.what() << ")";
    }
    std::size_t cuts = 0;
    for (const auto& c : cuts_) cuts += c.size();
    const double cone = std::min(solved, coneSlack(mu_, best.w));
    compare(cone);
    msg << "; simplex: " << solved * unit_ << "; on the round cones: margin " << cone * unit_ << " (" << cuts << " cuts)";
  } else {
    msg << "; Lemke: " << solved * unit_;
  }
  out.cross_check_ok = worst <= 1e-9 * std::max(1.0, scale_);
  msg << (out.cross_check_ok ? " (agree)" : " (DISAGREE)");
  out.cross_check = msg.str();
}

HoldResult HoldProblem::solve() {
  HoldResult out;
  out.balance_residual = balance_residual_;
  out.indeterminacy = int(Z_.cols());
  out.exact = !nonconvexInY();
  for (Eigen::Index e = 0; e < elements(); ++e) {
    HoldElement el;
    el.joint = isJoint(e);
    el.name = name(e);
    el.closed = closed_[std::size_t(e)];
    el.frictional = el.joint ? (m_.jointFriction()[std::size_t(e - nc_)].mu_static > 0.0 ||
                                m_.jointFriction()[std::size_t(e - nc_)].mu_kinetic > 0.0)
                             : m_.contacts()[std::size_t(e)].frictional();
    el.mu_static = mu_[std::size_t(e)];
    out.elements.push_back(el);
  }
  if (balance_residual_ > o_.balance_tolerance) {  // no reactions balance it: it accelerates
    out.holds = false;
    out.margin = -kInf;
    out.violated.push_back({"", "unbalanced"});
    for (auto& el : out.elements) el.critical_mu = kInf;
    out.lambda = lambda0_ + lambdal_ + L_ * (w0_ + wl_);
    out.cross_check = "none: no reactions balance the loads, so there is no program to check";
    inNewtons(out);
    return out;
  }
  MarginSolution best = bestMargin(mu_);
  out.holds = best.t >= -tolerance();
  if (!out.holds && !out.exact) {  // the ascent found nothing: decide globally
    MarginSolution found;
    switch (certify(mu_, found, tolerance())) {
      case Certificate::kBreaksAway: out.exact = true; break;
      case Certificate::kHolds:
        best = bestMargin(mu_, &found.choices);  // polish from the holding directions
        if (best.t < found.t) best = found;
        out.holds = true;
        out.exact = true;
        break;
      case Certificate::kUndecided: break;
    }
  }
  if (out.holds) out.exact = true;  // certified by the reactions found
  out.margin = best.t;
  const std::vector<Bound> bs = bounds(mu_, best.choices);
  for (Eigen::Index e = 0; e < elements(); ++e) {
    HoldElement& el = out.elements[std::size_t(e)];
    if (!el.closed) continue;
    const int in = normal_[std::size_t(e)], it = friction_[std::size_t(e)];
    el.normal = el.joint ? load(e, best.w, 1.0) : in >= 0 ? best.w(in) : known_normal_[std::size_t(e)];
    el.friction = it < 0 ? 0.0 : roundCone(e) ? coneFriction(e, best.w).norm() : best.w(it);
    if (roundCone(e)) {
      const Eigen::Vector2d f = coneFriction(e, best.w);
      el.friction_vector = frames_[std::size_t(e)].col(1) * f.x() + frames_[std::size_t(e)].col(2) * f.y();
    }
    if (roundCone(e) && el.frictional) {  // the cone itself, not its cuts
      const double slack = coneSlack(e, mu_[std::size_t(e)], best.w);
      el.saturated = slack <= tolerance();
      if (!out.holds && slack < -tolerance()) out.violated.push_back({el.name, "slips"});
    }
  }
  for (const Bound& b : bs) {
    const double slack = b.b - b.e - b.a.dot(best.w);
    HoldElement& el = out.elements[std::size_t(b.element)];
    if (b.kind == Bound::kSlip && roundCone(b.element)) continue;
    if (b.kind == Bound::kSlip && el.frictional && slack <= tolerance()) el.saturated = true;
    if (!out.holds && slack < -tolerance() && b.kind != Bound::kSign)
      out.violated.push_back({el.name, b.kind == Bound::kLift ? "lifts off" : "slips"});
  }
  out.lambda = lambda0_ + lambdal_ + L_ * best.w;

  crossCheck(bs, best, out);

  if (o_.margins) {
    for (Eigen::Index e = 0; e < elements(); ++e) {
      HoldElement& el = out.elements[std::size_t(e)];
      if (el.closed && friction_[std::size_t(e)] >= 0) el.critical_mu = criticalMu(e, best);
    }
    loadFactor(best, out.load_factor);
    if (out.holds) intervals(best, out);
    out.exact = out.exact && !undecided_;
  }
  if (!out.holds)
    for (auto& el : out.elements) {
      el.normal = el.friction = NAN;
      el.friction_vector.setConstant(NAN);
    }
  out.lp_solves = lp_solves_;
  out.pivots = pivots_;
  inNewtons(out);
  return out;
}

}  // namespace

HoldResult analyseHold(const Mechanism& mechanism, const Eigen::VectorXd& q, const HoldOptions& options) {
  HoldProblem problem(mechanism, q, options);
  return problem.solve();
}

HoldResult analyseHold(const RigidScenario& scenario, const Eigen::VectorXd& q, const HoldOptions& options) {
  return analyseHold(PlanarMechanism(scenario), q, options);
}

}  // namespace stickslip::dynamics
