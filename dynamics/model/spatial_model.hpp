#pragma once
/// \file Spatial rigid bodies with Euler parameters, ideal joints, drivers and force elements.
///
/// Body b has q_b = (r_b, p_b): its centroid r (3) and Euler parameters p = (e0, e) (4,
/// ‖p‖ = 1), and v_b = (ṙ_b, ω′_b): the centroid's velocity and the angular velocity in body
/// axes (thesis §2.2; Nikravesh, Computer-Aided Analysis of Mechanical Systems, 1988, ch. 6
/// and 11). With G = [−e, ẽ + e0 I] and L = [−e, −ẽ + e0 I] (3 × 4):
///   A(p) = G Lᵀ = (2e0² − 1) I + 2 (e eᵀ + e0 ẽ),   ω′ = 2 L ṗ,   ṗ = ½ Lᵀ ω′   (q̇ = H(q) v).
/// A point fixed at s′ on body b is at r + A s′; its velocity is ṙ − A s̃′ ω′, its acceleration
/// r̈ − A s̃′ ω̇′ + A ω̃′ ω̃′ s′. The mass matrix is block diagonal and constant, diag(m I₃, J′)
/// per body with J′ the full inertia tensor about the centroid in body axes; the Newton–Euler
/// equations  m r̈ = f,  J′ ω̇′ = n′ − ω̃′ J′ ω′  put the gyroscopic term in Q.
///
/// Unit norm of p: it is not one of the constraints Φ (the velocities ω′ carry no normal
/// component), so nothing in the equations of motion drifts it, only integration error.
/// addToPositions() rotates by the exponential map (p ← p ∘ (cos ½|δ|, sin ½|δ| δ/|δ|),
/// exact for any rotation increment δ, then renormalized), and normalizePositions() projects
/// every p back onto ‖p‖ = 1; the integrators call it after each step (eom_integration.hpp).
///
/// Constraint equations Φ, built from three primitives on a joint between bodies i and j with
/// joint points s′_i, s′_j and body-fixed unit vectors (a the joint axis; f, k ⊥ a):
///   point:  d = r_j + A_j s′_j − r_i − A_i s′_i = 0                              (3 rows)
///   dot-1:  (A_i u′_i)ᵀ (A_j w′_j) = 0, two body-fixed vectors kept perpendicular   (1 row)
///   dot-2:  (A_i u′_i)ᵀ d = 0, the joint point of j kept in the plane ⊥ u_i        (1 row)
/// Joints (rows):
///   spherical     point                                                           (3)
///   revolute      point, dot-1(f_i, a_j), dot-1(k_i, a_j): axes a_i ∥ a_j            (5)
///   universal     point, dot-1(a_i, a_j): the two cross axes stay perpendicular      (4)
///   cylindrical   dot-1(f_i, a_j), dot-1(k_i, a_j), dot-2(f_i, d), dot-2(k_i, d)      (4)
///   translational cylindrical and dot-1(f_i, k_j): no rotation about the axis       (5)
///   fixed         point and dot-1(f_i, a_j), dot-1(k_i, a_j), dot-1(f_i, k_j)          (6)
///   driver        sin θ(t) f_iᵀ g_j − cos θ(t) k_iᵀ g_j = 0 on a revolute's axis: g_j
///                 (⊥ a_j on j) turned by θ(t) from f_i about a_i; Φt, γ carry θ′, θ″   (1)
/// f and k are completed from the axis a as an orthonormal frame (f, k, a) per body
/// (frameFromAxis); for a translational or fixed joint, the frames of i and j are those of
/// the bodies' pose when the joint is added, so that the joint is closed there. The ground is
/// body kGround (r = 0, A = I; its local points are global).
///
/// Sign convention (thesis Eq. 2.44): M v̇ + Dᵀλ = Q, so −Dᵀλ is the constraint force.
/// reactions(): the force and the moment that body j exerts on body i at the joint point
/// P_i = r_i + A_i s′_i, in global components and in the joint frame (f_i, k_i, a_i) of i.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/model/model_system.hpp"
#include "dynamics/model/planar_model.hpp"  // BodyIndex, kGround

namespace stickslip::dynamics {

using Quaternion4 = Eigen::Vector4d;  ///< Euler parameters (e0, e1, e2, e3)

/// ã, the matrix of the cross product: ã x = a × x.
Eigen::Matrix3d skewMatrix(const Eigen::Vector3d& a);
/// A(p) for unit p (the rotation from body to global axes).
Eigen::Matrix3d rotationMatrix(const Eigen::Vector4d& p);
/// Unit Euler parameters of the rotation by `angle` [rad] about the unit `axis`.
Eigen::Vector4d eulerParameters(const Eigen::Vector3d& axis, double angle);
/// Unit Euler parameters of a rotation matrix (Shepperd's method, numerically safe).
Eigen::Vector4d eulerParameters(const Eigen::Matrix3d& a);
/// Unit vectors f, k completing the unit `axis` a to a right-handed orthonormal frame
/// (f, k, a), columns of the returned matrix; f is the unit vector of the coordinate axis
/// least aligned with a, made perpendicular to it.
Eigen::Matrix3d frameFromAxis(const Eigen::Vector3d& axis);

struct SpatialBody {
  std::string name;
  double mass = 0.0;                                  ///< [kg], > 0
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< J′ about the centroid, body axes [kg·m²]
};

enum class SpatialJointType {
  kSpherical,
  kRevolute,
  kUniversal,
  kCylindrical,
  kTranslational,
  kFixed,
  kDriver
};

/// Description of one joint or driver (see the file comment for its equations).
struct SpatialJoint {
  SpatialJointType type = SpatialJointType::kSpherical;
  std::string name;
  BodyIndex body_i = kGround, body_j = kGround;
  Eigen::Vector3d s_i = Eigen::Vector3d::Zero();  ///< joint point on i, body axes of i [m]
  Eigen::Vector3d s_j = Eigen::Vector3d::Zero();  ///< joint point on j, body axes of j [m]
  /// Joint frames (f, k, a) in body axes of i and of j, as columns; a is the joint axis (for a
  /// universal joint a_i and a_j are its two cross axes).
  Eigen::Matrix3d frame_i = Eigen::Matrix3d::Identity(), frame_j = Eigen::Matrix3d::Identity();
  std::function<double(double)> angle, angle_rate, angle_acceleration;  ///< driver: θ(t), θ′, θ″
  Eigen::Index row = 0;                                                 ///< first row in Φ
  Eigen::Index rows = 0;                                                ///< number of rows
};

/// Reaction of one joint on body i at its joint point (see the file comment).
struct SpatialJointReaction {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();         ///< global components [N]
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();        ///< about P_i, global [N·m]
  Eigen::Vector3d force_local = Eigen::Vector3d::Zero();   ///< along (f_i, k_i, a_i)
  Eigen::Vector3d moment_local = Eigen::Vector3d::Zero();  ///< along (f_i, k_i, a_i)
};

class SpatialModel final : public MultibodySystem {
 public:
  /// Adds a body; returns its index. Throws std::invalid_argument unless mass > 0 and the
  /// inertia tensor is symmetric positive definite and satisfies the triangle inequalities
  /// of principal moments (J1 + J2 ≥ J3 and permutations, to 1e-12 relative).
  BodyIndex addBody(std::string name, double mass, const Eigen::Matrix3d& inertia);

  /// Joint builders return the joint index. Bodies must exist (or be kGround) and differ;
  /// axes must have nonzero length (they are normalized). Points and axes are in body axes
  /// of their body; `q` is the pose from which a translational or fixed joint takes its
  /// relative orientation.
  int addSpherical(BodyIndex i, const Eigen::Vector3d& s_i, BodyIndex j, const Eigen::Vector3d& s_j,
                   std::string name = "spherical");
  int addRevolute(BodyIndex i, const Eigen::Vector3d& s_i, const Eigen::Vector3d& axis_i,
                  BodyIndex j, const Eigen::Vector3d& s_j, const Eigen::Vector3d& axis_j,
                  std::string name = "revolute");
  /// Cross axes axis_i on i and axis_j on j (kinematic assembly makes them perpendicular).
  int addUniversal(BodyIndex i, const Eigen::Vector3d& s_i, const Eigen::Vector3d& axis_i,
                   BodyIndex j, const Eigen::Vector3d& s_j, const Eigen::Vector3d& axis_j,
                   std::string name = "universal");
  int addCylindrical(BodyIndex i, const Eigen::Vector3d& s_i, const Eigen::Vector3d& axis_i,
                     BodyIndex j, const Eigen::Vector3d& s_j, const Eigen::Vector3d& axis_j,
                     std::string name = "cylindrical");
  int addTranslational(BodyIndex i, const Eigen::Vector3d& s_i, const Eigen::Vector3d& axis_i,
                       BodyIndex j, const Eigen::Vector3d& s_j,
                       const Eigen::Ref<const Eigen::VectorXd>& q,
                       std::string name = "translational");
  int addFixed(BodyIndex i, const Eigen::Vector3d& s_i, BodyIndex j, const Eigen::Vector3d& s_j,
               const Eigen::Ref<const Eigen::VectorXd>& q, std::string name = "fixed");
  /// θ(t) of body j about the axis of revolute joint `revolute` (added before), measured from
  /// the pose q (θ = 0 there); its multiplier is the driving torque.
  int addDriver(int revolute, const Eigen::Ref<const Eigen::VectorXd>& q,
                std::function<double(double)> angle, std::function<double(double)> angle_rate,
                std::function<double(double)> angle_acceleration, std::string name = "driver");

  /// Uniform gravity g [m/s²] on every body.
  void setGravity(const Eigen::Vector3d& g);
  /// Force f(t) (global components [N]) at local point s of body b.
  void addAppliedForce(BodyIndex b, const Eigen::Vector3d& s,
                       std::function<Eigen::Vector3d(double)> force);
  /// Torque n(t) (global components [N·m]) on body b.
  void addAppliedTorque(BodyIndex b, std::function<Eigen::Vector3d(double)> torque);
  /// Linear spring–damper between P_i and P_j: tension k (L − L0) + c L̇ pulls them together.
  void addSpringDamper(BodyIndex i, const Eigen::Vector3d& s_i, BodyIndex j,
                       const Eigen::Vector3d& s_j, double k, double c, double rest_length);
  /// Any other generalized force (contacts, joint friction); called last in generalizedForces().
  void addGeneralizedForce(GeneralizedForce force);

  int bodyCount() const { return static_cast<int>(bodies_.size()); }
  const SpatialBody& body(BodyIndex b) const { return bodies_.at(static_cast<std::size_t>(b)); }
  const std::vector<SpatialJoint>& joints() const { return joints_; }
  /// Index in q of body b's r (0–2) and p (3–6); in v of its ṙ (0–2) and ω′ (3–5).
  static Eigen::Index positionIndex(BodyIndex b, int which) { return 7 * b + which; }
  static Eigen::Index velocityIndex(BodyIndex b, int which) { return 6 * b + which; }

  Eigen::Index positionSize() const override { return 7 * bodyCount(); }
  Eigen::Index velocitySize() const override { return 6 * bodyCount(); }
  Eigen::Index constraintCount() const override { return rows_; }
  void applyMass(Eigen::Ref<Eigen::MatrixXd> x) const override;
  void applyInverseMass(Eigen::Ref<Eigen::MatrixXd> x) const override;
  double potentialEnergy(const Eigen::Ref<const Eigen::VectorXd>& q) const override;
  double potentialRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) const override;
  void constraints(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                   Eigen::Ref<Eigen::VectorXd> phi) const override;
  void jacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                Eigen::Ref<Eigen::MatrixXd> jac) const override;
  /// Each joint row spans its bodies' velocities (M is block diagonal by body).
  std::vector<std::pair<Eigen::Index, Eigen::Index>> jointRowSpans() const override;
  /// One pass over the joints for both (each joint's evaluation gives its value and its rows).
  void constraintsAndJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                              Eigen::Ref<Eigen::VectorXd> phi, Eigen::Ref<Eigen::MatrixXd> jac) const override;
  /// One pass for the three.
  void constraintsJacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                   const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> phi,
                                   Eigen::Ref<Eigen::MatrixXd> jac, Eigen::Ref<Eigen::VectorXd> gam) const override;
  /// One pass for the two.
  void jacobianAndGamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::MatrixXd> jac,
                        Eigen::Ref<Eigen::VectorXd> gam) const override;
  void constraintTimeDerivative(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                Eigen::Ref<Eigen::VectorXd> phi_t) const override;
  void gamma(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
             const Eigen::Ref<const Eigen::VectorXd>& v,
             Eigen::Ref<Eigen::VectorXd> gam) const override;
  void generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                         const Eigen::Ref<const Eigen::VectorXd>& v,
                         Eigen::Ref<Eigen::VectorXd> forces) const override;
  void appliedLoads(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                    Eigen::Ref<Eigen::VectorXd> forces) const override;
  void positionRate(const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v,
                    Eigen::Ref<Eigen::VectorXd> qdot) const override;
  void addToPositions(const Eigen::Ref<const Eigen::VectorXd>& delta,
                      Eigen::Ref<Eigen::VectorXd> q) const override;
  void normalizePositions(Eigen::Ref<Eigen::VectorXd> q) const override;
  /// "B.x", "B.y", "B.z", "B.e0" … "B.e3"; "B.vx" … "B.vz", "B.wx" … "B.wz" (body axes);
  /// "B.ax" … "B.az", "B.alphax" … "B.alphaz".
  std::string positionName(Eigen::Index i) const override;
  std::string velocityName(Eigen::Index i) const override;
  std::string accelerationName(Eigen::Index i) const override;
  std::string constraintRowName(Eigen::Index row) const override;
  std::string multiplierName(Eigen::Index row) const override;

  /// Angular momentum about the origin, global components: Σ m r × ṙ + A J′ ω′ [kg·m²/s].
  Eigen::Vector3d angularMomentum(const Eigen::Ref<const Eigen::VectorXd>& q,
                                  const Eigen::Ref<const Eigen::VectorXd>& v) const;
  /// Reactions of every joint from the multipliers λ (size m) at (q, t).
  std::vector<SpatialJointReaction> reactions(
      double t, const Eigen::Ref<const Eigen::VectorXd>& q,
      const Eigen::Ref<const Eigen::VectorXd>& lambda) const;
  /// A of body b at q (the identity for the ground).
  Eigen::Matrix3d rotation(const Eigen::Ref<const Eigen::VectorXd>& q, BodyIndex b) const;
  /// Global position and velocity of local point s of body b.
  Eigen::Vector3d pointPosition(const Eigen::Ref<const Eigen::VectorXd>& q, BodyIndex b,
                                const Eigen::Vector3d& s) const;
  Eigen::Vector3d pointVelocity(const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v, BodyIndex b,
                                const Eigen::Vector3d& s) const;

 private:
  struct AppliedForce {
    BodyIndex body;
    Eigen::Vector3d s;
    std::function<Eigen::Vector3d(double)> f;
  };
  struct AppliedTorque {
    BodyIndex body;
    std::function<Eigen::Vector3d(double)> n;
  };
  struct SpringDamper {
    BodyIndex i, j;
    Eigen::Vector3d s_i, s_j;
    double k, c, rest;
  };

  /// Adds the applied forces' and torques' generalized forces to `forces`.
  void addAppliedLoads(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> forces) const;
  void checkBody(BodyIndex b, const char* who) const;
  void checkPair(BodyIndex i, BodyIndex j, const char* who) const;
  int addJoint(SpatialJoint joint, Eigen::Index rows);
  /// A joint with an axis on each body (revolute, universal, cylindrical, translational).
  int addAxisJoint(SpatialJointType type, BodyIndex i, const Eigen::Vector3d& s_i,
                   const Eigen::Vector3d& axis_i, BodyIndex j, const Eigen::Vector3d& s_j,
                   const Eigen::Vector3d& axis_j, std::string name, const char* who);
  /// One joint's rows of Φ, Φt, and of Φq H for body i and for body j (6 columns each: ṙ,
  /// ω′); of γ when v is given (null: at rest).
  struct JointRows {
    Eigen::Matrix<double, 6, 6> d_i, d_j;
    Eigen::Matrix<double, 6, 1> phi, gamma, phi_t;
  };
  void evaluateJoint(const SpatialJoint& jt, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>* v, JointRows& rows) const;
  /// Every joint evaluated once: D into `jac`, and Φ and γ (v given) where asked for.
  void evaluateJoints(double t, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>* v,
                      Eigen::Ref<Eigen::VectorXd>* phi, Eigen::Ref<Eigen::MatrixXd> jac,
                      Eigen::Ref<Eigen::VectorXd>* gam) const;

  std::vector<SpatialBody> bodies_;
  std::vector<double> mass_, inverse_mass_;                // per body, for applyMass()
  std::vector<Eigen::Matrix3d> inertia_, inverse_inertia_;
  std::vector<SpatialJoint> joints_;
  Eigen::Index rows_ = 0;
  Eigen::Vector3d gravity_ = Eigen::Vector3d::Zero();
  std::vector<AppliedForce> applied_forces_;
  std::vector<AppliedTorque> applied_torques_;
  std::vector<SpringDamper> springs_;
  std::vector<GeneralizedForce> callbacks_;
};

}  // namespace stickslip::dynamics
