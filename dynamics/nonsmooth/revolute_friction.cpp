#include "dynamics/nonsmooth/revolute_friction.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::dynamics {

void RevoluteFriction::validate(const PlanarModel& model) const {
  std::ostringstream os;
  if (joint < 0 || joint >= static_cast<int>(model.joints().size()) ||
      model.joints()[std::size_t(joint)].type != JointType::kRevolute)
    os << "expected the index of a revolute joint, got " << joint;
  else if (!(radius > 0.0) || !std::isfinite(radius))
    os << "expected a journal radius > 0, got " << radius;
  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic) || !std::isfinite(mu_static))
    os << "expected 0 <= mu_kinetic <= mu_static, got mu_kinetic = " << mu_kinetic
       << ", mu_static = " << mu_static;
  if (!os.str().empty()) throw std::invalid_argument(name + ": " + os.str());
}

double RevoluteFriction::reaction(const PlanarModel& model,
                                  const Eigen::Ref<const Eigen::VectorXd>& lambda) const {
  return lambda.segment<2>(model.joints()[std::size_t(joint)].row).norm();
}

double RevoluteFriction::rate(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const PlanarJoint& jt = model.joints()[std::size_t(joint)];
  return (jt.body_j == kGround ? 0.0 : v(PlanarModel::coordinate(jt.body_j, 2))) -
         (jt.body_i == kGround ? 0.0 : v(PlanarModel::coordinate(jt.body_i, 2)));
}

void RevoluteFriction::addRow(const PlanarModel& model, double s,
                              Eigen::Ref<Eigen::VectorXd> row) const {
  const PlanarJoint& jt = model.joints()[std::size_t(joint)];
  if (jt.body_i != kGround) row(PlanarModel::coordinate(jt.body_i, 2)) -= s;
  if (jt.body_j != kGround) row(PlanarModel::coordinate(jt.body_j, 2)) += s;
}

}  // namespace stickslip::dynamics
