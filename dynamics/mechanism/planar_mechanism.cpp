#include "dynamics/mechanism/planar_mechanism.hpp"

namespace stickslip::dynamics {

PlanarMechanism::PlanarMechanism(const PlanarModel& model, std::vector<RigidContact> contacts,
                                 std::vector<RevoluteFriction> joint_friction)
    : ForwardedSystem<Mechanism>(model),
      model_(model),
      contacts_(std::move(contacts)),
      joint_friction_(std::move(joint_friction)) {
  for (const RigidContact& c : contacts_) c.validate(model_);
  for (const RevoluteFriction& j : joint_friction_) {
    j.validate(model_, contacts_);
    friction_.push_back({j.name, j.mu_static, j.mu_kinetic, j.radius, j.slot});
  }
}

PlanarMechanism::PlanarMechanism(const RigidScenario& scenario)
    : PlanarMechanism(scenario.model, scenario.contacts, scenario.joint_friction) {}

void PlanarMechanism::evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                                       bool drift) const {
  dynamics::evaluateContacts(model_, contacts_, t, q, v, out, drift);
}

double PlanarMechanism::jointFrictionRate(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const {
  return joint_friction_[e].rate(model_, contacts_, v);
}

double PlanarMechanism::jointFrictionReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                                              const Eigen::Ref<const Eigen::VectorXd>& contact_forces) const {
  return joint_friction_[e].reaction(model_, lambda, contact_forces);
}

void PlanarMechanism::addJointFrictionRow(std::size_t e, double s, Eigen::Ref<Eigen::VectorXd> row) const {
  joint_friction_[e].addRow(model_, contacts_, s, row);
}

std::vector<JointLoadTerm> PlanarMechanism::jointFrictionLoad(std::size_t e) const {
  const RevoluteFriction& f = joint_friction_[e];
  JointLoadTerm term{1.0, Eigen::MatrixXd::Zero(2, model_.constraintCount()),
                     Eigen::MatrixXd::Zero(2, 2 * Eigen::Index(contacts_.size()))};
  if (f.slot >= 0)  // the slot's (N, F)
    term.contact.block(0, 2 * f.slot, 2, 2).setIdentity();
  else  // the pin's (λ1, λ2)
    term.lambda.block(0, model_.joints()[std::size_t(f.joint)].row, 2, 2).setIdentity();
  return {term};
}

}  // namespace stickslip::dynamics
