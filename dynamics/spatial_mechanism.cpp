#include "dynamics/spatial_mechanism.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace stickslip::dynamics {

SpatialMechanism::SpatialMechanism(const SpatialModel& model,
                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                   std::vector<SpatialJointFriction> friction)
    : ForwardedSystem<Mechanism>(model), model_(model), friction_(std::move(friction)) {
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
}

void SpatialMechanism::evaluateContacts(double, const Eigen::Ref<const Eigen::VectorXd>&,
                                        const Eigen::Ref<const Eigen::VectorXd>&,
                                        ContactKinematics&, bool) const {}

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
