#pragma once
/// \file Revolute clearance joint: a journal (radius R_J) fixed in body i inside a bearing
/// (radius R_B > R_J) fixed in body j, planar bodies in absolute coordinates
/// q_k = (x_k, y_k, θ_k) [review §5, eqs. 18–25; Muvengei §III-A, eqs. 8–17; thesis §4.2].
///
/// With r_J = R_i + A_i s′_J and r_B = R_j + A_j s′_B the two centres:
///   radial clearance  c = R_B − R_J > 0                            (review eq. 18)
///   eccentricity      e = r_J − r_B,  |e| = √(eᵀe)                  (review eqs. 19, 21)
///   penetration       δ = |e| − c  (> 0: in contact), gap g = −δ    (review eq. 22)
///   normal            n = e/|e|, from the bearing centre towards the journal (eq. 20),
///                     tangent t = S n (n turned by +90°, review after eq. 24)
///   contact points    C_J = r_J + R_J n on the journal, C_B = r_B + R_B n on the bearing
///                     (Muvengei eqs. 11–12); C_J − C_B = δ n
///   velocities        of the material points at C_J and C_B (review eq. 24),
///                     ṙ_C = Ṙ_k + θ̇_k S (r_C − R_k); with v = ṙ_{C_J} − ṙ_{C_B}:
///                     δ̇ = nᵀ v = nᵀ ė  (review eq. 23),  v_t = tᵀ v = tᵀ ė + R_J θ̇_i − R_B θ̇_j
///                     (review eq. 25 and Muvengei eq. 17, with the journal first).
/// Jacobian rows, q = (q_i, q_j), ρ_J = r_J − R_i, ρ_B = r_B − R_j:
///   J_n = ∂g/∂q = −∂δ/∂q = [−nᵀ, −ρ_J × n, nᵀ, ρ_B × n]
///   J_t = [tᵀ, ρ_J × t + R_J, −tᵀ, −ρ_B × t − R_B]
/// so ġ = −δ̇ = J_n q̇ and v_t = J_t q̇. The contact force on the journal at C_J is
/// f = −Fₙ n + Fₜ t (the bearing pushes the journal back towards its centre when Fₙ ≥ 0),
/// with −f on the bearing at C_B; its generalized forces are Jᵀ (Fₙ, Fₜ) (virtual power
/// fᵀ v = −Fₙ δ̇ + Fₜ v_t). This is the same convention as the point-line contact: row 0 is
/// the gradient of a gap, and Fₙ ≥ 0 pushes the bodies apart.
/// For acceleration-level formulations (Zheng et al. eqs. 36–46, Baumgarte) the kinematics
/// also give J̇ q̇, so that g̈ = −δ̈ = J_n q̈ + (J̇ q̇)₀ and v̇_t = J_t q̈ + (J̇ q̇)₁; n turns with
/// ṅ = (tᵀė/|e|) t.
///
/// Centred journal, |e| → 0: n is undefined (and ∂|e|/∂q is not differentiable). When
/// |e| ≤ 1e-12 c (far below any physical eccentricity and above round-off of the centre
/// positions in a metre-scale mechanism) n is taken as the bearing body's x-axis A_j (1, 0).
/// Then δ = −c < 0, so no normal law produces a force, and every output stays finite; the
/// rows are those of the chosen n.

#include <Eigen/Core>
#include <string_view>

namespace stickslip::dynamics {

/// The fixed description of a revolute clearance joint.
struct JournalBearingJoint {
  Eigen::Vector2d journal_centre_on_i = Eigen::Vector2d::Zero();  ///< s′_J [m], in body i
  Eigen::Vector2d bearing_centre_on_j = Eigen::Vector2d::Zero();  ///< s′_B [m], in body j
  double journal_radius = 0.0;                                    ///< R_J [m], > 0
  double bearing_radius = 0.0;                                    ///< R_B [m], > R_J

  double clearance() const { return bearing_radius - journal_radius; }  ///< c = R_B − R_J [m]
  /// Throws std::invalid_argument for a non-finite entry, R_J ≤ 0 or R_B ≤ R_J.
  void validate(std::string_view who = "dynamics::JournalBearingJoint") const;
};

/// Geometry, velocities and Jacobian of a JournalBearingJoint at (q, q̇).
struct JournalBearingKinematics {
  Eigen::Vector2d eccentricity = Eigen::Vector2d::Zero();  ///< e = r_J − r_B [m]
  double eccentricity_norm = 0.0;                          ///< |e| [m]
  double penetration = 0.0;  ///< δ = |e| − c [m]: > 0 in contact, ≥ −c
  double penetration_rate = 0.0;  ///< δ̇ = nᵀ(ṙ_{C_J} − ṙ_{C_B}) [m/s]: normal relative velocity
  double tangential_velocity = 0.0;                   ///< v_t = tᵀ(ṙ_{C_J} − ṙ_{C_B}) [m/s]
  /// tᵀė [m/s]: the centres' relative velocity along the tangent, v_t without the spin terms
  /// R_J θ̇_i − R_B θ̇_j. Muvengei et al. write their v_T so (eqs. 14–17, the "contact points"
  /// on the line of centres); it is not the surfaces' slip: a journal spinning in place
  /// against the bearing slides at v_t while tᵀė = 0 (RigidContact::centres_slip).
  double centres_sliding_velocity = 0.0;
  Eigen::Vector2d normal = Eigen::Vector2d::Zero();   ///< n = e/|e| (see the centred case)
  Eigen::Vector2d tangent = Eigen::Vector2d::Zero();  ///< t = S n
  Eigen::Vector2d journal_contact_point = Eigen::Vector2d::Zero();  ///< C_J = r_J + R_J n [m]
  Eigen::Vector2d bearing_contact_point = Eigen::Vector2d::Zero();  ///< C_B = r_B + R_B n [m]
  bool centred = false;  ///< |e| ≤ 1e-12 c: n was chosen, not computed
  /// Row 0: J_n = ∂g/∂q (g = −δ), row 1: J_t; columns (x_i, y_i, θ_i, x_j, y_j, θ_j).
  Eigen::Matrix<double, 2, 6> jacobian = Eigen::Matrix<double, 2, 6>::Zero();
  /// J̇ q̇ [m/s²], the rows' time derivatives along the motion applied to q̇.
  Eigen::Vector2d jdot_qdot = Eigen::Vector2d::Zero();

  double gap() const { return -penetration; }           ///< g = c − |e| [m]
  double gapRate() const { return -penetration_rate; }  ///< ġ = J_n q̇ [m/s]
  /// World force on the journal (body i) at C_J for (Fₙ, Fₜ) [N]: −Fₙ n + Fₜ t.
  Eigen::Vector2d forceOnJournal(double fn, double ft) const { return -fn * normal + ft * tangent; }
};

/// Journal on body i (q_i, q̇_i) in the bearing of body j (q_j, q̇_j). For a journal or a
/// bearing fixed in the ground (review §5: bearing in the ground; thesis §4.2: journal in the
/// ground) pass q = q̇ = 0 for the ground, whose points are then world points, and keep the
/// other body's three Jacobian columns.
/// Throws std::invalid_argument if `joint` is invalid.
JournalBearingKinematics journalBearingKinematics(const JournalBearingJoint& joint,
                                                  const Eigen::Vector3d& q_i,
                                                  const Eigen::Vector3d& qdot_i,
                                                  const Eigen::Vector3d& q_j,
                                                  const Eigen::Vector3d& qdot_j);

}  // namespace stickslip::dynamics
