#include "dynamics/model/spatial_model.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace stickslip::dynamics {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::Vector4d;
using Eigen::VectorXd;
using Row6 = Eigen::Matrix<double, 1, 6>;

/// Pose and velocity of one body; the ground is at rest at the origin with A = I.
struct BodyMotion {
  Vector3d r = Vector3d::Zero();
  Matrix3d a = Matrix3d::Identity();
  Vector3d rdot = Vector3d::Zero();
  Vector3d w = Vector3d::Zero();  ///< ω′, body axes
};
using VelocityPtr = const Eigen::Ref<const VectorXd>*;  // null: at rest
BodyMotion pose(const Eigen::Ref<const VectorXd>& q, VelocityPtr v, BodyIndex b) {
  BodyMotion p;
  if (b == kGround) return p;
  p.r = q.segment<3>(7 * b);
  p.a = rotationMatrix(q.segment<4>(7 * b + 3));
  if (v != nullptr) {
    p.rdot = v->segment<3>(6 * b);
    p.w = v->segment<3>(6 * b + 3);
  }
  return p;
}

/// A body-fixed vector u′ seen from the world: u = A u′, its rate u̇ = A ω̃′ u′, the
/// velocity-only part of its acceleration A ω̃′ ω̃′ u′, and ∂u̇/∂ω′ = −A ũ′.
struct Vec {
  Vector3d u, rate, accel;
  Matrix3d d_w;
};
Vec bodyVector(const BodyMotion& p, const Vector3d& local) {
  Vec out;
  out.u = p.a * local;
  const Vector3d wu = p.w.cross(local);
  out.rate = p.a * wu;
  out.accel = p.a * p.w.cross(wu);
  out.d_w = -p.a * skewMatrix(local);
  return out;
}

/// One scalar constraint's value, Jacobian rows for i and j, its rate Φ̇ (without Φt) and γ.
struct Scalar {
  double phi = 0.0, rate = 0.0, gamma = 0.0;
  Row6 d_i = Row6::Zero(), d_j = Row6::Zero();
};

/// dot-1: u_iᵀ w_j.
Scalar dot1(const Vec& u, const Vec& w) {
  Scalar s;
  s.phi = u.u.dot(w.u);
  s.d_i.tail<3>() = w.u.transpose() * u.d_w;
  s.d_j.tail<3>() = u.u.transpose() * w.d_w;
  s.rate = u.rate.dot(w.u) + u.u.dot(w.rate);
  s.gamma = -(w.u.dot(u.accel) + u.u.dot(w.accel) + 2.0 * u.rate.dot(w.rate));
  return s;
}

/// The joint points' separation d = P_j − P_i with its rate and velocity-only acceleration.
struct Separation {
  Vec p_i, p_j;
  Vector3d d, rate, accel;
};
Separation separation(const BodyMotion& pi, const Vector3d& s_i, const BodyMotion& pj, const Vector3d& s_j) {
  Separation s{bodyVector(pi, s_i), bodyVector(pj, s_j), {}, {}, {}};
  s.d = pj.r + s.p_j.u - pi.r - s.p_i.u;
  s.rate = pj.rdot + s.p_j.rate - pi.rdot - s.p_i.rate;
  s.accel = s.p_j.accel - s.p_i.accel;
  return s;
}

/// dot-2: u_iᵀ d.
Scalar dot2(const Vec& u, const Separation& d) {
  Scalar s;
  s.phi = u.u.dot(d.d);
  s.d_i.head<3>() = -u.u.transpose();
  s.d_i.tail<3>() = d.d.transpose() * u.d_w - u.u.transpose() * d.p_i.d_w;
  s.d_j.head<3>() = u.u.transpose();
  s.d_j.tail<3>() = u.u.transpose() * d.p_j.d_w;
  s.rate = u.rate.dot(d.d) + u.u.dot(d.rate);
  s.gamma = -(d.d.dot(u.accel) + u.u.dot(d.accel) + 2.0 * u.rate.dot(d.rate));
  return s;
}

/// A spring between point s_i of body i and s_j of body j: its length L, and its direction u
/// and rate L̇ = uᵀḋ when L > 0 (a zero-length spring has no direction).
struct SpatialSpringLine {
  Vector3d u = Vector3d::Zero();
  double length = 0.0, rate = 0.0;
};
SpatialSpringLine spatialSpringLine(const SpatialModel& m, const Eigen::Ref<const VectorXd>& q,
                                    const Eigen::Ref<const VectorXd>& v, BodyIndex i, BodyIndex j,
                                    const Vector3d& s_i, const Vector3d& s_j) {
  SpatialSpringLine l;
  const Vector3d d = m.pointPosition(q, j, s_j) - m.pointPosition(q, i, s_i);
  l.length = d.norm();
  if (!(l.length > 0.0)) return l;
  l.u = d / l.length;
  l.rate = l.u.dot(m.pointVelocity(q, v, j, s_j) - m.pointVelocity(q, v, i, s_i));
  return l;
}

std::string bodyLabel(const std::vector<SpatialBody>& bodies, BodyIndex b) {
  return b == kGround ? "ground" : bodies[static_cast<std::size_t>(b)].name;
}

Vector3d unit(const Vector3d& axis, const char* who) {
  const double n = axis.norm();
  if (!(n > 1e-12) || !std::isfinite(n))
    throw std::invalid_argument(std::string(who) +
                                ": a joint axis must have nonzero, finite length");
  return axis / n;
}

}  // namespace

Matrix3d skewMatrix(const Vector3d& a) {
  Matrix3d s;
  s << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return s;
}

Matrix3d rotationMatrix(const Vector4d& p) {
  const double e0 = p(0);
  const Vector3d e = p.tail<3>();
  return (2.0 * e0 * e0 - 1.0) * Matrix3d::Identity() +
         2.0 * (e * e.transpose() + e0 * skewMatrix(e));
}

Vector4d eulerParameters(const Vector3d& axis, double angle) {
  Vector4d p;
  p(0) = std::cos(0.5 * angle);
  p.tail<3>() = std::sin(0.5 * angle) * axis.normalized();
  return p;
}

Vector4d eulerParameters(const Matrix3d& a) {
  // Shepperd: take the largest of 4e0², 4e1², 4e2², 4e3² to divide by.
  const double tr = a.trace();
  const Vector4d d(tr, a(0, 0), a(1, 1), a(2, 2));
  Eigen::Index k = 0;
  d.maxCoeff(&k);
  Vector4d p;
  if (k == 0) {
    p(0) = 0.5 * std::sqrt(1.0 + tr);
    const double f = 0.25 / p(0);
    p(1) = (a(2, 1) - a(1, 2)) * f;
    p(2) = (a(0, 2) - a(2, 0)) * f;
    p(3) = (a(1, 0) - a(0, 1)) * f;
  } else {
    const int i = static_cast<int>(k) - 1, j = (i + 1) % 3, m = (i + 2) % 3;
    Vector3d e;
    e(i) = 0.5 * std::sqrt(1.0 + 2.0 * a(i, i) - tr);
    const double f = 0.25 / e(i);
    p(0) = (a(m, j) - a(j, m)) * f;
    e(j) = (a(j, i) + a(i, j)) * f;
    e(m) = (a(m, i) + a(i, m)) * f;
    p.tail<3>() = e;
  }
  if (p(0) < 0.0) p = -p;
  return p.normalized();
}

Matrix3d frameFromAxis(const Vector3d& axis) {
  const Vector3d a = axis.normalized();
  Eigen::Index k = 0;
  a.cwiseAbs().minCoeff(&k);
  Vector3d f = Vector3d::Unit(k) - a(k) * a;
  f.normalize();
  Matrix3d frame;
  frame << f, a.cross(f), a;
  return frame;
}

void SpatialModel::checkBody(BodyIndex b, const char* who) const {
  if (b != kGround && (b < 0 || b >= bodyCount()))
    throw std::invalid_argument(std::string(who) + ": no body " + std::to_string(b));
}

void SpatialModel::checkPair(BodyIndex i, BodyIndex j, const char* who) const {
  checkBody(i, who);
  checkBody(j, who);
  if (i == j)
    throw std::invalid_argument(std::string(who) + ": a joint needs two different bodies");
}

BodyIndex SpatialModel::addBody(std::string name, double mass, const Matrix3d& inertia) {
  if (!(mass > 0.0) || !std::isfinite(mass))
    throw std::invalid_argument("body '" + name + "': mass must be > 0, got " +
                                std::to_string(mass));
  const double scale = inertia.cwiseAbs().maxCoeff();
  if (!inertia.allFinite() || !(scale > 0.0) ||
      (inertia - inertia.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale)
    throw std::invalid_argument("body '" + name +
                                "': the inertia tensor must be finite, nonzero and symmetric");
  const Vector3d moments =
      Eigen::SelfAdjointEigenSolver<Matrix3d>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
  if (!(moments(0) > 1e-12 * scale))
    throw std::invalid_argument("body '" + name +
                                "': the inertia tensor must be positive definite (smallest "
                                "principal moment " +
                                std::to_string(moments(0)) + ")");
  if (moments(0) + moments(1) < moments(2) * (1.0 - 1e-12))
    throw std::invalid_argument("body '" + name + "': principal moments " +
                                std::to_string(moments(0)) + ", " + std::to_string(moments(1)) +
                                ", " + std::to_string(moments(2)) +
                                " violate J1 + J2 >= J3: no rigid body has them");
  bodies_.push_back({std::move(name), mass, inertia});
  mass_.push_back(mass);
  inverse_mass_.push_back(1.0 / mass);
  inertia_.push_back(inertia);
  inverse_inertia_.push_back(inertia.inverse());
  return bodyCount() - 1;
}

int SpatialModel::addJoint(SpatialJoint joint, Eigen::Index rows) {
  joint.row = rows_;
  joint.rows = rows;
  rows_ += rows;
  joints_.push_back(std::move(joint));
  return static_cast<int>(joints_.size()) - 1;
}

namespace {

/// The rows of a joint of each type (see the file comment of spatial_model.hpp).
Eigen::Index rowCount(SpatialJointType type) {
  switch (type) {
    case SpatialJointType::kSpherical: return 3;
    case SpatialJointType::kUniversal:
    case SpatialJointType::kCylindrical: return 4;
    case SpatialJointType::kRevolute:
    case SpatialJointType::kTranslational: return 5;
    case SpatialJointType::kFixed: return 6;
    case SpatialJointType::kDriver: return 1;
  }
  return 0;
}

SpatialJoint makeJoint(SpatialJointType type, std::string name, BodyIndex i, const Vector3d& s_i,
                       BodyIndex j, const Vector3d& s_j) {
  SpatialJoint jt;
  jt.type = type;
  jt.name = std::move(name);
  jt.body_i = i;
  jt.body_j = j;
  jt.s_i = s_i;
  jt.s_j = s_j;
  return jt;
}

}  // namespace

int SpatialModel::addSpherical(BodyIndex i, const Vector3d& s_i, BodyIndex j, const Vector3d& s_j,
                               std::string name) {
  checkPair(i, j, "addSpherical");
  return addJoint(makeJoint(SpatialJointType::kSpherical, std::move(name), i, s_i, j, s_j),
                  rowCount(SpatialJointType::kSpherical));
}

int SpatialModel::addAxisJoint(SpatialJointType type, BodyIndex i, const Vector3d& s_i,
                               const Vector3d& axis_i, BodyIndex j, const Vector3d& s_j,
                               const Vector3d& axis_j, std::string name, const char* who) {
  checkPair(i, j, who);
  SpatialJoint jt = makeJoint(type, std::move(name), i, s_i, j, s_j);
  jt.frame_i = frameFromAxis(unit(axis_i, who));
  jt.frame_j = frameFromAxis(unit(axis_j, who));
  return addJoint(std::move(jt), rowCount(type));
}

int SpatialModel::addRevolute(BodyIndex i, const Vector3d& s_i, const Vector3d& axis_i, BodyIndex j,
                              const Vector3d& s_j, const Vector3d& axis_j, std::string name) {
  return addAxisJoint(SpatialJointType::kRevolute, i, s_i, axis_i, j, s_j, axis_j, std::move(name),
                      "addRevolute");
}

int SpatialModel::addUniversal(BodyIndex i, const Vector3d& s_i, const Vector3d& axis_i,
                               BodyIndex j, const Vector3d& s_j, const Vector3d& axis_j,
                               std::string name) {
  return addAxisJoint(SpatialJointType::kUniversal, i, s_i, axis_i, j, s_j, axis_j, std::move(name),
                      "addUniversal");
}

int SpatialModel::addCylindrical(BodyIndex i, const Vector3d& s_i, const Vector3d& axis_i,
                                 BodyIndex j, const Vector3d& s_j, const Vector3d& axis_j,
                                 std::string name) {
  return addAxisJoint(SpatialJointType::kCylindrical, i, s_i, axis_i, j, s_j, axis_j,
                      std::move(name), "addCylindrical");
}

int SpatialModel::addTranslational(BodyIndex i, const Vector3d& s_i, const Vector3d& axis_i,
                                   BodyIndex j, const Vector3d& s_j,
                                   const Eigen::Ref<const VectorXd>& q, std::string name) {
  if (q.size() != positionSize())
    throw std::invalid_argument("addTranslational: q has the wrong size");
  const int k = addAxisJoint(SpatialJointType::kTranslational, i, s_i, axis_i, j, s_j, axis_i,
                             std::move(name), "addTranslational");
  SpatialJoint& jt = joints_.back();  // j's frame: i's, as seen from j in the pose q
  jt.frame_j = pose(q, nullptr, j).a.transpose() * pose(q, nullptr, i).a * jt.frame_i;
  return k;
}

int SpatialModel::addFixed(BodyIndex i, const Vector3d& s_i, BodyIndex j, const Vector3d& s_j,
                           const Eigen::Ref<const VectorXd>& q, std::string name) {
  checkPair(i, j, "addFixed");
  if (q.size() != positionSize()) throw std::invalid_argument("addFixed: q has the wrong size");
  SpatialJoint jt = makeJoint(SpatialJointType::kFixed, std::move(name), i, s_i, j, s_j);
  jt.frame_j = pose(q, nullptr, j).a.transpose() * pose(q, nullptr, i).a;
  return addJoint(std::move(jt), rowCount(SpatialJointType::kFixed));
}

int SpatialModel::addDriver(int revolute, const Eigen::Ref<const VectorXd>& q,
                            std::function<double(double)> angle,
                            std::function<double(double)> angle_rate,
                            std::function<double(double)> angle_acceleration, std::string name) {
  if (revolute < 0 || revolute >= static_cast<int>(joints_.size()) ||
      joints_[static_cast<std::size_t>(revolute)].type != SpatialJointType::kRevolute)
    throw std::invalid_argument("addDriver: joint " + std::to_string(revolute) +
                                " is not a revolute joint");
  if (q.size() != positionSize()) throw std::invalid_argument("addDriver: q has the wrong size");
  if (!angle || !angle_rate || !angle_acceleration)
    throw std::invalid_argument(
        "addDriver: the angle, its rate and its acceleration are all required");
  SpatialJoint jt = joints_[static_cast<std::size_t>(revolute)];
  jt.type = SpatialJointType::kDriver;
  jt.name = std::move(name);
  // g_j: f_i as seen from j in the pose q, so θ = 0 there (the revolute keeps it ⊥ a_j).
  jt.frame_j.col(0) =
      pose(q, nullptr, jt.body_j).a.transpose() * pose(q, nullptr, jt.body_i).a * jt.frame_i.col(0);
  jt.angle = std::move(angle);
  jt.angle_rate = std::move(angle_rate);
  jt.angle_acceleration = std::move(angle_acceleration);
  return addJoint(std::move(jt), rowCount(SpatialJointType::kDriver));
}

void SpatialModel::setGravity(const Vector3d& g) { gravity_ = g; }

void SpatialModel::addAppliedForce(BodyIndex b, const Vector3d& s,
                                   std::function<Vector3d(double)> force) {
  checkBody(b, "addAppliedForce");
  if (b == kGround)
    throw std::invalid_argument("addAppliedForce: a force on the ground does nothing");
  applied_forces_.push_back({b, s, std::move(force)});
}

void SpatialModel::addAppliedTorque(BodyIndex b, std::function<Vector3d(double)> torque) {
  checkBody(b, "addAppliedTorque");
  if (b == kGround)
    throw std::invalid_argument("addAppliedTorque: a torque on the ground does nothing");
  applied_torques_.push_back({b, std::move(torque)});
}

void SpatialModel::addSpringDamper(BodyIndex i, const Vector3d& s_i, BodyIndex j,
                                   const Vector3d& s_j, double k, double c, double rest_length) {
  checkPair(i, j, "addSpringDamper");
  if (!(k >= 0.0) || !(c >= 0.0) || !(rest_length >= 0.0))
    throw std::invalid_argument("addSpringDamper: stiffness, damping and rest length must be >= 0");
  springs_.push_back({i, j, s_i, s_j, k, c, rest_length});
}

void SpatialModel::addGeneralizedForce(GeneralizedForce force) {
  callbacks_.push_back(std::move(force));
}

namespace {
/// x ← diag(s I₃, J) x per body, column by column through a fixed-size temporary: the product
/// into the block it reads would otherwise allocate Eigen's aliasing temporary.
void applyBlocks(Eigen::Ref<Eigen::MatrixXd> x, const std::vector<double>& scale,
                 const std::vector<Matrix3d>& rotational) {
  for (std::size_t b = 0; b < scale.size(); ++b) {
    const Eigen::Index row = 6 * Eigen::Index(b);
    x.middleRows<3>(row) *= scale[b];
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      const Vector3d w = rotational[b] * x.block<3, 1>(row + 3, c);
      x.block<3, 1>(row + 3, c) = w;
    }
  }
}
}  // namespace

void SpatialModel::applyMass(Eigen::Ref<Eigen::MatrixXd> x) const { applyBlocks(x, mass_, inertia_); }

void SpatialModel::applyInverseMass(Eigen::Ref<Eigen::MatrixXd> x) const {
  applyBlocks(x, inverse_mass_, inverse_inertia_);
}

double SpatialModel::potentialEnergy(const Eigen::Ref<const VectorXd>& q) const {
  double v = 0.0;
  for (int b = 0; b < bodyCount(); ++b)
    v -= bodies_[static_cast<std::size_t>(b)].mass * gravity_.dot(q.segment<3>(7 * b));
  for (const SpringDamper& s : springs_) {
    const double stretch =
        (pointPosition(q, s.j, s.s_j) - pointPosition(q, s.i, s.s_i)).norm() - s.rest;
    v += 0.5 * s.k * stretch * stretch;
  }
  return v;
}

double SpatialModel::potentialRate(const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& v) const {
  double rate = 0.0;
  for (int b = 0; b < bodyCount(); ++b)
    rate -= bodies_[static_cast<std::size_t>(b)].mass * gravity_.dot(v.segment<3>(6 * b));
  for (const SpringDamper& s : springs_) {
    const SpatialSpringLine l = spatialSpringLine(*this, q, v, s.i, s.j, s.s_i, s.s_j);
    rate += s.k * (l.length - s.rest) * l.rate;  // L̇ = 0 where L = 0, as the force
  }
  return rate;
}

void SpatialModel::evaluateJoint(const SpatialJoint& jt, double t,
                                 const Eigen::Ref<const VectorXd>& q,
                                 const Eigen::Ref<const VectorXd>* v, JointRows& rows) const {
  const BodyMotion pi = pose(q, v, jt.body_i), pj = pose(q, v, jt.body_j);
  // f_i and k_i, the frame axes across a_i on body i: not needed by a spherical or universal joint.
  const bool across = jt.type != SpatialJointType::kSpherical && jt.type != SpatialJointType::kUniversal;
  const Vec fi = across ? bodyVector(pi, jt.frame_i.col(0)) : Vec{};
  const Vec ki = across ? bodyVector(pi, jt.frame_i.col(1)) : Vec{};
  rows.d_i.setZero();
  rows.d_j.setZero();
  rows.phi_t.setZero();
  int r = 0;
  auto put = [&](const Scalar& s) {
    rows.phi(r) = s.phi;
    rows.d_i.row(r) = s.d_i;
    rows.d_j.row(r) = s.d_j;
    rows.gamma(r) = s.gamma;
    ++r;
  };
  auto point = [&](const Separation& d) {
    for (int c = 0; c < 3; ++c) {
      Scalar s;
      s.phi = d.d(c);
      s.d_i(c) = -1.0;
      s.d_i.tail<3>() = -d.p_i.d_w.row(c);
      s.d_j(c) = 1.0;
      s.d_j.tail<3>() = d.p_j.d_w.row(c);
      s.gamma = -d.accel(c);
      put(s);
    }
  };
  const Separation d = separation(pi, jt.s_i, pj, jt.s_j);
  switch (jt.type) {
    case SpatialJointType::kSpherical:
      point(d);
      break;
    case SpatialJointType::kRevolute: {
      const auto aj = bodyVector(pj, jt.frame_j.col(2));
      point(d);
      put(dot1(fi, aj));
      put(dot1(ki, aj));
      break;
    }
    case SpatialJointType::kUniversal:
      point(d);
      put(dot1(bodyVector(pi, jt.frame_i.col(2)), bodyVector(pj, jt.frame_j.col(2))));
      break;
    case SpatialJointType::kCylindrical:
    case SpatialJointType::kTranslational: {
      const auto aj = bodyVector(pj, jt.frame_j.col(2));
      put(dot1(fi, aj));
      put(dot1(ki, aj));
      put(dot2(fi, d));
      put(dot2(ki, d));
      if (jt.type == SpatialJointType::kTranslational)
        put(dot1(fi, bodyVector(pj, jt.frame_j.col(1))));
      break;
    }
    case SpatialJointType::kFixed: {
      const auto aj = bodyVector(pj, jt.frame_j.col(2));
      point(d);
      put(dot1(fi, aj));
      put(dot1(ki, aj));
      put(dot1(fi, bodyVector(pj, jt.frame_j.col(1))));
      break;
    }
    case SpatialJointType::kDriver: {
      const auto gj = bodyVector(pj, jt.frame_j.col(0));
      const Scalar p = dot1(fi, gj), k = dot1(ki, gj);
      const double th = jt.angle(t), s = std::sin(th), c = std::cos(th);
      Scalar out;
      out.phi = s * p.phi - c * k.phi;
      out.d_i = s * p.d_i - c * k.d_i;
      out.d_j = s * p.d_j - c * k.d_j;
      const double w = jt.angle_rate(t), alpha = jt.angle_acceleration(t);
      rows.phi_t(0) = w * (c * p.phi + s * k.phi);
      if (v != nullptr)
        out.gamma = s * p.gamma - c * k.gamma - 2.0 * w * (c * p.rate + s * k.rate) -
                    alpha * (c * p.phi + s * k.phi) - w * w * (c * k.phi - s * p.phi);
      put(out);
      break;
    }
  }
}

void SpatialModel::constraints(double t, const Eigen::Ref<const VectorXd>& q,
                               Eigen::Ref<VectorXd> phi) const {
  JointRows rows;
  for (const SpatialJoint& jt : joints_) {
    evaluateJoint(jt, t, q, nullptr, rows);
    phi.segment(jt.row, jt.rows) = rows.phi.head(jt.rows);
  }
}

void SpatialModel::evaluateJoints(double t, const Eigen::Ref<const VectorXd>& q,
                                  const Eigen::Ref<const VectorXd>* v, Eigen::Ref<VectorXd>* phi,
                                  Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<VectorXd>* gam) const {
  jac.setZero();
  JointRows rows;
  for (const SpatialJoint& jt : joints_) {
    evaluateJoint(jt, t, q, v, rows);
    if (phi) phi->segment(jt.row, jt.rows) = rows.phi.head(jt.rows);
    if (gam) gam->segment(jt.row, jt.rows) = rows.gamma.head(jt.rows);
    if (jt.body_i != kGround) jac.block(jt.row, 6 * jt.body_i, jt.rows, 6) += rows.d_i.topRows(jt.rows);
    if (jt.body_j != kGround) jac.block(jt.row, 6 * jt.body_j, jt.rows, 6) += rows.d_j.topRows(jt.rows);
  }
}

std::vector<std::pair<Eigen::Index, Eigen::Index>> SpatialModel::jointRowSpans() const {
  std::vector<std::pair<Eigen::Index, Eigen::Index>> spans(static_cast<std::size_t>(rows_));
  for (const SpatialJoint& jt : joints_) {
    Eigen::Index first = velocitySize(), end = 0;
    for (const BodyIndex b : {jt.body_i, jt.body_j}) {
      if (b == kGround) continue;
      first = std::min(first, velocityIndex(b, 0));
      end = std::max(end, velocityIndex(b, 5) + 1);
    }
    for (Eigen::Index r = jt.row; r < jt.row + jt.rows; ++r)
      spans[static_cast<std::size_t>(r)] = {std::min(first, end), end};
  }
  return spans;
}

void SpatialModel::jacobian(double t, const Eigen::Ref<const VectorXd>& q,
                            Eigen::Ref<Eigen::MatrixXd> jac) const {
  evaluateJoints(t, q, nullptr, nullptr, jac, nullptr);
}

void SpatialModel::constraintsAndJacobian(double t, const Eigen::Ref<const VectorXd>& q,
                                          Eigen::Ref<VectorXd> phi, Eigen::Ref<Eigen::MatrixXd> jac) const {
  evaluateJoints(t, q, nullptr, &phi, jac, nullptr);
}

void SpatialModel::constraintsJacobianAndGamma(double t, const Eigen::Ref<const VectorXd>& q,
                                               const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> phi,
                                               Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<VectorXd> gam) const {
  evaluateJoints(t, q, &v, &phi, jac, &gam);
}

void SpatialModel::jacobianAndGamma(double t, const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& v,
                                    Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<VectorXd> gam) const {
  evaluateJoints(t, q, &v, nullptr, jac, &gam);
}

void SpatialModel::constraintTimeDerivative(double t, const Eigen::Ref<const VectorXd>& q,
                                            Eigen::Ref<VectorXd> phi_t) const {
  phi_t.setZero();
  JointRows rows;
  for (const SpatialJoint& jt : joints_) {
    if (jt.type != SpatialJointType::kDriver) continue;
    evaluateJoint(jt, t, q, nullptr, rows);
    phi_t(jt.row) = rows.phi_t(0);
  }
}

void SpatialModel::gamma(double t, const Eigen::Ref<const VectorXd>& q,
                         const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> gam) const {
  JointRows rows;
  for (const SpatialJoint& jt : joints_) {
    evaluateJoint(jt, t, q, &v, rows);
    gam.segment(jt.row, jt.rows) = rows.gamma.head(jt.rows);
  }
}

void SpatialModel::addAppliedLoads(double t, const Eigen::Ref<const VectorXd>& q,
                                   Eigen::Ref<VectorXd> forces) const {
  for (const AppliedForce& a : applied_forces_) {
    if (a.body == kGround) continue;
    const Vector3d f = a.f(t);
    forces.segment<3>(6 * a.body) += f;
    forces.segment<3>(6 * a.body + 3) += a.s.cross(rotationMatrix(q.segment<4>(7 * a.body + 3)).transpose() * f);
  }
  for (const AppliedTorque& a : applied_torques_)
    forces.segment<3>(6 * a.body + 3) += rotationMatrix(q.segment<4>(7 * a.body + 3)).transpose() * a.n(t);
}

void SpatialModel::appliedLoads(double t, const Eigen::Ref<const VectorXd>& q, Eigen::Ref<VectorXd> forces) const {
  forces.setZero();
  addAppliedLoads(t, q, forces);
}

void SpatialModel::generalizedForces(double t, const Eigen::Ref<const VectorXd>& q,
                                     const Eigen::Ref<const VectorXd>& v,
                                     Eigen::Ref<VectorXd> forces) const {
  forces.setZero();
  for (int b = 0; b < bodyCount(); ++b) {
    const SpatialBody& body = bodies_[static_cast<std::size_t>(b)];
    const Vector3d w = v.segment<3>(6 * b + 3);
    forces.segment<3>(6 * b) += body.mass * gravity_;
    forces.segment<3>(6 * b + 3) -= w.cross(body.inertia * w);  // gyroscopic
  }
  auto addForceAt = [&](BodyIndex b, const Vector3d& s, const Vector3d& f) {
    if (b == kGround) return;
    forces.segment<3>(6 * b) += f;
    forces.segment<3>(6 * b + 3) +=
        s.cross(rotationMatrix(q.segment<4>(7 * b + 3)).transpose() * f);
  };
  addAppliedLoads(t, q, forces);
  for (const SpringDamper& s : springs_) {
    const SpatialSpringLine l = spatialSpringLine(*this, q, v, s.i, s.j, s.s_i, s.s_j);
    if (!(l.length > 0.0)) continue;  // direction undefined; the force is continuous only if L0 = 0
    const Vector3d f = (s.k * (l.length - s.rest) + s.c * l.rate) * l.u;
    addForceAt(s.i, s.s_i, f);
    addForceAt(s.j, s.s_j, -f);
  }
  for (const GeneralizedForce& g : callbacks_) g(t, q, v, forces);
}

void SpatialModel::positionRate(const Eigen::Ref<const VectorXd>& q,
                                const Eigen::Ref<const VectorXd>& v,
                                Eigen::Ref<VectorXd> qdot) const {
  for (int b = 0; b < bodyCount(); ++b) {
    qdot.segment<3>(7 * b) = v.segment<3>(6 * b);
    const double e0 = q(7 * b + 3);
    const Vector3d e = q.segment<3>(7 * b + 4), w = v.segment<3>(6 * b + 3);
    qdot(7 * b + 3) = -0.5 * e.dot(w);  // ṗ = ½ Lᵀ ω′
    qdot.segment<3>(7 * b + 4) = 0.5 * (e0 * w + e.cross(w));
  }
}

void SpatialModel::addToPositions(const Eigen::Ref<const VectorXd>& delta,
                                  Eigen::Ref<VectorXd> q) const {
  for (int b = 0; b < bodyCount(); ++b) {
    q.segment<3>(7 * b) += delta.segment<3>(6 * b);
    const Vector3d rot = delta.segment<3>(6 * b + 3);
    const double angle = rot.norm();
    if (angle == 0.0) continue;
    const double c = std::cos(0.5 * angle), s = std::sin(0.5 * angle) / angle;
    const double e0 = q(7 * b + 3);
    const Vector3d e = q.segment<3>(7 * b + 4), d = s * rot;
    q(7 * b + 3) = e0 * c - e.dot(d);  // p ∘ (c, d): a rotation about body axes
    q.segment<3>(7 * b + 4) = e0 * d + c * e + e.cross(d);
    q.segment<4>(7 * b + 3).normalize();
  }
}

void SpatialModel::normalizePositions(Eigen::Ref<VectorXd> q) const {
  for (int b = 0; b < bodyCount(); ++b) q.segment<4>(7 * b + 3).normalize();
}

namespace {
const char* const kPositionSuffix[7] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
const char* const kVelocitySuffix[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};
const char* const kAccelerationSuffix[6] = {"ax", "ay", "az", "alphax", "alphay", "alphaz"};
}  // namespace

std::string SpatialModel::positionName(Eigen::Index i) const {
  return bodies_.at(static_cast<std::size_t>(i / 7)).name + "." + kPositionSuffix[i % 7];
}
std::string SpatialModel::velocityName(Eigen::Index i) const {
  return bodies_.at(static_cast<std::size_t>(i / 6)).name + "." + kVelocitySuffix[i % 6];
}
std::string SpatialModel::accelerationName(Eigen::Index i) const {
  return bodies_.at(static_cast<std::size_t>(i / 6)).name + "." + kAccelerationSuffix[i % 6];
}

std::string SpatialModel::constraintRowName(Eigen::Index row) const {
  for (const SpatialJoint& jt : joints_)
    if (row >= jt.row && row < jt.row + jt.rows)
      return "joint '" + jt.name + "' (" + bodyLabel(bodies_, jt.body_i) + "–" +
             bodyLabel(bodies_, jt.body_j) + ") row " + std::to_string(row - jt.row + 1) + "/" +
             std::to_string(jt.rows);
  return MultibodySystem::constraintRowName(row);
}

std::string SpatialModel::multiplierName(Eigen::Index row) const {
  for (const SpatialJoint& j : joints_)
    if (row >= j.row && row < j.row + j.rows)
      return j.name + ".lambda" + (j.rows > 1 ? std::to_string(row - j.row) : "");
  return MultibodySystem::multiplierName(row);
}

Vector3d SpatialModel::angularMomentum(const Eigen::Ref<const VectorXd>& q,
                                       const Eigen::Ref<const VectorXd>& v) const {
  Vector3d h = Vector3d::Zero();
  for (int b = 0; b < bodyCount(); ++b) {
    const SpatialBody& body = bodies_[static_cast<std::size_t>(b)];
    h += body.mass * Vector3d(q.segment<3>(7 * b)).cross(v.segment<3>(6 * b));
    h += rotationMatrix(q.segment<4>(7 * b + 3)) * (body.inertia * v.segment<3>(6 * b + 3));
  }
  return h;
}

std::vector<SpatialJointReaction> SpatialModel::reactions(
    double t, const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& lambda) const {
  if (lambda.size() != rows_)
    throw std::invalid_argument("SpatialModel::reactions: expected λ of size " +
                                std::to_string(rows_) + ", got " + std::to_string(lambda.size()));
  std::vector<SpatialJointReaction> out;
  out.reserve(joints_.size());
  JointRows rows;
  for (const SpatialJoint& jt : joints_) {
    evaluateJoint(jt, t, q, nullptr, rows);
    const Eigen::Matrix<double, 6, 1> g =
        -rows.d_i.topRows(jt.rows).transpose() * lambda.segment(jt.row, jt.rows);
    const BodyMotion pi = pose(q, nullptr, jt.body_i);
    SpatialJointReaction r;
    r.force = g.head<3>();
    // The generalized torque is about the centroid in body axes; move it to P_i, in world axes.
    r.moment = pi.a * g.tail<3>() - (pi.a * jt.s_i).cross(r.force);
    const Matrix3d frame = pi.a * jt.frame_i;
    r.force_local = frame.transpose() * r.force;
    r.moment_local = frame.transpose() * r.moment;
    out.push_back(r);
  }
  return out;
}

Matrix3d SpatialModel::rotation(const Eigen::Ref<const VectorXd>& q, BodyIndex b) const {
  return b == kGround ? Matrix3d::Identity() : rotationMatrix(q.segment<4>(7 * b + 3));
}

Vector3d SpatialModel::pointPosition(const Eigen::Ref<const VectorXd>& q, BodyIndex b,
                                     const Vector3d& s) const {
  const BodyMotion p = pose(q, nullptr, b);
  return p.r + p.a * s;
}

Vector3d SpatialModel::pointVelocity(const Eigen::Ref<const VectorXd>& q,
                                     const Eigen::Ref<const VectorXd>& v, BodyIndex b,
                                     const Vector3d& s) const {
  if (b == kGround) return Vector3d::Zero();
  const Matrix3d a = rotationMatrix(q.segment<4>(7 * b + 3));
  return v.segment<3>(6 * b) + a * Vector3d(v.segment<3>(6 * b + 3)).cross(s);
}

}  // namespace stickslip::dynamics
