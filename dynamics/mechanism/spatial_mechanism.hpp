#pragma once
/// \file A spatial mechanism as the routes see it (mechanism.hpp): a SpatialModel and the
/// Coulomb friction of its ideal joints. Event-driven, Moreau–Jean and the penalty route take it
/// through the same calls as a planar mechanism.
///
/// Friction in a joint with multipliers λ (its rows in SpatialModel's order):
///  - revolute, pin radius r: the torque about the axis T = −sign(ṡ) μk r |R| while it turns,
///    |T| ≤ μs r |R| while it sticks; ṡ = a′_jᵀ ω′_j − a′_iᵀ ω′_i the relative spin (exact on the
///    constraint manifold, where a_i = a_j), |R| = ‖(λ1, λ2, λ3)‖ the resultant of the radial and
///    axial force (the point rows' multipliers are its global components). The pin's bending
///    moment adds no load.
///  - translational, slider length ℓ along the axis: the force F = −sign(ṡ) μk L along the axis
///    while it slides, |F| ≤ μs L while it sticks; ṡ = a_iᵀ ḋ the sliding velocity. The load L
///    counts the moment couples of a finite slider: a transverse moment M about the slider's
///    centre (its joint point s′_j) is carried by two opposite wall forces ∓(1/ℓ) a × M at its
///    ends, so with N the transverse force the ends carry F₁,₂ = ½ N ± (1/ℓ) a × M and
///      L = ‖F₁‖ + ‖F₂‖ = ½ ‖n − (2/ℓ) m‖ + ½ ‖n + (2/ℓ) m‖,
///    n = (λ3, λ4) and m = (λ1, λ2) the components of N and of a × M along (f_i, k_i), up to
///    sign (the dot-2 rows' multipliers are the transverse force, the first two dot-1 rows' the
///    transverse moment; L = ‖n‖ when M = 0, and ℓ = 0 means a point slider, L = ‖n‖). Torsion
///    about the axis adds no load. The
///    guide must be the ground (either side), so that the sliding direction is fixed.
/// Both rows are constant on the constraint manifold (rotation about body axes is locked where
/// the row would turn), so they are computed once, from the pose given to the constructor.
/// The routes take μ times the lever (JointFriction::lever: r, or 1 for a slider's force) and
/// |R| or L from jointFrictionReaction().
///
/// Clearance joints (SpatialClearance): a journal on one body in a bearing on another, joined by
/// no joint of the model but by four compliant contacts, the candidates of
/// contact/spatial_clearance.hpp, named "<name>.radial-A", "…radial-B", "…axial-A", "…axial-B"
/// (body_i the journal's, body_j the bearing's). Their kinematics (ContactKinematics, 6 columns
/// per body): g = −δ, ġ = −nᵀ v_rel, J_n = −(the row of nᵀ v_rel); the sliding speed
/// v_t = ‖v_T‖ ≥ 0 and J_t the row of tᵀ v_rel with t = v_T/‖v_T‖ the sliding direction (a fixed
/// direction ⊥ n when v_T = 0), so that a friction force Fₜ = law(v_t, Fₙ) ≤ 0 acts against the
/// sliding, Fₜ t on the journal (thesis eqs. 4.42–4.45). The second tangent row
/// (ContactKinematics::second_tangent) is that of bᵀ v_rel, b = n × t: with J_n and J_t the three
/// rows of Moreau–Jean's and event-driven's spatial contact problems, and with the world n, t, b
/// (ContactKinematics::frame) what the penalty route's laws with a vector state in the tangent
/// plane read (Dahl, LuGre: tangent_plane_friction.hpp). The drift terms b = (d/dt J(q)) v, for
/// event-driven's acceleration rows g̈ = J_n v̇ + b_n: the rows' rate along the bodies' present
/// motion (ṙ, ω′ held: poses r ± τ ṙ, A exp(±τ [ω′]×)) by a central difference, the normal's
/// turning included (g is the farthest point's, so ġ = J_n v holds exactly and
/// g̈ = J_n v̇ + b_n); b_t and b_b (ContactKinematics::second_drift) are those of the rows along
/// the present t and b held fixed. τ moves the joint's fastest point by 1e-5 R_J: the truncation
/// error is ~1e-10 of b and the round-off ~1e-11 (a test compares b_n with the second
/// difference of the gap along a rigid motion).
///
/// Contacts of a sphere or point on a plane (SpatialPlaneContact, contact/sphere_plane.hpp): one
/// contact each, after the clearance joints' candidates, with the same rows and drift terms (τ
/// moves the fastest point by 1e-5 of the length max(ρ, ‖C′‖, 1 mm)); unilateral rigid with
/// Newton's e for event-driven and Moreau–Jean, made compliant by the penalty route (its law, or
/// the route's default), with Coulomb friction on the round cone.

#include <optional>
#include <string>
#include <vector>

#include "dynamics/contact/normal_law.hpp"
#include "dynamics/contact/spatial_clearance.hpp"
#include "dynamics/contact/sphere_plane.hpp"
#include "dynamics/model/forwarded_system.hpp"
#include "dynamics/mechanism/mechanism.hpp"
#include "dynamics/model/spatial_model.hpp"

namespace stickslip::dynamics {

struct SpatialJointFriction {
  std::string name = "joint friction";
  int joint = 0;               ///< a revolute or translational joint of the model
  double mu_static = 0.0;      ///< μs ≥ μk
  double mu_kinetic = 0.0;     ///< μk ≥ 0
  double radius = 0.0;         ///< revolute: the pin radius r [m], > 0
  double slider_length = 0.0;  ///< translational: ℓ [m] ≥ 0 (0: a point slider)
};

/// Body b's pose at q as the contact geometry reads it (the ground: r = 0, A = I).
SpatialPose bodyPose(const SpatialModel& model, const Eigen::Ref<const Eigen::VectorXd>& q, BodyIndex b);

/// A spatial revolute clearance joint (see the file comment).
struct SpatialClearance {
  std::string name = "clearance";
  BodyIndex journal_body = kGround, bearing_body = kGround;  ///< different bodies (or the ground)
  SpatialClearanceJoint joint;                              ///< centres and axes in their bodies' axes
  NormalLaw law;                                            ///< every candidate's compliant law
  double mu_static = 0.0, mu_kinetic = 0.0;                 ///< Coulomb friction, μs ≥ μk ≥ 0
  /// Newton's e ∈ [0, 1] with which the routes of rigid contacts take the joint; unset: they
  /// cannot. `rigid`: the candidates are unilateral rigid contacts with it (Moreau–Jean), else
  /// compliant with `law` (penalty).
  std::optional<double> rigid_restitution;
  bool rigid = false;
};

/// A sphere or point of body i on a plane of body j (see the file comment).
struct SpatialPlaneContact {
  std::string name = "contact";
  BodyIndex body_i = kGround, body_j = kGround;  ///< the sphere's and the plane's bodies, different
  SpherePlane geometry;
  double restitution = 0.0;                  ///< Newton's e ∈ [0, 1]
  double mu_static = 0.0, mu_kinetic = 0.0;  ///< Coulomb friction, μs ≥ μk ≥ 0
  /// Its compliant law (the penalty route's).
  std::optional<NormalLaw> law;
  /// true: a unilateral rigid contact (event-driven, Moreau–Jean); false: compliant with `law`
  /// (required then).
  bool rigid = true;
};

class SpatialMechanism final : public ForwardedSystem<Mechanism> {
 public:
  /// Keeps a reference to `model` (it must outlive this). `q` is a pose on the constraint
  /// manifold (the assembled initial state). Throws std::invalid_argument naming the friction
  /// for a joint that is not revolute or translational, a translational joint between two
  /// moving bodies, or coefficients or lengths out of range; naming the clearance joint for
  /// bodies that do not exist or coincide, an invalid geometry or law, or friction out of range;
  /// naming the plane contact for the same faults and a restitution outside [0, 1].
  SpatialMechanism(const SpatialModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                   std::vector<SpatialJointFriction> friction = {},
                   std::vector<SpatialClearance> clearances = {},
                   std::vector<SpatialPlaneContact> planes = {});

  const SpatialModel& model() const { return model_; }
  const std::vector<SpatialJointFriction>& friction() const { return friction_; }
  const std::vector<SpatialClearance>& clearances() const { return clearances_; }
  const std::vector<SpatialPlaneContact>& planes() const { return planes_; }

  const std::vector<RigidContact>& contacts() const override { return contacts_; }
  const std::vector<JointFriction>& jointFriction() const override { return levers_; }
  void resizeContacts(ContactKinematics& out) const override { out.resize(contacts_, velocitySize(), 6); }
  void evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                        bool drift = true) const override;
  double jointFrictionRate(std::size_t e,
                           const Eigen::Ref<const Eigen::VectorXd>& v) const override;
  double jointFrictionReaction(
      std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda,
      const Eigen::Ref<const Eigen::VectorXd>& contact_forces) const override;
  void addJointFrictionRow(std::size_t e, double s, Eigen::Ref<Eigen::VectorXd> row) const override;
  std::vector<JointLoadTerm> jointFrictionLoad(std::size_t e) const override;

 private:
  // One contact's entries in `out` (index k) from its candidate at the poses now, and ahead and
  // behind by ±τ along the bodies' motion for the drift terms (tau = 0: none).
  struct Candidate {
    SpatialClearanceContact contact;
    SpatialPose i, j;
  };
  void writeContact(Eigen::Index k, BodyIndex bi, BodyIndex bj, const Candidate& now, const Candidate& ahead,
                    const Candidate& behind, double tau, const Eigen::Matrix<double, 12, 1>& velocities, bool drift,
                    ContactKinematics& out) const;

  const SpatialModel& model_;
  std::vector<SpatialJointFriction> friction_;
  std::vector<JointFriction> levers_;     ///< name, μs, μk and the lever, as the routes read them
  Eigen::MatrixXd rows_;                  ///< ṡ = rows_.row(e) v
  std::vector<SpatialClearance> clearances_;
  std::vector<SpatialPlaneContact> planes_;
  std::vector<RigidContact> contacts_;    ///< four per clearance joint, then one per plane contact
};

}  // namespace stickslip::dynamics
