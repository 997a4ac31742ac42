#pragma once
/// \file A planar mechanism as the routes see it (mechanism.hpp): a PlanarModel with its rigid
/// contacts (rigid_contact.hpp) and the Coulomb friction of its revolute joints
/// (revolute_friction.hpp).

#include <vector>

#include "dynamics/model/forwarded_system.hpp"
#include "dynamics/mechanism/mechanism.hpp"
#include "dynamics/model/planar_model.hpp"

namespace stickslip::dynamics {

class PlanarMechanism final : public ForwardedSystem<Mechanism> {
 public:
  /// Keeps a reference to `model`, copies the contacts and the joint friction. Throws
  /// std::invalid_argument for a contact or joint friction that does not fit the model
  /// (RigidContact::validate, RevoluteFriction::validate).
  PlanarMechanism(const PlanarModel& model, std::vector<RigidContact> contacts,
                  std::vector<RevoluteFriction> joint_friction = {});
  /// The mechanism of a scenario (kept by reference: it must outlive this).
  explicit PlanarMechanism(const RigidScenario& scenario);

  const PlanarModel& model() const { return model_; }

  const std::vector<RigidContact>& contacts() const override { return contacts_; }
  const std::vector<JointFriction>& jointFriction() const override { return friction_; }
  void resizeContacts(ContactKinematics& out) const override { out.resize(contacts_, velocitySize()); }
  void evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                        bool drift = true) const override;
  double jointFrictionRate(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const override;
  double jointFrictionReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                               const Eigen::Ref<const Eigen::VectorXd>& contact_forces) const override;
  void addJointFrictionRow(std::size_t e, double s, Eigen::Ref<Eigen::VectorXd> row) const override;
  std::vector<JointLoadTerm> jointFrictionLoad(std::size_t e) const override;

 private:
  const PlanarModel& model_;
  std::vector<RigidContact> contacts_;
  std::vector<RevoluteFriction> joint_friction_;
  std::vector<JointFriction> friction_;  ///< joint_friction_ as the routes read it
};

}  // namespace stickslip::dynamics
