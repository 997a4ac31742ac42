#pragma once
/// \file The constrained mechanical system every equations-of-motion method works on.
///
/// Generalized coordinates q (size nq) and velocities v (size nv) with q̇ = H(q) v; for planar
/// bodies in absolute coordinates H = I, for spatial bodies with Euler parameters it maps
/// angular velocities to parameter rates (thesis §2.2, Eq. 2.11). The equations of motion
/// (thesis §2.2, Eq. 2.44 and 2.16) are
///   M v̇ + Dᵀ λ = Q(q, v, t),   D v̇ = γ(q, v, t),
/// with M constant, symmetric positive definite and block diagonal (one block per body: a planar
/// body's diag(m, m, J), a spatial body's m I and its inertia tensor about body axes), Φ(q, t) = 0
/// the m holonomic constraints, D = Φq H their
/// Jacobian with respect to v, Φ̇ = D v + Φt, and γ = −(D v)_q q̇ − 2 Φqt q̇ − Φtt the
/// right-hand side of the acceleration equations. −Dᵀλ is the generalized constraint force.
/// Nothing here is planar: the methods in eom_solver.hpp and model_assembly.hpp see only this.

#include <Eigen/Dense>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stickslip::dynamics {

class MultibodySystem {
 public:
  virtual ~MultibodySystem() = default;

  virtual Eigen::Index positionSize() const = 0;    ///< nq
  virtual Eigen::Index velocitySize() const = 0;    ///< nv
  virtual Eigen::Index constraintCount() const = 0; ///< m

  /// x ← M x and x ← M⁻¹ x for the columns of x (nv rows): the mass matrix by its blocks,
  /// never as a dense nv × nv matrix.
  virtual void applyMass(Eigen::Ref<Eigen::MatrixXd> x) const = 0;
  virtual void applyInverseMass(Eigen::Ref<Eigen::MatrixXd> x) const = 0;
  /// T = ½ vᵀ M v [J].
  virtual double kineticEnergy(const Eigen::Ref<const Eigen::VectorXd>& v) const {
    Eigen::VectorXd mv = v;
    applyMass(mv);
    return 0.5 * v.dot(mv);
  }
  /// V(q) of gravity and the force elements that have one (springs) [J].
  virtual double potentialEnergy(const Eigen::Ref<const Eigen::VectorXd>& q) const = 0;
  /// dV/dt = V_q H(q) v, V's rate along the motion (q, v) [W].
  virtual double potentialRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                               const Eigen::Ref<const Eigen::VectorXd>& v) const = 0;
  /// M⁻¹'s diagonal when M is diagonal (planar bodies: diag(m, m, J) each), so that the hot
  /// loops scale rows instead of applying blocks; null otherwise (a spatial body's inertia).
  virtual const Eigen::VectorXd* inverseMassDiagonal() const { return nullptr; }

  /// Φ(q, t), size m.
  virtual void constraints(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                           Eigen::Ref<Eigen::VectorXd> phi) const = 0;
  /// D(q, t) = Φq H, m × nv (`jac` must have that size; it is overwritten).
  virtual void jacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        Eigen::Ref<Eigen::MatrixXd> jac) const = 0;
  /// constraints() and jacobian() in one call (a model may share their work).
  virtual void constraintsAndJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                      Eigen::Ref<Eigen::VectorXd> phi, Eigen::Ref<Eigen::MatrixXd> jac) const {
    constraints(t, q, phi);
    jacobian(t, q, jac);
  }
  /// constraintsAndJacobian() and gamma() in one call (a model may share their work).
  virtual void constraintsJacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                           const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> phi,
                                           Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<Eigen::VectorXd> gam) const {
    constraintsAndJacobian(t, q, phi, jac);
    gamma(t, q, v, gam);
  }
  /// jacobian() and gamma() in one call (a model may share their work: the equations of motion
  /// need both at every solve).
  virtual void jacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::MatrixXd> jac,
                                Eigen::Ref<Eigen::VectorXd> gam) const {
    jacobian(t, q, jac);
    gamma(t, q, v, gam);
  }
  /// D's sparsity for a mechanism with many joints: per row, the velocity columns it may touch
  /// (ascending, fixed for the model's life), or empty when the model gives none (D is then
  /// dense to its users).
  virtual std::vector<std::vector<int>> jacobianPattern() const { return {}; }
  /// Per joint row r, the velocity columns [first, second) outside which row r of D and row r
  /// of D M⁻¹ are zero at every configuration: the bodies the joint couples, when M couples
  /// only a body's own velocities. Empty when the model gives none (every row spans all).
  virtual std::vector<std::pair<Eigen::Index, Eigen::Index>> jointRowSpans() const { return {}; }
  /// Φ(q, t) and D's values in jacobianPattern()'s order, row after row (`values` holds as
  /// many as the pattern has entries). Only for a model that gives a pattern.
  virtual void constraintsAndSparseJacobian(double /*t*/, const Eigen::Ref<const Eigen::VectorXd>& /*q*/,
                                            Eigen::Ref<Eigen::VectorXd> /*phi*/, double* /*values*/) const {
    throw std::logic_error("MultibodySystem::constraintsAndSparseJacobian: the model gives no Jacobian pattern");
  }
  /// Φt(q, t), size m (nonzero only for rheonomic constraints).
  virtual void constraintTimeDerivative(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                        Eigen::Ref<Eigen::VectorXd> phi_t) const = 0;
  /// γ(q, v, t) = −(D v)_q q̇ − 2 Φqt q̇ − Φtt, size m.
  virtual void gamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& v,
                     Eigen::Ref<Eigen::VectorXd> gam) const = 0;
  /// Q(q, v, t), size nv: every applied, gravity, force-element and contact force.
  virtual void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                 Eigen::Ref<Eigen::VectorXd> forces) const = 0;
  /// The part of Q from the applied forces and torques alone (no gravity, springs, dampers or
  /// contacts): the loads a load factor scales (dynamics/statics/hold.hpp). Default: none.
  virtual void appliedLoads(double /*t*/, const Eigen::Ref<const Eigen::VectorXd>& /*q*/,
                            Eigen::Ref<Eigen::VectorXd> forces) const {
    forces.setZero();
  }
  /// q̇ = H(q) v, size nq.
  virtual void positionRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                            const Eigen::Ref<const Eigen::VectorXd>& v,
                            Eigen::Ref<Eigen::VectorXd> qdot) const = 0;
  /// q ← q + H(q) δ for a correction δ of size nv (the plain sum for H = I; a spatial model
  /// renormalizes its Euler parameters here).
  virtual void addToPositions(const Eigen::Ref<const Eigen::VectorXd>& delta,
                              Eigen::Ref<Eigen::VectorXd> q) const = 0;
  /// Projects q back onto its manifold after an integration step: a spatial model sets each
  /// body's ‖p‖ = 1; nothing to do for planar coordinates.
  virtual void normalizePositions(Eigen::Ref<Eigen::VectorXd> /*q*/) const {}
  /// Names of position coordinate i, velocity i and its rate, for histories ("q3", "v3", "a3"
  /// unless the model knows better).
  virtual std::string positionName(Eigen::Index i) const { return "q" + std::to_string(i); }
  virtual std::string velocityName(Eigen::Index i) const { return "v" + std::to_string(i); }
  virtual std::string accelerationName(Eigen::Index i) const { return "a" + std::to_string(i); }
  /// Who owns constraint row `row` (0 ≤ row < m), for messages; default "row k".
  virtual std::string constraintRowName(Eigen::Index row) const {
    return "row " + std::to_string(row);
  }
  /// The history column of row `row`'s multiplier: "J.lambda" for a joint J of one row,
  /// "J.lambda0", "J.lambda1", … for one of several; default "lambda<row>".
  virtual std::string multiplierName(Eigen::Index row) const { return "lambda" + std::to_string(row); }
};

}  // namespace stickslip::dynamics
