#include "dynamics/contact/revolute_friction.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {

void RevoluteFriction::validate(const PlanarModel& model, const std::vector<RigidContact>& contacts) const {
  std::ostringstream os;
  const RigidContact* c = slot >= 0 && slot < static_cast<int>(contacts.size()) ? &contacts[std::size_t(slot)] : nullptr;
  if (slot >= 0 && (!c || c->normal != RigidContact::Normal::kBilateral || c->shape != RigidContact::Shape::kDiskLine ||
                    c->radius != 0.0))
    os << "expected the index of a bilateral point-line contact as the pin's slot, got " << slot;
  else if (slot < 0 && (joint < 0 || joint >= static_cast<int>(model.joints().size()) ||
                        model.joints()[std::size_t(joint)].type != JointType::kRevolute))
    os << "expected the index of a revolute joint, got " << joint;
  else if (!(radius > 0.0) || !std::isfinite(radius))
    os << "expected a journal radius > 0, got " << radius;
  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic) || !std::isfinite(mu_static))
    os << "expected 0 <= mu_kinetic <= mu_static, got mu_kinetic = " << mu_kinetic
       << ", mu_static = " << mu_static;
  if (!os.str().empty()) throw std::invalid_argument(name + ": " + os.str());
}

std::pair<BodyIndex, BodyIndex> RevoluteFriction::bodies(const PlanarModel& model,
                                                         const std::vector<RigidContact>& contacts) const {
  if (slot >= 0) return {contacts[std::size_t(slot)].body_j, contacts[std::size_t(slot)].body_i};  // slot, pin
  const PlanarJoint& jt = model.joints()[std::size_t(joint)];
  return {jt.body_i, jt.body_j};
}

double RevoluteFriction::reaction(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                                  const Eigen::Ref<const Eigen::VectorXd>& contact_forces) const {
  if (slot >= 0) return contact_forces.segment<2>(2 * Eigen::Index(slot)).norm();
  return lambda.segment<2>(model.joints()[std::size_t(joint)].row).norm();
}

double RevoluteFriction::rate(const PlanarModel& model, const std::vector<RigidContact>& contacts,
                              const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const auto [i, j] = bodies(model, contacts);
  return (j == kGround ? 0.0 : v(PlanarModel::coordinate(j, 2))) - (i == kGround ? 0.0 : v(PlanarModel::coordinate(i, 2)));
}

void RevoluteFriction::addRow(const PlanarModel& model, const std::vector<RigidContact>& contacts, double s,
                              Eigen::Ref<Eigen::VectorXd> row) const {
  const auto [i, j] = bodies(model, contacts);
  if (i != kGround) row(PlanarModel::coordinate(i, 2)) -= s;
  if (j != kGround) row(PlanarModel::coordinate(j, 2)) += s;
}

}  // namespace stickslip::dynamics
