#include "dynamics/routes/minimal_form/minimal_form_route.hpp"

#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace stickslip::dynamics {
namespace {

// Relative thresholds of the rank decisions: far below the scale of a joint's Jacobian entries
// (lengths and ones), far above round-off.
constexpr double kRankThreshold = 1e-10;

// Largest gap and normal velocity of a unilateral contact taken as closed at the start [m, m/s].
constexpr double kClosedGap = 1e-9;

// The reason a contact has no place in the minimal form, or "". `k`: the contacts' kinematics
// at the start; `frictional`: the mechanism's frictional elements (contacts and joints).
std::string contactRefusal(const RigidContact& c, std::size_t index, const ContactKinematics& k,
                           std::size_t frictional) {
  const std::string who = "contact '" + c.name + "'";
  const Eigen::Index i = Eigen::Index(index);
  if (c.shape != RigidContact::Shape::kDiskLine)
    return who + " is a clearance joint, whose journal may leave the bearing wall; the minimal form keeps "
                 "every constraint closed";
  if (c.normal == RigidContact::Normal::kCompliant)
    return who + " is compliant (a force of the penetration), not a constraint of the minimal form";
  if (c.normal == RigidContact::Normal::kUnilateral) {
    if (std::abs(k.gap(i)) > kClosedGap || std::abs(k.normal_velocity(i)) > kClosedGap) {
      std::ostringstream os;
      os << who << " is unilateral and open at the start (gap " << k.gap(i) << " m, normal velocity "
         << k.normal_velocity(i) << " m/s); the minimal form keeps every constraint closed";
      return os.str();
    }
    if (frictional > 1)
      return who + " is unilateral: its lift-off is watched through its normal force, which is indeterminate "
                   "while the mechanism's " + std::to_string(frictional) + " frictional elements stick together";
  }
  if (c.surface_speed && c.frictional() && frictional > 1)
    return who + " slides on a moving surface, where it sticks at a velocity of the driver other than the "
                 "other frictional elements' (Blajer's stick is one state of the whole mechanism)";
  if (c.frictional() && c.radius > 0.0)
    return who + " is a frictional disk (radius " + std::to_string(c.radius) +
           " m): its sliding rate includes its rolling, which a point-on-line joint does not see";
  return "";
}

// Everything but the choice of coordinates: the converted model, its friction, and the
// sliding-rate rows C_μ at q0 (one per frictional element, in the friction list's order).
struct Converted {
  MinimalFormModel m;
  Eigen::MatrixXd sliding;
  std::string refusal;
};

Converted convert(const RigidScenario& s) {
  Converted out;
  for (const PlanarJoint& jt : s.model.joints())
    if (jt.type == JointType::kRheonomicDriver) {
      out.refusal = "driver '" + jt.name + "' prescribes an angle in time; the minimal form reduces a "
                    "scleronomic mechanism (hold an angle with a driver whose angle does not depend on t)";
      return out;
    }
  ContactKinematics k;
  evaluateContacts(s.model, s.contacts, 0.0, s.q0, s.v0, k, false);
  std::size_t frictional = s.joint_friction.size();
  for (const RigidContact& c : s.contacts) frictional += c.frictional();
  for (std::size_t c = 0; c < s.contacts.size(); ++c)
    if (std::string r = contactRefusal(s.contacts[c], c, k, frictional); !r.empty()) {
      out.refusal = r;
      return out;
    }
  MinimalFormModel& m = out.m;
  m.name = s.name;
  m.model = s.model;
  const Eigen::Index n = s.model.positionSize();
  std::vector<Eigen::VectorXd> rows;
  std::vector<int> closing;  // per contact: the joint that keeps it closed
  for (const RigidContact& rc : s.contacts) {
    RigidContact closed = rc;
    closed.normal = RigidContact::Normal::kBilateral;
    closing.push_back(addClosingJoint(m.model, closed));
  }
  // A unilateral contact is watched through its joint's multiplier: the joint's generalized
  // force −C_rowᵀ λ is the contact's J_nᵀ N, so N = −λ (C_row · J_n) / |J_n|².
  Eigen::MatrixXd C(m.model.constraintCount(), n);
  m.model.jacobian(0.0, s.q0, C);
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    if (s.contacts[c].normal != RigidContact::Normal::kUnilateral) continue;
    const Eigen::VectorXd jn = k.jacobian.row(Eigen::Index(2 * c)).transpose();
    const Eigen::Index row = m.model.joints()[std::size_t(closing[c])].row;
    m.options.unilateral.push_back({s.contacts[c].name, closing[c], C.row(row).dot(jn) > 0.0 ? -1.0 : 1.0});
  }
  for (const RevoluteFriction& rf : s.joint_friction) {
    FrictionalJoint f;
    f.name = rf.name;
    f.joint = rf.slot >= 0 ? closing[std::size_t(rf.slot)] : rf.joint;
    f.kind = rf.slot >= 0 ? FrictionJointKind::kPinInSlot : FrictionJointKind::kRevolute;
    f.radius = rf.radius;
    f.mu_static = rf.mu_static;
    f.mu_kinetic = rf.mu_kinetic;
    m.friction.push_back(f);
    Eigen::VectorXd row = Eigen::VectorXd::Zero(n);
    rf.addRow(s.model, s.contacts, 1.0, row);
    rows.push_back(row);
  }
  for (std::size_t c = 0; c < s.contacts.size(); ++c) {
    const RigidContact& rc = s.contacts[c];
    if (!rc.frictional()) continue;
    FrictionalJoint f;
    f.name = rc.name;
    f.joint = closing[c];
    f.kind = FrictionJointKind::kPrismatic;
    f.mu_static = rc.mu_static;
    f.mu_kinetic = rc.mu_kinetic;
    f.surface_speed = rc.surface_speed;
    f.surface_acceleration = rc.surface_acceleration;
    m.friction.push_back(f);
    rows.push_back(k.jacobian.row(Eigen::Index(2 * c + 1)).transpose());
  }
  out.sliding.resize(Eigen::Index(rows.size()), n);
  for (std::size_t r = 0; r < rows.size(); ++r) out.sliding.row(Eigen::Index(r)) = rows[r].transpose();
  m.x0 = s.q0;
  return out;
}

// Preference class of coordinate i as the driver: 0 the rotation of a body pinned to the
// ground, 1 another rotation, 2 a translation.
int driverClass(const PlanarModel& model, Eigen::Index i) {
  if (i % 3 != 2) return 2;
  const BodyIndex b = BodyIndex(i / 3);
  for (const PlanarJoint& jt : model.joints())
    if (jt.type == JointType::kRevolute && ((jt.body_i == kGround && jt.body_j == b) ||
                                            (jt.body_j == kGround && jt.body_i == b)))
      return 0;
  return 1;
}

// The same classes for a spatial body's velocities (ṙ, then ω′ about its axes).
int driverClass(const SpatialModel& model, Eigen::Index i) {
  if (i % 6 < 3) return 2;
  const BodyIndex b = BodyIndex(i / 6);
  for (const SpatialJoint& jt : model.joints())
    if (jt.type == SpatialJointType::kRevolute && ((jt.body_i == kGround && jt.body_j == b) ||
                                                   (jt.body_j == kGround && jt.body_i == b)))
      return 0;
  return 1;
}

// Chooses the independent velocity coordinates (file comment) from the constraint Jacobian C
// and the sliding rows at the start; "" or the reason there are none.
std::string chooseCoordinates(const Eigen::MatrixXd& C, const Eigen::MatrixXd& sliding,
                              const std::function<int(Eigen::Index)>& classOf, std::vector<Eigen::Index>& independent) {
  const Eigen::Index n = C.cols(), rows = C.rows();
  Eigen::FullPivLU<Eigen::MatrixXd> lu(C);
  lu.setThreshold(kRankThreshold);
  if (lu.rank() < rows) {
    std::ostringstream os;
    os << "the joints and guides are redundant at the initial state (rank " << lu.rank() << " of " << rows
       << " constraint rows); the minimal form needs independent constraints";
    return os.str();
  }
  const Eigen::Index k = n - rows;
  if (k < 1) return "the mechanism has no degree of freedom";
  const Eigen::MatrixXd N = Eigen::HouseholderQR<Eigen::MatrixXd>(lu.kernel()).householderQ() *
                            Eigen::MatrixXd::Identity(n, k);  // orthonormal basis
  // z: the direction in N's coordinates of the one motion that slides; without friction, the
  // motion of the preferred coordinate.
  const Eigen::MatrixXd S = sliding * N;
  // Coordinate i with weight w before `best` (−1: none yet): a lower class, or a larger weight.
  auto before = [&](Eigen::Index i, double w, Eigen::Index best, double w_best) {
    const int ci = classOf(i);
    return best < 0 || ci < classOf(best) || (ci == classOf(best) && w > w_best);
  };
  Eigen::VectorXd z;
  if (S.rows() > 0 && S.norm() > kRankThreshold * std::max(1.0, sliding.norm())) {
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(S, Eigen::ComputeFullV);
    const Eigen::VectorXd sv = svd.singularValues();
    if (sv.size() > 1 && sv(1) > kRankThreshold * sv(0))
      return "its " + std::to_string(k) + " degrees of freedom make the frictional elements slide with more "
             "than one independent velocity; Blajer's stick-slip decision is on one";
    z = svd.matrixV().col(0);
  } else {
    Eigen::Index best = -1;
    for (Eigen::Index i = 0; i < n; ++i)
      if (N.row(i).norm() > kRankThreshold && before(i, N.row(i).norm(), best, best < 0 ? 0.0 : N.row(best).norm()))
        best = i;
    z = N.row(best).transpose().normalized();
  }
  const Eigen::MatrixXd basis = Eigen::HouseholderQR<Eigen::MatrixXd>(z).householderQ();  // z, z⊥
  const Eigen::VectorXd sliding_motion = N * z;
  const Eigen::MatrixXd still = N * basis.rightCols(k - 1);
  // The driver: moved by the sliding motion, by no other.
  const double scale = sliding_motion.norm();
  Eigen::Index driver = -1;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double a = std::abs(sliding_motion(i));
    if (!(a > kRankThreshold * scale) || (k > 1 && still.row(i).norm() > kRankThreshold)) continue;
    if (before(i, a, driver, driver < 0 ? 0.0 : std::abs(sliding_motion(driver)))) driver = i;
  }
  if (driver < 0)
    return "no coordinate is moved by the sliding alone: every candidate for Blajer's driver u0 also moves with "
           "the other degrees of freedom";
  independent = {driver};
  if (k > 1) {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(still.transpose());
    for (Eigen::Index c2 = 0; c2 < k - 1; ++c2) independent.push_back(qr.colsPermutation().indices()(c2));
  }
  return "";
}

// The planar choice: coordinates, u0 and the driver's unit vector.
std::string chooseCoordinates(const RigidScenario& s, Converted& c) {
  MinimalFormModel& m = c.m;
  Eigen::MatrixXd C(m.model.constraintCount(), m.model.positionSize());
  m.model.jacobian(0.0, s.q0, C);
  const std::string refusal = chooseCoordinates(
      C, c.sliding, [&](Eigen::Index i) { return driverClass(m.model, i); }, m.options.independent);
  if (!refusal.empty()) return refusal;
  m.u0.resize(Eigen::Index(m.options.independent.size()));
  for (Eigen::Index i = 0; i < m.u0.size(); ++i) m.u0(i) = s.v0(m.options.independent[std::size_t(i)]);
  m.drive = Eigen::VectorXd::Unit(m.model.positionSize(), m.options.independent.front());
  return "";
}

}  // namespace

std::string minimalFormRefusal(const RigidScenario& s) {
  Converted c = convert(s);
  return c.refusal.empty() ? chooseCoordinates(s, c) : c.refusal;
}

MinimalFormModel minimalFormModel(const RigidScenario& s) {
  Converted c = convert(s);
  if (c.refusal.empty()) c.refusal = chooseCoordinates(s, c);
  if (!c.refusal.empty()) throw std::invalid_argument("the minimal form cannot take '" + s.name + "': " + c.refusal);
  return std::move(c.m);
}

MinimalFormModel minimalFormModel(const SpatialMechanism& mechanism, const Eigen::VectorXd& q0,
                                  const Eigen::VectorXd& v0, const std::string& name) {
  const std::string who = "the minimal form cannot take '" + name + "': ";
  if (!mechanism.clearances().empty())
    throw std::invalid_argument(who + "clearance joint '" + mechanism.clearances().front().name +
                                "' lets its journal leave the bearing wall; the minimal form keeps every constraint "
                                "closed");
  if (!mechanism.planes().empty())
    throw std::invalid_argument(who + "contact '" + mechanism.planes().front().name +
                                "' is unilateral and may open or slide in any direction of its plane; the minimal "
                                "form of a spatial mechanism reduces its joints and their friction");
  const SpatialModel& model = mechanism.model();
  MinimalFormModel m;
  m.name = name;
  m.x0 = q0;
  Eigen::MatrixXd C(model.constraintCount(), model.velocitySize());
  model.jacobian(0.0, q0, C);
  Eigen::MatrixXd sliding = Eigen::MatrixXd::Zero(Eigen::Index(mechanism.jointFriction().size()), C.cols());
  for (std::size_t e = 0; e < mechanism.jointFriction().size(); ++e) {
    Eigen::VectorXd row = Eigen::VectorXd::Zero(C.cols());
    mechanism.addJointFrictionRow(e, 1.0, row);
    sliding.row(Eigen::Index(e)) = row.transpose();
  }
  const std::string refusal = chooseCoordinates(
      C, sliding, [&](Eigen::Index i) { return driverClass(model, i); }, m.options.independent);
  if (!refusal.empty()) throw std::invalid_argument(who + refusal);
  m.u0.resize(Eigen::Index(m.options.independent.size()));
  for (Eigen::Index i = 0; i < m.u0.size(); ++i) m.u0(i) = v0(m.options.independent[std::size_t(i)]);
  std::vector<std::pair<BodyIndex, BodyIndex>> pairs;
  for (const SpatialJoint& jt : model.joints()) pairs.emplace_back(jt.body_i, jt.body_j);
  for (const int j : loopClosingJoints(model.bodyCount(), pairs))
    m.options.closing_rows += model.joints()[std::size_t(j)].rows;
  return m;
}

}  // namespace stickslip::dynamics
