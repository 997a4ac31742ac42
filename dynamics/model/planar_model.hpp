#pragma once
/// \file Planar rigid bodies in absolute coordinates, ideal joints, drivers and force elements.
///
/// Body i has q_i = (x_i, y_i, θ_i): the centroid r_i and the rotation A(θ_i) of its frame
/// (thesis §2.2; Nikravesh, Computer-Aided Analysis of Mechanical Systems, 1988, ch. 6–7).
/// A point fixed on the body at local s′ is at r_i + A_i s′; its velocity is ṙ_i + θ̇_i R A_i s′
/// with R the rotation by +90°, B_i s′ = R A_i s′ = ∂(A_i s′)/∂θ_i. The mass matrix is
/// diag(m_i, m_i, J_i) per body (J_i about the centroid), so q = v, H = I.
///
/// Constraint equations Φ (row blocks in the order joints then drivers are added):
///   revolute(i, s_i, j, s_j):  r_i + A_i s_i − r_j − A_j s_j = 0                         (2 rows)
///   point-on-line(i, s_i, u_i, j, s_j):  n_iᵀ (r_j + A_j s_j − r_i − A_i s_i) = 0,
///       n_i = A_i R u_i: the point s_j of j stays on the line through s_i along u_i of i (1 row)
///   translational(i, s_i, u_i, j, s_j): point-on-line plus θ_j − θ_i − θ_0 = 0          (2 rows)
///   fixed(i, s_i, j, s_j): revolute plus θ_j − θ_i − θ_0 = 0                             (3 rows)
///   angle(i, j, θ_0):  θ_j − θ_i − θ_0 = 0, a relative rotation held fixed               (1 row)
///   rheonomic driver(i, j, θ(t)): θ_j − θ_i − θ(t) = 0, Φt = −θ′, γ = θ″                 (1 row)
/// θ_0 is the relative angle when the joint is added (taken from add*'s argument).
/// The ground is body kGround: r = 0, θ = 0, its "local" points are global points.
///
/// Sign convention (thesis Eq. 2.44): M v̇ + Dᵀλ = Q, so −Dᵀλ is the constraint force.
/// Joint reactions (reactions()) are reported as Nikravesh does: the force and the torque
/// that body j exerts on body i at the joint point P_i = r_i + A_i s_i, as components in the
/// joint frame of body i (axes A_i u_i, A_i R u_i; u_i = (1, 0) for revolute and fixed), and
/// equally the force of i on j (its negative) in body j's frame.
///
/// Contacts and any other generalized force enter through addGeneralizedForce(): a callback
/// that adds to Q. This class knows nothing about contact geometry or friction laws.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/model/model_system.hpp"

namespace stickslip::dynamics {

/// Index of a body in a PlanarModel; kGround for the fixed frame.
using BodyIndex = int;
inline constexpr BodyIndex kGround = -1;

struct PlanarBody {
  std::string name;
  double mass = 0.0;     ///< [kg], > 0
  double inertia = 0.0;  ///< about the centroid [kg·m²], > 0
};

enum class JointType { kRevolute, kTranslational, kFixed, kPointOnLine, kAngle, kRheonomicDriver };

/// Description of one ideal joint or driver (see the file comment for its equations).
struct PlanarJoint {
  JointType type = JointType::kRevolute;
  std::string name;
  BodyIndex body_i = kGround, body_j = kGround;
  Eigen::Vector2d s_i = Eigen::Vector2d::Zero();  ///< joint point on i, local frame of i [m]
  Eigen::Vector2d s_j = Eigen::Vector2d::Zero();  ///< joint point on j, local frame of j [m]
  Eigen::Vector2d u_i = Eigen::Vector2d::UnitX(); ///< unit sliding axis on i (local frame)
  double theta0 = 0.0;                            ///< relative angle θ_j − θ_i held [rad]
  std::function<double(double)> angle, angle_rate, angle_acceleration;  ///< θ(t), θ′, θ″
  Eigen::Index row = 0;                           ///< first row in Φ
  Eigen::Index rows = 0;                          ///< number of rows
};

/// Reaction of one joint (see the file comment for the frames).
struct JointReaction {
  Eigen::Vector2d force_on_i = Eigen::Vector2d::Zero();  ///< global components [N]
  double torque_on_i = 0.0;                              ///< about P_i [N·m]
  Eigen::Vector2d force_on_i_local = Eigen::Vector2d::Zero();  ///< (along u_i, along R u_i)
  Eigen::Vector2d force_on_j_local = Eigen::Vector2d::Zero();  ///< in j's frame (axes A_j)
  double torque_on_j = 0.0;                              ///< about P_j [N·m]
};

/// Adds a generalized force to Q (size nv): Q += f(t, q, v). Used for contacts.
using GeneralizedForce = std::function<void(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& v,
                                            Eigen::Ref<Eigen::VectorXd> forces)>;

class PlanarModel final : public MultibodySystem {
 public:
  /// Adds a body; returns its index. Throws std::invalid_argument unless mass, inertia > 0.
  BodyIndex addBody(std::string name, double mass, double inertia);

  /// Joint builders return the joint index. Bodies must exist (or be kGround) and differ.
  int addRevolute(BodyIndex i, const Eigen::Vector2d& s_i, BodyIndex j, const Eigen::Vector2d& s_j,
                  std::string name = "revolute");
  int addTranslational(BodyIndex i, const Eigen::Vector2d& s_i, const Eigen::Vector2d& u_i,
                       BodyIndex j, const Eigen::Vector2d& s_j, double theta0 = 0.0,
                       std::string name = "translational");
  int addPointOnLine(BodyIndex i, const Eigen::Vector2d& s_i, const Eigen::Vector2d& u_i,
                     BodyIndex j, const Eigen::Vector2d& s_j, std::string name = "point-on-line");
  int addFixed(BodyIndex i, const Eigen::Vector2d& s_i, BodyIndex j, const Eigen::Vector2d& s_j,
               double theta0 = 0.0, std::string name = "fixed");
  /// θ_j − θ_i = θ0, a scleronomic constraint (a driver that holds an angle still); its
  /// multiplier is the holding torque, signed as a driver's.
  int addAngle(BodyIndex i, BodyIndex j, double theta0, std::string name = "angle");
  /// The same model with its rheonomic drivers removed (the other joints' rows renumbered):
  /// the passive mechanism, whose static load a locked structure carries.
  PlanarModel withoutDrivers() const;
  /// θ_j − θ_i = θ(t); its multiplier is the driving torque: −λ acts on j, +λ on i.
  int addRheonomicDriver(BodyIndex i, BodyIndex j, std::function<double(double)> angle,
                         std::function<double(double)> angle_rate,
                         std::function<double(double)> angle_acceleration,
                         std::string name = "driver");

  /// Uniform gravity g [m/s²] on every body.
  void setGravity(const Eigen::Vector2d& g);
  /// Force f(t) (global components [N]) at local point s of body b.
  void addAppliedForce(BodyIndex b, const Eigen::Vector2d& s,
                       std::function<Eigen::Vector2d(double)> force);
  /// Torque τ(t) [N·m] on body b.
  void addAppliedTorque(BodyIndex b, std::function<double(double)> torque);
  /// Linear spring–damper between P_i and P_j: tension f = k (L − L0) + c L̇ pulls the points
  /// together; k [N/m], c [N·s/m], L0 [m] ≥ 0.
  void addSpringDamper(BodyIndex i, const Eigen::Vector2d& s_i, BodyIndex j,
                       const Eigen::Vector2d& s_j, double k, double c, double rest_length);
  /// Rotational spring–damper: torque τ = k (θ_j − θ_i − θ0) + c (θ̇_j − θ̇_i) acts +τ on i, −τ on j.
  void addRotationalSpringDamper(BodyIndex i, BodyIndex j, double k, double c, double theta0);
  /// Viscous damping of body b against the ground: −c_t ṙ_b and −c_r θ̇_b.
  void addViscousDamping(BodyIndex b, double c_translational, double c_rotational);
  /// Any other generalized force (contacts); called last in generalizedForces().
  void addGeneralizedForce(GeneralizedForce force);

  int bodyCount() const { return static_cast<int>(bodies_.size()); }
  const PlanarBody& body(BodyIndex b) const { return bodies_.at(static_cast<std::size_t>(b)); }
  const std::vector<PlanarJoint>& joints() const { return joints_; }
  /// Index of coordinate (0 = x, 1 = y, 2 = θ) of body b in q and v.
  static Eigen::Index coordinate(BodyIndex b, int which) { return 3 * b + which; }

  Eigen::Index positionSize() const override { return 3 * bodyCount(); }
  Eigen::Index velocitySize() const override { return 3 * bodyCount(); }
  Eigen::Index constraintCount() const override { return rows_; }
  /// The mass matrix's diagonal diag(m_b, m_b, J_b) per body (a planar body's block is diagonal).
  const Eigen::VectorXd& massDiagonal() const { return mass_; }
  void applyMass(Eigen::Ref<Eigen::MatrixXd> x) const override { x.array().colwise() *= mass_.array(); }
  void applyInverseMass(Eigen::Ref<Eigen::MatrixXd> x) const override {
    x.array().colwise() *= inverse_mass_.array();
  }
  const Eigen::VectorXd* inverseMassDiagonal() const override { return &inverse_mass_; }
  void constraints(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                   Eigen::Ref<Eigen::VectorXd> phi) const override;
  void jacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                Eigen::Ref<Eigen::MatrixXd> jac) const override;
  /// constraints() and jacobian() in one pass: each joint's poses computed once.
  void constraintsAndJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                              Eigen::Ref<Eigen::VectorXd> phi,
                              Eigen::Ref<Eigen::MatrixXd> jac) const override;
  /// Row r of joint J touches the columns of J's two bodies (not the ground's). Empty after
  /// setSparseJoints(false).
  std::vector<std::vector<int>> jacobianPattern() const override;
  /// Each joint row spans its bodies' coordinates (M is diagonal).
  std::vector<std::pair<Eigen::Index, Eigen::Index>> jointRowSpans() const override;
  /// Whether the model gives its Jacobian's pattern (default true), so that a mechanism with
  /// many joints is handled sparse (constrained_response.hpp); false keeps it dense, to compare.
  void setSparseJoints(bool sparse) { sparse_joints_ = sparse; }
  void constraintsAndSparseJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                    Eigen::Ref<Eigen::VectorXd> phi, double* values) const override;
  void constraintTimeDerivative(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                Eigen::Ref<Eigen::VectorXd> phi_t) const override;
  void gamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
             const Eigen::Ref<const Eigen::VectorXd>& v,
             Eigen::Ref<Eigen::VectorXd> gam) const override;
  /// One pass for the two (each joint's poses once).
  void jacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::MatrixXd> jac,
                        Eigen::Ref<Eigen::VectorXd> gam) const override;
  void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v,
                         Eigen::Ref<Eigen::VectorXd> forces) const override;
  void positionRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v,
                    Eigen::Ref<Eigen::VectorXd> qdot) const override;
  void addToPositions(const Eigen::Ref<const Eigen::VectorXd>& delta,
                      Eigen::Ref<Eigen::VectorXd> q) const override;
  /// "B.x", "B.y", "B.theta", "B.vx", "B.vy", "B.omega" and "B.ax", "B.ay", "B.alpha" for body B.
  std::string positionName(Eigen::Index i) const override;
  std::string velocityName(Eigen::Index i) const override;
  std::string accelerationName(Eigen::Index i) const override;
  /// "joint 'name' row i/n" for the joint or driver that owns the row.
  std::string constraintRowName(Eigen::Index row) const override;
  std::string multiplierName(Eigen::Index row) const override;

  /// T = ½ vᵀ M v [J].
  double kineticEnergy(const Eigen::Ref<const Eigen::VectorXd>& v) const override;
  /// V = −Σ m_b gᵀ r_b + ½ Σ k (L − L0)² + ½ Σ k_θ (θ_j − θ_i − θ0)² [J] (gravity measured from
  /// the origin). Applied forces, dampers and callbacks have no potential.
  double potentialEnergy(const Eigen::Ref<const Eigen::VectorXd>& q) const override;
  double potentialRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) const override;

  void appliedLoads(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                    Eigen::Ref<Eigen::VectorXd> forces) const override;

  /// Reactions of every joint and driver from the multipliers λ (size m) at (q, t).
  std::vector<JointReaction> reactions(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& lambda) const;

  /// Global position of local point s of body b.
  Eigen::Vector2d pointPosition(const Eigen::Ref<const Eigen::VectorXd>& q, BodyIndex b,
                                const Eigen::Vector2d& s) const;
  /// Global velocity of local point s of body b.
  Eigen::Vector2d pointVelocity(const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v, BodyIndex b,
                                const Eigen::Vector2d& s) const;

 private:
  struct AppliedForce { BodyIndex body; Eigen::Vector2d s; std::function<Eigen::Vector2d(double)> f; };
  struct AppliedTorque { BodyIndex body; std::function<double(double)> tau; };
  struct SpringDamper { BodyIndex i, j; Eigen::Vector2d s_i, s_j; double k, c, rest; };
  struct RotationalSpringDamper { BodyIndex i, j; double k, c, theta0; };
  struct ViscousDamping { BodyIndex body; double c_t, c_r; };

  void checkBody(BodyIndex b, const char* who) const;
  void checkPair(BodyIndex i, BodyIndex j, const char* who) const;
  int addJoint(PlanarJoint joint, Eigen::Index rows);

  std::vector<PlanarBody> bodies_;
  std::vector<PlanarJoint> joints_;
  Eigen::VectorXd mass_, inverse_mass_;
  Eigen::Index rows_ = 0;
  bool sparse_joints_ = true;
  Eigen::Vector2d gravity_ = Eigen::Vector2d::Zero();
  std::vector<AppliedForce> applied_forces_;
  std::vector<AppliedTorque> applied_torques_;
  std::vector<SpringDamper> springs_;
  std::vector<RotationalSpringDamper> rotational_springs_;
  std::vector<ViscousDamping> dampers_;
  std::vector<GeneralizedForce> callbacks_;
};

}  // namespace stickslip::dynamics
