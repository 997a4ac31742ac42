#pragma once
/// \file Rigid (nonsmooth) contacts of a PlanarModel: the kinematics both nonsmooth
/// formulations (event-driven, Moreau–Jean) need, with set-valued Coulomb friction.
///
/// A contact is a disk of radius ρ ≥ 0 (ρ = 0: a point) centred at a point C of body i
/// against a straight line of body j (either may be the ground), described by a
/// PointLineContact (point_line.hpp) for C and the line, with its unit normal n pointing to
/// the free side. The contact's tangent is t = (n_y, −n_x), n turned by −90° (for a floor,
/// n = +y and t = +x). The disk's material contact point is C − ρ n, so with ω the angular
/// velocities
///   gap                 g   = nᵀ(C − Q) − ρ
///   sliding velocity    v_t = tᵀ(v_i(P) − v_j(P)) − v_s(t),  P = C − ρ n,
/// where v_k(P) is the velocity of body k's material point at P and v_s(t) the speed of the
/// line's surface along t (a belt; 0 for a rigid line). (For a disk rolling to the right on a
/// floor, ẋ > 0 and ω < 0: v_t = ẋ + ρ ω = 0.) Rows over the model's velocities v (size nv):
///   ġ = J_n v,   v_t = J_t v − v_s(t),
///   g̈ = J_n v̇ + b_n,   v̇_t = J_t v̇ + b_t  (b = J̇ v − (0, v̇_s), the velocity-product terms).
/// A journal-bearing contact (kJournalBearing) is a revolute clearance joint: a journal on
/// body i in a bearing on body j (journal_bearing.hpp), gap g = c − |e|, n from the bearing
/// centre towards the journal, t = n turned by +90°, v_t the relative velocity of the two
/// material contact points along t (radius and surface speed unused). Its rows, ġ = J_n v and
/// v_t = J_t v, and b come from journalBearingKinematics.
/// Force law (generalized force J_nᵀ N + J_tᵀ F; N ≥ 0 pushes the bodies apart):
///  - kUnilateral: g ≥ 0, N ≥ 0, N g = 0; impacts with Newton's law ġ⁺ = −e ġ⁻.
///  - kBilateral: g = 0 always (the normal direction of an ideal prismatic joint or
///    point-on-line joint that the model does not already contain), N of either sign.
///  - kCompliant: N = F(δ, δ̇; δ̇⁻) ≥ 0 from a compliant normal law (normal_law.hpp) with
///    δ = −g, δ̇⁻ = `impact_velocity`: a known function of the state, as in Zheng et al.'s
///    "permanent contact" mode; only the friction is set-valued.
///  - Coulomb friction with static and kinetic coefficients: v_t ≠ 0 ⇒ F = −μk |N| sign(v_t);
///    v_t = 0 ⇒ |F| ≤ μs |N|.
///  - Or, on a kCompliant contact only, a static law of the friction catalogue
///    (`smooth_friction`, e.g. Ambrósio's modified Coulomb `ambrosio`): F = F(v_t, N), a known
///    force like N, with no stick or slip modes (μs = μk = 0 then).

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dynamics/contact/journal_bearing.hpp"
#include "dynamics/contact/normal_law.hpp"
#include "dynamics/contact/point_line.hpp"
#include "dynamics/friction/joint_friction.hpp"
#include "dynamics/contact/revolute_friction.hpp"
#include "dynamics/model/planar_model.hpp"

namespace stickslip::dynamics {

// dynamics/friction/friction_law.hpp, not included: benchmarks/peer_flores.cpp is C++17.
class FrictionLaw;

struct RigidContact {
  enum class Normal { kUnilateral, kBilateral, kCompliant };
  /// kSpatialClearance: one of the four candidates of a spatial revolute clearance joint
  /// (contact/spatial_clearance.hpp), whose kinematics its SpatialMechanism computes.
  /// kSpatialPlane: a sphere or point on a plane (contact/sphere_plane.hpp), likewise.
  enum class Shape { kDiskLine, kJournalBearing, kSpatialClearance, kSpatialPlane };

  std::string name = "contact";
  Normal normal = Normal::kUnilateral;
  Shape shape = Shape::kDiskLine;
  BodyIndex body_i = kGround;  ///< the disk's (or point's, or journal's) body
  BodyIndex body_j = kGround;  ///< the line's (or bearing's) body
  PointLineContact geometry;   ///< kDiskLine: C on body i, the line on body j
  JournalBearingJoint journal_bearing;  ///< kJournalBearing
  /// kCompliant: its normal law (required). Other kinds: the law the penalty route makes the
  /// contact compliant with; unset, penalty_route.hpp's default for its data.
  std::optional<NormalLaw> compliant_law;
  double impact_velocity = 1.0;          ///< δ̇⁻ of the compliant law's hysteresis [m/s], > 0
  /// kCompliant: Newton's e with which a route of rigid contacts only (Moreau–Jean) takes it
  /// as unilateral; unset: such a route refuses it.
  std::optional<double> rigid_restitution;
  /// kCompliant only: regularized friction instead of set-valued Coulomb (static laws only).
  std::shared_ptr<const FrictionLaw> smooth_friction;
  double radius = 0.0;         ///< ρ [m], ≥ 0
  double mu_static = 0.0;      ///< μs ≥ μk
  double mu_kinetic = 0.0;     ///< μk ≥ 0
  double restitution = 0.0;    ///< Newton's e ∈ [0, 1] (unilateral contacts)
  /// kJournalBearing: the initial state puts it carrying the mechanism's static load
  /// (dynamics/mechanism/clearance_preload.hpp).
  bool preloaded = false;
  /// kJournalBearing only (validate), the penalty route only: its friction law reads the centres' relative
  /// velocity tᵀė (JournalBearingKinematics::centres_sliding_velocity), as Muvengei et al.
  /// define v_T, instead of the surfaces' slip v_t; the force still acts at the contact points.
  /// Not energy-consistent (the force's power is Fₜ v_t, its direction follows tᵀė): offered to
  /// reproduce that paper, off by default.
  bool centres_slip = false;
  /// Surface speed v_s(t) of the line along its tangent and its rate [m/s, m/s²]; empty: 0.
  std::function<double(double)> surface_speed, surface_acceleration;

  /// Throws std::invalid_argument("<name>: expected …, got …") for invalid data or bodies
  /// that do not exist in `model`.
  void validate(const PlanarModel& model) const;
  /// Set-valued Coulomb friction (stick and slip modes); false for smooth_friction.
  bool frictional() const { return mu_static > 0.0 || mu_kinetic > 0.0; }
  /// A contact of a spatial mechanism (three rows: n, t, b), whose kinematics it computes.
  bool spatial() const { return shape == Shape::kSpatialClearance || shape == Shape::kSpatialPlane; }
};

/// A model with its rigid contacts, friction in its revolute joints, and a consistent initial
/// state (q0, v0). Simulations keep references to `model`: do not move a scenario while one
/// runs.
struct RigidScenario {
  std::string name;
  PlanarModel model;
  std::vector<RigidContact> contacts;
  std::vector<RevoluteFriction> joint_friction;
  Eigen::VectorXd q0, v0;
  /// The coordinates (velocity indices) whose initial position and velocity are given, the
  /// others being assembled to them (dynamics/model/model_assembly.hpp).
  std::vector<Eigen::Index> initial_held;
  /// Baumgarte's terms [1/s] of the joints' acceleration equations in the routes that solve
  /// them at acceleration level (event-driven, penalty), as the mechanism's source states them;
  /// 0 and 0: plain Lagrange multipliers.
  double baumgarte_alpha = 10.0, baumgarte_beta = 10.0;
  /// The constants it was built from, by name (a model file's model.parameters, evaluated):
  /// what a built-in's references read.
  std::vector<std::pair<std::string, double>> parameters;
  /// How a drawing shows each body (a model file's `shape`), in its frame; empty, or a body's
  /// empty entry: drawn from its attachment points (cli/animation.hpp). No dynamic role.
  struct BodyShape {
    std::vector<Eigen::Vector2d> outline;  ///< a polygon (≥ 3 vertices), or none
    double radius = 0.0;                   ///< > 0: a disk about the centroid
  };
  std::vector<BodyShape> shapes;
};

/// The history columns every route starts with (run_result.hpp): t, the model's positions and
/// velocities, each contact's "C.N", "C.F", each joint friction's "J.reaction", "J.F".
std::vector<std::string> historyColumns(const MultibodySystem& model, const std::vector<RigidContact>& contacts,
                                        const std::vector<JointFriction>& joint_friction);

/// Kinematics of every contact at (t, q, v); sized once by resize(), then refilled.
/// The contacts' Jacobian, stored by rows (ContactKinematics::jacobian).
using ContactJacobian = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct ContactKinematics {
  Eigen::VectorXd gap, normal_velocity, sliding_velocity;  ///< g, ġ, v_t (size nc)
  Eigen::VectorXd normal_drift, tangential_drift;          ///< b_n, b_t (size nc)
  /// A journal-bearing contact's tᵀė, the centres' relative velocity along the tangent
  /// (JournalBearingKinematics::centres_sliding_velocity); NaN for the other contacts.
  Eigen::VectorXd centres_sliding_velocity;
  /// Rows 2k (J_n of contact k) and 2k + 1 (J_t), 2 nc × nv, stored by rows: a contact's
  /// rows hold its two bodies' coordinates only, a pattern fixed by resize(), so memory and
  /// every product grow with the contacts, not with contacts × coordinates.
  ContactJacobian jacobian;
  /// Row k: a spatial contact's second tangent row, J_b v = bᵀ v_rel with b = n × t, so that
  /// (t, b) spans its tangent plane (spatial_mechanism.hpp); empty for a planar contact.
  ContactJacobian second_tangent;
  /// A spatial contact's drift of its second tangent row, b_b (size nc; NaN for a planar one).
  Eigen::VectorXd second_drift;
  /// A spatial contact's world normal n, sliding direction t and second tangent b = n × t, the
  /// directions of its three rows (columns 0–2): for event-driven's tangent forces and a friction
  /// law with a vector state in its tangent plane (tangent_plane_friction.hpp); NaN for a planar
  /// contact.
  std::vector<Eigen::Matrix3d> frame;
  std::vector<Eigen::Vector2d> normal, point;  ///< world normal n and contact point per contact
  /// Per body (index + 1, 0: the ground): its state, and whether this evaluation computed it.
  std::vector<PlanarBodyState> bodies;
  std::vector<char> body_ready;

  /// Sizes everything for `contacts` and builds the Jacobian's pattern from their bodies, each
  /// with `body_velocities` coordinates (3 planar: ẋ, ẏ, θ̇; 6 spatial: ṙ, ω′), body b's from
  /// b · body_velocities.
  void resize(const std::vector<RigidContact>& contacts, Eigen::Index velocities, Eigen::Index body_velocities = 3);
};

/// The sliding velocity contact `c` (number k of `kin`) shows its friction law [m/s]: its v_t,
/// or the centres' tᵀė for a journal-bearing contact with centres_slip.
inline double frictionLawVelocity(const RigidContact& c, const ContactKinematics& kin, Eigen::Index k) {
  return c.centres_slip ? kin.centres_sliding_velocity(k) : kin.sliding_velocity(k);
}

/// Fills `out` (resized if needed) for every contact, which must have passed
/// RigidContact::validate (not repeated here: this runs every time step). Allocates nothing
/// once sized; each body's sine and cosine are computed once. With
/// drift = false the drift terms b_n, b_t of point–line contacts are not computed (NaN).
void evaluateContacts(const PlanarModel& model, const std::vector<RigidContact>& contacts,
                      double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                      bool drift = true);

/// Adds to `model` the point-on-line joint that keeps the bilateral disk–line contact `c`
/// closed (g = 0): the line of body j moved out by ρ along its normal, through which the disk's
/// centre on body i stays. Returns the joint's index. Throws std::invalid_argument for another
/// kind of contact.
int addClosingJoint(PlanarModel& model, const RigidContact& c);

/// `model` with the closing joint of every bilateral disk–line contact of `contacts`: the
/// constraints an initial state must close.
PlanarModel withClosingJoints(const PlanarModel& model, const std::vector<RigidContact>& contacts);

}  // namespace stickslip::dynamics
