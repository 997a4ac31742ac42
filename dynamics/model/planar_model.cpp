#include "dynamics/model/planar_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace stickslip::dynamics {

namespace {

using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::VectorXd;
using Block = Eigen::Matrix<double, 3, 3>;  // up to 3 rows × (x, y, θ) of one body

Matrix2d rotation(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Matrix2d a;
  a << c, -s, s, c;
  return a;
}

Vector2d perp(const Vector2d& a) { return Vector2d(-a.y(), a.x()); }  // R a, R = rotation by +90°
double cross(const Vector2d& a, const Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

/// Pose and velocity of body b; the ground is at rest at the origin.
struct PlanarPose {
  Vector2d r = Vector2d::Zero();
  double theta = 0.0;
  Matrix2d a = Matrix2d::Identity();
};
PlanarPose pose(const Eigen::Ref<const VectorXd>& q, BodyIndex b) {
  PlanarPose p;
  if (b == kGround) return p;
  p.r = q.segment<2>(3 * b);
  p.theta = q(3 * b + 2);
  p.a = rotation(p.theta);
  return p;
}
Vector2d linearVelocity(const Eigen::Ref<const VectorXd>& v, BodyIndex b) {
  return b == kGround ? Vector2d::Zero() : Vector2d(v.segment<2>(3 * b));
}
double angularVelocity(const Eigen::Ref<const VectorXd>& v, BodyIndex b) {
  return b == kGround ? 0.0 : v(3 * b + 2);
}

/// A spring between point s_i of body i and s_j of body j: the arms A s, its length L, and its
/// direction u and rate L̇ = uᵀḋ when L > 0 (a zero-length spring has no direction).
struct PlanarSpringLine {
  Vector2d arm_i, arm_j, u = Vector2d::Zero();
  double length = 0.0, rate = 0.0;
};
PlanarSpringLine planarSpringLine(const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& v,
                                  BodyIndex i, BodyIndex j, const Vector2d& s_i, const Vector2d& s_j) {
  const PlanarPose pi = pose(q, i), pj = pose(q, j);
  PlanarSpringLine l{pi.a * s_i, pj.a * s_j};
  const Vector2d d = pj.r + l.arm_j - pi.r - l.arm_i;
  l.length = d.norm();
  if (!(l.length > 0.0)) return l;
  l.u = d / l.length;
  const Vector2d d_dot = linearVelocity(v, j) + perp(l.arm_j) * angularVelocity(v, j) - linearVelocity(v, i) -
                         perp(l.arm_i) * angularVelocity(v, i);
  l.rate = l.u.dot(d_dot);
  return l;
}

/// Rows of Φq for body i and body j of one joint (rows × 3 each), also for the ground so
/// that reactions can be reported on it.
void jointBlocks(const PlanarJoint& jt, const PlanarPose& pi, const PlanarPose& pj, Block& ji, Block& jj) {
  ji.setZero();
  jj.setZero();
  const Vector2d ai_si = pi.a * jt.s_i, aj_sj = pj.a * jt.s_j;
  switch (jt.type) {
    case JointType::kRevolute:
    case JointType::kFixed:
      ji.block<2, 2>(0, 0).setIdentity();
      ji.block<2, 1>(0, 2) = perp(ai_si);
      jj.block<2, 2>(0, 0) = -Matrix2d::Identity();
      jj.block<2, 1>(0, 2) = -perp(aj_sj);
      if (jt.type == JointType::kFixed) {
        ji(2, 2) = -1.0;
        jj(2, 2) = 1.0;
      }
      break;
    case JointType::kPointOnLine:
    case JointType::kTranslational: {
      const Vector2d n = pi.a * perp(jt.u_i);
      ji.block<1, 2>(0, 0) = -n.transpose();
      ji(0, 2) = perp(n).dot(pj.r + aj_sj - pi.r);
      jj.block<1, 2>(0, 0) = n.transpose();
      jj(0, 2) = n.dot(perp(aj_sj));
      if (jt.type == JointType::kTranslational) {
        ji(1, 2) = -1.0;
        jj(1, 2) = 1.0;
      }
      break;
    }
    case JointType::kAngle:
    case JointType::kRheonomicDriver:
      ji(0, 2) = -1.0;
      jj(0, 2) = 1.0;
      break;
  }
}

/// Rows of Φ of one joint.
void jointResidual(const PlanarJoint& jt, const PlanarPose& pi, const PlanarPose& pj, double t,
                   Eigen::Ref<VectorXd> phi) {
  const Vector2d d = pj.r + pj.a * jt.s_j - pi.r - pi.a * jt.s_i;
  switch (jt.type) {
    case JointType::kRevolute: phi.segment<2>(jt.row) = -d; break;
    case JointType::kFixed:
      phi.segment<2>(jt.row) = -d;
      phi(jt.row + 2) = pj.theta - pi.theta - jt.theta0;
      break;
    case JointType::kPointOnLine: phi(jt.row) = (pi.a * perp(jt.u_i)).dot(d); break;
    case JointType::kTranslational:
      phi(jt.row) = (pi.a * perp(jt.u_i)).dot(d);
      phi(jt.row + 1) = pj.theta - pi.theta - jt.theta0;
      break;
    case JointType::kAngle: phi(jt.row) = pj.theta - pi.theta - jt.theta0; break;
    case JointType::kRheonomicDriver: phi(jt.row) = pj.theta - pi.theta - jt.angle(t); break;
  }
}

/// Writes one joint's blocks into the rows of Φq (zero elsewhere in those rows beforehand).
void placeBlocks(const PlanarJoint& jt, const Block& ji, const Block& jj,
                 Eigen::Ref<Eigen::MatrixXd> jac) {
  if (jt.body_i != kGround) jac.block(jt.row, 3 * jt.body_i, jt.rows, 3) = ji.topRows(jt.rows);
  if (jt.body_j != kGround) jac.block(jt.row, 3 * jt.body_j, jt.rows, 3) = jj.topRows(jt.rows);
}

std::string bodyName(BodyIndex b) { return b == kGround ? "ground" : std::to_string(b); }

}  // namespace

void PlanarModel::checkBody(BodyIndex b, const char* who) const {
  if (b != kGround && (b < 0 || b >= bodyCount()))
    throw std::invalid_argument(std::string(who) + ": expected a body index in [0, " +
                                std::to_string(bodyCount()) + ") or kGround, got " +
                                std::to_string(b));
}

void PlanarModel::checkPair(BodyIndex i, BodyIndex j, const char* who) const {
  checkBody(i, who);
  checkBody(j, who);
  if (i == j)
    throw std::invalid_argument(std::string(who) + ": expected two different bodies, got " +
                                bodyName(i) + " twice");
}

BodyIndex PlanarModel::addBody(std::string name, double mass, double inertia) {
  if (!(mass > 0.0) || !(inertia > 0.0) || !std::isfinite(mass) || !std::isfinite(inertia))
    throw std::invalid_argument("PlanarModel::addBody: expected mass > 0 and inertia > 0, got " +
                                std::to_string(mass) + " and " + std::to_string(inertia));
  bodies_.push_back({std::move(name), mass, inertia});
  const Eigen::Index n = mass_.size();
  mass_.conservativeResize(n + 3);
  mass_.tail<3>() << mass, mass, inertia;
  inverse_mass_ = mass_.cwiseInverse();
  return bodyCount() - 1;
}

std::string PlanarModel::positionName(Eigen::Index i) const {
  static constexpr const char* kNames[3] = {"x", "y", "theta"};
  return body(BodyIndex(i / 3)).name + "." + kNames[i % 3];
}

std::string PlanarModel::velocityName(Eigen::Index i) const {
  static constexpr const char* kNames[3] = {"vx", "vy", "omega"};
  return body(BodyIndex(i / 3)).name + "." + kNames[i % 3];
}

std::string PlanarModel::accelerationName(Eigen::Index i) const {
  static constexpr const char* kNames[3] = {"ax", "ay", "alpha"};
  return body(BodyIndex(i / 3)).name + "." + kNames[i % 3];
}

std::string PlanarModel::constraintRowName(Eigen::Index row) const {
  for (const PlanarJoint& j : joints_)
    if (row >= j.row && row < j.row + j.rows)
      return "joint '" + j.name + "' row " + std::to_string(row - j.row + 1) + "/" +
             std::to_string(j.rows);
  return MultibodySystem::constraintRowName(row);
}

std::string PlanarModel::multiplierName(Eigen::Index row) const {
  for (const PlanarJoint& j : joints_)
    if (row >= j.row && row < j.row + j.rows)
      return j.name + ".lambda" + (j.rows > 1 ? std::to_string(row - j.row) : "");
  return MultibodySystem::multiplierName(row);
}

int PlanarModel::addJoint(PlanarJoint joint, Eigen::Index rows) {
  joint.row = rows_;
  joint.rows = rows;
  rows_ += rows;
  joints_.push_back(std::move(joint));
  return static_cast<int>(joints_.size()) - 1;
}

PlanarModel PlanarModel::withoutDrivers() const {
  PlanarModel passive = *this;
  passive.joints_.clear();
  passive.rows_ = 0;
  for (const PlanarJoint& j : joints_)
    if (j.type != JointType::kRheonomicDriver) passive.addJoint(j, j.rows);
  return passive;
}

int PlanarModel::addRevolute(BodyIndex i, const Vector2d& s_i, BodyIndex j, const Vector2d& s_j,
                             std::string name) {
  checkPair(i, j, "PlanarModel::addRevolute");
  PlanarJoint jt;
  jt.type = JointType::kRevolute;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.s_i = s_i;
  jt.s_j = s_j;
  return addJoint(std::move(jt), 2);
}

namespace {
Vector2d unitAxis(const Vector2d& u, const char* who) {
  const double norm = u.norm();
  if (!(norm > 0.0) || !std::isfinite(norm))
    throw std::invalid_argument(std::string(who) + ": expected a nonzero finite axis u_i, got (" +
                                std::to_string(u.x()) + ", " + std::to_string(u.y()) + ")");
  return u / norm;
}
}  // namespace

int PlanarModel::addTranslational(BodyIndex i, const Vector2d& s_i, const Vector2d& u_i,
                                  BodyIndex j, const Vector2d& s_j, double theta0,
                                  std::string name) {
  checkPair(i, j, "PlanarModel::addTranslational");
  PlanarJoint jt;
  jt.type = JointType::kTranslational;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.s_i = s_i;
  jt.s_j = s_j;
  jt.u_i = unitAxis(u_i, "PlanarModel::addTranslational");
  jt.theta0 = theta0;
  return addJoint(std::move(jt), 2);
}

int PlanarModel::addPointOnLine(BodyIndex i, const Vector2d& s_i, const Vector2d& u_i, BodyIndex j,
                                const Vector2d& s_j, std::string name) {
  checkPair(i, j, "PlanarModel::addPointOnLine");
  PlanarJoint jt;
  jt.type = JointType::kPointOnLine;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.s_i = s_i;
  jt.s_j = s_j;
  jt.u_i = unitAxis(u_i, "PlanarModel::addPointOnLine");
  return addJoint(std::move(jt), 1);
}

int PlanarModel::addFixed(BodyIndex i, const Vector2d& s_i, BodyIndex j, const Vector2d& s_j,
                          double theta0, std::string name) {
  checkPair(i, j, "PlanarModel::addFixed");
  PlanarJoint jt;
  jt.type = JointType::kFixed;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.s_i = s_i;
  jt.s_j = s_j;
  jt.theta0 = theta0;
  return addJoint(std::move(jt), 3);
}

int PlanarModel::addAngle(BodyIndex i, BodyIndex j, double theta0, std::string name) {
  checkPair(i, j, "PlanarModel::addAngle");
  if (!std::isfinite(theta0)) throw std::invalid_argument("PlanarModel::addAngle: expected a finite angle");
  PlanarJoint jt;
  jt.type = JointType::kAngle;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.theta0 = theta0;
  return addJoint(std::move(jt), 1);
}

int PlanarModel::addRheonomicDriver(BodyIndex i, BodyIndex j, std::function<double(double)> angle,
                                    std::function<double(double)> angle_rate,
                                    std::function<double(double)> angle_acceleration,
                                    std::string name) {
  checkPair(i, j, "PlanarModel::addRheonomicDriver");
  if (!angle || !angle_rate || !angle_acceleration)
    throw std::invalid_argument(
        "PlanarModel::addRheonomicDriver: expected θ(t), θ′(t) and θ″(t), got an empty function");
  PlanarJoint jt;
  jt.type = JointType::kRheonomicDriver;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.angle = std::move(angle);
  jt.angle_rate = std::move(angle_rate);
  jt.angle_acceleration = std::move(angle_acceleration);
  return addJoint(std::move(jt), 1);
}

void PlanarModel::setGravity(const Vector2d& g) { gravity_ = g; }

void PlanarModel::addAppliedForce(BodyIndex b, const Vector2d& s,
                                  std::function<Vector2d(double)> force) {
  checkBody(b, "PlanarModel::addAppliedForce");
  if (b == kGround || !force)
    throw std::invalid_argument(
        "PlanarModel::addAppliedForce: expected a moving body and a force function, got " +
        bodyName(b) + (force ? "" : " and an empty function"));
  applied_forces_.push_back({b, s, std::move(force)});
}

void PlanarModel::addAppliedTorque(BodyIndex b, std::function<double(double)> torque) {
  checkBody(b, "PlanarModel::addAppliedTorque");
  if (b == kGround || !torque)
    throw std::invalid_argument(
        "PlanarModel::addAppliedTorque: expected a moving body and a torque function, got " +
        bodyName(b) + (torque ? "" : " and an empty function"));
  applied_torques_.push_back({b, std::move(torque)});
}

void PlanarModel::addSpringDamper(BodyIndex i, const Vector2d& s_i, BodyIndex j, const Vector2d& s_j,
                                  double k, double c, double rest_length) {
  checkPair(i, j, "PlanarModel::addSpringDamper");
  if (!(rest_length >= 0.0))
    throw std::invalid_argument("PlanarModel::addSpringDamper: expected rest length >= 0, got " +
                                std::to_string(rest_length));
  springs_.push_back({i, j, s_i, s_j, k, c, rest_length});
}

void PlanarModel::addRotationalSpringDamper(BodyIndex i, BodyIndex j, double k, double c,
                                            double theta0) {
  checkPair(i, j, "PlanarModel::addRotationalSpringDamper");
  rotational_springs_.push_back({i, j, k, c, theta0});
}

void PlanarModel::addViscousDamping(BodyIndex b, double c_translational, double c_rotational) {
  checkBody(b, "PlanarModel::addViscousDamping");
  if (b == kGround)
    throw std::invalid_argument("PlanarModel::addViscousDamping: expected a moving body, got ground");
  dampers_.push_back({b, c_translational, c_rotational});
}

void PlanarModel::addGeneralizedForce(GeneralizedForce force) {
  if (!force)
    throw std::invalid_argument(
        "PlanarModel::addGeneralizedForce: expected a callback, got an empty function");
  callbacks_.push_back(std::move(force));
}

void PlanarModel::constraints(double t, const Eigen::Ref<const VectorXd>& q,
                              Eigen::Ref<VectorXd> phi) const {
  for (const PlanarJoint& jt : joints_)
    jointResidual(jt, pose(q, jt.body_i), pose(q, jt.body_j), t, phi);
}

void PlanarModel::jacobian(double /*t*/, const Eigen::Ref<const VectorXd>& q,
                           Eigen::Ref<Eigen::MatrixXd> jac) const {
  jac.setZero();
  Block ji, jj;
  for (const PlanarJoint& jt : joints_) {
    jointBlocks(jt, pose(q, jt.body_i), pose(q, jt.body_j), ji, jj);
    placeBlocks(jt, ji, jj, jac);
  }
}

void PlanarModel::constraintsAndJacobian(double t, const Eigen::Ref<const VectorXd>& q,
                                         Eigen::Ref<VectorXd> phi,
                                         Eigen::Ref<Eigen::MatrixXd> jac) const {
  jac.setZero();
  Block ji, jj;
  for (const PlanarJoint& jt : joints_) {
    const PlanarPose pi = pose(q, jt.body_i), pj = pose(q, jt.body_j);
    jointResidual(jt, pi, pj, t, phi);
    jointBlocks(jt, pi, pj, ji, jj);
    placeBlocks(jt, ji, jj, jac);
  }
}

namespace {
// A joint's bodies in ascending column order, the ground left out.
std::vector<BodyIndex> jointBodies(const PlanarJoint& jt) {
  std::vector<BodyIndex> b;
  for (const BodyIndex x : {std::min(jt.body_i, jt.body_j), std::max(jt.body_i, jt.body_j)})
    if (x != kGround) b.push_back(x);
  return b;
}
}  // namespace

std::vector<std::vector<int>> PlanarModel::jacobianPattern() const {
  if (!sparse_joints_) return {};
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(rows_));
  for (const PlanarJoint& jt : joints_)
    for (Eigen::Index r = jt.row; r < jt.row + jt.rows; ++r)
      for (const BodyIndex b : jointBodies(jt))
        for (int c = 0; c < 3; ++c) rows[static_cast<std::size_t>(r)].push_back(static_cast<int>(coordinate(b, c)));
  return rows;
}

std::vector<std::pair<Eigen::Index, Eigen::Index>> PlanarModel::jointRowSpans() const {
  std::vector<std::pair<Eigen::Index, Eigen::Index>> spans(static_cast<std::size_t>(rows_));
  for (const PlanarJoint& jt : joints_) {
    const std::vector<BodyIndex> bodies = jointBodies(jt);
    Eigen::Index first = velocitySize(), end = 0;
    for (const BodyIndex b : bodies) {
      first = std::min(first, coordinate(b, 0));
      end = std::max(end, coordinate(b, 2) + 1);
    }
    for (Eigen::Index r = jt.row; r < jt.row + jt.rows; ++r)
      spans[static_cast<std::size_t>(r)] = {std::min(first, end), end};
  }
  return spans;
}

void PlanarModel::constraintsAndSparseJacobian(double t, const Eigen::Ref<const VectorXd>& q,
                                               Eigen::Ref<VectorXd> phi, double* values) const {
  Block ji, jj;
  for (const PlanarJoint& jt : joints_) {
    const PlanarPose pi = pose(q, jt.body_i), pj = pose(q, jt.body_j);
    jointResidual(jt, pi, pj, t, phi);
    jointBlocks(jt, pi, pj, ji, jj);
    // Each row: the lower-indexed body's three columns, then the other's (jacobianPattern).
    const bool i_first = jt.body_j == kGround || (jt.body_i != kGround && jt.body_i < jt.body_j);
    const Block& first = i_first ? ji : jj;
    const Block& second = i_first ? jj : ji;
    const bool two = jt.body_i != kGround && jt.body_j != kGround;
    for (Eigen::Index r = 0; r < jt.rows; ++r) {
      for (int c = 0; c < 3; ++c) *values++ = first(r, c);
      if (two)
        for (int c = 0; c < 3; ++c) *values++ = second(r, c);
    }
  }
}

void PlanarModel::constraintTimeDerivative(double t, const Eigen::Ref<const VectorXd>& /*q*/,
                                           Eigen::Ref<VectorXd> phi_t) const {
  phi_t.setZero();
  for (const PlanarJoint& jt : joints_)
    if (jt.type == JointType::kRheonomicDriver) phi_t(jt.row) = -jt.angle_rate(t);
}

namespace {

/// Joint jt's rows of γ (Nikravesh Table 6.1) at the poses of its bodies.
void jointGamma(const PlanarJoint& jt, const PlanarPose& pi, const PlanarPose& pj, double t,
                const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> gam) {
  const double wi = angularVelocity(v, jt.body_i), wj = angularVelocity(v, jt.body_j);
  const Vector2d ai_si = pi.a * jt.s_i, aj_sj = pj.a * jt.s_j;
  switch (jt.type) {
    case JointType::kRevolute:
    case JointType::kFixed:
      // d²/dt² (A s) = B s θ̈ − A s θ̇²: the velocity-only part of −Φ̈ (Nikravesh Table 6.1).
      gam.segment<2>(jt.row) = ai_si * wi * wi - aj_sj * wj * wj;
      if (jt.type == JointType::kFixed) gam(jt.row + 2) = 0.0;
      break;
    case JointType::kPointOnLine:
    case JointType::kTranslational: {
      const Vector2d n = pi.a * perp(jt.u_i);
      const Vector2d d = pj.r + aj_sj - pi.r - ai_si;
      const Vector2d d_dot = linearVelocity(v, jt.body_j) + perp(aj_sj) * wj -
                             linearVelocity(v, jt.body_i) - perp(ai_si) * wi;
      // Φ̈ = n̈ᵀd + 2ṅᵀḋ + nᵀd̈ with ṅ = R n θ̇_i, n̈ = R n θ̈_i − n θ̇_i².
      gam(jt.row) = n.dot(d) * wi * wi - 2.0 * wi * perp(n).dot(d_dot) +
                    n.dot(aj_sj * wj * wj - ai_si * wi * wi);
      if (jt.type == JointType::kTranslational) gam(jt.row + 1) = 0.0;
      break;
    }
    case JointType::kAngle: gam(jt.row) = 0.0; break;
    case JointType::kRheonomicDriver: gam(jt.row) = jt.angle_acceleration(t); break;
  }
}

}  // namespace

void PlanarModel::gamma(double t, const Eigen::Ref<const VectorXd>& q,
                        const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> gam) const {
  for (const PlanarJoint& jt : joints_) jointGamma(jt, pose(q, jt.body_i), pose(q, jt.body_j), t, v, gam);
}

void PlanarModel::jacobianAndGamma(double t, const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& v,
                                   Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<VectorXd> gam) const {
  jac.setZero();
  Block ji, jj;
  for (const PlanarJoint& jt : joints_) {
    const PlanarPose pi = pose(q, jt.body_i), pj = pose(q, jt.body_j);
    jointBlocks(jt, pi, pj, ji, jj);
    placeBlocks(jt, ji, jj, jac);
    jointGamma(jt, pi, pj, t, v, gam);
  }
}

void PlanarModel::generalizedForces(double t, const Eigen::Ref<const VectorXd>& q,
                                    const Eigen::Ref<const VectorXd>& v,
                                    Eigen::Ref<VectorXd> forces) const {
  appliedLoads(t, q, forces);
  // Adds force f at world offset p (from the centroid) of body b.
  auto add = [&forces](BodyIndex b, const Vector2d& f, const Vector2d& p) {
    if (b == kGround) return;
    forces.segment<2>(3 * b) += f;
    forces(3 * b + 2) += cross(p, f);
  };
  for (int b = 0; b < bodyCount(); ++b) forces.segment<2>(3 * b) += mass_(3 * b) * gravity_;
  for (const SpringDamper& s : springs_) {
    const PlanarSpringLine l = planarSpringLine(q, v, s.i, s.j, s.s_i, s.s_j);
    if (!(l.length > 0.0)) continue;  // no direction: the force is taken as zero
    const double tension = s.k * (l.length - s.rest) + s.c * l.rate;
    add(s.i, tension * l.u, l.arm_i);
    add(s.j, -tension * l.u, l.arm_j);
  }
  for (const RotationalSpringDamper& s : rotational_springs_) {
    const double rel = pose(q, s.j).theta - pose(q, s.i).theta - s.theta0;
    const double rel_rate = angularVelocity(v, s.j) - angularVelocity(v, s.i);
    const double tau = s.k * rel + s.c * rel_rate;
    if (s.i != kGround) forces(3 * s.i + 2) += tau;
    if (s.j != kGround) forces(3 * s.j + 2) -= tau;
  }
  for (const ViscousDamping& d : dampers_) {
    forces.segment<2>(3 * d.body) -= d.c_t * v.segment<2>(3 * d.body);
    forces(3 * d.body + 2) -= d.c_r * v(3 * d.body + 2);
  }
  for (const GeneralizedForce& f : callbacks_) f(t, q, v, forces);
}

void PlanarModel::appliedLoads(double t, const Eigen::Ref<const VectorXd>& q, Eigen::Ref<VectorXd> forces) const {
  forces.setZero();
  for (const AppliedForce& a : applied_forces_) {
    if (a.body == kGround) continue;
    const Vector2d f = a.f(t);
    forces.segment<2>(3 * a.body) += f;
    forces(3 * a.body + 2) += cross(pose(q, a.body).a * a.s, f);
  }
  for (const AppliedTorque& a : applied_torques_) forces(3 * a.body + 2) += a.tau(t);
}

void PlanarModel::positionRate(const Eigen::Ref<const VectorXd>& /*q*/,
                               const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> qdot) const {
  qdot = v;
}

void PlanarModel::addToPositions(const Eigen::Ref<const VectorXd>& delta,
                                 Eigen::Ref<VectorXd> q) const {
  q += delta;
}

double PlanarModel::kineticEnergy(const Eigen::Ref<const VectorXd>& v) const {
  return 0.5 * v.dot(mass_.cwiseProduct(v));
}

double PlanarModel::potentialEnergy(const Eigen::Ref<const VectorXd>& q) const {
  double energy = 0.0;
  for (int b = 0; b < bodyCount(); ++b)
    energy -= mass_(3 * b) * gravity_.dot(q.segment<2>(3 * b));
  for (const SpringDamper& s : springs_) {
    const PlanarPose pi = pose(q, s.i), pj = pose(q, s.j);
    const double stretch = (pj.r + pj.a * s.s_j - pi.r - pi.a * s.s_i).norm() - s.rest;
    energy += 0.5 * s.k * stretch * stretch;
  }
  for (const RotationalSpringDamper& s : rotational_springs_) {
    const double rel = pose(q, s.j).theta - pose(q, s.i).theta - s.theta0;
    energy += 0.5 * s.k * rel * rel;
  }
  return energy;
}

double PlanarModel::potentialRate(const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& v) const {
  double rate = 0.0;
  for (int b = 0; b < bodyCount(); ++b) rate -= mass_(3 * b) * gravity_.dot(linearVelocity(v, b));
  for (const SpringDamper& s : springs_) {
    const PlanarSpringLine l = planarSpringLine(q, v, s.i, s.j, s.s_i, s.s_j);
    rate += s.k * (l.length - s.rest) * l.rate;  // L̇ = 0 where L = 0, as the force
  }
  for (const RotationalSpringDamper& s : rotational_springs_)
    rate += s.k * (pose(q, s.j).theta - pose(q, s.i).theta - s.theta0) *
            (angularVelocity(v, s.j) - angularVelocity(v, s.i));
  return rate;
}

std::vector<JointReaction> PlanarModel::reactions(double /*t*/,
                                                  const Eigen::Ref<const VectorXd>& q,
                                                  const Eigen::Ref<const VectorXd>& lambda) const {
  if (lambda.size() != rows_)
    throw std::invalid_argument("PlanarModel::reactions: expected λ of size " +
                                std::to_string(rows_) + ", got " + std::to_string(lambda.size()));
  std::vector<JointReaction> out(joints_.size());
  Block ji, jj;
  for (std::size_t k = 0; k < joints_.size(); ++k) {
    const PlanarJoint& jt = joints_[k];
    const PlanarPose pi = pose(q, jt.body_i), pj = pose(q, jt.body_j);
    jointBlocks(jt, pi, pj, ji, jj);
    const auto lam = lambda.segment(jt.row, jt.rows);
    // Constraint force on a body: −(Φ_body)ᵀ λ = (force, torque about the centroid).
    const Eigen::Vector3d gi = -ji.topRows(jt.rows).transpose() * lam;
    const Eigen::Vector3d gj = -jj.topRows(jt.rows).transpose() * lam;
    const Vector2d ai_si = pi.a * jt.s_i, aj_sj = pj.a * jt.s_j;
    JointReaction& r = out[k];
    r.force_on_i = gi.head<2>();
    r.torque_on_i = gi(2) - cross(ai_si, r.force_on_i);
    const Vector2d axis = pi.a * jt.u_i;
    r.force_on_i_local << axis.dot(r.force_on_i), perp(axis).dot(r.force_on_i);
    r.force_on_j_local = pj.a.transpose() * gj.head<2>();
    r.torque_on_j = gj(2) - cross(aj_sj, gj.head<2>());
  }
  return out;
}

Vector2d PlanarModel::pointPosition(const Eigen::Ref<const VectorXd>& q, BodyIndex b,
                                    const Vector2d& s) const {
  const PlanarPose p = pose(q, b);
  return p.r + p.a * s;
}

Vector2d PlanarModel::pointVelocity(const Eigen::Ref<const VectorXd>& q,
                                    const Eigen::Ref<const VectorXd>& v, BodyIndex b,
                                    const Vector2d& s) const {
  return linearVelocity(v, b) + perp(pose(q, b).a * s) * angularVelocity(v, b);
}

}  // namespace stickslip::dynamics
