#include "dynamics/statics/hold.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/model/constrained_response.hpp"

namespace stickslip::dynamics {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
};

/// The sign of a bilateral N and the direction of each joint reaction the bounds are written
/// for (the file comment's σ and d).
struct Choices {
  std::vector<double> sign;            ///< per element (contacts); 1 for the others
  std::vector<Eigen::Vector2d> direction;  ///< per element (joints)
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

class HoldProblem {
 public:
  HoldProblem(const RigidScenario& s, const Eigen::VectorXd& q, const HoldOptions& o);

  HoldResult solve();

 private:
  const RigidScenario& s_;
  const HoldOptions& o_;
  Eigen::Index nv_ = 0, p_ = 0, nc_ = 0;
  // Per element: its unknowns' indices in w (−1: none) and data.
  std::vector<int> normal_, friction_;
  std::vector<double> known_normal_, mu_;
  std::vector<char> bilateral_, closed_;
  /// Joints: their reaction R = R0 + s Rl + Rw w, from λ's rows (a revolute joint) or the
  /// slot's unknowns (a pin).
  std::vector<Eigen::Vector2d> reaction_zero_, reaction_load_;
  std::vector<Eigen::MatrixXd> reaction_w_;
  std::vector<double> radius_;
  // w = w0 + s wl + Z y; λ = λ0 + s λl + L w.
  Eigen::VectorXd w0_, wl_, lambda0_, lambdal_;
  Eigen::MatrixXd Z_, L_;
  double balance_residual_ = 0.0, load_residual_ = 0.0, scale_ = 0.0;
  bool loads_ = false;
  long lp_solves_ = 0, pivots_ = 0;

  Eigen::Index elements() const { return Eigen::Index(mu_.size()); }
  bool isJoint(Eigen::Index e) const { return e >= nc_; }
  double tolerance() const { return 1e-10 * scale_; }
  Eigen::Vector2d reaction(Eigen::Index e, const Eigen::VectorXd& w, double s) const {
    const auto i = std::size_t(e);
    return reaction_zero_[i] + s * reaction_load_[i] + reaction_w_[i] * w;
  }
  std::vector<Bound> bounds(const std::vector<double>& mu, const Choices& c) const;
  /// σ and d of the reactions w at load factor s (file comment).
  Choices choicesFrom(const Eigen::VectorXd& w, const Choices& previous, double s = 1.0) const;
  bool nonconvexInY() const;
  /// Whether element e's nonconvex bound (a guide's |N|, a joint's |R|) varies with y.
  bool variesWithY(Eigen::Index e) const;
  /// The global decision by branch and bound over the signs and reaction directions (file
  /// comment); kHolds sets `found`.
  Certificate certify(const std::vector<double>& mu, MarginSolution& found, double tol);
  bool undecided_ = false;        ///< a certify() in the margins was undecided
  bool certify_on_edge_ = false;  ///< the last certify() was undecided at δ = 1e-9
  lcp::LpResult lp(const lcp::LinearProgram& program, lcp::LpMethod method = lcp::LpMethod::kLemke);
  /// The margin program for fixed choices: (t*, w*, duals).
  std::pair<double, Eigen::VectorXd> margin(const std::vector<Bound>& b, lcp::LpMethod method = lcp::LpMethod::kLemke,
                                            Eigen::VectorXd* dual = nullptr);
  MarginSolution bestMargin(const std::vector<double>& mu, const Choices* start = nullptr);
  Choices initialChoices() const;
  void requireAtRest(const Eigen::VectorXd& q) const;
  Eigen::MatrixXd unknowns(const Eigen::VectorXd& q, Eigen::VectorXd& known);
  void elementReactions();
  double criticalMu(Eigen::Index e, const MarginSolution& at);
  void loadFactor(const MarginSolution& at, HoldLoadFactor& out);
  void intervals(const MarginSolution& at, HoldResult& out);
};

/// The configuration is assembled and nothing drives it at t: else std::invalid_argument.
void HoldProblem::requireAtRest(const Eigen::VectorXd& q) const {
  const PlanarModel& m = s_.model;
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
  const RigidScenario& s = s_;
  const PlanarModel& m = s.model;
  const HoldOptions& o = o_;
  const Eigen::VectorXd rest = Eigen::VectorXd::Zero(nv_);
  ContactKinematics k;
  for (const RigidContact& c : s.contacts) c.validate(m);
  for (const RevoluteFriction& f : s.joint_friction) f.validate(m, s.contacts);
  evaluateContacts(m, s.contacts, o.t, q, rest, k, false);
  std::vector<Eigen::VectorXd> columns;  // Jw's
  auto unknown = [&](const Eigen::VectorXd& column) {
    columns.push_back(column);
    return int(columns.size()) - 1;
  };
  for (Eigen::Index c = 0; c < nc_; ++c) {
    const RigidContact& rc = s.contacts[std::size_t(c)];
    const double gap = k.gap(c);
    const Eigen::VectorXd jn = k.jacobian.row(2 * c).transpose(), jt = k.jacobian.row(2 * c + 1).transpose();
    int in = -1, it = -1;
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
    }
    // A regularized static law (smooth_friction) gives no force at v_t = 0 with no stick
    // state: it holds nothing, and adds nothing here.
    normal_.push_back(in);
    friction_.push_back(it);
    known_normal_.push_back(known_n);
    mu_.push_back(rc.frictional() ? rc.mu_static : 0.0);
    bilateral_.push_back(rc.normal == RigidContact::Normal::kBilateral);
    closed_.push_back(closed);
    radius_.push_back(0.0);
  }
  for (const RevoluteFriction& f : s.joint_friction) {
    Eigen::VectorXd row = Eigen::VectorXd::Zero(nv_);
    f.addRow(m, s.contacts, 1.0, row);
    normal_.push_back(-1);
    friction_.push_back(unknown(row));
    known_normal_.push_back(0.0);
    mu_.push_back(f.mu_static);
    bilateral_.push_back(false);
    closed_.push_back(true);
    radius_.push_back(f.radius);
  }
  p_ = Eigen::Index(columns.size());
  Eigen::MatrixXd jw(nv_, p_);
  for (Eigen::Index i = 0; i < p_; ++i) jw.col(i) = columns[std::size_t(i)];

  return jw;
}

/// Each element's reaction as an affine function of w and s (its slot's N and F, or a
/// revolute joint's multipliers).
void HoldProblem::elementReactions() {
  const RigidScenario& s = s_;
  const PlanarModel& m = s.model;
  for (Eigen::Index e = 0; e < elements(); ++e) {
    Eigen::MatrixXd rw = Eigen::MatrixXd::Zero(2, p_);
    Eigen::Vector2d r0 = Eigen::Vector2d::Zero(), rl = Eigen::Vector2d::Zero();
    const RevoluteFriction* f = isJoint(e) ? &s.joint_friction[std::size_t(e - nc_)] : nullptr;
    if (f && f->slot >= 0) {  // the slot's N and F
      rw(0, normal_[std::size_t(f->slot)]) = 1.0;
      if (const int it = friction_[std::size_t(f->slot)]; it >= 0) rw(1, it) = 1.0;
    } else if (f) {
      const Eigen::Index r = m.joints()[std::size_t(f->joint)].row;
      rw = L_.middleRows(r, 2);
      r0 = lambda0_.segment<2>(r);
      rl = lambdal_.segment<2>(r);
    }
    reaction_w_.push_back(std::move(rw));
    reaction_zero_.push_back(r0);
    reaction_load_.push_back(rl);
  }
}

HoldProblem::HoldProblem(const RigidScenario& s, const Eigen::VectorXd& q, const HoldOptions& o) : s_(s), o_(o) {
  const PlanarModel& m = s.model;
  nv_ = m.velocitySize();
  nc_ = Eigen::Index(s.contacts.size());
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
  const Eigen::MatrixXd& g = cr.inverseMass();
  const Eigen::VectorXd mh = m.massDiagonal().cwiseSqrt();
  const Eigen::MatrixXd b = mh.asDiagonal() * (g * jw);
  const Eigen::VectorXd beta1 = -(mh.asDiagonal() * (cr.freeAcceleration() + g * known)).eval();
  const Eigen::VectorXd betal = -(mh.asDiagonal() * (g * ql)).eval();
  Eigen::VectorXd cs = Eigen::VectorXd::Ones(p_);
  for (Eigen::Index i = 0; i < p_; ++i)
    if (b.col(i).norm() > 0.0) cs(i) = 1.0 / b.col(i).norm();
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
  Eigen::VectorXd qtot = cr.forces() + known;
  const double reference = (qtot.array() / mh.array().max(1e-300)).matrix().norm() + 1e-300;
  balance_residual_ = (beta1 - b * wp1).norm() / reference;
  load_residual_ = loads_ ? (betal - b * wl_).norm() / reference : 0.0;

  // λ = λ0 + s λl + L w (multipliers() is affine in the contact force; Q at s = 1).
  const Eigen::Index nm2 = nm;
  Eigen::VectorXd l_known(nm2), l_zero(nm2), l_q(nm2), col(nm2);
  cr.multipliers(known, l_known);
  cr.multipliers(Eigen::VectorXd::Zero(nv_), l_zero);
  cr.multipliers(ql, l_q);
  lambdal_ = l_q - l_zero;
  lambda0_ = l_known - lambdal_;
  L_.resize(nm2, p_);
  for (Eigen::Index i = 0; i < p_; ++i) {
    cr.multipliers(known + jw.col(i), col);
    L_.col(i) = col - l_known;
  }
  elementReactions();
  scale_ = std::max({wp1.lpNorm<Eigen::Infinity>(), wl_.lpNorm<Eigen::Infinity>(),
                     known.lpNorm<Eigen::Infinity>(), 1e-300});
  for (double n : known_normal_) scale_ = std::max(scale_, n);
  // Round-off of exact zeros (1e-93 at a dead centre) would reach Lemke as badly scaled data.
  for (Eigen::VectorXd* x : {&w0_, &wl_})
    *x = x->unaryExpr([&](double v) { return std::abs(v) < 1e-15 * scale_ ? 0.0 : v; });
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
      // ±T − μ r dᵀ(R0 + s Rl + Rw w) ≤ 0
      const auto i = std::size_t(e);
      const Eigen::Vector2d d = c.direction[i];
      const double k = m * radius_[i] * c.widen[i];
      const Eigen::VectorXd lr = k * (reaction_w_[i].transpose() * d);
      const double el = k * d.dot(reaction_load_[i]), b0 = k * d.dot(reaction_zero_[i]);
      for (double sgn : {1.0, -1.0}) {
        Bound b{zero, -el, b0, int(e), Bound::kSlip};
        b.a(it) = sgn;
        b.a -= lr;
        add(b);
      }
      // certify(): R in the sector of directions [φ − δ, φ + δ] around d, −nᵀR ≤ 0 for the
      // inward normals n of its two edges.
      if (const double half = c.half[std::size_t(e)]; half > 0.0) {
        const Eigen::Vector2d lo = Eigen::Rotation2Dd(-half) * d, hi = Eigen::Rotation2Dd(half) * d;
        for (const Eigen::Vector2d& n : {Eigen::Vector2d(-lo.y(), lo.x()), Eigen::Vector2d(hi.y(), -hi.x())}) {
          Bound b{zero, -n.dot(reaction_load_[i]), n.dot(reaction_zero_[i]), int(e), Bound::kSign};
          b.a = -(reaction_w_[i].transpose() * n);
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
      const Eigen::Vector2d r = reaction(e, w, s);
      if (r.norm() > 0.0) c.direction[std::size_t(e)] = r.normalized();
    } else if (bilateral_[std::size_t(e)] && normal_[std::size_t(e)] >= 0) {
      const double n = w(normal_[std::size_t(e)]);
      if (n != 0.0) c.sign[std::size_t(e)] = n > 0.0 ? 1.0 : -1.0;
    }
  }
  return c;
}

Choices HoldProblem::initialChoices() const {
  Choices c;
  c.sign.assign(std::size_t(elements()), 1.0);
  c.direction.assign(std::size_t(elements()), Eigen::Vector2d::UnitX());
  c.widen.assign(std::size_t(elements()), 1.0);
  c.half.assign(std::size_t(elements()), 0.0);
  return choicesFrom(w0_ + wl_, c);
}

bool HoldProblem::variesWithY(Eigen::Index e) const {
  if (Z_.cols() == 0 || !closed_[std::size_t(e)]) return false;
  double dependence = 0.0;
  if (isJoint(e)) {
    dependence = (reaction_w_[std::size_t(e)] * Z_).norm();
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
  for (Eigen::Index e = 0; e < elements(); ++e)
    if (variesWithY(e)) (isJoint(e) ? joints : guides).push_back(e);
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
      c.direction[e] = {std::cos(b.phi[j]), std::sin(b.phi[j])};
      c.widen[e] = 1.0;
      c.half[e] = 0.0;
    }
    auto [t, w] = margin(bounds(mu, c));
    if (t >= -tol) {
      found = {t, w, c};
      return Certificate::kHolds;
    }
    for (std::size_t j = 0; j < nj; ++j) {
      const auto e = std::size_t(joints[j]);
      c.widen[e] = 1.0 / std::cos(b.half[j]);
      c.half[e] = b.half[j];
    }
    const bool possible = margin(bounds(mu, c)).first >= -tol;
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

lcp::LpResult HoldProblem::lp(const lcp::LinearProgram& program, lcp::LpMethod method) {
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

std::pair<double, Eigen::VectorXd> HoldProblem::margin(const std::vector<Bound>& bs, lcp::LpMethod method,
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
  lcp::LpResult r = lp(prog, method);
  if (r.status == lcp::LpStatus::kInfeasible) return {-kInf, wp};  // N < 0 needed
  double t = r.x(ny);
  if (r.status == lcp::LpStatus::kUnbounded) {
    t = kInf;
    prog.A.conservativeResize(m + 1, Eigen::NoChange);
    prog.b.conservativeResize(m + 1);
    prog.A.row(m).setZero();
    prog.A(m, ny) = 1.0;
    prog.b(m) = scale_;
    r = lp(prog, method);
  }
  // Capped, the program is bounded: a ray is Lemke lost on a degenerate program.
  if (r.status == lcp::LpStatus::kUnbounded && method == lcp::LpMethod::kLemke && enumerable(prog))
    r = lp(prog, lcp::LpMethod::kVertices);
  if (r.status != lcp::LpStatus::kOptimal)
    throw std::runtime_error("the margin program is " + std::string(lcp::toString(r.status)));
  if (dual) *dual = r.dual.head(m);
  return {t, wp + Z_ * r.x.head(ny)};
}

MarginSolution HoldProblem::bestMargin(const std::vector<double>& mu, const Choices* start) {
  std::vector<Choices> starts;
  if (start) starts.push_back(*start);
  starts.push_back(initialChoices());
  if (nonconvexInY()) {  // the reactions' other senses (file comment)
    for (int turn = 1; turn < 4; ++turn) {
      Choices c = starts.back();
      const Eigen::Rotation2Dd quarter(turn * 1.5707963267948966);
      for (auto& d : c.direction) d = quarter * d;
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
      auto [t, w] = margin(bounds(mu, c));
      const bool better = t > here.t + 1e-14 * scale_;
      if (pass == 0 || t >= here.t) here = {t, w, c};
      const Choices next = choicesFrom(w, c);
      bool same = next.sign == c.sign;
      for (std::size_t e = 0; e < c.direction.size() && same; ++e)
        same = (next.direction[e] - c.direction[e]).norm() < 1e-13;
      if (same || (pass > 0 && !better)) break;
      c = next;
    }
    if (here.t > best.t) best = here;
    if (best.t >= -tolerance() && start) break;  // the warm start holds: enough for bisection
  }
  return best;
}

double HoldProblem::criticalMu(Eigen::Index e, const MarginSolution& at) {
  std::vector<double> mu = mu_;
  // Round-off only: hold()'s tolerance would bias the critical μs down by 1e-10 relative.
  const double tol = 1e-14 * scale_;
  auto holds = [&](double value) {
    mu[std::size_t(e)] = value;
    if (bestMargin(mu, &at.choices).t >= -tol) return true;
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
    out.low = out.high = at.t >= -tolerance() ? 1.0 : kNaN;
    return;
  }
  const Eigen::Index ny = Z_.cols();
  for (double direction : {1.0, -1.0}) {
    Choices c = at.choices;
    double best = -kInf;
    lcp::LpResult kept;
    std::vector<Bound> kept_bounds;
    for (int pass = 0; pass < 50; ++pass) {
      const std::vector<Bound> bs = bounds(mu_, c);
      const Eigen::Index m = Eigen::Index(bs.size());
      // Rows (aᵀZ) y + (aᵀ w_l + e) s ≤ b − aᵀ w0; maximize direction · s.
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
      const lcp::LpResult r = lp(prog);
      if (r.status == lcp::LpStatus::kUnbounded) {
        best = kInf;
        kept = r;
        break;
      }
      if (r.status != lcp::LpStatus::kOptimal) break;  // infeasible for these choices
      const double s = direction * r.x(ny);
      if (!(s > best + 1e-14 * std::max(1.0, std::abs(s))) && pass > 0) break;
      best = s;
      kept = r;
      kept_bounds = bs;
      c = choicesFrom(w0_ + r.x(ny) * wl_ + Z_ * r.x.head(ny), c, r.x(ny));
    }
    (direction > 0 ? out.high : out.low) = direction * best;
    auto& first = direction > 0 ? out.first_high : out.first_low;
    if (kept.status == lcp::LpStatus::kOptimal && !kept_bounds.empty()) {
      const double top = kept.dual.maxCoeff();
      for (std::size_t i = 0; i < kept_bounds.size(); ++i) {
        const Bound& b = kept_bounds[i];
        if (b.kind == Bound::kSign || !(kept.dual(Eigen::Index(i)) > 1e-9 * top)) continue;
        const std::size_t e = std::size_t(b.element);
        HoldBound hb{isJoint(Eigen::Index(e)) ? s_.joint_friction[e - std::size_t(nc_)].name : s_.contacts[e].name,
                     b.kind == Bound::kLift ? "lifts off" : "slips"};
        if (std::none_of(first.begin(), first.end(),
                         [&](const HoldBound& x) { return x.element == hb.element && x.kind == hb.kind; }))
          first.push_back(hb);
      }
    }
  }
}

void HoldProblem::intervals(const MarginSolution& at, HoldResult& out) {
  const std::vector<Bound> bs = bounds(mu_, at.choices);
  const Eigen::Index ny = Z_.cols(), m = Eigen::Index(bs.size());
  const Eigen::VectorXd wp = w0_ + wl_;
  lcp::LinearProgram prog;
  prog.A.resize(m, ny);
  prog.b.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const Bound& b = bs[std::size_t(i)];
    prog.A.row(i) = b.a.transpose() * Z_;
    prog.b(i) = b.b - b.e - b.a.dot(wp) + tolerance();
  }
  // The interval of value + rowᵀ y over the holding y.
  auto interval = [&](double value, const Eigen::RowVectorXd& row) {
    HoldInterval r;
    if (ny == 0 || row.norm() <= 1e-12 * std::max(1.0, Z_.norm())) {
      r.low = r.high = value;
      return r;
    }
    for (double sgn : {1.0, -1.0}) {  // minimize sgn · (row y): the low end, then the high one
      prog.c = sgn * row.transpose();
      const lcp::LpResult x = lp(prog);
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
    el.friction_range = range(friction_[std::size_t(e)]);
    if (normal_[std::size_t(e)] >= 0) el.normal_range = range(normal_[std::size_t(e)]);
    else if (!isJoint(e)) el.normal_range = {known_normal_[std::size_t(e)], known_normal_[std::size_t(e)]};
  }
}

HoldResult HoldProblem::solve() {
  HoldResult out;
  out.balance_residual = balance_residual_;
  out.indeterminacy = int(Z_.cols());
  out.exact = !nonconvexInY();
  for (Eigen::Index e = 0; e < elements(); ++e) {
    HoldElement el;
    el.joint = isJoint(e);
    el.name = el.joint ? s_.joint_friction[std::size_t(e - nc_)].name : s_.contacts[std::size_t(e)].name;
    el.closed = closed_[std::size_t(e)];
    el.frictional = el.joint ? (s_.joint_friction[std::size_t(e - nc_)].mu_static > 0.0 ||
                                s_.joint_friction[std::size_t(e - nc_)].mu_kinetic > 0.0)
                             : s_.contacts[std::size_t(e)].frictional();
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
    el.normal = el.joint ? reaction(e, best.w, 1.0).norm() : in >= 0 ? best.w(in) : known_normal_[std::size_t(e)];
    el.friction = it >= 0 ? best.w(it) : 0.0;
  }
  for (const Bound& b : bs) {
    const double slack = b.b - b.e - b.a.dot(best.w);
    HoldElement& el = out.elements[std::size_t(b.element)];
    if (b.kind == Bound::kSlip && el.frictional && slack <= tolerance()) el.saturated = true;
    if (!out.holds && slack < -tolerance() && b.kind != Bound::kSign)
      out.violated.push_back({el.name, b.kind == Bound::kLift ? "lifts off" : "slips"});
  }
  out.lambda = lambda0_ + lambdal_ + L_ * best.w;

  // Cross-check the margin at the witness's choices: vertex enumeration (and, with no free y,
  // the direct evaluation the program reduces to).
  {
    double subsets = 1.0;  // C(rows, variables) of the margin program
    for (Eigen::Index i = 0; i <= Z_.cols(); ++i)
      subsets *= double(Eigen::Index(bs.size()) + 1 - i) / double(i + 1);
    const double lemke = margin(bs).first;
    std::ostringstream msg;
    double worst = 0.0;
    if (Z_.cols() == 0) {
      double direct = kInf;
      for (const Bound& b : bs) {
        const double slack = b.b - b.e - b.a.dot(w0_ + wl_);
        if (b.kind == Bound::kSlip) direct = std::min(direct, slack);
        else if (slack < -tolerance()) direct = -kInf;
      }
      worst = direct == lemke ? 0.0 : std::abs(direct - lemke);
      msg << "direct evaluation (statically determinate): margin " << direct;
    }
    if (subsets <= 1e5) {
      msg << (Z_.cols() == 0 ? "; " : "");
      try {
        const double enumerated = margin(bs, lcp::LpMethod::kVertices).first;
        worst = std::max(worst, enumerated == lemke ? 0.0 : std::abs(enumerated - lemke));
        msg << "vertex enumeration: margin " << enumerated;
      } catch (const std::runtime_error& e) {  // A without full column rank
        msg << "no vertex enumeration (" << e.what() << ")";
      }
    } else if (Z_.cols() > 0) {
      msg << "none (the margin program has " << subsets << " vertex candidates)";
    }
    msg << "; Lemke: " << lemke;
    out.cross_check_ok = worst <= 1e-9 * std::max(1.0, scale_);
    msg << (out.cross_check_ok ? " (agree)" : " (DISAGREE)");
    out.cross_check = msg.str();
  }

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
    for (auto& el : out.elements) el.normal = el.friction = kNaN;
  out.lp_solves = lp_solves_;
  out.pivots = pivots_;
  return out;
}

}  // namespace

HoldResult analyseHold(const RigidScenario& scenario, const Eigen::VectorXd& q, const HoldOptions& options) {
  HoldProblem problem(scenario, q, options);
  return problem.solve();
}

}  // namespace stickslip::dynamics
