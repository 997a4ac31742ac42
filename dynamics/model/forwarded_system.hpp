#pragma once
/// \file A MultibodySystem (or an interface derived from it, Base) that passes every call on to
/// another system: the planar mechanism to its model, the penalty system to its model with the
/// contact forces added (it overrides generalizedForces). The wrapped system must outlive it.

#include <string>

#include "dynamics/model/model_system.hpp"

namespace stickslip::dynamics {

template <class Base>
class ForwardedSystem : public Base {
 public:
  explicit ForwardedSystem(const MultibodySystem& system) : system_(system) {}

  Eigen::Index positionSize() const override { return system_.positionSize(); }
  Eigen::Index velocitySize() const override { return system_.velocitySize(); }
  Eigen::Index constraintCount() const override { return system_.constraintCount(); }
  void applyMass(Eigen::Ref<Eigen::MatrixXd> x) const override { system_.applyMass(x); }
  void applyInverseMass(Eigen::Ref<Eigen::MatrixXd> x) const override { system_.applyInverseMass(x); }
  const Eigen::VectorXd* inverseMassDiagonal() const override { return system_.inverseMassDiagonal(); }
  double kineticEnergy(const Eigen::Ref<const Eigen::VectorXd>& v) const override { return system_.kineticEnergy(v); }
  double potentialEnergy(const Eigen::Ref<const Eigen::VectorXd>& q) const override { return system_.potentialEnergy(q); }
  double potentialRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) const override {
    return system_.potentialRate(q, v);
  }
  void constraints(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> phi) const override {
    system_.constraints(t, q, phi);
  }
  void jacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::MatrixXd> jac) const override {
    system_.jacobian(t, q, jac);
  }
  void constraintsAndJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> phi,
                              Eigen::Ref<Eigen::MatrixXd> jac) const override {
    system_.constraintsAndJacobian(t, q, phi, jac);
  }
  void constraintsJacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                   const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> phi,
                                   Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<Eigen::VectorXd> gam) const override {
    system_.constraintsJacobianAndGamma(t, q, v, phi, jac, gam);
  }
  void jacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::MatrixXd> jac,
                        Eigen::Ref<Eigen::VectorXd> gam) const override {
    system_.jacobianAndGamma(t, q, v, jac, gam);
  }
  std::vector<std::vector<int>> jacobianPattern() const override { return system_.jacobianPattern(); }
  std::vector<std::pair<Eigen::Index, Eigen::Index>> jointRowSpans() const override { return system_.jointRowSpans(); }
  void constraintsAndSparseJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> phi,
                                    double* values) const override {
    system_.constraintsAndSparseJacobian(t, q, phi, values);
  }
  void constraintTimeDerivative(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                Eigen::Ref<Eigen::VectorXd> phi_t) const override {
    system_.constraintTimeDerivative(t, q, phi_t);
  }
  void gamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
             Eigen::Ref<Eigen::VectorXd> gam) const override {
    system_.gamma(t, q, v, gam);
  }
  void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
                         Eigen::Ref<Eigen::VectorXd> forces) const override {
    system_.generalizedForces(t, q, v, forces);
  }
  void appliedLoads(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                    Eigen::Ref<Eigen::VectorXd> forces) const override {
    system_.appliedLoads(t, q, forces);
  }
  void positionRate(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& v,
                    Eigen::Ref<Eigen::VectorXd> qdot) const override {
    system_.positionRate(q, v, qdot);
  }
  void addToPositions(const Eigen::Ref<const Eigen::VectorXd>& delta, Eigen::Ref<Eigen::VectorXd> q) const override {
    system_.addToPositions(delta, q);
  }
  void normalizePositions(Eigen::Ref<Eigen::VectorXd> q) const override { system_.normalizePositions(q); }
  std::string positionName(Eigen::Index i) const override { return system_.positionName(i); }
  std::string velocityName(Eigen::Index i) const override { return system_.velocityName(i); }
  std::string accelerationName(Eigen::Index i) const override { return system_.accelerationName(i); }
  std::string constraintRowName(Eigen::Index row) const override { return system_.constraintRowName(row); }
  std::string multiplierName(Eigen::Index row) const override { return system_.multiplierName(row); }

 private:
  const MultibodySystem& system_;
};

}  // namespace stickslip::dynamics
