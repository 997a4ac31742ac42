#include "dynamics/spatial_mechanism.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <variant>

namespace stickslip::dynamics {

SpatialMechanism::SpatialMechanism(const SpatialModel& model,
                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                   std::vector<SpatialJointFriction> friction,
                                   std::vector<SpatialClearance> clearances)
    : ForwardedSystem<Mechanism>(model), model_(model), friction_(std::move(friction)),
      clearances_(std::move(clearances)) {
  if (q.size() != model.positionSize())
    throw std::invalid_argument("SpatialMechanism: q has the wrong size");
  rows_ = Eigen::MatrixXd::Zero(Eigen::Index(friction_.size()), model.velocitySize());
  for (std::size_t e = 0; e < friction_.size(); ++e) {
    const SpatialJointFriction& f = friction_[e];
    const std::string who = "joint friction '" + f.name + "': ";
    if (f.joint < 0 || f.joint >= int(model.joints().size()))
      throw std::invalid_argument(who + "no joint " + std::to_string(f.joint));
    if (!(f.mu_kinetic >= 0.0) || !(f.mu_static >= f.mu_kinetic) || !std::isfinite(f.mu_static))
      throw std::invalid_argument(who + "expected mu_static >= mu_kinetic >= 0, got " +
                                  std::to_string(f.mu_static) + " and " +
                                  std::to_string(f.mu_kinetic));
    const SpatialJoint& jt = model.joints()[std::size_t(f.joint)];
    auto row = rows_.row(Eigen::Index(e));
    double lever = 1.0;
    if (jt.type == SpatialJointType::kRevolute) {
      if (!(f.radius > 0.0) || !std::isfinite(f.radius))
        throw std::invalid_argument(who + "a revolute joint's pin radius must be > 0, got " +
                                    std::to_string(f.radius));
      lever = f.radius;
      if (jt.body_j != kGround) row.segment<3>(6 * jt.body_j + 3) += jt.frame_j.col(2).transpose();
      if (jt.body_i != kGround) row.segment<3>(6 * jt.body_i + 3) -= jt.frame_i.col(2).transpose();
    } else if (jt.type == SpatialJointType::kTranslational) {
      if (jt.body_i != kGround && jt.body_j != kGround)
        throw std::invalid_argument(
            who + "friction in a translational joint needs the ground as its guide (joint '" +
            jt.name + "' joins two moving bodies)");
      if (!(f.slider_length >= 0.0) || !std::isfinite(f.slider_length))
        throw std::invalid_argument(who + "the slider length must be >= 0, got " +
                                    std::to_string(f.slider_length));
      // ṡ = a_iᵀ (v_Pj − v_Pi), the joint points' velocities ṙ − A s̃′ ω′.
      const Eigen::Vector3d a = model.rotation(q, jt.body_i) * jt.frame_i.col(2);
      if (jt.body_j != kGround) {
        row.segment<3>(6 * jt.body_j) += a.transpose();
        row.segment<3>(6 * jt.body_j + 3) -=
            a.transpose() * model.rotation(q, jt.body_j) * skewMatrix(jt.s_j);
      }
      if (jt.body_i != kGround) {
        row.segment<3>(6 * jt.body_i) -= a.transpose();
        row.segment<3>(6 * jt.body_i + 3) +=
            a.transpose() * model.rotation(q, jt.body_i) * skewMatrix(jt.s_i);
      }
    } else {
      throw std::invalid_argument(
          who + "friction is modelled in revolute and translational joints; joint '" + jt.name +
          "' is neither");
    }
    levers_.push_back({f.name, f.mu_static, f.mu_kinetic, lever});
  }
  for (SpatialClearance& c : clearances_) {
    const std::string who = "clearance joint '" + c.name + "'";
    for (const BodyIndex b : {c.journal_body, c.bearing_body})
      if (b != kGround && (b < 0 || b >= model.bodyCount()))
        throw std::invalid_argument(who + ": no body " + std::to_string(b));
    if (c.journal_body == c.bearing_body)
      throw std::invalid_argument(who + ": the journal and the bearing must be on different bodies");
    c.joint.validate(who);
    std::visit([&](const auto& law) { law.validate(who); }, c.law);
    if (!(c.mu_kinetic >= 0.0) || !(c.mu_static >= c.mu_kinetic) || !std::isfinite(c.mu_static))
      throw std::invalid_argument(who + ": expected mu_static >= mu_kinetic >= 0, got " +
                                  std::to_string(c.mu_static) + " and " + std::to_string(c.mu_kinetic));
    if (c.rigid_restitution && !(*c.rigid_restitution >= 0.0 && *c.rigid_restitution <= 1.0))
      throw std::invalid_argument(who + ": expected rigid_restitution in [0, 1], got " +
                                  std::to_string(*c.rigid_restitution));
    if (c.rigid && !c.rigid_restitution)
      throw std::invalid_argument(who + ": a rigid clearance joint needs its rigid_restitution (Newton's e)");
    for (const char* which : {"radial-A", "radial-B", "axial-A", "axial-B"}) {
      RigidContact rc;
      rc.name = c.name + "." + which;
      rc.normal = c.rigid ? RigidContact::Normal::kUnilateral : RigidContact::Normal::kCompliant;
      rc.rigid_restitution = c.rigid_restitution;
      if (c.rigid) rc.restitution = *c.rigid_restitution;
      rc.shape = RigidContact::Shape::kSpatialClearance;
      rc.body_i = c.journal_body;
      rc.body_j = c.bearing_body;
      rc.compliant_law = c.law;
      rc.mu_static = c.mu_static;
      rc.mu_kinetic = c.mu_kinetic;
      contacts_.push_back(std::move(rc));
    }
  }
}

SpatialPose bodyPose(const SpatialModel& model, const Eigen::Ref<const Eigen::VectorXd>& q, BodyIndex b) {
  if (b == kGround) return {};
  return {q.segment<3>(SpatialModel::positionIndex(b, 0)), model.rotation(q, b)};
}

void SpatialMechanism::evaluateContacts(double, const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                                        bool) const {
  const auto nc = Eigen::Index(contacts_.size());
  if (out.gap.size() != nc || out.jacobian.cols() != model_.velocitySize())
    resizeContacts(out);
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // Writes into the fixed pattern (no insertion); `part` is 0 for body i, 1 for body j.
  const auto put = [&](ContactJacobian& rows, Eigen::Index row, BodyIndex b, const Eigen::Matrix<double, 1, 12>& values,
                       int part) {
    if (b == kGround) return;
    for (Eigen::Index d = 0; d < 6; ++d) rows.coeffRef(row, 6 * b + d) = values(6 * part + d);
  };
  Eigen::Matrix<double, 12, 1> body_velocities;
  for (std::size_t c = 0; c < clearances_.size(); ++c) {
    const SpatialClearance& cl = clearances_[c];
    const SpatialPose pi = bodyPose(model_, q, cl.journal_body), pj = bodyPose(model_, q, cl.bearing_body);
    const SpatialClearanceGeometry g = spatialClearanceGeometry(cl.joint, pi, pj);
    body_velocities.setZero();
    if (cl.journal_body != kGround) body_velocities.head<6>() = v.segment<6>(6 * cl.journal_body);
    if (cl.bearing_body != kGround) body_velocities.tail<6>() = v.segment<6>(6 * cl.bearing_body);
    for (std::size_t w = 0; w < 4; ++w) {
      const SpatialClearanceContact& ct = g.contacts[w];
      const auto k = Eigen::Index(4 * c + w);
      const Eigen::Vector3d v_rel = relativeVelocity(ct, pi, pj, body_velocities);
      const double rate = ct.normal.dot(v_rel);
      const Eigen::Vector3d sliding = v_rel - rate * ct.normal;  // v_T
      const double speed = sliding.norm();
      const Eigen::Vector3d t = speed > 0.0 ? Eigen::Vector3d(sliding / speed) : frameFromAxis(ct.normal).col(0);
      const Eigen::Matrix<double, 1, 12> normal_row = velocityRow(ct, ct.normal, pi, pj);
      const Eigen::Matrix<double, 1, 12> tangent_row = velocityRow(ct, t, pi, pj);
      const Eigen::Vector3d second = ct.normal.cross(t);
      const Eigen::Matrix<double, 1, 12> second_row = velocityRow(ct, second, pi, pj);
      for (int part = 0; part < 2; ++part) {
        const BodyIndex b = part == 0 ? cl.journal_body : cl.bearing_body;
        put(out.jacobian, 2 * k, b, -normal_row, part);
        put(out.jacobian, 2 * k + 1, b, tangent_row, part);
        put(out.second_tangent, k, b, second_row, part);
      }
      out.gap(k) = -ct.penetration;
      out.normal_velocity(k) = -rate;
      out.sliding_velocity(k) = speed;
      out.normal_drift(k) = kNaN;
      out.tangential_drift(k) = kNaN;
      out.tangent_frame[std::size_t(k)] << ct.normal, t, second;
      out.normal[std::size_t(k)].setConstant(kNaN);  // planar fields: not for a spatial contact
      out.point[std::size_t(k)].setConstant(kNaN);
    }
  }
}

double SpatialMechanism::jointFrictionRate(std::size_t e,
                                           const Eigen::Ref<const Eigen::VectorXd>& v) const {
  return rows_.row(Eigen::Index(e)).dot(v);
}

double SpatialMechanism::jointFrictionReaction(std::size_t e,
                                               const Eigen::Ref<const Eigen::VectorXd>& lambda,
                                               const Eigen::Ref<const Eigen::VectorXd>&) const {
  const SpatialJointFriction& f = friction_[e];
  const SpatialJoint& jt = model_.joints()[std::size_t(f.joint)];
  if (jt.type == SpatialJointType::kRevolute) return lambda.segment<3>(jt.row).norm();
  const Eigen::Vector2d n = lambda.segment<2>(jt.row + 2);
  if (f.slider_length == 0.0) return n.norm();
  const Eigen::Vector2d m = (2.0 / f.slider_length) * lambda.segment<2>(jt.row);
  return 0.5 * ((n - m).norm() + (n + m).norm());
}

void SpatialMechanism::addJointFrictionRow(std::size_t e, double s,
                                           Eigen::Ref<Eigen::VectorXd> row) const {
  row += s * rows_.row(Eigen::Index(e)).transpose();
}

}  // namespace stickslip::dynamics
