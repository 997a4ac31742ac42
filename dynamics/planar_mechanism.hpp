#pragma once
/// \file A planar mechanism as the routes see it (mechanism.hpp): a PlanarModel with its rigid
/// contacts (rigid_contact.hpp) and the Coulomb friction of its revolute joints
/// (revolute_friction.hpp).

#include <vector>

#include "dynamics/mechanism.hpp"
#include "dynamics/planar_model.hpp"

namespace stickslip::dynamics {

class PlanarMechanism final : public Mechanism {
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
  const std::vector<RevoluteFriction>& jointFriction() const override { return joint_friction_; }
  void evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                        bool drift = true) const override;
  double jointFrictionRate(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const override;
  double jointFrictionReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda) const override;
  void addJointFrictionRow(std::size_t e, double s, Eigen::Ref<Eigen::VectorXd> row) const override;

  // MultibodySystem: the model's.
  Eigen::Index positionSize() const override { return model_.positionSize(); }
  Eigen::Index velocitySize() const override { return model_.velocitySize(); }
  Eigen::Index constraintCount() const override { return model_.constraintCount(); }
  void applyMass(Eigen::Ref<Eigen::MatrixXd> x) const override { model_.applyMass(x); }
  void applyInverseMass(Eigen::Ref<Eigen::MatrixXd> x) const override { model_.applyInverseMass(x); }
  const Eigen::VectorXd* inverseMassDiagonal() const override { return model_.inverseMassDiagonal(); }
  void constraints(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                   Eigen::Ref<Eigen::VectorXd> phi) const override {
    model_.constraints(t, q, phi);
  }
  void jacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::MatrixXd> jac) const override {
    model_.jacobian(t, q, jac);
  }
  void constraintsAndJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> phi,
                              Eigen::Ref<Eigen::MatrixXd> jac) const override {
    model_.constraintsAndJacobian(t, q, phi, jac);
  }
  void constraintTimeDerivative(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                Eigen::Ref<Eigen::VectorXd> phi_t) const override {
    model_.constraintTimeDerivative(t, q, phi_t);
  }
  void gamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
             Eigen::Ref<Eigen::VectorXd> gam) const override {
    model_.gamma(t, q, v, gam);
  }
  void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> forces) const override {
    model_.generalizedForces(t, q, v, forces);
  }
  void positionRate(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
                    Eigen::Ref<Eigen::VectorXd> qdot) const override {
    model_.positionRate(q, v, qdot);
  }
  void addToPositions(const Eigen::Ref<const Eigen::VectorXd>& delta, Eigen::Ref<Eigen::VectorXd> q) const override {
    model_.addToPositions(delta, q);
  }
  std::string positionName(Eigen::Index i) const override { return model_.positionName(i); }
  std::string velocityName(Eigen::Index i) const override { return model_.velocityName(i); }
  std::string accelerationName(Eigen::Index i) const override { return model_.accelerationName(i); }
  std::string constraintRowName(Eigen::Index row) const override { return model_.constraintRowName(row); }

 private:
  const PlanarModel& model_;
  std::vector<RigidContact> contacts_;
  std::vector<RevoluteFriction> joint_friction_;
};

}  // namespace stickslip::dynamics
